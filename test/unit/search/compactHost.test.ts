/**
 * Result sets hold compact host records (src/core/hosts/compactHost.ts): everything the results
 * tree, the CSV export and "Search Similar Hosts" read must be the same as from the full
 * record, on the emulator's hosts and on the real service's shapes.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { normalizeHost, parseJson } from '../../../src/api/normalize';
import type { Host } from '../../../src/api/types';
import { CompactPool, compactHost } from '../../../src/core/hosts/compactHost';
import { toTable } from '../../../src/core/results/export';
import { similarHostsQuery } from '../../../src/core/query';
import type { ResultItem } from '../../../src/core/results/resultItem';
import { generateDataset } from '../../../src/emulator/dataset';
import { view } from '../../../src/extension/search/results/nodeViews';
import { children, type Node } from '../../../src/extension/search/results/resultNodes';
import { ResultSet } from '../../../src/extension/search/results/resultSet';

const ROOT = path.join(__dirname, '..', '..', '..', '..');

function emulatorHosts(n: number): Host[] {
  const data = generateDataset({ hosts: n, seed: 11, now: Date.UTC(2026, 0, 1) });
  return data.hosts.flatMap((h: unknown) => normalizeHost(JSON.parse(JSON.stringify(h))) ?? []);
}

function realShapeHosts(): Host[] {
  const file = path.join(ROOT, 'test', 'fixtures', 'real-shape', 'hosts-search.json');
  const body = parseJson(fs.readFileSync(file, 'utf8')) as { data: unknown[] };
  return body.data.flatMap((h) => normalizeHost(h) ?? []);
}

/** Every row of the tree under a host, as it is shown (labels, descriptions, tooltips). */
function treeText(set: ResultSet, item: ResultItem): string[] {
  const out: string[] = [];
  const walk = (node: Node, depth: number): void => {
    const v = view(node);
    out.push(`${'  '.repeat(depth)}${v.label} | ${v.description ?? ''} | ${JSON.stringify(v.tooltip ?? '')}`);
    if (depth < 4) for (const c of children(node)) walk(c, depth + 1);
  };
  walk({ type: 'item', set, item, index: 0, ...(item.t === 'host' ? { ip: item.v.ip } : {}) } as Node, 0);
  return out;
}

for (const [name, hosts] of [
  ['emulator', emulatorHosts(300)],
  ['real shape', realShapeHosts()],
] as const) {
  void test(`compact hosts (${name}): the same CSV rows, similar-hosts query and tree as the full records`, () => {
    assert.ok(hosts.length > 0);
    const pool = new CompactPool();
    const full: ResultItem[] = hosts.map((v) => ({ t: 'host', v }));
    const compact: ResultItem[] = hosts.map((v) => ({ t: 'host', v: compactHost(v, pool) }));
    assert.deepEqual(toTable(compact), toTable(full));
    const set = new ResultSet({ kind: 'hosts', query: '*' }, async () => ({ items: [] }), 10);
    for (let i = 0; i < hosts.length; i++) {
      const [f, c] = [full[i], compact[i]];
      assert.ok(f.t === 'host' && c.t === 'host');
      assert.equal(similarHostsQuery(c.v), similarHostsQuery(f.v));
      // Banners are kept to 2,000 characters, what the tooltip shows at most (fewer when
      // line breaks collapse): the first 1,900 are the same.
      const cut = (rows: string[]): string[] =>
        rows.map((r) => (/^ *Banner \|/.test(r) ? r.slice(0, 1900) : r));
      assert.deepEqual(cut(treeText(set, c)), cut(treeText(set, f)), f.v.ip);
    }
  });
}

void test('a result set holds its hosts compact, sharing CVE records and leaving out raw modules', async () => {
  const hosts = emulatorHosts(200);
  const set = new ResultSet(
    { kind: 'hosts', query: '*' },
    async () => ({
      items: hosts.map((v): ResultItem => ({ t: 'host', v })),
    }),
    200,
  );
  await set.loadNext();
  const held = set.items.flatMap((i) => (i.t === 'host' ? [i.v] : []));
  assert.equal(held.length, hosts.length);
  assert.ok(
    held.every((h) =>
      h.services.every((s) => Object.keys(s.modules).length === 0 && s.softwares.length === 0),
    ),
  );
  const byText = new Map<string, object>();
  for (const c of held.flatMap((h) => h.services.flatMap((s) => s.cve))) {
    const seen = byText.get(JSON.stringify(c));
    if (seen) assert.equal(seen, c, `one record for equal records of ${c.id}`);
    else byText.set(JSON.stringify(c), c);
  }
  assert.ok(
    hosts.some((h) => h.services.some((s) => Object.keys(s.modules).length > 0)),
    'the full records had modules',
  );
});

void test('a pool holds one list for equal CVE lists and one record for equal HTTP summaries and AS numbers', () => {
  const hosts = emulatorHosts(300);
  const pool = new CompactPool();
  const held = hosts.map((h) => compactHost(h, pool));
  const oneEach = (label: string, values: object[]): void => {
    const byText = new Map<string, object>();
    let shared = 0;
    for (const v of values) {
      const seen = byText.get(JSON.stringify(v));
      if (seen) {
        assert.equal(seen, v, `one ${label} for equal ones`);
        shared++;
      } else byText.set(JSON.stringify(v), v);
    }
    assert.ok(shared > 0, `some ${label} repeat in the emulator's hosts`);
  };
  const services = held.flatMap((h) => h.services);
  oneEach(
    'CVE list',
    services.flatMap((s) => (s.cve.length ? [s.cve] : [])),
  );
  oneEach(
    'HTTP summary',
    services.flatMap((s) => (s.http ? [s.http] : [])),
  );
  oneEach(
    'AS record',
    held.flatMap((h) => (h.asn ? [h.asn] : [])),
  );
});
