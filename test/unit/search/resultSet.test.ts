import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Host } from '../../../src/api/types';
import type { ResultItem } from '../../../src/core/results/resultItem';
import { serializeSearches } from '../../../src/core/savedSearches';
import { kindOf } from '../../../src/core/results/nodeMenus';
import { view } from '../../../src/extension/search/results/nodeViews';
import { children, setChildren, type Node } from '../../../src/extension/search/results/resultNodes';
import {
  LOAD_ALL_MAX_PAGES,
  loadAllText,
  MAX_PAGE_SIZE,
  ResultSet,
} from '../../../src/extension/search/results/resultSet';
import type { PageFetcher } from '../../../src/core/search';
import { SavedSearchStore } from '../../../src/extension/search/saved/savedStore';
import { turns } from '../../support/wait';

const host = (i: number, extra: Partial<Host> = {}): Host => ({
  ip: `10.0.${Math.floor(i / 256)}.${i % 256}`,
  banner: [],
  domains: [],
  hostnames: [],
  services: [],
  tags: [],
  ...extra,
});

/** A fake service of `total` hosts in pages; `failAt` page numbers throw once. */
function fakeFetcher(total: number, failAt = new Set<number>()): PageFetcher {
  return async (cursor, limit, signal) => {
    const start = typeof cursor === 'number' ? cursor : 0;
    const page = start / limit;
    await turns(1);
    if (signal.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    if (failAt.delete(page))
      throw Object.assign(new Error('ODIN had a server problem (HTTP 500).'), {
        kind: 'server',
        status: 500,
      });
    const items: ResultItem[] = [];
    for (let i = start; i < Math.min(total, start + limit); i++) items.push({ t: 'host', v: host(i) });
    const next = start + limit < total ? start + limit : undefined;
    return { items, total, next };
  };
}

void test('pages load in order; "Load more" shows "N of TOTAL" until the end', async () => {
  const set = new ResultSet({ kind: 'hosts', query: '*' }, fakeFetcher(55), 25);
  await set.loadNext();
  let kids = setChildren(set);
  assert.equal(kids.length, 26);
  const more = view(kids[25]);
  assert.equal(kindOf(more.contextValue), 'odin.loadMore');
  assert.equal(more.description, '25 of 55 shown');
  assert.equal(more.command?.command, 'odin.loadMore');
  await set.loadAll();
  kids = setChildren(set);
  assert.equal(set.items.length, 55);
  assert.equal(kids.length, 55);
  assert.equal(view({ type: 'set', set }).description, '55 of 55');
});

void test('an error keeps the loaded pages and offers Retry; retry loads the same page', async () => {
  const set = new ResultSet({ kind: 'hosts', query: '*' }, fakeFetcher(100, new Set([1])), 25);
  await set.loadNext();
  assert.equal(await set.loadNext(), false);
  assert.equal(set.items.length, 25);
  const last = setChildren(set).at(-1)!;
  assert.equal(last.type, 'error');
  const v = view(last);
  assert.equal(v.command?.command, 'odin.retry');
  assert.match(v.label, /HTTP 500/);
  assert.match(v.description ?? '', /25 of 100 kept/);
  assert.equal(await set.loadNext(), true);
  assert.equal(set.items.length, 50);
  assert.equal(set.items[25].t === 'host' && set.items[25].v.ip, '10.0.0.25');
});

void test('cancelling load-all keeps what was loaded', async () => {
  const set = new ResultSet({ kind: 'hosts', query: '*' }, fakeFetcher(10_000), 100);
  const c = new AbortController();
  const loading = set.loadAll(c.signal, (s) => {
    if (s.pages === 3) c.abort();
  });
  await loading;
  assert.equal(set.items.length, 300);
  assert.equal(set.status, 'ready');
  assert.ok(set.hasMore);
  assert.equal(setChildren(set).at(-1)!.type, 'more');
});

void test('a list that ends before its total says so (nothing silently truncated)', async () => {
  const fetcher: PageFetcher = async () => ({ items: [{ t: 'host', v: host(1) }], total: 10_000 });
  const set = new ResultSet({ kind: 'hosts', query: '*' }, fetcher, 25);
  await set.loadNext();
  const note = setChildren(set).at(-1)!;
  assert.equal(note.type, 'note');
  assert.match(view(note).label, /1 of 10,000 shown/);
});

void test('empty and loading states are nodes', async () => {
  const set = new ResultSet({ kind: 'hosts', query: 'nothing' }, async () => ({ items: [], total: 0 }), 25);
  const p = set.loadNext();
  assert.equal(setChildren(set)[0].type, 'loading');
  await p;
  assert.equal(setChildren(set)[0].type, 'empty');
});

void test('hosts expand to services and CVEs sorted by severity with theme colours; API text neutralised', async () => {
  const h = host(1, {
    asn: { number: 'AS1', organization: '$(alert) Evil [x](command:foo)' },
    services: [
      {
        port: 443,
        protocol: 'tcp',
        product: '$(zap)nginx',
        cve: [
          { id: 'CVE-L', severity: 'LOW', references: [], services: [], exploit: [] },
          { id: 'CVE-C', severity: 'CRITICAL', score: 9.8, references: [], services: [], exploit: [] },
        ],
        softwares: [],
        modules: {},
      },
    ],
  });
  const set = new ResultSet(
    { kind: 'hosts', query: '*' },
    async () => ({ items: [{ t: 'host', v: h }] }),
    25,
  );
  await set.loadNext();
  const hostNode = setChildren(set)[0];
  const hv = view(hostNode);
  assert.ok(!hv.description?.includes('$('), hv.description);
  assert.equal(hv.icon?.color, 'errorForeground');
  const svc = children(hostNode)[0] as Node & { type: 'service' };
  assert.equal(svc.type, 'service');
  assert.ok(!view(svc).description?.includes('$('));
  const cves = children(svc).filter((n) => n.type === 'cve');
  assert.deepEqual(
    cves.map((n) => view(n).label),
    ['CVE-C', 'CVE-L'],
  );
  assert.equal(view(cves[0]).icon?.color, 'errorForeground');
  assert.equal(view(cves[1]).icon?.color, 'editorInfo.foreground');
});

void test('facets click to narrow; counts render as one node', async () => {
  const set = new ResultSet(
    { kind: 'hostSummary', field: 'services.port', query: 'x' },
    async () => ({
      items: [{ t: 'facet', field: 'services.port', v: { key: 443, doc_count: 1234 } }],
      notes: ['5 more'],
    }),
    25,
  );
  await set.loadNext();
  const [facet, note] = setChildren(set);
  const fv = view(facet);
  assert.equal(fv.command?.command, 'odin.narrowByFacet');
  assert.deepEqual(fv.command?.arguments, [set.id, 'services.port', 443]);
  assert.equal(fv.description, '1,234');
  assert.equal(note.type, 'note');
});

// ---------------------------------------------------------------- the store (plain files)

function tmpDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'odin-saved-'));
}

void test('store: write, reload in a second store, read back', async () => {
  const dir = tmpDir();
  const a = new SavedSearchStore(dir);
  await a.load();
  await a.update((l) => [
    ...l,
    { id: 'x1', name: 'Web', spec: { kind: 'hosts', query: 'services.port:443' } },
  ]);
  const b = new SavedSearchStore(dir);
  await b.load();
  assert.deepEqual(b.list(), a.list());
  // Read-modify-write: b's change does not lose a's later entry.
  await a.update((l) => [...l, { id: 'x2', name: 'Two', spec: { kind: 'fileCount' } }]);
  await b.update((l) => l.map((s) => (s.id === 'x1' ? { ...s, name: 'Renamed' } : s)));
  await a.load();
  assert.deepEqual(
    a.list().map((s) => s.name),
    ['Renamed', 'Two'],
  );
});

void test('store: a damaged file is kept aside and reported once; broken entries kept in "rejected"', async () => {
  const dir = tmpDir();
  fs.writeFileSync(
    path.join(dir, 'saved-searches.json'),
    '{"version":1,"searches":[{"name":"ok","kind":"hosts"},{"name":"bad","kind":"??"}]}',
  );
  const problems: string[] = [];
  const store = new SavedSearchStore(dir, (p) => problems.push(p.message));
  await store.load();
  assert.equal(store.list().length, 1);
  assert.equal(problems.length, 1);
  const onDisk = JSON.parse(fs.readFileSync(path.join(dir, 'saved-searches.json'), 'utf8')) as {
    rejected: unknown[];
  };
  assert.deepEqual(onDisk.rejected, [{ name: 'bad', kind: '??' }]);
  // Re-reading does not report again: the entry sits in "rejected" now.
  const again = new SavedSearchStore(dir, (p) => problems.push(p.message));
  await again.load();
  assert.equal(problems.length, 1);
  assert.equal(again.rejected().length, 1);

  fs.writeFileSync(path.join(dir, 'saved-searches.json'), '{ not json');
  await store.load();
  assert.equal(problems.length, 2);
  assert.match(problems[1], /kept aside/);
  const aside = fs.readdirSync(dir).filter((f) => f.startsWith('saved-searches.damaged-'));
  assert.equal(aside.length, 1);
  assert.equal(fs.readFileSync(path.join(dir, aside[0]), 'utf8'), '{ not json');
  assert.equal(store.list().length, 0);
  await store.update((l) => [...l, { id: 'n', name: 'New', spec: { kind: 'hosts' } }]);
  assert.equal(
    fs.readFileSync(path.join(dir, 'saved-searches.json'), 'utf8'),
    serializeSearches(store.list()),
  );
});

void test('"Load All" asks for pages of the API\'s largest size, whatever the set\'s page size', async () => {
  const limits: number[] = [];
  const inner = fakeFetcher(1_000);
  const set = new ResultSet(
    { kind: 'hosts', query: '*' },
    (c, limit, s) => (limits.push(limit), inner(c, limit, s)),
    10,
  );
  await set.loadNext();
  assert.deepEqual(set.loadAllPlan(), {
    remaining: 990,
    requests: 10,
    pageSize: MAX_PAGE_SIZE,
    capped: false,
  });
  await set.loadAll();
  assert.equal(set.items.length, 1_000);
  assert.deepEqual(limits, [10, ...Array<number>(10).fill(MAX_PAGE_SIZE)]);
  assert.equal(set.lastLoadAllStop, 'end');
  assert.equal(new Set(set.items.map((i) => i.t === 'host' && i.v.ip)).size, 1_000, 'no result twice');
  assert.deepEqual(set.loadAllPlan(), { remaining: 0, requests: 0, pageSize: MAX_PAGE_SIZE, capped: false });
});

void test('"Load All" says first how many requests it takes, and when the page cap stops it', async () => {
  const set = new ResultSet({ kind: 'hosts', query: '*' }, fakeFetcher(250), 25);
  await set.loadNext();
  assert.equal(
    loadAllText(set.loadAllPlan()),
    '225 more results: 3 requests of up to 100 results each. Each request uses API credits; you can cancel at any time.',
  );
  const huge = new ResultSet({ kind: 'hosts', query: '*' }, fakeFetcher(1_000_000), 100);
  await huge.loadNext();
  const plan = huge.loadAllPlan();
  assert.deepEqual(plan, { remaining: 999_900, requests: LOAD_ALL_MAX_PAGES, pageSize: 100, capped: true });
  assert.match(
    loadAllText(plan),
    /^999,900 more results: 100 requests of up to 100 results each\. It stops after 100 requests \(10,000 results\)/,
  );
  const noTotal = new ResultSet({ kind: 'hosts', query: '*' }, async () => ({ items: [], next: 1 }), 25);
  await noTotal.loadNext();
  assert.match(
    loadAllText(noTotal.loadAllPlan()),
    /^Up to 100 requests of up to 100 results each; the service gave no total\./,
  );
});

void test('"Load All" stops at the page cap, keeps what it loaded, and goes on when asked again', async () => {
  let calls = 0;
  const inner = fakeFetcher(1_000_000);
  const set = new ResultSet({ kind: 'hosts', query: '*' }, (c, l, s) => (calls++, inner(c, l, s)), 100);
  const added = await set.loadAll(undefined, undefined, { maxPages: 7 });
  assert.equal(added, 700);
  assert.equal(calls, 7);
  assert.equal(set.lastLoadAllStop, 'pageCap');
  assert.ok(set.hasMore);
  assert.equal(setChildren(set).at(-1)!.type, 'more');
  await set.loadAll(undefined, undefined, { maxPages: 2 });
  assert.equal(set.items.length, 900);
  // The default cap: 100 requests.
  calls = 0;
  await set.loadAll();
  assert.equal(calls, LOAD_ALL_MAX_PAGES);
  assert.equal(set.lastLoadAllStop, 'pageCap');
});

void test('a next-page cursor that repeats an earlier one stops paging (no endless loop, no duplicates)', async () => {
  // A service that, after page 3, points back at page 2's cursor forever.
  const cursors: unknown[] = [];
  const fetcher: PageFetcher = async (cursor) => {
    cursors.push(cursor);
    const n = cursor === undefined ? 0 : (cursor as number[])[0];
    const items: ResultItem[] = [{ t: 'host', v: host(n) }];
    return { items, total: 10_000, next: [n >= 3 ? 2 : n + 1] };
  };
  const set = new ResultSet({ kind: 'hosts', query: '*' }, fetcher, 100);
  await set.loadAll();
  assert.deepEqual(cursors, [undefined, [1], [2], [3]]);
  assert.equal(set.items.length, 4);
  assert.equal(set.lastLoadAllStop, 'cursorCycle');
  assert.equal(set.hasMore, false, 'no "Load more" that would repeat pages');
  const note = setChildren(set).at(-1)!;
  assert.equal(note.type, 'note');
  assert.match(
    set.notes.join('\n'),
    /Stopped after 4 pages: the service's next-page cursor repeats an earlier one/,
  );
  // A cursor equal to the one just sent (a service that never advances) stops after one page.
  let sent = 0;
  const stuck = new ResultSet(
    { kind: 'hosts', query: '*' },
    async () => (sent++, { items: [{ t: 'host', v: host(sent) }], total: 50, next: [0] }),
    10,
  );
  await stuck.loadAll();
  assert.equal(sent, 2, 'the first page (no cursor) and the page of cursor [0]; [0] again stops');
  assert.equal(stuck.lastLoadAllStop, 'cursorCycle');
});
