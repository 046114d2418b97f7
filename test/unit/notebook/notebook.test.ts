/**
 * Investigation notebooks in plain Node against the API emulator: the file format keeps no
 * rows, placeholders cannot add operators, a query cell shows its count before it spends
 * and spends no more than that count promised (cancelled mid-page included), the gate and the
 * notebook's budget stop a cell before it sends, and two runs of one notebook by separate
 * sessions (the editor's and the headless runner's path) hash every cell alike.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  MAX_SHOWN_ROWS,
  NotebookRun,
  blankPlaceholders,
  canonicalJson,
  executeCell,
  headlessSession,
  parseNotebook,
  readRecord,
  recordPaths,
  runNotebookHeadless,
  serializeNotebook,
  substitute,
  type CellEstimate,
  type NotebookFile,
} from '../../../src/core/notebook';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { FIXTURE_HOSTS } from '../../../src/emulator/fixtures';

const searches = (emu: Emulator): number => emu.requests.filter((r) => r.endpoint === 'hosts.search').length;

function tmpNotebook(nb: NotebookFile): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-nb-'));
  const file = path.join(dir, 'case.odinnb');
  fs.writeFileSync(file, serializeNotebook(nb));
  return file;
}

const EXAMPLE: NotebookFile = {
  version: 1,
  params: { port: '22' },
  budget: 50,
  cells: [
    { kind: 'markdown', source: '# SSH exposure' },
    {
      kind: 'query',
      source: '@hosts SSH hosts size=50\nservices.port:{{port}} AND location.country_code:US',
    },
    { kind: 'query', source: '@hosts By country by=location.country_code\nservices.port:{{port}}' },
    { kind: 'query', source: '@hosts Same hosts\nip:{{cell2.hosts}}' },
  ],
};

describe('notebook file format', () => {
  it('round-trips cells, params and budget, and keeps a summary to one bounded line', () => {
    const nb = parseNotebook(
      serializeNotebook({ ...EXAMPLE, cells: [{ ...EXAMPLE.cells[1], summary: 'a\nb'.repeat(200) }] }),
    );
    assert.equal(nb.cells.length, 1);
    assert.ok(!nb.cells[0].summary?.includes('\n'));
    assert.ok((nb.cells[0].summary?.length ?? 0) <= 200);
    assert.deepEqual(parseNotebook(serializeNotebook(EXAMPLE)), EXAMPLE);
    assert.deepEqual(parseNotebook('').cells, []);
  });

  it('refuses what is not a notebook with a short reason', () => {
    assert.throws(() => parseNotebook('{'), /not JSON/);
    assert.throws(() => parseNotebook('{"version":2,"cells":[]}'), /version 2/);
    assert.throws(() => parseNotebook('{"version":1,"cells":[{"kind":"code","source":""}]}'), /Cell 1/);
    assert.throws(() => parseNotebook('{"version":1,"params":{"a b":"x"},"cells":[]}'), /Parameter "a b"/);
    assert.throws(() => parseNotebook('{"version":1,"budget":-1,"cells":[]}'), /budget/);
  });
});

describe('placeholders', () => {
  const facts = new Map([
    [2, { hosts: ['1.2.3.4', '2001:db8::1'], count: 2 }],
    [3, { values: ['NL'], count: 1 }],
  ]);
  it("replaces parameters and earlier cells' results as Lucene terms", () => {
    const r = substitute(
      'ip:{{cell2.hosts}} AND cc:{{cell3.values}} {{ x }} n={{cell2.count}}',
      { x: 'a OR b' },
      facts,
    );
    assert.ok(r.ok);
    assert.equal(r.text, 'ip:(1.2.3.4 OR 2001\\:db8\\:\\:1) AND cc:NL "a OR b" n=2');
  });
  it("are blanked to terms of the same length for the editor's checks", () => {
    assert.equal(blankPlaceholders('ip:{{cell2.hosts}} AND {{ip}}'), 'ip:xxxxxxxxxxxxxxx AND xxxxxx');
  });
  it('names the first placeholder it cannot fill', () => {
    assert.match((substitute('{{nope}}', {}, facts) as { message: string }).message, /"nope"/);
    assert.match((substitute('{{cell9.hosts}}', {}, facts) as { message: string }).message, /cell 9/);
    assert.match((substitute('{{cell3.hosts}}', {}, facts) as { message: string }).message, /found no hosts/);
    assert.match((substitute('{{ip}}', { ip: ' ' }, facts) as { message: string }).message, /empty/);
  });
});

describe('notebook cells against the emulator', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ port: 0, seed: 1 });
  });
  after(() => emu.close());

  const session = () => headlessSession({ baseUrl: emu.url, apiKey: () => emu.apiKey });

  it('shows the count before any page is sent, then spends no more than it promised', async () => {
    emu.clearLog();
    let seen: { est: CellEstimate; searchesThen: number } | undefined;
    const file = tmpNotebook(EXAMPLE);
    const run = new NotebookRun(session(), file, EXAMPLE.params, undefined, 'editor');
    const r = await run.query(2, EXAMPLE.cells[1].source, {
      onEstimate: (est) => (seen = { est, searchesThen: searches(emu) }),
    });
    assert.equal(r.status, 'ok', r.message);
    assert.ok(seen);
    assert.equal(seen.searchesThen, 0, 'the estimate came before any page');
    assert.equal(seen.est.credits, Math.ceil(seen.est.hosts / 50));
    assert.equal(r.spent, searches(emu));
    assert.ok(r.spent <= seen.est.credits);
    assert.equal(r.rowCount, seen.est.hosts);
    assert.equal(typeof r.creditsBefore, 'number');
    assert.equal(r.creditsBefore! - r.creditsAfter!, r.spent + 1, 'the pages and the count, nothing else');
    // The hash is the sidecar's bytes: anyone can check it.
    const side = fs.readFileSync(recordPaths(file).sidecar(2));
    assert.equal(createHash('sha256').update(side).digest('hex'), r.sha256);
    assert.equal(side.toString().trim().split('\n').length, r.rowCount);
  });

  it('an editor-path run and a headless run of the same notebook hash every cell alike', async () => {
    const file = tmpNotebook(EXAMPLE);
    const editor = new NotebookRun(session(), file, EXAMPLE.params, EXAMPLE.budget, 'editor');
    for (const [i, c] of EXAMPLE.cells.entries())
      if (c.kind === 'markdown') editor.markdown(i + 1);
      else {
        const r = await editor.query(i + 1, c.source);
        assert.equal(r.status, 'ok', r.message);
      }
    editor.save();
    const first = readRecord(file);
    const head = await runNotebookHeadless(file, {}, session());
    assert.ok(head.ok, head.message);
    assert.equal(head.record.cells.length, EXAMPLE.cells.length, 'one entry per cell');
    const hashes = (rec: typeof first) => rec?.cells.map((c) => ('sha256' in c ? c.sha256 : c.kind));
    assert.deepEqual(hashes(readRecord(file)), hashes(first));
    const cell4 = head.record.cells[3];
    assert.ok(cell4.kind === 'query' && cell4.query?.startsWith('ip:('), 'the query after substitution');
    const cell2 = head.record.cells[1];
    assert.ok(cell2.kind === 'query' && cell4.kind === 'query');
    assert.equal(cell4.rowCount, Math.min(cell2.rowCount ?? 0, 100), 'the hosts cell 2 found (at most 100)');
    const md = fs.readFileSync(recordPaths(file).record.replace(/\.json$/, '.md'), 'utf8');
    assert.match(md, /# SSH exposure/);
    assert.match(md, /\| value \| count \|/, 'the summary as a Markdown table');
    // The record holds no key; the notebook file holds no rows.
    assert.ok(!fs.readFileSync(recordPaths(file).record, 'utf8').includes(emu.apiKey));
    assert.ok(!fs.readFileSync(file, 'utf8').includes('"ip"'));
  });

  it('a --param override is used, and a private address in it is refused before anything is sent', async () => {
    const file = tmpNotebook({
      ...EXAMPLE,
      cells: [{ kind: 'query', source: '@hosts One host\nip:{{ip}}' }],
      params: {},
    });
    const ok = await runNotebookHeadless(file, { ip: FIXTURE_HOSTS.webServer }, session());
    assert.ok(ok.ok, ok.message);
    assert.equal((ok.record.cells[0] as { rowCount: number }).rowCount, 1);
    emu.clearLog();
    const refused = await runNotebookHeadless(file, { ip: '10.0.0.7' }, session());
    assert.equal(refused.ok, false);
    assert.match(refused.message ?? '', /10\.0\.0\.7/);
    assert.equal(emu.requests.length, 0, 'nothing sent');
  });

  it('a cell over the notebook budget is declined without a yes, after the count only', async () => {
    const file = tmpNotebook({ ...EXAMPLE, budget: 1 });
    emu.clearLog();
    const r = await runNotebookHeadless(file, {}, session());
    assert.equal(r.ok, false);
    assert.equal(r.record.cells[1].kind === 'query' && r.record.cells[1].status, 'declined');
    assert.equal(
      r.record.cells[2].kind === 'query' && r.record.cells[2].status,
      'notRun',
      'Run All stops at the first problem',
    );
    assert.equal(searches(emu), 0);
  });

  it('cancelling a cell mid-page spends no more than its count promised', async () => {
    const file = tmpNotebook(EXAMPLE);
    emu.clearLog();
    const ac = new AbortController();
    let est: CellEstimate | undefined;
    const r = await executeCell(session(), {
      index: 1,
      source: '@hosts All size=10\n*',
      params: {},
      facts: new Map(),
      signal: ac.signal,
      onEstimate: (e) => (est = e),
      sink: () => ({ write: () => ac.abort(), close: () => undefined }),
    });
    void file;
    assert.equal(r.status, 'cancelled');
    assert.ok(est);
    assert.ok(r.spent >= 1 && r.spent <= est.credits);
    assert.ok(searches(emu) <= r.spent);
  });
});

describe('a 10,000-host cell', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ port: 0, seed: 1, hosts: 10_500 });
  });
  after(() => emu.close());

  it('fetches the capped 10,000 rows into the sidecar and shows at most 1,000', async () => {
    const file = tmpNotebook({
      version: 1,
      params: {},
      cells: [{ kind: 'query', source: '@hosts Everything\n*' }],
    });
    const started = process.memoryUsage().heapUsed;
    const r = await runNotebookHeadless(
      file,
      {},
      headlessSession({ baseUrl: emu.url, apiKey: () => emu.apiKey }),
    );
    assert.ok(r.ok, r.message);
    const cell = r.record.cells[0];
    assert.ok(cell.kind === 'query');
    assert.equal(cell.rowCount, 10_000);
    assert.equal(cell.spent, 100);
    assert.ok((cell.firstRows?.length ?? 0) <= 20);
    assert.ok(fs.statSync(recordPaths(file).record).size < 100_000, 'the record stays small');
    assert.ok(MAX_SHOWN_ROWS === 1000);
    void started;
    assert.equal(canonicalJson({ b: 1, a: { d: undefined, c: [2, 1] } }), '{"a":{"c":[2,1]},"b":1}');
  });
});
