// Bundles the extension, the parts it loads on first use, the pages, the MCP server, the
// hunt runner and the API emulator (ARCHITECTURE.md, "Bundles"; docs/benchmarks.md).
// Usage: node esbuild.mjs [--watch] [--production] [--analyze] [--inputs] [--only=a,b] [--out=FILE]
//   --inputs   write nothing; print each bundle's source files as JSON (test/unit/package/bundles.test.ts)
//   --out=FILE the one target of --only as a file standing alone (scripts/package-npm.mjs)
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import { writeCodicons } from './scripts/codicons.mjs';
import {
  carriersOf,
  carrierEntry,
  mcpSlim,
  moduleMapOf,
  oneNamespace,
  sharedOutsideHost,
} from './scripts/esbuild-plugins.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const [production, analyze, inputsOnly, watch] = ['production', 'analyze', 'inputs', 'watch'].map((f) =>
  args.includes(`--${f}`),
);
const [only, out] = [flag('only')?.split(','), flag('out')];
const version = JSON.stringify(JSON.parse(fs.readFileSync('package.json', 'utf8')).version);

/**
 * The parts of the extension loaded on first use, each a bundle of its own: a `require()` of
 * a part's entry module (a feature's stand-in `require('./index')`, ctx.ts's of the feeds,
 * the loaders' of `./psl` and `./lucene`) becomes `require('./<part>.js')`. One per line.
 */
export const PARTS = {
  search: 'src/extension/search/index.ts',
  details: 'src/extension/details/index.ts',
  lookup: 'src/extension/lookup/index.ts',
  triage: 'src/extension/triage/index.ts',
  hunts: 'src/extension/hunts/index.ts',
  agent: 'src/extension/agent/index.ts',
  notebook: 'src/extension/notebook/index.ts',
  feeds: 'src/extension/shared/feeds.ts',
  connection: 'src/extension/shared/connection.ts',
  psl: 'src/extension/lazy/psl.ts',
  lucene: 'src/extension/lazy/lucene.ts',
};
const ENTRY = 'src/extension/extension.ts';
// The shipped emulator (demo data) gets plain labels in place of the tests' attacker payloads.
const swap = { 'src/emulator/hostile.ts': 'src/emulator/hostileShipped.ts' };
const moduleMap = (carriers) => moduleMapOf({ parts: PARTS, swap, carriers });

const node = { platform: 'node', format: 'cjs', target: 'node20', outdir: 'dist' };
// In the extension's bundles every other import of `tldts` or `lucene` goes through its loader.
const LOADERS = {
  tldts: './src/extension/lazy/pslLoader.ts',
  lucene: './src/extension/lazy/luceneLoader.ts',
};
const inHost = { ...node, external: ['vscode'], alias: LOADERS, plugins: [moduleMap(), oneNamespace] };
const cli = { ...node, banner: { js: '#!/usr/bin/env node' }, define: { ODIN_VERSION: version } };
const browser = { platform: 'browser', target: 'es2022', outdir: 'dist', format: 'iife' };
const esm = { ...browser, format: 'esm', loader: { '.css': 'text' } };
const beside = { alias: LOADERS, plugins: [mcpSlim, moduleMap()] };

/** @type {Record<string, import('esbuild').BuildOptions>} */
const targets = {
  extension: { ...inHost, entryPoints: { extension: ENTRY } },
  // `main`, dist/extension.js: loads dist/main.js (the target above) through its code cache
  // (src/extension/codeCache.ts); the parts read the modules it carries from its exports.
  start: { ...node, entryPoints: { extension: 'src/extension/start.ts' } },
  ...Object.fromEntries(
    Object.entries(PARTS).map(([name, entry]) => [name, { ...inHost, entryPoints: { [name]: entry } }]),
  ),
  psl: { ...node, entryPoints: { psl: PARTS.psl } },
  lucene: { ...node, entryPoints: { lucene: PARTS.lucene } },
  // Demo data, without the tests' attacker payloads (HOSTILE) and harness (src/emulator/demo.ts).
  emulator: { ...node, entryPoints: { emulator: 'src/emulator/demo.ts' }, plugins: [moduleMap()] },
  // 'dist/dev/emulator.js' (`npm run emulator`): the whole emulator (admin API, faults); not in the .vsix.
  emulatorCli: {
    ...node,
    outdir: 'dist/dev',
    entryPoints: { emulator: 'src/emulator/cli.ts' },
    plugins: [moduleMap()],
  },
  // `odin-mcp`: in the .vsix it takes the suffix list, the parser and the core from psl.js,
  // lucene.js and shared.js (below).
  mcp: { ...cli, ...beside, entryPoints: { mcp: 'src/agent/mcp/cli.ts' } },
  // 'dist/ci/hunt.js' and 'dist/ci/action.js' (odin-hunt, the GitHub Action): not in the .vsix.
  hunt: { ...cli, outdir: 'dist/ci', entryPoints: { hunt: 'src/hunt/bin.ts' } },
  action: { ...cli, outdir: 'dist/ci', entryPoints: { action: 'src/hunt/action.ts' }, banner: undefined },
  webview: {
    ...browser,
    entryPoints: {
      webview: 'src/webview/main.ts',
      'triage-view': 'src/webview/triage/main.ts',
      'chart-view': 'src/webview/charts/main.ts',
      'map-view': 'src/webview/map/main.ts',
    },
  },
  // contributes.notebookRenderer: an ES module the notebook loads.
  notebookRenderer: { ...esm, entryPoints: { 'notebook-renderer': 'src/webview/notebook/renderer.ts' } },
};
const common = { bundle: true, minify: production, sourcemap: !production, sourcesContent: false };
Object.assign(common, { logLevel: 'warning', legalComments: 'none' });
const inputsOf = async (opts) =>
  (await esbuild.build({ ...common, ...opts, minify: false, sourcemap: false, write: false, metafile: true }))
    .metafile.inputs;

const selected = Object.entries(targets).filter(([name]) => !only || only.includes(name));
if (out) {
  // One file standing alone (the npm packages): every part inside, no shared modules.
  const [[, opts]] = selected;
  const plugins = opts.plugins?.filter((p) => p === mcpSlim);
  Object.assign(opts, { outdir: undefined, outfile: out, alias: undefined, plugins });
} else if (!only || ['extension', 'shared', 'mcp', ...Object.keys(PARTS)].some((n) => only.includes(n))) {
  if (only?.includes('extension') && !only.includes('start')) selected.push(['start', targets.start]);
  // Which file carries a module two bundles need (scripts/esbuild-plugins.mjs carriersOf):
  // dist/extension.js what it holds itself, dist/shared.js what two or more parts hold besides.
  const inParts = Object.keys(PARTS).filter((n) => targets[n].plugins);
  const inputs = await Promise.all(inParts.map((n) => inputsOf(targets[n])));
  const carriers = carriersOf(await inputsOf(targets.extension), inputs, Object.values(PARTS));
  // dist/mcp.js (plain Node) takes the modules of dist/shared.js that never load `vscode`.
  targets.mcp.plugins = [mcpSlim, moduleMap(sharedOutsideHost(carriers, await inputsOf(targets.mcp)))];
  for (const name of inParts) targets[name].plugins = [moduleMap(carriers), oneNamespace];
  const fromMain = new Map([...carriers].filter(([, c]) => c === 'extension'));
  const shared = { stdin: carrierEntry(carriers, 'shared'), outdir: undefined, outfile: 'dist/shared.js' };
  targets.shared = { ...inHost, ...shared, plugins: [moduleMap(fromMain), oneNamespace] };
  const entry = { stdin: carrierEntry(carriers, 'extension', ENTRY), entryPoints: undefined };
  Object.assign(targets.extension, entry, { outdir: undefined, outfile: 'dist/main.js' });
  if (!only || only.includes('shared')) selected.push(['shared', targets.shared]);
}

if (!inputsOnly && (!only || only.includes('webview'))) await writeCodicons();
// The pages' stylesheet (media/details.css) as they load it, minified in production; the
// notebook renderer embeds this copy, so it is written before the bundles.
const styles = { ...common, entryPoints: ['media/details.css'], outfile: 'dist/details.css' };
const withStyles = !only || ['webview', 'notebookRenderer'].some((n) => only.includes(n));
if (!inputsOnly && withStyles) await esbuild.build(styles);
if (inputsOnly) {
  const inputs = {};
  for (const [name, opts] of selected) inputs[name] = Object.keys(await inputsOf(opts));
  console.log(JSON.stringify(inputs));
} else if (watch) {
  for (const [, opts] of selected) await (await esbuild.context({ ...common, ...opts })).watch();
  // A change of the stylesheet rewrites dist/details.css, and the renderer that embeds it follows.
  if (withStyles) await (await esbuild.context(styles)).watch();
  console.log('[esbuild] watching', selected.map(([n]) => n).join(', '));
} else {
  const build = ([, opts]) => esbuild.build({ ...common, ...opts, metafile: analyze });
  const results = await Promise.all(selected.map(build));
  if (analyze) for (const r of results) console.log(await esbuild.analyzeMetafile(r.metafile));
}
