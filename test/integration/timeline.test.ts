/**
 * A host's timeline in the editor from committed snapshots: snapshot the example hunts with
 * the runner against the emulator, commit, move the emulator to its next dated state, snapshot
 * again, commit; `odin-hunt diff HEAD~1 HEAD` prints the changes, and "Show Host Timeline"
 * shows the same changes for a host that changed, in the same order, dated by the commit.
 */
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TimelineSummary } from '../../src/extension/hunts/history';
import { main } from '../../src/hunt/cli';
import type { HostChange } from '../../src/hunt/diff';
import { emulatorAdmin, testEnv } from './index';

const EXAMPLES = path.resolve(__dirname, '../../../examples/hunts');

function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return folder.uri.fsPath;
}

/** Runs `odin-hunt` in-process (the runner's own entry point) in `cwd`. */
async function huntCli(argv: string[], cwd: string): Promise<string> {
  let out = '';
  let err = '';
  const code = await main(
    argv,
    {
      env: { ODIN_API_KEY: testEnv.apiKey, ODIN_API_URL: testEnv.emulatorUrl },
      cwd,
      out: (t) => (out += t),
      err: (t) => (err += t),
    },
    new AbortController().signal,
  );
  assert.strictEqual(code, 0, `odin-hunt ${argv.join(' ')}: ${err}`);
  return out;
}

const gitIn = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

describe('host timeline from committed snapshots', function () {
  this.timeout(120_000);
  if (testEnv.run === 'restricted') return;
  let dir = '';

  before(() => {
    dir = path.join(workspaceDir(), 'timeline-it');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.cpSync(EXAMPLES, path.join(dir, 'hunts'), { recursive: true });
    gitIn(dir, 'init', '-q');
    gitIn(dir, 'config', 'user.email', 'timeline@example.test');
    gitIn(dir, 'config', 'user.name', 'Timeline Test');
  });

  after(async () => {
    await emulatorAdmin('POST', 'state', { state: 0 });
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('no committed snapshots: a clear message, no timeline', async () => {
    const t = (await vscode.commands.executeCommand('odin.showHostTimeline', {
      ip: '192.0.2.1',
      dir: path.join(dir, 'snapshots'),
    })) as TimelineSummary;
    assert.deepStrictEqual(t.entries, []);
    assert.match(t.message ?? '', /no committed snapshots/);
  });

  it('snapshot, next state, snapshot: the timeline shows what `diff` prints, in order', async () => {
    await emulatorAdmin('POST', 'state', { state: 0 });
    await huntCli(['snapshot', 'hunts', '--out', 'snapshots'], dir);
    gitIn(dir, 'add', '-A');
    gitIn(dir, 'commit', '-qm', 'state 0');
    const first = gitIn(dir, 'rev-parse', 'HEAD');
    await emulatorAdmin('POST', 'state', { state: 1 });
    await huntCli(['snapshot', 'hunts', '--out', 'snapshots'], dir);
    gitIn(dir, 'add', '-A');
    gitIn(dir, 'commit', '-qm', 'state 1');
    const second = gitIn(dir, 'rev-parse', 'HEAD');
    const date = gitIn(dir, 'show', '-s', '--format=%cI', 'HEAD');

    const changes = JSON.parse(
      await huntCli(['diff', 'HEAD~1', 'HEAD', '--dir', 'snapshots', '--json'], dir),
    ) as HostChange[];
    const text = await huntCli(['diff', 'HEAD~1', 'HEAD', '--dir', 'snapshots'], dir);
    const host = changes.find((c) => c.status === 'changed') ?? changes[0];
    assert.ok(host, `the next state changes a host the hunts see:\n${text}`);
    // The diff's block for this host, without its header line.
    const blocks = text.split(/\n(?=\S)/);
    const block = blocks.find((b) => b.split('\n')[0].split(' ')[0] === host.ip) ?? '';
    const expected = block
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
    assert.ok(expected.length > 0, block);

    const t = (await vscode.commands.executeCommand('odin.showHostTimeline', {
      ip: host.ip,
      dir: path.join(dir, 'snapshots'),
    })) as TimelineSummary;
    assert.strictEqual(t.message, undefined);
    const last = t.entries[t.entries.length - 1];
    assert.strictEqual(last.hash, second);
    assert.strictEqual(last.date, date);
    assert.strictEqual(last.status, host.status);
    assert.deepStrictEqual(last.lines, expected);
    if (host.status === 'changed') {
      // It was there before: its first sighting is the first commit.
      assert.strictEqual(t.entries.length, 2);
      assert.strictEqual(t.entries[0].hash, first);
      assert.strictEqual(t.entries[0].status, 'new');
    }
  });

  it('a folder outside git: a clear message, no crash', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-timeline-'));
    fs.mkdirSync(path.join(outside, 'snapshots'));
    fs.writeFileSync(path.join(outside, 'snapshots', 'hosts.jsonl'), '');
    try {
      const t = (await vscode.commands.executeCommand('odin.showHostTimeline', {
        ip: '192.0.2.1',
        dir: path.join(outside, 'snapshots'),
      })) as TimelineSummary;
      assert.deepStrictEqual(t.entries, []);
      assert.match(t.message ?? '', /not in a git repository/);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
