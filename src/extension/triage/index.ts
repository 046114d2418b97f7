// The triage feature bundle (dist/triage.js), loaded on the first triage command
// (./lazy.ts registers the commands at activation without loading it).
import type { CommandMap } from '../shared/commands';
import type { Ctx } from '../ctx';
import { TriageState, triageCommands } from './commands';

export interface TriageFeature {
  state: TriageState;
  commands: CommandMap;
}

export function createTriage(ctx: Ctx): TriageFeature {
  const state = new TriageState();
  ctx.subscriptions.add(state);
  return { state, commands: triageCommands(ctx, state) };
}
