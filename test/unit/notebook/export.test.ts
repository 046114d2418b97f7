/**
 * "Export case" in plain Node: a notebook run headless against the emulator, then its record
 * exported with the STIX 2.1 bundle (valid against the OASIS schemas) and the MISP event of
 * the hosts its cells found, with nothing sent; a sidecar changed since the run is left out.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  exportCase,
  headlessSession,
  readRecord,
  recordPaths,
  runNotebookHeadless,
} from '../../../src/core/notebook';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { stixValidator } from '../../support/stix';

const NOW = new Date('2026-11-28T12:00:00.000Z');
let seq = 0;
const uuid = (): string => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

void describe('export a case (record, STIX 2.1, MISP)', () => {
  let emu: Emulator;
  let dir: string;
  let file: string;
  before(async () => {
    emu = await startEmulator({ seed: 5, hosts: 300 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-nb-export-'));
    file = path.join(dir, 'case.odinnb');
    fs.writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        params: { port: '22' },
        cells: [
          { kind: 'markdown', source: '# SSH' },
          { kind: 'query', source: '@hosts SSH  size=50\nservices.port:{{port}}' },
          {
            kind: 'query',
            source: '@hosts SSH by country  by=location.country_code\nservices.port:{{port}}',
          },
          { kind: 'query', source: '@hosts SSH and web\nip:{{cell2.hosts}} AND services.port:443' },
        ],
      }),
    );
    const ran = await runNotebookHeadless(
      file,
      {},
      headlessSession({ baseUrl: emu.url, apiKey: () => emu.apiKey }),
    );
    assert.ok(ran.ok, ran.message);
  });
  after(async () => {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  void it('writes the record, a valid STIX bundle and a MISP event of every unique host the cells found, sending nothing', async () => {
    const record = readRecord(file)!;
    const hostsCell = record.cells.find((c) => c.cell === 2);
    assert.ok(hostsCell?.kind === 'query' && hostsCell.rowCount! > 0);
    // The unique hosts of the cells' full results (cell 4's are a subset of cell 2's).
    const ips = new Set<string>();
    for (const n of [2, 4])
      for (const line of fs.readFileSync(recordPaths(file).sidecar(n), 'utf8').split('\n'))
        if (line) ips.add((JSON.parse(line) as { ip: string }).ip);
    emu.clearLog();
    const out = await exportCase(file, { now: NOW, uuid });
    assert.deepEqual(emu.requests, [], 'an export sends nothing');
    assert.deepEqual(out.cells, [2, 4]);
    assert.deepEqual(
      out.skipped.map((s) => s.cell),
      [3],
      'the summary cell has no hosts',
    );
    assert.equal(out.hosts, ips.size);
    assert.deepEqual(JSON.parse(fs.readFileSync(out.files.record, 'utf8')), record);
    assert.ok(out.files.markdown && fs.readFileSync(out.files.markdown, 'utf8').includes('| ip |'));

    const bundle = JSON.parse(fs.readFileSync(out.files.stix, 'utf8')) as {
      objects: Array<{ type: string; value?: string; name?: string; description?: string }>;
    };
    const validate = stixValidator();
    assert.ok(validate(bundle), JSON.stringify(validate.errors?.slice(0, 3)));
    const observed = bundle.objects.filter((o) => o.type === 'ipv4-addr' || o.type === 'ipv6-addr');
    assert.deepEqual(new Set(observed.map((o) => o.value)), ips);
    const rep = bundle.objects.find((o) => o.type === 'report')!;
    assert.equal(rep.name, 'ODIN case: case.odinnb');
    assert.match(
      rep.description ?? '',
      new RegExp(`^${ips.size} unique hosts found by 2 query cells of case\\.odinnb`),
    );

    const misp = JSON.parse(fs.readFileSync(out.files.misp, 'utf8')) as {
      Event: { info: string; Attribute: Array<{ type: string; value: string }> };
    };
    assert.equal(misp.Event.info, 'ODIN case: case.odinnb');
    assert.deepEqual(
      new Set(misp.Event.Attribute.filter((a) => a.type === 'ip-dst').map((a) => a.value)),
      ips,
    );
  });

  void it('leaves out a cell whose full result changed since the run (its SHA-256 differs)', async () => {
    const side = recordPaths(file).sidecar(4);
    const before = fs.readFileSync(side);
    fs.writeFileSync(side, `${JSON.stringify({ ip: '203.0.113.66', services: [] })}\n`);
    try {
      const out = await exportCase(file, { now: NOW, uuid });
      assert.deepEqual(out.cells, [2]);
      assert.match(out.skipped.find((s) => s.cell === 4)?.why ?? '', /SHA-256 differs/);
      assert.ok(!fs.readFileSync(out.files.stix, 'utf8').includes('203.0.113.66'));
    } finally {
      fs.writeFileSync(side, before);
    }
  });

  void it('a notebook never run has nothing to export', async () => {
    const other = path.join(dir, 'new.odinnb');
    fs.writeFileSync(other, '');
    await assert.rejects(exportCase(other), /no case record yet/);
  });
});
