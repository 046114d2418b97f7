/**
 * Stands in for src/core/detect/runsWasm.ts inside the extension bundle (the
 * `odin-lazy-run-finder` plugin of esbuild.mjs): the detection scanner's WebAssembly run finder
 * is 18 KB of base64 that only a large scan needs, so it lives in its own bundle, dist/runs.js,
 * and is read on the first large scan instead of at activation. The unit tests and the pure
 * core use the real module directly.
 */
import * as path from 'path';

export function runsWasm(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(path.join(__dirname, 'runs.js')) as typeof import('../../core/detect/runsWasm')).runsWasm();
}
