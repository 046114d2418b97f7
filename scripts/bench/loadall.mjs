// Load All: 100 pages of 100 hosts through the real API client (response checks, JSON parse,
// normalisation) into a result set (compact records), as "Load All Results" does after the
// search has shown its first page (that page is not timed: it is the search's), with the
// network replaced by an in-memory `fetch` so only the extension host's own work is timed.
// What matters to a person is not the total but the longest stretch the extension host is
// busy without a break: while it lasts, hovers, completions and every other extension wait.
//
//   npx tsc -p . --outDir out && node scripts/bench/loadall.mjs
//
// The longest task is the largest gap between two turns of the event loop while the load runs
// (a `setImmediate` chain records each turn). Budget: 50 ms (no freeze a person notices). `run()` returns rows
// `{ name, value, unit, target?, note? }`.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDirectly } from '../args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const out = (p) => path.resolve(root, 'out', p);

/** Records the gaps between event-loop turns until `stop()`; returns them sorted. */
function loopGaps() {
  const gaps = [];
  let last = performance.now();
  let running = true;
  const tick = () => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return () => {
    running = false;
    return gaps.sort((a, b) => a - b);
  };
}

/**
 * Runs the measurement in a child with `--expose-gc`: the bench's own set-up (10,000
 * generated hosts, the previous run's result set) is collected before each run, so a run's
 * garbage collections are the load's own, as in an extension host that was not just handed
 * 140 MB of test data.
 */
export default async function run() {
  const child = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--json'], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = child.stdout.trim().split('\n').pop();
  if (child.status !== 0 || !line?.startsWith('['))
    throw new Error(`load-all child exited ${child.status}: ${child.stderr.slice(-400)}`);
  return JSON.parse(line);
}

async function measure({ results = 10_000, pageSize = 100 } = {}) {
  const collect = globalThis.gc ?? (() => {});
  const { generateDataset } = require(out('src/emulator/dataset.js'));
  const { OdinClient } = require(out('src/api/client.js'));
  const { ResultSet } = require(out('src/extension/search/results/resultSet.js'));

  // The wire: the service's envelopes, as bytes, one per page. Only the bytes stay: the
  // dataset (its maps hold every host, 180 MB of heap) is left to the collection below, or
  // every collection of the load would walk it, which an extension host does not have.
  const wire = () => {
    const data = generateDataset({ hosts: results, seed: 7, now: Date.UTC(2026, 0, 1) });
    const bytes = [];
    for (let i = 0; i < data.hosts.length; i += pageSize) {
      const n = bytes.length;
      const last = i + pageSize < data.hosts.length ? [1721808680130 - n, n + 1] : undefined;
      bytes.push(
        Buffer.from(
          JSON.stringify({
            success: true,
            data: data.hosts.slice(i, i + pageSize),
            pagination: { total: data.hosts.length, limit: pageSize, ...(last ? { last } : {}) },
          }),
        ),
      );
    }
    return bytes;
  };
  const pages = wire();
  const wireMb = pages.reduce((a, p) => a + p.length, 0) / 1024 / 1024;
  collect();

  const fetch = async (_url, init) => {
    const body = JSON.parse(String(init?.body ?? '{}'));
    const n = Array.isArray(body.start) ? body.start[1] : 0;
    // A real answer arrives in a later turn of the event loop: so does this one.
    await new Promise((resolve) => setImmediate(resolve));
    return new Response(pages[n], { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const client = new OdinClient({ baseUrl: 'http://127.0.0.1:1', apiKey: async () => 'bench-key', fetch });
  const fetcher = async (cursor, limit, signal) => {
    const page = await client.searchHosts(
      { query: '*', limit, ...(cursor ? { start: cursor } : {}) },
      { signal },
    );
    return { items: page.items.map((v) => ({ t: 'host', v })), total: page.total, next: page.next };
  };

  const times = [];
  const longest = [];
  let loaded = 0;
  for (let rep = 0; rep < 3; rep++) {
    collect();
    const set = new ResultSet({ kind: 'hosts', query: '*' }, fetcher, pageSize);
    // As in the product: the search shows its first page, then the person asks for all.
    await set.loadNext();
    const stop = loopGaps();
    const t0 = performance.now();
    await set.loadAll();
    times.push(performance.now() - t0);
    const gaps = stop();
    longest.push(Math.max(performance.now() - t0 - gaps.reduce((a, b) => a + b, 0), ...gaps));
    loaded = set.items.length;
    if (set.error) throw new Error(`load all failed: ${set.error.message ?? set.error}`);
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return [
    {
      name: `load all: ${pages.length - 1} pages of ${pageSize} hosts after the first, total`,
      value: Number(med(times).toFixed(0)),
      unit: 'ms',
      note: `${loaded.toLocaleString('en-US')} hosts in the set, ${wireMb.toFixed(1)} MB of JSON in all, through the client (checks, parse, normalise) into a result set, after the search's first page (not timed); no network; median of 3`,
    },
    {
      name: 'load all: longest task',
      value: Number(med(longest).toFixed(1)),
      unit: 'ms',
      target: '<= 50',
      note: `the longest stretch without an event-loop turn while loading (garbage collections included); median of 3 (each run's worst: ${longest.map((x) => x.toFixed(0)).join(', ')} ms), each after a collection of the bench's own set-up`,
    },
  ];
}

if (runDirectly(import.meta.url)) {
  const rows = await measure();
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
  else
    for (const row of rows)
      console.log(
        `${row.name}: ${row.value} ${row.unit}${row.target ? ` (target ${row.target})` : ''}  ${row.note}`,
      );
}
