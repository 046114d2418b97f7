// Bench section: activation of the extension inside the real host, against an empty
// extension measured in the same run (the host itself costs ~25 ms per activation), and
// the size of the code loaded at activation. Production build, as users get it.
//
// Env: ODIN_BENCH_REPS (default 5) host starts per extension.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHost } from '../host/host.mjs';
import { stageProductionBuild } from '../package.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const BUDGETS = { overheadMs: 50, activationKB: 150 };

// Runs inside the extension host as the "tests": activates one extension, measures it,
// and reports which of its files were loaded.
const ENTRY = `
const vscode = require('vscode');
const fs = require('fs');
const path = require('path');
exports.run = async function () {
  const id = process.env.ODIN_BENCH_EXT_ID;
  const ext = vscode.extensions.getExtension(id);
  if (!ext) throw new Error('extension not found: ' + id);
  if (ext.isActive) throw new Error('already active: activation events were not removed');
  const before = new Set(Object.keys(require.cache));
  const t0 = performance.now();
  await ext.activate();
  const ms = performance.now() - t0;
  const base = fs.realpathSync(ext.extensionPath) + path.sep;
  const loaded = Object.keys(require.cache)
    .filter((f) => !before.has(f) && f.startsWith(base))
    .map((f) => ({ file: path.relative(base, f), bytes: fs.statSync(f).size }));
  console.log('ODIN-BENCH ' + JSON.stringify({ id, ms, loaded }));
};
`;

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function measure({ devPath, id, entry, workspace }) {
  const host = await startHost({
    workspace,
    trusted: true,
    extensionDevelopmentPath: devPath,
    extensionTestsPath: entry,
    env: { ODIN_BENCH_EXT_ID: id, ODIN_API_KEY: 'bench-key-not-sent' },
    // Nothing may be contacted during activation: an address where nothing listens.
    userSettings: { 'odin.apiBaseUrl': 'http://127.0.0.1:9' },
    timeoutMs: 3 * 60_000,
  });
  try {
    const code = await host.waitForExit(2 * 60_000);
    const line = host.logs.map((l) => /ODIN-BENCH (\{.*\})/.exec(l.msg)?.[1]).find(Boolean);
    if (!line) throw new Error(`no measurement (exit ${code}): ${host.logs.slice(-5).map((l) => l.msg).join(' | ')}`);
    return JSON.parse(line);
  } finally {
    await host.stop();
  }
}

export default async function run() {
  const reps = Math.max(1, Number(process.env.ODIN_BENCH_REPS ?? 5));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-bench-activation-'));
  let staged;
  try {
    // Ours: the production build, with activation events removed so it activates only
    // when the measuring entry asks.
    staged = stageProductionBuild();
    const pkgFile = path.join(staged, 'package.json');
    const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
    const ourId = `${pkg.publisher}.${pkg.name}`;
    pkg.activationEvents = [];
    fs.writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));

    const empty = path.join(work, 'empty-extension');
    fs.mkdirSync(empty);
    fs.writeFileSync(
      path.join(empty, 'package.json'),
      JSON.stringify({ name: 'empty', publisher: 'odin-bench', version: '0.0.0', main: './extension.js', engines: { vscode: '^1.100.0' }, activationEvents: [] }),
    );
    fs.writeFileSync(path.join(empty, 'extension.js'), 'exports.activate = function () {};\nexports.deactivate = function () {};\n');

    const entry = path.join(work, 'bench-entry.js');
    fs.writeFileSync(entry, ENTRY);
    const workspace = path.join(work, 'sample-workspace');
    fs.cpSync(path.join(root, 'test', 'fixtures', 'sample-workspace'), workspace, { recursive: true });

    const ours = [];
    const base = [];
    let loaded = [];
    for (let i = 0; i < reps; i++) {
      // Alternate the order so that neither side always gets the warmer disk cache.
      const order = i % 2 ? ['ours', 'empty'] : ['empty', 'ours'];
      for (const which of order) {
        if (which === 'empty') base.push((await measure({ devPath: empty, id: 'odin-bench.empty', entry, workspace })).ms);
        else {
          const r = await measure({ devPath: staged, id: ourId, entry, workspace });
          ours.push(r.ms);
          loaded = r.loaded;
        }
      }
    }

    const parts = await largestParts();
    const main = path.join(staged, (pkg.main ?? './dist/extension.js').replace(/^\.\//, ''));
    const mainKB = fs.statSync(main).size / 1024;
    const loadedKB = loaded.reduce((a, f) => a + f.bytes, 0) / 1024;
    const overhead = median(ours) - median(base);
    return [
      { name: 'activation: empty extension (host cost)', value: round(median(base)), unit: 'ms', note: `median of ${reps}: ${base.map(round).join(', ')}` },
      { name: 'activation: ODIN', value: round(median(ours)), unit: 'ms', note: `median of ${reps}: ${ours.map(round).join(', ')}` },
      { name: 'activation overhead over empty', value: round(overhead), unit: 'ms', target: `< ${BUDGETS.overheadMs}` },
      { name: 'dist/extension.js (production)', value: round(mainKB), unit: 'KB' },
      {
        name: 'code loaded at activation',
        value: round(loadedKB),
        unit: 'KB',
        target: `< ${BUDGETS.activationKB}`,
        note: loaded.map((f) => `${f.file} ${round(f.bytes / 1024)} KB`).join(', '),
      },
      { name: 'largest parts of the activation bundle', value: round(parts.reduce((a, p) => a + p.kb, 0)), unit: 'KB', note: parts.map((p) => `${p.name} ${p.kb} KB`).join(', ') },
    ];
  } finally {
    if (staged) fs.rmSync(staged, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** What the minified extension bundle is made of, by npm package or source folder (top 5). */
async function largestParts() {
  const esbuild = await import('esbuild');
  // Same options as esbuild.mjs's production "extension" target.
  const r = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/extension/extension.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    alias: { tldts: './src/extension/lazy/pslLoader.ts' },
    minify: true,
    write: false,
    metafile: true,
    outdir: path.join(os.tmpdir(), 'odin-bench-meta'),
    logLevel: 'silent',
  });
  const out = Object.entries(r.metafile.outputs).find(([f]) => f.endsWith('.js'))?.[1];
  const groups = new Map();
  for (const [file, v] of Object.entries(out?.inputs ?? {})) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
    const key = m ? m[1] : file.split('/').slice(0, 3).join('/');
    groups.set(key, (groups.get(key) ?? 0) + v.bytesInOutput);
  }
  return [...groups]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([name, bytes]) => ({ name, kb: round(bytes / 1024) }));
}

function round(x) {
  return Math.round(x * 10) / 10;
}
