/**
 * The runner's exit codes, documented in the README ("Run hunts in CI"). When a run has more
 * than one outcome the worst wins: usage (2), then the service (4), then not scanned (3), then
 * new findings (1). A run never exits 0 after an error.
 */
export const EXIT = {
  /** Nothing new. */
  ok: 0,
  /** New findings (not baselined, or baselined with an expired entry). */
  found: 1,
  /** Usage or configuration: a malformed hunt (its file and line), a bad flag, a bad key. */
  usage: 2,
  /** Not scanned: budget or cap reached, quota exhausted, 402 or 403, a hunt the gate refused. */
  notScanned: 3,
  /** The service or the network failed. */
  failed: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
