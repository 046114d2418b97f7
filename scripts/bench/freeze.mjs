// Bounded work per answer: what one host answer under the 16 MiB size cap costs the extension
// host, on its one thread, from the body's text to a cached record and a hover card: parse
// (keys `__proto__`/`constructor`/`prototype` dropped), normalise, count the cache's bytes,
// render the card. Two answers that froze the editor before the bound: 65,535 ports, and
// 900,000 services.
//
//   npx tsc -p . --outDir out && node scripts/bench/freeze.mjs
//   FREEZE_OUT=<an older build's out/> FREEZE_HEAP=0 node scripts/bench/freeze.mjs   (that build's "now")
//
// Measured side by side in one run with the path as it was before the bound (a reviver that
// drops the keys, every service normalised, the cache bound counted as JSON length, the card
// over every service), rebuilt here from the same modules. Then the heap one cached answer
// holds, measured (gc before and after, minus the same work dropped), against what the
// cache's bound counts for it (`entryBytes`, which must not count less). Measured in a fresh
// process (`npm run bench` runs each section in one): after other sections in one process, the
// same record read 0.99–1.01 of its count against 1.02 fresh (what the heap already holds moves
// the gc-to-gc difference, not what the record holds).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { runDirectly } from '../args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const out = (p) => path.resolve(root, process.env.FREEZE_OUT ?? 'out', p);

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

function heap() {
  /x/.test('x');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** The two answers that froze the editor, as the service would send them (each under 16 MiB). */
export function answers() {
  const ports = [];
  for (let i = 0; i < 65535; i++)
    ports.push({
      port: i + 1,
      protocol: 'tcp',
      name: 'http',
      product: 'nginx',
      ...(i % 97 === 0 ? { cve: [{ id: 'CVE-2024-6387', severity: 'high' }] } : {}),
    });
  const many = [];
  for (let i = 0; i < 900_000; i++) many.push({ port: i % 65536 });
  return [
    {
      name: '65,535 ports',
      ip: '198.51.100.7',
      text: JSON.stringify({ success: true, data: { ip: '198.51.100.7', services: ports } }),
    },
    {
      name: '900,000 services',
      ip: '198.51.100.8',
      text: JSON.stringify({ success: true, data: { ip: '198.51.100.8', services: many } }),
    },
  ];
}

/** The section's rows (`npm run bench` runs each section in a fresh process). */
export default async function measure({ reps = 3 } = {}) {
  const { parseJson } = require(out('src/api/normalize/json.js'));
  const { normalizeHost } = require(out('src/api/normalize/hosts.js'));
  const { normalizeService } = require(out('src/api/normalize/services.js'));
  const { entryBytes } = require(out('src/core/requests/cache.js'));
  const { hostCard } = require(out('src/core/cards/hoverCard.js'));
  const cardOpts = { now: Date.UTC(2026, 10, 26) };

  const after = (a) => {
    const host = normalizeHost(parseJson(a.text).data, a.ip);
    entryBytes(`host:${a.ip}`, { notFound: false, value: host, storedAt: 0, expiresAt: 0 });
    hostCard(a.ip, host, cardOpts);
    return host;
  };
  const before = (a) => {
    const raw = JSON.parse(a.text, (k, v) => (FORBIDDEN.has(k) ? undefined : v)).data;
    const host = {
      ...normalizeHost({ ...raw, services: [] }, a.ip),
      services: raw.services.map((s) => normalizeService(s)),
    };
    sink += 2 * JSON.stringify(host).length;
    hostCard(a.ip, host, cardOpts);
    return host;
  };

  const rows = [];
  let sink = 0;
  for (const a of answers()) {
    const mib = a.text.length / 1048576;
    const t = { before: [], after: [], parse: [] };
    for (let i = 0; i < reps; i++) {
      for (const [k, f] of i % 2
        ? [
            ['after', after],
            ['before', before],
          ]
        : [
            ['before', before],
            ['after', after],
          ]) {
        heap();
        const t0 = performance.now();
        f(a);
        t[k].push(performance.now() - t0);
      }
      heap();
      const t0 = performance.now();
      JSON.parse(a.text);
      t.parse.push(performance.now() - t0);
    }
    rows.push(
      {
        name: `${a.name} (${mib.toFixed(1)} MiB): before the bound, parse → card`,
        value: median(t.before),
        unit: 'ms',
        note: 'reviver parse, every service normalised, JSON-length bound, card over all',
      },
      {
        name: `${a.name}: now, parse → card`,
        value: median(t.after),
        unit: 'ms',
        target: '< 1000',
        note: `of which a plain JSON.parse of the body: ${median(t.parse).toFixed(0)} ms`,
      },
    );
    // Heap held by the cached record vs what the cache counts for it. FREEZE_HEAP=0 skips it
    // (a build from before the bound, FREEZE_OUT=…, runs out of heap keeping 8 such records).
    if (process.env.FREEZE_HEAP === '0') continue;
    const n = 8;
    heap();
    const b0 = heap();
    for (let i = 0; i < n; i++) after(a);
    const garbage = heap() - b0;
    const kept = [];
    const k0 = heap();
    for (let i = 0; i < n; i++) kept.push(after(a));
    const held = (heap() - k0 - garbage) / n;
    const counted = entryBytes(`host:${a.ip}`, {
      notFound: false,
      value: kept[0],
      storedAt: 0,
      expiresAt: 0,
    });
    rows.push({
      name: `${a.name}: cache bound counts / heap the record holds`,
      value: counted / Math.max(1, held),
      unit: '×',
      target: '>= 1',
      note: `${(counted / 1048576).toFixed(2)} MiB counted, ${(held / 1048576).toFixed(2)} MiB measured; ${kept[0].services.length} services kept, ${kept[0].services_omitted ?? 0} counted only`,
    });
  }
  if (sink < 0) rows.push({ name: 'unreachable', value: sink });
  return rows;
}

if (runDirectly(import.meta.url)) {
  for (const r of await measure())
    console.log(`${r.name}: ${r.value.toFixed(1)} ${r.unit}${r.note ? `  (${r.note})` : ''}`);
}
