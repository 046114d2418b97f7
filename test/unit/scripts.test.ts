/**
 * The scripts a developer runs by hand (scripts/args.mjs): `--help` prints the script's header
 * and runs nothing; a flag it does not take stops it with exit 2 before anything runs.
 * `npm run emulator` reads its own flags (src/emulator/cli.ts) after building its bundle.
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
  ['test-desktop.mjs', '`npm run test:desktop`'],
  ['package.mjs', '`npm run package`'],
  ['publish-check.mjs', '`npm run package:check`'],
  ['package-npm.mjs', '`npm run hunt:pack` / `npm run mcp:pack`'],
  // Its first line is `#!/usr/bin/env node`: the header is the comment after it.
  ['l10n.mjs', 'The English message bundle of the code'],
  ['detect-figures.mjs', 'What the detector finds'],
  ['profile-activation.mjs', "CPU profile of the extension's activation"],
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

test('package-npm.mjs without a package name stops with exit 2 and names the packages', () => {
  for (const args of [[], ['npm']]) {
    const r = run('package-npm.mjs', ...args);
    assert.equal(r.status, 2);
    assert.match(String(r.stderr), /name one package, hunt or mcp/);
  }
});

test('emulator.mjs --help prints the usage on stdout and exits 0; a flag it does not take exits 2', () => {
  const help = run('emulator.mjs', '--help');
  assert.equal(help.status, 0, String(help.stderr));
  assert.match(String(help.stdout), /^Usage: emulator \[--port <n>\]/m);
  const wrong = run('emulator.mjs', '--unti');
  assert.equal(wrong.status, 2);
  assert.match(String(wrong.stderr), /Unknown argument '--unti'/);
});

test('detect-figures: a sample file the baseline does not know is new, not an unexplained change', () => {
  // detect-figures.mjs is an ES module of the scripts: read in a child Node (this file is
  // compiled to CommonJS).
  const words = JSON.parse(
    String(
      spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(join(root, 'scripts', 'detect-figures.mjs'))});
           const f = (n) => ({ ipv4: n, ipv6: 0, cidr: 0, domain: 0, defanged: 0, sha256: String(n) });
           const before = { 'a.log:text': f(1), 'b.log:text': f(2), [Object.keys(m.FIXES)[0]]: f(3) };
           const now = { 'a.log:text': f(1), 'b.log:text': f(5), [Object.keys(m.FIXES)[0]]: f(4), 'new.log:text': f(9) };
           console.log(JSON.stringify(Object.fromEntries(m.compare(now, before).map((r) => [r.key, m.verdict(r)]))));`,
        ],
        { encoding: 'utf8' },
      ).stdout,
    ),
  ) as Record<string, string>;
  assert.deepEqual(Object.values(words), ['same', 'DIFF', 'fixed', 'new']);
});
