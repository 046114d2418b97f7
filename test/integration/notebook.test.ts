/**
 * Investigation notebooks in the real VS Code host: the example notebook of the sample
 * workspace opens with the ODIN controller, Run All runs every query cell against an emulator
 * big enough for a 10,000-host cell, and: each query cell's count was shown before its pages
 * were sent and its cost after; the saved notebook holds no result rows and stays small; the
 * case record has one entry per cell with hashes and credits; the 10,000-host cell renders at
 * most 1,000 rows; a headless run of the same notebook hashes every cell alike.
 */
import * as assert from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { headlessSession, readRecord, runNotebookHeadless, type CaseRecord } from '../../src/core/notebook';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import type { ExportedCase } from '../../src/extension/testApi';
import { NOTEBOOK_RESULT_MIME as RESULT_MIME } from '../../src/common/notebookOutput';
import { getTestApi, testEnv, waitFor } from './index';
import { setUser } from './support';

function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return folder.uri.fsPath;
}

const hashes = (r: CaseRecord | undefined): Array<string | undefined> =>
  (r?.cells ?? []).map((c) => (c.kind === 'query' ? c.sha256 : 'markdown'));

describe('investigation notebooks (.odinnb)', function () {
  this.timeout(600_000);
  let big: Emulator | undefined;
  const dir = () => path.join(workspaceDir(), 'notebook-it');
  const cfg = () => vscode.workspace.getConfiguration('odin');

  before(async function () {
    if (!testEnv.emulatorUrl || testEnv.run === 'restricted' || !vscode.workspace.isTrusted) this.skip();
    const api = await getTestApi();
    await waitFor(() => api.key.has(), 10_000, 'the API key');
    // A dataset with more than the service's 10,000-host cap, under the suite's key.
    big = await startEmulator({ port: 0, seed: 1, hosts: 10_500, apiKey: testEnv.apiKey });
    await setUser('rateLimit.requestsPerMinute', 100_000);
    await cfg().update('apiBaseUrl', big.url, vscode.ConfigurationTarget.Global);
    await waitFor(
      () => api.connection.baseUrl().startsWith(big!.url),
      10_000,
      'the client on the big emulator',
    );
    api.lookups().cache.clear();
    fs.mkdirSync(dir(), { recursive: true });
    fs.copyFileSync(
      path.join(workspaceDir(), 'investigation.odinnb'),
      path.join(dir(), 'investigation.odinnb'),
    );
  });

  after(async () => {
    if (!big) return;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await cfg().update('apiBaseUrl', testEnv.emulatorUrl, vscode.ConfigurationTarget.Global);
    await setUser('rateLimit.requestsPerMinute', undefined);
    (await getTestApi()).lookups().cache.clear();
    fs.rmSync(dir(), { recursive: true, force: true });
    await big.close();
  });

  it('Run All: count before spend, cost after, a small notebook, a full record, at most 1,000 rows shown', async () => {
    const api = await getTestApi();
    const file = path.join(dir(), 'investigation.odinnb');
    const nb = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
    assert.strictEqual(nb.notebookType, 'odin-notebook');
    await vscode.window.showNotebookDocument(nb);
    const feature = { events: api.notebook() };
    const queryCells = nb.getCells().filter((c) => c.kind === vscode.NotebookCellKind.Code);
    assert.ok(queryCells.length >= 4, 'the example has query cells');
    const started = Date.now();
    await vscode.commands.executeCommand('notebook.execute');
    await waitFor(
      () => queryCells.every((c) => c.executionSummary?.success !== undefined),
      540_000,
      'every query cell ran',
    );
    const ms = Date.now() - started;
    for (const c of queryCells) {
      const n = c.index + 1;
      assert.strictEqual(c.executionSummary?.success, true, `cell ${n} ran`);
      const mine = feature.events.filter((e) => e.cell === n && e.notebook === nb.uri.toString());
      const est = mine.find((e) => e.phase === 'estimate');
      const done = mine.find((e) => e.phase === 'done');
      assert.ok(est && done, `cell ${n}: a count and a cost were shown`);
      assert.ok(mine.indexOf(est) < mine.indexOf(done), `cell ${n}: the count came first`);
      assert.match(est.text, /≈ [\d,]+ hosts · ≈ \d+ credits/);
      assert.match(done.text, /\d+ credits/);
      const rec = readRecord(file)?.cells.find((x) => x.cell === n);
      assert.ok(rec?.kind === 'query' && rec.estimate, `cell ${n} recorded`);
      // Every page was sent after the count was on screen, and no more than it promised.
      // Credits charged by the ledger: the credits reads (free) are requests too, and the
      // credits item's own refresh may land while a cell runs.
      assert.strictEqual(
        done.creditsSpent - est.creditsSpent,
        rec.spent,
        `cell ${n}: pages sent after the count`,
      );
      assert.ok((rec.spent ?? 0) <= rec.estimate.credits, `cell ${n}: within its count`);
    }
    const record = readRecord(file);
    assert.ok(record);
    assert.strictEqual(record.cells.length, nb.cellCount, 'one entry per cell');
    for (const c of record.cells) {
      if (c.kind !== 'query') continue;
      assert.match(c.sha256 ?? '', /^[0-9a-f]{64}$/, `cell ${c.cell} hash`);
      assert.strictEqual(typeof c.creditsBefore, 'number', `cell ${c.cell} credits before`);
      assert.strictEqual(typeof c.creditsAfter, 'number', `cell ${c.cell} credits after`);
      assert.ok(c.query && !c.query.includes('{{'), `cell ${c.cell}: the query after substitution`);
    }
    const bigCell = record.cells[record.cells.length - 1];
    assert.ok(bigCell.kind === 'query');
    assert.strictEqual(bigCell.rowCount, 10_000);
    const out = queryCells[queryCells.length - 1].outputs[0];
    const payload = JSON.parse(
      new TextDecoder().decode(out.items.find((i) => i.mime === RESULT_MIME)!.data),
    ) as { rows: unknown[] };
    assert.ok(payload.rows.length <= 1000, `${payload.rows.length} rows rendered`);
    const md = fs.readFileSync(path.join(dir(), '.odin', 'investigation.record.md'), 'utf8');
    assert.match(md, /\| ip \| ports \|/, 'the Markdown twin of the record has the tables');

    assert.ok(await nb.save(), 'saved');
    const saved = fs.readFileSync(file, 'utf8');
    const size = Buffer.byteLength(saved);
    assert.ok(size < 100_000, `the notebook is ${size} bytes`);
    assert.ok(
      !saved.includes('"rows"') && !saved.includes('"firstRows"') && !saved.includes('"sha256"'),
      `no result rows in the notebook: ${saved.slice(0, 3000)}`,
    );
    for (const row of bigCell.firstRows ?? [])
      if (!Object.values(record.params).includes(String(row.ip)))
        assert.ok(!saved.includes(String(row.ip)), 'no result IP in the notebook');
    assert.ok(
      !saved.includes(testEnv.apiKey) &&
        !fs
          .readFileSync(path.join(dir(), '.odin', 'investigation.record.json'), 'utf8')
          .includes(testEnv.apiKey),
      'no key',
    );
    console.log(
      `      notebook run: ${ms} ms, saved notebook ${size} bytes, ${record.cells.length} record entries`,
    );

    // The headless runner's path over the same data gives the same per-cell hashes.
    const editorHashes = hashes(record);
    const headless = await runNotebookHeadless(
      file,
      {},
      headlessSession({ baseUrl: big!.url, apiKey: () => testEnv.apiKey }),
    );
    assert.ok(headless.ok, headless.message);
    assert.deepStrictEqual(hashes(headless.record), editorHashes);
  });

  it('each output has a Markdown twin; "Open all N rows" opens a cell\'s full result; "Export Case" writes the record, STIX and MISP', async () => {
    const file = path.join(dir(), 'investigation.odinnb');
    const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.fsPath === file);
    assert.ok(nb, 'the notebook the run above opened');
    const record = readRecord(file)!;
    const queryCells = nb.getCells().filter((c) => c.kind === vscode.NotebookCellKind.Code);
    for (const c of queryCells) {
      const mimes = c.outputs[0]?.items.map((i) => i.mime);
      // The rich result first (drawn by the renderer), Markdown beside it ("Change Presentation").
      assert.deepStrictEqual(mimes, [RESULT_MIME, 'text/markdown'], `cell ${c.index + 1}`);
      const md = new TextDecoder().decode(c.outputs[0].items[1].data);
      const rec = record.cells.find((x) => x.cell === c.index + 1);
      assert.ok(rec?.kind === 'query');
      assert.ok(md.includes(`${(rec.rowCount ?? 0).toLocaleString('en-US')} rows`), md.slice(0, 300));
    }
    // What was asked of the service, but the credits item's own refresh (a free read that
    // may land at any time).
    const asked = (): string[] =>
      big!.requests.filter((r) => r.endpoint !== 'credits.usage').map((r) => `${r.method} ${r.path}`);
    const sent = asked().length;

    // The cell status bar item's command, with the argument the item gives it: the cell. A
    // small result (read back as a document below) and the 10,000-host one (hundreds of MB).
    const recOf = (c: vscode.NotebookCell) => {
      const rec = record.cells.find((x) => x.cell === c.index + 1);
      assert.ok(rec?.kind === 'query');
      return rec;
    };
    const small = queryCells.find((c) => recOf(c).sidecar && (recOf(c).rowCount ?? 0) <= 1000);
    assert.ok(small, 'a query cell with a small full result');
    const bigCell = queryCells[queryCells.length - 1];
    const sidecarOf = (c: vscode.NotebookCell): string =>
      fs.realpathSync(path.join(dir(), '.odin', path.basename(recOf(c).sidecar ?? '')));
    for (const cell of [small, bigCell]) {
      const opened = await vscode.commands.executeCommand<{ file: string; rows: number } | undefined>(
        'odin.openAllNotebookRows',
        cell,
      );
      assert.deepStrictEqual(
        opened,
        { file: sidecarOf(cell), rows: recOf(cell).rowCount },
        `cell ${cell.index + 1}`,
      );
      await waitFor(
        () => {
          const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
          return input instanceof vscode.TabInputText && input.uri.fsPath === sidecarOf(cell);
        },
        10_000,
        `cell ${cell.index + 1}: its full result open in an editor`,
      );
    }
    // The small one as a document: every row, and the bytes the record's SHA-256 covers.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(sidecarOf(small)));
    assert.strictEqual(doc.getText().split('\n').filter(Boolean).length, recOf(small).rowCount);
    assert.strictEqual(createHash('sha256').update(doc.getText()).digest('hex'), recOf(small).sha256);

    // The notebook toolbar's command, with the argument the toolbar gives it.
    await vscode.window.showNotebookDocument(nb);
    const exported = await vscode.commands.executeCommand<ExportedCase | undefined>(
      'odin.exportNotebookCase',
      {
        ui: true,
        notebookEditor: { notebookUri: nb.uri },
        source: 'notebookToolbar',
      },
    );
    assert.ok(exported, 'exported');
    assert.strictEqual(exported.dir, path.join(dir(), '.odin', 'investigation.export'));
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(exported.files.record, 'utf8')), record);
    const bundle = JSON.parse(fs.readFileSync(exported.files.stix, 'utf8')) as {
      type: string;
      objects: Array<{ type: string; value?: string }>;
    };
    assert.strictEqual(bundle.type, 'bundle');
    const observed = bundle.objects.filter((o) => o.type === 'ipv4-addr' || o.type === 'ipv6-addr');
    assert.strictEqual(observed.length, exported.hosts);
    assert.ok(exported.hosts >= 10_000, `${exported.hosts} hosts`);
    const misp = JSON.parse(fs.readFileSync(exported.files.misp, 'utf8')) as {
      Event: { Attribute: Array<{ type: string }> };
    };
    assert.strictEqual(misp.Event.Attribute.filter((a) => a.type === 'ip-dst').length, exported.hosts);
    assert.deepStrictEqual(asked().slice(sent), [], 'opening and exporting sent nothing');
  });
});
