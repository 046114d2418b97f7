/**
 * The GitHub Action as GitHub runs it: `node dist/ci/action.js` with the environment a runner
 * sets (INPUT_* variables, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE, RUNNER_TEMP),
 * reading the workflow commands it prints on stdout; against the emulator on 127.0.0.1.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { ACTION, runNode, scratch } from './support';

const KEY = 'odin-hunt-action-key-3c8a1f';

/** `$GITHUB_OUTPUT` in its `name<<DELIMITER` form, as the runner reads it. */
function outputs(file: string): Map<string, string> {
  const m = new Map<string, string>();
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const h = /^([\w-]+)<<(.+)$/.exec(lines[i]);
    if (!h) continue;
    const value: string[] = [];
    while (lines[++i] !== h[2]) value.push(lines[i]);
    m.set(h[1], value.join('\n'));
  }
  return m;
}

/** The workflow commands a runner would act on: not those between stop-commands and its token. */
function commands(stdout: string): string[] {
  const out: string[] = [];
  let stopped: string | undefined;
  for (const line of stdout.split('\n')) {
    if (stopped) {
      if (line === `::${stopped}::`) stopped = undefined;
      continue;
    }
    const stop = /^::stop-commands::(.+)$/.exec(line);
    if (stop) stopped = stop[1];
    else if (line.startsWith('::')) out.push(line);
  }
  return out;
}

void describe('the GitHub Action (dist/ci/action.js) with the environment GitHub sets', () => {
  let emu: Emulator;
  before(async () => {
    assert.ok(fs.existsSync(ACTION), 'dist/ci/action.js is built by esbuild before the unit tests');
    emu = await startEmulator({ hosts: 5000, apiKey: KEY });
  });
  after(async () => {
    await emu?.close();
  });

  function env(dir: string, inputs: Record<string, string>): NodeJS.ProcessEnv {
    const tmp = path.join(dir, 'runner-temp');
    fs.mkdirSync(tmp, { recursive: true });
    fs.writeFileSync(path.join(dir, 'output.txt'), '');
    fs.writeFileSync(path.join(dir, 'summary.md'), '');
    return {
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: dir,
      RUNNER_TEMP: tmp,
      GITHUB_OUTPUT: path.join(dir, 'output.txt'),
      GITHUB_STEP_SUMMARY: path.join(dir, 'summary.md'),
      ODIN_API_KEY: KEY,
      'INPUT_API-URL': emu.url,
      INPUT_PATHS: 'hunts',
      INPUT_BUDGET: '',
      INPUT_BASELINE: '',
      'INPUT_FAIL-ON': 'new',
      INPUT_SARIF: '',
      ...inputs,
    };
  }

  void it('writes the summary, at most 10 annotations on the hunts’ lines then one notice, and the SARIF output', async () => {
    const dir = scratch();
    const r = await runNode(ACTION, [], env(dir, {}), dir);
    assert.equal(r.code, 1, r.stdout);
    const cmds = commands(r.stdout);
    const notes = cmds.filter((c) => /^::(error|warning) file=/.test(c));
    assert.equal(notes.length, 10, cmds.join('\n'));
    for (const n of notes)
      assert.match(
        n,
        /^::(error|warning) file=hunts\/(exposure|storage)\.odinq,line=\d+,title=ODIN hunt%3A /,
      );
    assert.equal(cmds.filter((c) => c.startsWith('::notice::')).length, 1);
    assert.match(cmds.find((c) => c.startsWith('::notice::')) ?? '', /more new findings/);
    const out = outputs(path.join(dir, 'output.txt'));
    const sarif = out.get('sarif') ?? '';
    assert.equal(sarif, path.join(dir, 'runner-temp', 'odin-hunt.sarif'));
    assert.equal((JSON.parse(fs.readFileSync(sarif, 'utf8')) as { version: string }).version, '2.1.0');
    assert.equal(out.get('exit-code'), '1');
    assert.ok(Number(out.get('new-findings')) > 10);
    assert.match(fs.readFileSync(path.join(dir, 'summary.md'), 'utf8'), /^## ODIN hunts/m);
    assert.ok(!r.stdout.includes(KEY) && !r.stderr.includes(KEY), 'the key is in no output');
    assert.ok(!fs.readFileSync(sarif, 'utf8').includes(KEY));
  });

  void it('fail-on: never passes with findings; fail-on: error still fails when not everything was scanned', async () => {
    const dir = scratch();
    const never = await runNode(ACTION, [], env(dir, { 'INPUT_FAIL-ON': 'never' }), dir);
    assert.equal(never.code, 0, never.stdout);
    const budget = await runNode(ACTION, [], env(dir, { 'INPUT_FAIL-ON': 'error', INPUT_BUDGET: '1' }), dir);
    assert.equal(budget.code, 3, budget.stdout);
    assert.equal(outputs(path.join(dir, 'output.txt')).get('exit-code'), '3');
    assert.match(fs.readFileSync(path.join(dir, 'summary.md'), 'utf8'), /### Not scanned/);
    const bad = await runNode(ACTION, [], env(dir, { 'INPUT_FAIL-ON': 'sometimes' }), dir);
    assert.equal(bad.code, 2);
  });

  void it('the key from the api-key input (a secret) is used, and the runner’s own text cannot issue workflow commands', async () => {
    const dir = scratch();
    // A hunt name that would be a workflow command if printed bare.
    fs.writeFileSync(
      path.join(dir, 'hunts', 'odd.odinq'),
      '@hosts ::set-env name=X::y\nservices.port:(22 OR\n',
    );
    const r = await runNode(ACTION, [], env(dir, { ODIN_API_KEY: '', 'INPUT_API-KEY': KEY }), dir);
    assert.equal(r.code, 2);
    assert.ok(r.stdout.includes('::set-env'), 'the runner named the hunt');
    assert.ok(!commands(r.stdout).some((c) => c.startsWith('::set-env')), 'but under stop-commands');
    fs.rmSync(path.join(dir, 'hunts', 'odd.odinq'));
    const ok = await runNode(
      ACTION,
      [],
      env(dir, { ODIN_API_KEY: '', 'INPUT_API-KEY': KEY, 'INPUT_FAIL-ON': 'never' }),
      dir,
    );
    assert.equal(ok.code, 0, ok.stdout);
    assert.ok(!ok.stdout.includes(KEY));
  });
});
