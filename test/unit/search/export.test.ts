import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { csvCell, toCsv, toJson, toTable } from '../../../src/core/results/export';
import type { ResultItem } from '../../../src/core/results/resultItem';
import type { Host } from '../../../src/api/types';

void test('CSV cells that a spreadsheet would run as formulas get a leading quote', () => {
  for (const v of ['=1+1', '+cmd', '-2+3', '@SUM(A1)', '\t=x', ' =HYPERLINK("x")', '\r=1']) {
    assert.ok(csvCell(v).replace(/^"/, '').startsWith("'"), `${JSON.stringify(v)} -> ${csvCell(v)}`);
  }
  assert.equal(csvCell(-3), '-3');
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('line\nbreak'), '"line\nbreak"');
  assert.equal(csvCell(undefined), '');
  assert.equal(csvCell(true), 'true');
});

/** A minimal RFC 4180 reader, to check that every line reads back to the same cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let q = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (q) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') q = false;
      else cell += ch;
    } else if (ch === '"') q = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

void test('CSV round-trips any text and never starts a cell with a formula character', () => {
  // A text that starts with an apostrophe gets one more, or a spreadsheet would hide it.
  assert.equal(csvCell("'-1"), "''-1");
  fc.assert(
    fc.property(
      fc.array(fc.array(fc.string({ maxLength: 20 }), { minLength: 1, maxLength: 4 }), {
        minLength: 1,
        maxLength: 5,
      }),
      (rows) => {
        const width = Math.max(...rows.map((r) => r.length));
        const norm = rows.map((r) => [...r, ...Array(width - r.length).fill('')]);
        const back = parseCsv(toCsv({ columns: norm[0].map((_, i) => `c${i}`), rows: norm }));
        assert.equal(back.length, norm.length + 1);
        back.slice(1).forEach((r, i) =>
          r.forEach((cell, j) => {
            assert.ok(!/^\s*[=+\-@\t\r]/.test(cell), cell);
            assert.equal(cell.replace(/^'(?=\s*[=+\-@\t\r]|')/, ''), norm[i][j]);
          }),
        );
      },
    ),
  );
});

const host: Host = {
  ip: '1.2.3.4',
  banner: [],
  domains: [],
  hostnames: [{ name: '=cmd|calc' }],
  services: [
    {
      port: 80,
      cve: [{ id: 'CVE-1', severity: 'HIGH', references: [], services: [], exploit: [] }],
      softwares: [],
      modules: {},
      product: 'nginx',
    },
  ],
  tags: [],
  asn: { number: 'AS1', organization: '@evil' },
};

void test('tables per kind; JSON keeps records and says whether the export is complete', () => {
  const items: ResultItem[] = [{ t: 'host', v: host }];
  const table = toTable(items);
  assert.equal(table.columns[0], 'ip');
  const csv = toCsv(table);
  assert.ok(csv.includes("'=cmd|calc"));
  assert.ok(csv.includes("'@evil"));
  const json = JSON.parse(
    toJson(items, { search: { kind: 'hosts' }, total: 10, exportedAt: 'now', complete: false }),
  ) as {
    items: Host[];
    complete: boolean;
    exported: number;
  };
  assert.equal(json.items[0].ip, '1.2.3.4');
  assert.equal(json.complete, false);
  assert.equal(json.exported, 1);
  const facets = toCsv(toTable([{ t: 'facet', field: 'services.port', v: { key: 443, doc_count: 7 } }]));
  assert.equal(facets, 'field,key,doc_count\r\nservices.port,443,7\r\n');
});
