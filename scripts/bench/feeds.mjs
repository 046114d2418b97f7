// The exploitation feeds at today's size: the EPSS CSV (~300,000 rows, gzip) streamed through
// the parser, and the KEV catalogue (~1,500 entries). Parse time, the load of a copy parsed
// before (the kept table), the heap and array-buffer bytes the parsed feeds hold (gc before and
// after), and a lookup's cost.
//
//   npx tsc -p . --outDir out && node scripts/bench/feeds.mjs
//
// `run()` returns rows `{ name, value, unit, target?, note? }` for the bench runner.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { runDirectly } from '../args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const EPSS_ROWS = 300_000;
const KEV_ENTRIES = 1_500;

/** Heap and array-buffer bytes after full collections (backing stores are freed between turns). */
async function held() {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

function epssCsv() {
  const lines = ['#model_version:v2025.03.14,score_date:2026-11-19T12:55:00Z', 'cve,epss,percentile'];
  for (let i = 0; i < EPSS_ROWS; i++) {
    const year = 1999 + (i % 28);
    const seq = 1000 + Math.floor(i / 28);
    const p = ((i * 7919) % 100_000) / 100_000;
    lines.push(`CVE-${year}-${String(seq).padStart(4, '0')},${(p * p).toFixed(5)},${p.toFixed(5)}`);
  }
  return `${lines.join('\n')}\n`;
}

function kevJson() {
  const vulnerabilities = [];
  for (let i = 0; i < KEV_ENTRIES; i++)
    vulnerabilities.push({
      cveID: `CVE-${2002 + (i % 24)}-${String(1000 + i).padStart(4, '0')}`,
      vendorProject: 'Vendor',
      product: 'Product',
      vulnerabilityName: 'A vulnerability name of realistic length for the catalogue',
      dateAdded: '2023-05-01',
      shortDescription: 'x'.repeat(250),
      requiredAction: 'Apply mitigations per vendor instructions or discontinue use of the product.',
      dueDate: '2023-05-22',
      knownRansomwareCampaignUse: i % 7 === 0 ? 'Known' : 'Unknown',
      notes: 'https://example.com/advisory',
      cwes: ['CWE-78'],
    });
  return JSON.stringify({
    catalogVersion: '2026.11.19',
    dateReleased: '2026-11-19T17:00:00Z',
    count: KEV_ENTRIES,
    vulnerabilities,
  });
}

export default async function run() {
  const x = require(path.join(root, 'out/src/core/exploitation/index.js'));
  const gz = gzipSync(Buffer.from(epssCsv()));
  const kevText = kevJson();
  const chunks = [];
  for (let i = 0; i < gz.length; i += 64 * 1024) chunks.push(gz.subarray(i, i + 64 * 1024));

  // Memory on the first parse (what a window holds), time on a second one (warm JIT).
  const before = await held();
  const epss = await x.parseEpssGzip(chunks);
  if (x.isProblem(epss)) throw new Error(`EPSS: ${epss.detail}`);
  const epssBytes = (await held()) - before;
  let t0 = performance.now();
  const again = await x.parseEpssGzip(chunks);
  const epssMs = performance.now() - t0;
  if (x.isProblem(again) || again.size !== epss.size) throw new Error('EPSS: second parse differs');

  // A new window with a copy parsed before: FeedFiles reads the kept table (epss.bin), not the gzip.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-feeds-bench-'));
  let snapshotMs;
  try {
    fs.writeFileSync(path.join(dir, 'epss.csv.gz'), gz);
    const files = new x.FeedFiles({ dir, fetch });
    const parsed = await files.load('epss');
    if (x.isProblem(parsed)) throw new Error(`EPSS from disk: ${parsed.detail}`);
    if (!fs.existsSync(path.join(dir, 'epss.bin'))) throw new Error('EPSS: no snapshot kept');
    t0 = performance.now();
    const kept = await files.load('epss');
    snapshotMs = performance.now() - t0;
    if (x.isProblem(kept) || kept.size !== epss.size) throw new Error('EPSS: the kept copy differs');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const beforeKev = await held();
  t0 = performance.now();
  const kev = x.parseKev(kevText);
  const kevMs = performance.now() - t0;
  if (x.isProblem(kev)) throw new Error(`KEV: ${kev.detail}`);
  const kevBytes = (await held()) - beforeKev;

  const store = new x.ExploitationStore(kev, epss);
  const ids = Array.from(
    { length: 100_000 },
    (_, i) => `CVE-${1999 + (i % 28)}-${String(1000 + i).padStart(4, '0')}`,
  );
  t0 = performance.now();
  let hits = 0;
  for (const id of ids) if (store.lookup(id).epss) hits++;
  const lookupUs = ((performance.now() - t0) / ids.length) * 1000;

  return [
    {
      name: `EPSS parse (${(EPSS_ROWS / 1000).toFixed(0)}k rows, ${(gz.length / 1e6).toFixed(1)} MB gzip, streamed)`,
      value: Math.round(epssMs),
      unit: 'ms',
      target: '< 1500',
    },
    {
      name: 'EPSS load of a copy parsed before (kept table)',
      value: +snapshotMs.toFixed(1),
      unit: 'ms',
      note: "a new window's first need: FeedFiles reads epss.bin instead of parsing the gzip copy",
    },
    {
      name: 'EPSS: parse / load of the kept table (same run)',
      value: +(epssMs / snapshotMs).toFixed(1),
      unit: '×',
      target: '>= 5',
    },
    {
      name: 'EPSS held in memory (typed arrays)',
      value: +(epssBytes / 1024 / 1024).toFixed(1),
      unit: 'MiB',
      target: '< 8',
      note: `${(epssBytes / epss.size).toFixed(1)} B/row`,
    },
    {
      name: `KEV parse (${KEV_ENTRIES} entries, ${(kevText.length / 1e6).toFixed(1)} MB)`,
      value: Math.round(kevMs),
      unit: 'ms',
      target: '< 200',
    },
    { name: 'KEV held in memory', value: +(kevBytes / 1024 / 1024).toFixed(2), unit: 'MiB', target: '< 2' },
    {
      name: 'lookup of one CVE in both feeds',
      value: +lookupUs.toFixed(2),
      unit: 'µs',
      target: '< 20',
      note: `${hits} of ${ids.length} scored`,
    },
  ];
}

if (runDirectly(import.meta.url)) {
  for (const r of await run()) console.log(`${r.name}: ${r.value} ${r.unit}${r.note ? ` (${r.note})` : ''}`);
}
