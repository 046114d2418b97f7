/**
 * The `odin-hunt` executable (dist/ci/hunt.js, packages/odin-hunt): runs the command line of
 * cli.ts with this process's arguments and environment. Ctrl-C or SIGTERM stop sending and
 * still write what was found.
 */
import { main } from './cli';
import { EXIT } from './exit';

const controller = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => controller.abort());
main(
  process.argv.slice(2),
  {
    env: process.env,
    cwd: process.cwd(),
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
  },
  controller.signal,
).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = EXIT.failed;
  },
);
