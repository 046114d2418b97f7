/**
 * The scripts a developer runs by hand (scripts/args.mjs): `--help` prints the script's header
 * and runs nothing; a flag it does not take stops it with exit 2 before anything runs.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(__dirname, '..', '..', '..');
const run = (script: string, ...args: string[]): ReturnType<typeof spawnSync> =>
  spawnSync(process.execPath, [join(root, 'scripts', script), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
  });

for (const [script, opening] of [
  ['test-all.mjs', 'THE test command (`npm test`)'],
  ['bench.mjs', '`npm run bench`'],
  ['demo.mjs', '`npm run demo`'],
  ['test-quick.mjs', 'The quick loop for a developer'],
] as const) {
  test(`${script} --help prints its header and runs nothing`, () => {
    const r = run(script, '--help');
    assert.equal(r.status, 0, String(r.stderr));
    assert.ok(String(r.stdout).startsWith(opening), String(r.stdout).slice(0, 200));
    assert.doesNotMatch(String(r.stdout), /^\/\//m);
  });

  test(`${script} stops on a flag it does not take, and names it`, () => {
    const r = run(script, '--unti');
    assert.equal(r.status, 2);
    assert.match(String(r.stderr), /unknown --unti; it takes /);
    assert.equal(String(r.stdout), '');
  });
}
