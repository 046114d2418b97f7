// parallel.ts in a bundle that stands alone (dist/mcp.js: esbuild.mjs swaps it in): no worker
// script ships beside it in the npm package, and the .vsix has no room for the code, so its
// lists are read on its own thread.
import type { DetectOptions } from './types';
import type { WorkerRun } from './parallel';

export function workerCount(): number {
  return 0;
}

export function tallyInWorkers(
  _text: string,
  _cuts: readonly number[],
  _opts: DetectOptions,
  _count: number,
  _run: WorkerRun,
): Promise<boolean> {
  return Promise.resolve(false);
}
