/**
 * A host's timeline in the editor from committed snapshots: snapshot the example hunts with
 * the runner against the emulator, commit, move the emulator to its next dated state, snapshot
 * again, commit; `odin-hunt diff HEAD~1 HEAD` prints the changes, and "Show Host Timeline"
 * shows the same changes for a host that changed, in the same order, dated by the commit.
 * "Baseline…" on a hunt writes an entry `odin-hunt run --baseline` honours.
 */
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { TimelineSummary } from '../../src/extension/testApi';
import { baselineText, parseBaseline, type BaselineEntry } from '../../src/hunt/baseline';
import { main } from '../../src/hunt/cli';
import { fingerprintOf } from '../../src/hunt/findings';
import type { HostChange } from '../../src/hunt/diff';
import { emulatorAdmin, testEnv, within } from './index';
import { promptMark, promptSince, WAITS_FOR_USER } from './prompts';

const EXAMPLES = path.resolve(__dirname, '../../../examples/hunts');

function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return folder.uri.fsPath;
}

/** Runs `odin-hunt` in-process (the runner's own entry point) in `cwd`. */
async function huntCli(argv: string[], cwd: string, expect = 0): Promise<string> {
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
  assert.strictEqual(code, expect, `odin-hunt ${argv.join(' ')}: ${err}`);
  return out;
}

const gitIn = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

describe('host timeline from committed snapshots', function () {
  this.timeout(120_000);
  if (testEnv.run === 'restricted') {
    it('Restricted Mode: no git is run, no baseline written; each says why', async () => {
      const t = (await vscode.commands.executeCommand(
        'odin.showHostTimeline',
        '192.0.2.1',
      )) as TimelineSummary;
      assert.match(t.message ?? '', /trusted workspace/);
      const b = (await vscode.commands.executeCommand('odin.addFindingToBaseline')) as { message?: string };
      assert.match(b.message ?? '', /trusted workspace/);
    });
    return;
  }
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

  it('Baseline… on a hunt: the CodeLens arguments and the prompts’ answers write an entry odin-hunt honours', async () => {
    const row = JSON.parse(
      fs.readFileSync(path.join(dir, 'snapshots', 'hosts.jsonl'), 'utf8').split('\n')[0],
    ) as { ip: string; hunts: string[] };
    const [file, key] = [
      row.hunts[0].slice(0, row.hunts[0].indexOf('#')),
      row.hunts[0].slice(row.hunts[0].indexOf('#') + 1),
    ];
    const other: BaselineEntry = {
      fingerprint: 'f'.repeat(64),
      file: 'hunts/other.odinq',
      hunt: 'Kept',
      subject: '192.0.2.7',
      reason: 'an entry already there',
      expires: '2099-01-01',
      addedBy: 'someone',
    };
    fs.writeFileSync(path.join(dir, 'odin-baseline.json'), baselineText({ version: 1, entries: [other] }));
    const doc = await vscode.workspace.openTextDocument(path.join(dir, file));
    await vscode.window.showTextDocument(doc);
    const lenses =
      (await vscode.commands.executeCommand<vscode.CodeLens[]>(
        'vscode.executeCodeLensProvider',
        doc.uri,
        100,
      )) ?? [];
    const lens = lenses.find(
      (l) =>
        l.command?.command === 'odin.addFindingToBaseline' &&
        doc.lineAt(l.range.start.line).text.includes(key),
    );
    assert.ok(
      lens?.command?.arguments,
      `a Baseline… lens on "${key}": ${lenses.map((l) => l.command?.title).join(' | ')}`,
    );

    // Cancelled at the first prompt: nothing is written.
    const mark = promptMark();
    const cancelled = Promise.resolve(
      vscode.commands.executeCommand('odin.addFindingToBaseline', ...lens.command.arguments),
    );
    const prompt = await within(promptSince(mark, cancelled, WAITS_FOR_USER), 15_000, 'the finding prompt');
    assert.strictEqual(prompt?.kind, 'quickPick');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.deepStrictEqual(await within(cancelled, 15_000, 'the cancelled command'), {});
    assert.strictEqual(
      parseBaseline(fs.readFileSync(path.join(dir, 'odin-baseline.json'), 'utf8')).entries.length,
      1,
    );

    // Answered: the host, a reason, 90 days.
    const added = (await vscode.commands.executeCommand(
      'odin.addFindingToBaseline',
      ...lens.command.arguments,
      {
        subject: row.ip,
        reason: 'jump host, SEC-12',
        expires: 90,
      },
    )) as { entry?: BaselineEntry; message?: string };
    assert.strictEqual(added.message, undefined);
    const b = parseBaseline(fs.readFileSync(path.join(dir, 'odin-baseline.json'), 'utf8'));
    assert.strictEqual(b.entries.length, 2);
    assert.deepStrictEqual(
      b.entries.find((e) => e.fingerprint === other.fingerprint),
      other,
    );
    const entry = b.entries.find((e) => e.subject === row.ip);
    assert.deepStrictEqual(entry, {
      fingerprint: fingerprintOf(file, key, 'hosts', row.ip),
      file,
      hunt: key,
      subject: row.ip,
      reason: 'jump host, SEC-12',
      expires: new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10),
      addedBy: 'timeline@example.test',
    });

    // The runner reads the entry: the finding is baselined.
    await huntCli(
      ['run', file, '--baseline', 'odin-baseline.json', '--jsonl', 'run.jsonl', '--advisory'],
      dir,
    );
    const findings = fs
      .readFileSync(path.join(dir, 'run.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { subject: string; hunt: string; state: string });
    assert.strictEqual(findings.find((f) => f.subject === row.ip && f.hunt === key)?.state, 'baselined');
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
