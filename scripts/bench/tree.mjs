// Results tree: time to render a page of 100 hosts (getChildren + getTreeItem's node view
// for every row) and the memory held with 10,000 results loaded, on the emulator's
// generated hosts (realistic shape and size: services, CVEs, ~5 KB banners).
//
//   npx tsc -p . --outDir out && node scripts/bench/tree.mjs
//
// Measured in plain Node on the tree's pure part (src/extension/search/results/resultNodes.ts,
// nodeViews.ts and resultSet.ts: what getChildren returns and everything getTreeItem puts in a TreeItem);
// the final `new vscode.TreeItem(...)` copy of those fields needs the extension host and
// is not included. `run()` returns rows `{ name, value, unit, target?, note? }`.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { runDirectly } from '../args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const out = (p) => path.resolve(root, process.env.TREE_OUT ?? 'out', p);

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

function settle() {
  for (let i = 0; i < 4; i++) gc();
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export default async function run({ results = 10_000, pageSize = 100 } = {}) {
  const { generateDataset } = require(out('src/emulator/dataset.js'));
  const { normalizeHost } = require(out('src/api/normalize/hosts.js'));
  const { ResultSet } = require(out('src/extension/search/results/resultSet.js'));
  const { children, setChildren } = require(out('src/extension/search/results/resultNodes.js'));
  const { view } = require(out('src/extension/search/results/nodeViews.js'));

  // The wire: pages of host JSON as the service sends them (held through both heap readings).
  const data = generateDataset({ hosts: results, seed: 7, now: Date.UTC(2026, 0, 1) });
  const pages = [];
  for (let i = 0; i < data.hosts.length; i += pageSize)
    pages.push(JSON.stringify(data.hosts.slice(i, i + pageSize)));
  // A long JSON.stringify result can be a tree of string pieces, which the first JSON.parse
  // flattens into one new copy (two bytes a character when a banner has one): held by the
  // bench, not by the result set, it read as 15 MB of the set's heap. A regular expression
  // flattens them here, before the first heap reading.
  for (const p of pages) /\uffff/.test(p);
  const hostCount = data.hosts.length;
  const wireMb = pages.reduce((a, p) => a + p.length, 0) / 1024 / 1024;
  data.hosts.length = 0;

  const fetcher = async (cursor) => {
    const n = typeof cursor === 'number' ? cursor : 0;
    const items = JSON.parse(pages[n]).flatMap((h) => {
      const v = normalizeHost(h);
      return v ? [{ t: 'host', v }] : [];
    });
    return { items, total: hostCount, next: n + 1 < pages.length ? n + 1 : undefined };
  };

  // Render one page of 100 hosts, cold (fresh records each time, as a new page is): the
  // set's children and each row's view; then expanding every host (services, info rows).
  const first = await fetcher(0);
  const copies = Array.from({ length: 40 }, () => structuredClone(first.items));
  const renderPage = (items) => {
    const set = new ResultSet(
      { kind: 'hosts', query: '*' },
      async () => ({ items, total: hostCount, next: 1 }),
      pageSize,
    );
    return set.loadNext().then(() => {
      const t0 = performance.now();
      view({ type: 'set', set }, { currentId: set.id });
      for (const n of setChildren(set)) view(n, { currentId: set.id });
      return { ms: performance.now() - t0, set };
    });
  };
  const pageTimes = [];
  let one;
  for (const items of copies) {
    const r = await renderPage(items);
    pageTimes.push(r.ms);
    one = r.set;
  }
  const renderExpanded = () => {
    let rows = 0;
    for (const n of setChildren(one)) {
      for (const c of children(n)) {
        view(c);
        rows++;
      }
    }
    return rows;
  };
  const expandTimes = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    renderExpanded();
    expandTimes.push(performance.now() - t0);
  }
  copies.length = 0;
  one = undefined;

  // Memory held by a result set of 10,000 hosts (heap delta after GC).
  settle();
  const before = process.memoryUsage().heapUsed;
  const big = new ResultSet({ kind: 'hosts', query: '*' }, fetcher, pageSize);
  const t0 = performance.now();
  await big.loadAll();
  const loadMs = performance.now() - t0;
  settle();
  const after = process.memoryUsage().heapUsed;
  const heldMb = (after - before) / 1024 / 1024;

  // A full refresh of the set node with everything loaded (VS Code asks getTreeItem for every child).
  const fullTimes = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    for (const n of setChildren(big)) view(n, { currentId: big.id });
    fullTimes.push(performance.now() - t);
  }
  const loaded = big.items.length;

  return [
    {
      name: 'tree: render a page of 100 hosts',
      value: Number(median(pageTimes).toFixed(3)),
      unit: 'ms',
      target: '< 16 ms (one frame)',
      note: 'first render of a new page: getChildren + node view per row, median of 40; plain Node, TreeItem construction excluded',
    },
    {
      name: 'tree: expand all 100 hosts',
      value: Number(median(expandTimes).toFixed(3)),
      unit: 'ms',
      note: 'services and info rows of every host of the page (one host has 1,000 services), median of 30',
    },
    {
      name: `tree: heap held by ${loaded.toLocaleString('en-US')} results`,
      value: Number(heldMb.toFixed(1)),
      unit: 'MB',
      target: '<= 35',
      note: 'heap delta after GC: the result set with its compact host records (src/core/hosts/compactHost.ts; the whole records were 312.6 MB)',
    },
    {
      name: `tree: wire JSON of ${hostCount.toLocaleString('en-US')} hosts`,
      value: Number(wireMb.toFixed(1)),
      unit: 'MB',
      note: 'for scale: what the service sends for the same results',
    },
    {
      name: 'tree: heap per result',
      value: Number(((after - before) / loaded / 1024).toFixed(1)),
      unit: 'KB',
    },
    {
      name: `tree: refresh with ${loaded.toLocaleString('en-US')} loaded`,
      value: Number(median(fullTimes).toFixed(1)),
      unit: 'ms',
      target: '< 100 ms',
      note: 'every row of the expanded set asked again (VS Code does this on refresh); row views are cached per record',
    },
    {
      name: `tree: parse + normalise ${pages.length} pages`,
      value: Number(loadMs.toFixed(0)),
      unit: 'ms',
      note: 'Load all without the network: JSON.parse + normalizeHost per page',
    },
  ];
}

if (runDirectly(import.meta.url)) {
  const rows = await run();
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(40)} ${String(row.value).padStart(10)} ${row.unit}${row.target ? `  (target ${row.target})` : ''}${row.note ? `  ${row.note}` : ''}`,
    );
  }
}
