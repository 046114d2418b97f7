/** The triage commands (registered at activation by ./lazy.ts, handled by dist/triage.js). */
export const TRIAGE_COMMANDS = [
  'odin.triageFile',
  'odin.triageFolder',
  'odin.triage',
  'odin.triageReport',
  'odin.showTriage',
] as const;
export type TriageCommandId = (typeof TRIAGE_COMMANDS)[number];
