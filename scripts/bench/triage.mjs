// Bench section: bulk triage (pure core in out/, the emulator over loopback).
// - time from a 100 MB log to the preview (scan, unique indicators, privacy, cache, plan)
// - requests per unique public indicator in each mode (batched ip: searches, single lookups)
// - heap held by a triage of 10,000 rows (a child process with --expose-gc)
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const out = (p) => path.join(root, 'out', 'src', p);

export const BUDGETS = { previewMs: 3000, heapMB: 100 };

/** A log of `mb` megabytes with `unique` public IPs among private ones and a few domains. */
export function makeLog(mb, unique) {
  const ips = Array.from(
    { length: unique },
    (_, i) => `${45 + (i % 3)}.${(i >> 8) & 255}.${i & 255}.${77 + (i % 5)}`,
  );
  const lines = [];
  let size = 0;
  for (let n = 0; size < mb * 1024 * 1024; n++) {
    const line = `2026-11-21T03:12:${String(n % 60).padStart(2, '0')}Z conn from ${ips[n % unique]} to 10.0.${n % 250}.4 via 192.168.1.${n % 250} host=cdn${n % 40}.example-shop.com ok`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** Runs in a child with --expose-gc (CommonJS): the heap a 10,000-row triage keeps. */
const HEAP_CHILD = `
const { buildTriage } = require(${JSON.stringify(out('core/triage/index.js'))});
const { PrivacyPolicy } = require(${JSON.stringify(out('core/privacy/index.js'))});
${makeLog.toString()}
(async () => {
  global.gc();
  const before = process.memoryUsage().heapUsed;
  let text = makeLog(20, 10000);
  const policy = new PrivacyPolicy();
  const t = await buildTriage([{ uri: 'mem:x', text }], (k, v) => policy.check({ kind: k, value: v }));
  text = undefined;
  global.gc();
  const after = process.memoryUsage().heapUsed;
  console.log(JSON.stringify({ rows: t.rows.length, mb: (after - before) / 1048576 }));
})();
`;

export default async function run() {
  const { buildTriage, preview, enrich, layerSource } = require(out('core/triage/index.js'));
  const { PrivacyPolicy } = require(out('core/privacy/index.js'));
  const { ResultCache } = require(out('core/cache.js'));
  const { Limiter } = require(out('core/limiter.js'));
  const { RequestLayer } = require(out('core/requests.js'));
  const { OdinClient } = require(out('api/client.js'));
  const { startEmulator } = require(out('emulator/server.js'));
  const policy = new PrivacyPolicy();
  const check = (kind, value) => policy.check({ kind, value });
  const rows = [];

  const text = makeLog(100, 10_000);
  const layerFor = (origin) =>
    new RequestLayer({
      cache: new ResultCache({
        ttlMs: { host: 3.6e6, whois: 3.6e6, count: 3.6e6, notFound: 3.6e6 },
        maxEntries: 200_000,
      }),
      limiter: new Limiter({ perMinute: 1e9, maxConcurrent: 4 }),
      origin: () => origin,
    });
  const t0 = performance.now();
  const t = await buildTriage([{ uri: 'mem:big.log', text }], check);
  const p = preview(t, layerSource({ layer: layerFor('http://127.0.0.1:1'), client: () => undefined }), {});
  const previewMs = performance.now() - t0;
  rows.push({
    name: 'triage: 100 MB log → preview',
    value: Math.round(previewMs),
    unit: 'ms',
    target: `< ${BUDGETS.previewMs}`,
    note: `${p.unique} unique, ${p.toSend} to send, ${p.requests} requests (batched)`,
  });

  const emu = await startEmulator({ hosts: 2000, dialect: 'live' });
  try {
    const sample =
      emu.dataset.hosts
        .slice(0, 500)
        .map((h) => h.ip)
        .join('\n') +
      '\n' +
      makeLog(1, 500);
    for (const batching of [true, false]) {
      const layer = layerFor(emu.url);
      const client = new OdinClient({ baseUrl: emu.url, apiKey: () => emu.apiKey });
      const tt = await buildTriage([{ uri: 'mem:s', text: sample }], check);
      const r = await enrich(tt, layerSource({ layer, client: () => client, batching }), { batching });
      rows.push({
        name: `triage: requests per unique public indicator (${batching ? 'batched' : 'single'})`,
        value: Number((r.requests / Math.max(r.eligible, 1)).toFixed(3)),
        unit: 'req',
        note: `${r.requests} requests for ${r.eligible} indicators; ${r.summary}`,
      });
    }
  } finally {
    await emu.close();
  }

  const child = spawnSync(process.execPath, ['--expose-gc', '-e', HEAP_CHILD], { encoding: 'utf8' });
  try {
    const m = JSON.parse(child.stdout.trim().split('\n').pop());
    rows.push({
      name: 'triage: heap held by a 10,000-row triage',
      value: Number(m.mb.toFixed(1)),
      unit: 'MB',
      target: `< ${BUDGETS.heapMB}`,
      note: `${m.rows} rows`,
    });
  } catch {
    rows.push({
      name: 'triage: heap held by a 10,000-row triage',
      value: NaN,
      unit: 'MB',
      note: `child failed: ${child.stderr.slice(0, 200)}`,
    });
  }
  return rows;
}
