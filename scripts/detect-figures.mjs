// What the detector finds, as figures to compare across changes: for the bench's 100 MB log
// and for every file of the sample workspace, in both modes, a count per kind and a checksum
// of every detection (kind, range, value, defanged, port).
//
//   npx tsc -p . --outDir out && node scripts/detect-figures.mjs [--write]
//
// --write records them in test/fixtures/detect-baseline.json (the figures from before the
// rules were restated; `npm run bench -- --only=detect` prints them beside today's).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDirectly, scriptArgs } from './args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BASELINE = path.join(root, 'test/fixtures/detect-baseline.json');
const SAMPLES = path.join(root, 'test/fixtures/sample-workspace');
const MODES = ['text', 'code'];
/**
 * A corpus of code and prose where the two modes disagree: this repository's own sources and
 * docs as they stood at this commit (before the rules were restated), read from git.
 */
const CORPUS_COMMIT = 'd7fb404';

function corpus() {
  const git = (args) => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  const files = git([
    'ls-tree',
    '-r',
    '--name-only',
    CORPUS_COMMIT,
    'src',
    'test',
    'README.md',
    'CHANGELOG.md',
  ])
    .split('\n')
    .filter(Boolean)
    .sort();
  return files.map((f) => git(['show', `${CORPUS_COMMIT}:${f}`])).join('\n');
}

/** Count per kind (and defanged) plus a sha256 over one line per detection. */
export function summarize(detections) {
  const hash = createHash('sha256');
  const counts = { ipv4: 0, ipv6: 0, cidr: 0, domain: 0, defanged: 0 };
  for (const d of detections) {
    counts[d.kind]++;
    if (d.defanged) counts.defanged++;
    hash.update(`${d.kind}\t${d.start}\t${d.end}\t${d.value}\t${d.defanged ? 1 : 0}\t${d.port ?? ''}\n`);
  }
  return { ...counts, sha256: hash.digest('hex').slice(0, 16) };
}

/** Rows of a DetectionTable as detections, without keeping them all. */
function* tableRows(table) {
  for (let i = 0; i < table.length; i++) yield table.get(i);
}

function sampleFiles(dir = SAMPLES) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sampleFiles(p));
    else out.push(p);
  }
  return out;
}

/**
 * The figures, keyed `log:<mode>` and `<sample path>:<mode>`; `log` is the bench's 100 MB text
 * (generateLog in scripts/bench/detect.mjs).
 */
export function figures(lib, log) {
  const out = {};
  for (const mode of MODES) out[`log:${mode}`] = summarize(tableRows(lib.detectTable(log, { mode })));
  const sources = corpus();
  for (const mode of MODES) out[`repo@${CORPUS_COMMIT}:${mode}`] = summarize(lib.detect(sources, { mode }));
  for (const file of sampleFiles()) {
    const text = fs.readFileSync(file, 'utf8');
    const name = path.relative(SAMPLES, file).split(path.sep).join('/');
    for (const mode of MODES) out[`${name}:${mode}`] = summarize(lib.detect(text, { mode }));
  }
  return out;
}

/**
 * Differences from the baseline that are fixes, each with a test (test/unit/detect/detect.test.ts,
 * "finds names written in Unicode" and "finds domains next to CJK text").
 */
export const FIXES = {
  'repo@d7fb404:text':
    'fix: names written in Unicode are found whole (münchen.de twice, déjàexample.com): +3 domains',
  'repo@d7fb404:code':
    'fix: names written in Unicode are found whole (münchen.de twice, déjàexample.com): +3 domains',
};

/**
 * Lines comparing `now` with the recorded baseline: equal, or what changed. `added`: a sample
 * file the baseline does not know (added after it was recorded), so nothing to compare.
 */
export function compare(now, before = JSON.parse(fs.readFileSync(BASELINE, 'utf8'))) {
  const rows = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(now)])) {
    const a = before[key];
    const b = now[key];
    const same = a && b && JSON.stringify(a) === JSON.stringify(b);
    const added = a === undefined;
    rows.push({ key, same, added, before: a, after: b, fix: same || added ? undefined : FIXES[key] });
  }
  return rows;
}

/** A comparison's word: same, fixed (a listed fix), new (no baseline) or DIFF. */
export function verdict(row) {
  return row.same ? 'same' : row.added ? 'new' : row.fix ? 'fixed' : 'DIFF';
}

if (runDirectly(import.meta.url)) {
  const { values } = scriptArgs(import.meta.url, { write: { type: 'boolean' } });
  const require = createRequire(import.meta.url);
  const lib = require(path.join(root, process.env.DETECT_OUT ?? 'out', 'src/core/detect/index.js'));
  const { generateLog } = await import('./bench/detect.mjs');
  const now = figures(lib, generateLog(100 * 1024 * 1024));
  if (values.write) {
    fs.writeFileSync(BASELINE, `${JSON.stringify(now, null, 1)}\n`);
    console.log(`wrote ${path.relative(root, BASELINE)}`);
  }
  for (const r of compare(now, fs.existsSync(BASELINE) ? undefined : now)) {
    const f = r.after;
    console.log(
      `${verdict(r).padEnd(5)} ${r.key.padEnd(40)} ipv4 ${f?.ipv4} ipv6 ${f?.ipv6} cidr ${f?.cidr} domain ${f?.domain} defanged ${f?.defanged} ${f?.sha256}`,
    );
  }
}
