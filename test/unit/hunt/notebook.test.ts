/**
 * `odin-hunt run case.odinnb --param k=v`: the built runner executes a notebook headless on
 * its own session (ledger and gate) and writes the same case record an editor run writes; the
 * per-cell hashes equal those of the core's headless run of the same notebook on the same data.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { headlessSession, readRecord, runNotebookHeadless } from '../../../src/core/notebook';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { hunt } from './support';

const KEY = 'odin-hunt-notebook-test-key';
const NOTEBOOK = {
  version: 1,
  params: { port: '80' },
  budget: 50,
  cells: [
    { kind: 'markdown', source: '# Port {{port}}' },
    { kind: 'query', source: '@hosts Open on the port  size=20\nservices.port:{{port}}' },
    {
      kind: 'query',
      source: '@hosts The same, in Germany\nservices.port:{{port}} AND location.country_code:DE',
    },
  ],
};

function notebookIn(dir: string): string {
  const file = path.join(dir, 'case.odinnb');
  fs.writeFileSync(file, JSON.stringify(NOTEBOOK, null, 2));
  return file;
}

void describe('odin-hunt run case.odinnb', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ hosts: 400, apiKey: KEY });
  });
  after(() => emu.close());

  void it('runs every cell with --param, writes the record, and gives the core headless run’s hashes', async () => {
    const cliDir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-hunt-nb-'));
    const file = notebookIn(cliDir);
    const r = await hunt(
      ['run', 'case.odinnb', '--param', 'port=443'],
      { ODIN_API_KEY: KEY, ODIN_API_URL: emu.url },
      cliDir,
    );
    assert.equal(r.code, 0, r.stderr);
    const cliRecord = readRecord(file);
    assert.ok(cliRecord, 'the record is written beside the notebook');
    const queries = cliRecord.cells.filter((c) => c.kind === 'query');
    assert.equal(queries.length, 2);
    assert.match(r.stdout, /cell 2\tok\t\d+ rows\t[0-9a-f]{64}/);
    assert.match(r.stdout, /record\t\.odin\//);
    assert.match(r.stderr, /cell 2: ≈ \d+ hosts · ≈ \d+ credits/, 'the count comes first');
    assert.ok(
      queries.every((c) => c.kind === 'query' && c.query?.includes('443')),
      'the parameter from the command line replaces the notebook’s own',
    );

    const coreDir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-hunt-nb-core-'));
    const core = await runNotebookHeadless(
      notebookIn(coreDir),
      { port: '443' },
      headlessSession({ baseUrl: emu.url, apiKey: () => KEY }),
    );
    assert.ok(core.ok, core.message);
    const hashes = (rec: typeof cliRecord): (string | undefined)[] =>
      rec.cells.map((c) => (c.kind === 'query' ? c.sha256 : undefined));
    assert.deepEqual(hashes(cliRecord), hashes(core.record));
    assert.ok(hashes(cliRecord).filter(Boolean).length === 2);
  });

  void it('a --param that is not name=value, or notebooks mixed with hunts, is a usage error (exit 2)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-hunt-nb-'));
    notebookIn(dir);
    const env = { ODIN_API_KEY: KEY, ODIN_API_URL: emu.url };
    const bad = await hunt(['run', 'case.odinnb', '--param', 'nonsense'], env, dir);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--param needs name=value/);
    const mixed = await hunt(['run', 'case.odinnb', 'hunts.odinq'], env, dir);
    assert.equal(mixed.code, 2);
  });
});
