// Bundles the extension, its lazily loaded features, the webview script and the API emulator.
// Usage: node esbuild.mjs [--watch] [--production] [--analyze] [--inputs] [--only=extension,search,details,triage,hunts,agent,psl,lucene,emulator,mcp,hunt,action,webview]
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { oneNamespace } from './scripts/esbuild-namespaces.mjs';

const args = process.argv.slice(2);
const watch = args.includes('--watch');
const production = args.includes('--production');
// --analyze: print what each bundle is made of (esbuild's metafile), largest first.
const analyze = args.includes('--analyze');
// --inputs: write nothing, print each bundle's source files as JSON (test/unit/bundles.test.ts).
const inputsOnly = args.includes('--inputs');
const mcpOut = args.find((a) => a.startsWith('--mcp-out='))?.slice('--mcp-out='.length);
const huntOut = args.find((a) => a.startsWith('--hunt-out='))?.slice('--hunt-out='.length);
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : null;

const node = { platform: 'node', format: 'cjs', target: 'node20', outdir: 'dist' };

/**
 * Where the lazily loaded parts live. Each feature's stand-in (src/extension/<feature>/lazy.ts)
 * loads it with `require('./index')` on first use, src/extension/lazy/pslLoader.ts the
 * public suffix list with `require('tldts')` and luceneLoader.ts the query parser with
 * `require('lucene')`; here those calls become `require('./<feature>.js')`, `require('./psl.js')`
 * and `require('./lucene.js')` (bundles of their own), and every other import of `tldts` or
 * `lucene` goes through its loader. `npm run bench -- --only=activation` builds the same sources as one
 * bundle (without this plugin) and measures both in one run (docs/benchmarks.md).
 */
export const LAZY_FEATURES = ['search', 'details', 'triage', 'hunts', 'agent', 'notebook'];
const PSL_LOADER = path.resolve('src/extension/lazy/pslLoader.ts');
const LUCENE_LOADER = path.resolve('src/extension/lazy/luceneLoader.ts');
const STAND_INS = new Map(
  LAZY_FEATURES.map((f) => [path.resolve(`src/extension/${f}/lazy.ts`), `./${f}.js`]),
);
const lazyParts = {
  name: 'odin-lazy-parts',
  setup(build) {
    build.onResolve({ filter: /^\.\/index$/ }, (a) =>
      STAND_INS.has(a.importer) ? { path: STAND_INS.get(a.importer), external: true } : undefined,
    );
    build.onResolve({ filter: /^tldts$/ }, (a) =>
      a.importer === PSL_LOADER ? { path: './psl.js', external: true } : { path: PSL_LOADER },
    );
    build.onResolve({ filter: /^lucene$/ }, (a) =>
      a.importer === LUCENE_LOADER ? { path: './lucene.js', external: true } : { path: LUCENE_LOADER },
    );
  },
};

/** dist/mcp.js in the .vsix: `tldts` and `lucene` from dist/psl.js and dist/lucene.js. */
const besideMcp = {
  name: 'odin-mcp-beside',
  setup(build) {
    build.onResolve({ filter: /^tldts$/ }, () => ({ path: './psl.js', external: true }));
    build.onResolve({ filter: /^lucene$/ }, () => ({ path: './lucene.js', external: true }));
  },
};

/**
 * What the MCP server bundle leaves out of the SDK (a smaller .vsix; sizes in docs/benchmarks.md).
 * The server uses the SDK's low-level `Server` with JSON Schemas of its own, over stdio, so:
 * - `zod/v3` and `zod-to-json-schema`: the SDK's support for tools declared with zod 3
 *   schemas (McpServer); the SDK's own schemas are zod 4, and `isZ4Schema` sends every parse
 *   there. Both become a module that throws if it is ever called.
 * - `ajv`: the SDK validates elicitation answers with it; the server elicits nothing and
 *   passes its own refusing validator (src/agent/mcp/server.ts), so the SDK's ajv provider
 *   becomes a module that throws.
 * - `zod/v4-mini` → `zod/v4` (the classic API has the same `object` and `safeParse`), and
 *   zod's 50 error-message locales → English only (the SDK never sets another).
 */
const mcpSlim = {
  name: 'odin-mcp-slim',
  setup(build) {
    const stub = (what) => ({ path: what, namespace: 'odin-mcp-stub' });
    build.onResolve({ filter: /^(zod\/v3|zod-to-json-schema)$/ }, (a) => stub(a.path));
    build.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, () => stub('ajv-provider'));
    build.onLoad({ filter: /.*/, namespace: 'odin-mcp-stub' }, (a) => ({
      loader: 'js',
      contents: `const no = () => { throw new Error(${JSON.stringify(`odin-mcp is built without ${a.path}`)}); };
module.exports = new Proxy({}, { get: (_, k) => (k === '__esModule' ? false : no) });`,
    }));
    build.onResolve({ filter: /^zod\/v4-mini$/ }, (a) =>
      build.resolve('zod/v4', { kind: a.kind, resolveDir: a.resolveDir }),
    );
    build.onResolve({ filter: /^\.\.\/locales\/index\.c?js$/ }, (a) =>
      /[\\/]zod[\\/]/.test(a.importer)
        ? { path: path.join(a.resolveDir, '../locales/en-only.cjs'), namespace: 'odin-zod-en' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'odin-zod-en' }, (a) => ({
      loader: 'js',
      resolveDir: path.dirname(a.path),
      contents: `exports.en = require('./en.cjs').default;`,
    }));
  },
};

/** The emulator bundle gets the demo's plain labels in place of the tests' attacker payloads. */
const HOSTILE = path.resolve('src/emulator/hostile.ts');
const noTestPayloads = {
  name: 'odin-no-test-payloads',
  setup(build) {
    build.onResolve({ filter: /^\.\/hostile$/ }, (a) =>
      path.join(a.resolveDir, 'hostile.ts') === HOSTILE
        ? { path: path.resolve('src/emulator/hostileShipped.ts') }
        : undefined,
    );
  },
};

// `vscode` is provided by the host at run time.
const extensionHost = {
  ...node,
  external: ['vscode'],
  plugins: [lazyParts, oneNamespace],
};

/** @type {Record<string, import('esbuild').BuildOptions>} */
const targets = {
  // What loads at activation: the composition root, hovers, keys, and the stand-ins that
  // register the search and details features' commands and views.
  extension: { ...extensionHost, entryPoints: { extension: 'src/extension/extension.ts' } },
  // Features loaded on first use (src/extension/search/lazy.ts, details/lazy.ts).
  search: { ...extensionHost, entryPoints: { search: 'src/extension/search/index.ts' } },
  details: { ...extensionHost, entryPoints: { details: 'src/extension/details/index.ts' } },
  triage: { ...extensionHost, entryPoints: { triage: 'src/extension/triage/index.ts' } },
  hunts: { ...extensionHost, entryPoints: { hunts: 'src/extension/hunts/index.ts' } },
  agent: { ...extensionHost, entryPoints: { agent: 'src/extension/agent/index.ts' } },
  notebook: { ...extensionHost, entryPoints: { notebook: 'src/extension/notebook/index.ts' } },
  psl: { ...node, entryPoints: { psl: 'src/extension/lazy/psl.ts' } },
  lucene: { ...node, entryPoints: { lucene: 'src/extension/lazy/lucene.ts' } },
  // Loaded lazily by the extension ("Try with demo data") and by `npm run emulator`; without
  // the tests' attacker payloads (src/emulator/hostileShipped.ts).
  emulator: { ...node, entryPoints: { emulator: 'src/emulator/cli.ts' }, plugins: [noTestPayloads] },
  // The MCP server (`odin-mcp`, `npm run mcp`): the agent tools over stdio, SDK bundled in,
  // with one schema library (zod 4): see mcpSlim. `--mcp-out=FILE` writes it elsewhere
  // (scripts/package-mcp.mjs: the npm package of packages/odin-mcp/).
  mcp: {
    ...node,
    // In the .vsix, dist/mcp.js takes the suffix list and the query parser from the bundles
    // beside it (psl.js, lucene.js) instead of a second copy of each; the npm package's one
    // file (`--mcp-out`) keeps them inside.
    plugins: mcpOut ? [mcpSlim] : [mcpSlim, besideMcp],
    ...(mcpOut
      ? { entryPoints: ['src/agent/mcp/cli.ts'], outdir: undefined, outfile: mcpOut }
      : { entryPoints: { mcp: 'src/agent/mcp/cli.ts' } }),
    banner: { js: '#!/usr/bin/env node' },
    define: {
      ODIN_VERSION: JSON.stringify(
        JSON.parse((await import('node:fs')).readFileSync('package.json', 'utf8')).version,
      ),
    },
  },
  // The hunt runner (`odin-hunt`, `npm run hunt`): the editor's hunts in CI, one file, no
  // dependencies. `--hunt-out=FILE` writes it elsewhere (scripts/package-hunt.mjs).
  hunt: {
    ...node,
    // dist/ci/: not in the .vsix (.vscodeignore ships dist/*.js only); the extension never loads it.
    outdir: undefined,
    entryPoints: ['src/hunt/bin.ts'],
    outfile: huntOut ?? 'dist/ci/hunt.js',
    banner: { js: '#!/usr/bin/env node' },
    define: { ODIN_VERSION: JSON.stringify(JSON.parse(fs.readFileSync('package.json', 'utf8')).version) },
  },
  // The GitHub Action (action.yml at the repository's top): runs the hunt runner in-process.
  action: {
    ...node,
    outdir: undefined,
    entryPoints: ['src/hunt/action.ts'],
    outfile: 'dist/ci/action.js',
    define: { ODIN_VERSION: JSON.stringify(JSON.parse(fs.readFileSync('package.json', 'utf8')).version) },
  },
  // Runs inside the webview (a browser sandbox): no Node APIs.
  webview: {
    entryPoints: {
      webview: 'src/webview/main.ts',
      'triage-view': 'src/webview/triage/main.ts',
      'chart-view': 'src/webview/charts/main.ts',
      'map-view': 'src/webview/map/main.ts',
    },
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    outdir: 'dist',
  },
  // The notebook renderer (contributes.notebookRenderer): an ES module the notebook loads.
  notebookRenderer: {
    entryPoints: { 'notebook-renderer': 'src/webview/notebook/renderer.ts' },
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    outdir: 'dist',
    loader: { '.css': 'text' },
  },
};

/** The feature bundles, which take the modules they share with dist/extension.js from it. */
const FEATURES = LAZY_FEATURES;
const SHARED_EXPORT = '__odinShared';

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
};

/** The files a target bundles and what each imports (paths relative to this folder). */
async function inputsOf(opts) {
  const r = await esbuild.build({
    ...common,
    ...opts,
    minify: false,
    sourcemap: false,
    write: false,
    metafile: true,
  });
  return r.metafile.inputs;
}

/**
 * One instance of every module: a module that both dist/extension.js and a feature bundle
 * need (the API error classes that `instanceof` checks, the context-key and probe state,
 * config, the privacy filter) is bundled into dist/extension.js only, which exports the
 * ones a feature imports by path; the feature's import becomes a lookup in that export.
 */
async function shareModules() {
  const main = await inputsOf(targets.extension);
  const shared = new Set();
  for (const name of FEATURES) {
    for (const [file, input] of Object.entries(await inputsOf(targets[name]))) {
      if (file in main) continue;
      // (Not the plugins' virtual modules, `odin-namespace:vscode`: each bundle has its own.)
      for (const i of input.imports) if (i.path in main && !i.path.includes(':')) shared.add(i.path);
    }
  }
  const list = [...shared].sort();

  // dist/extension.js: the real entry, plus the shared modules by path.
  const entry = targets.extension.entryPoints.extension;
  targets.extension = {
    ...targets.extension,
    entryPoints: { extension: 'odin-entry' },
    plugins: [
      ...targets.extension.plugins,
      {
        name: 'odin-entry',
        setup(build) {
          build.onResolve({ filter: /^odin-entry$/ }, () => ({
            path: 'odin-entry',
            namespace: 'odin-entry',
          }));
          build.onLoad({ filter: /.*/, namespace: 'odin-entry' }, () => ({
            resolveDir: process.cwd(),
            loader: 'ts',
            // Each shared module through a getter: evaluated when a feature first asks for
            // it, not at activation (a shared module activation itself does not import, such
            // as the exploitation feeds' index, stays out of activation).
            contents: [
              `export * from './${entry}';`,
              `export const ${SHARED_EXPORT} = {${list.map((f) => `get ${JSON.stringify(f)}() { return require('./${f}'); }`).join(', ')}};`,
            ].join('\n'),
          }));
        },
      },
    ],
  };

  // Feature bundles: imports of shared modules read dist/extension.js's export.
  const sharedSet = new Set(list);
  for (const name of FEATURES) {
    targets[name] = {
      ...targets[name],
      plugins: [
        ...targets[name].plugins,
        {
          name: 'odin-shared',
          setup(build) {
            build.onResolve({ filter: /^\./ }, async (a) => {
              if (a.namespace !== 'file' || a.pluginData === 'odin-shared') return undefined;
              const r = await build.resolve(a.path, {
                kind: a.kind,
                resolveDir: a.resolveDir,
                pluginData: 'odin-shared',
              });
              const rel = path.relative(process.cwd(), r.path).split(path.sep).join('/');
              return sharedSet.has(rel) ? { path: rel, namespace: 'odin-shared' } : undefined;
            });
            build.onLoad({ filter: /.*/, namespace: 'odin-shared' }, (a) => ({
              loader: 'js',
              contents: `module.exports = require(require('path').join(__dirname, 'extension.js')).${SHARED_EXPORT}[${JSON.stringify(a.path)}];`,
            }));
          },
        },
      ],
    };
  }
}

if (!only || only.has('extension') || FEATURES.some((f) => only.has(f))) await shareModules();

const selected = Object.entries(targets).filter(([name]) => !only || only.has(name));

// The pages load the codicon font from the extension's own files (CSP: no remote fonts),
// cut to the glyphs they draw (src/webview/icons.ts): ~3 KB instead of 126 KB + 34 KB of CSS.
if (!inputsOnly && (!only || only.has('webview'))) await writeCodicons();

async function writeCodicons() {
  const src = 'node_modules/@vscode/codicons/dist';
  const list = /export const ICONS = \[([^\]]*)\]/.exec(fs.readFileSync('src/webview/icons.ts', 'utf8'));
  const names = [...(list?.[1] ?? '').matchAll(/'([a-z0-9-]+)'/g)].map((m) => m[1]);
  const css = fs.readFileSync(`${src}/codicon.css`, 'utf8');
  const rules = names.map((name) => {
    const rule = new RegExp(`^\\.codicon-${name}:before \\{ content: "\\\\([0-9a-f]+)" \\}$`, 'm').exec(css);
    if (!rule) throw new Error(`src/webview/icons.ts names "${name}", which @vscode/codicons does not have`);
    return { name, code: parseInt(rule[1], 16), line: rule[0] };
  });
  const { default: subsetFont } = await import('subset-font');
  const ttf = await subsetFont(
    fs.readFileSync(`${src}/codicon.ttf`),
    rules.map((r) => String.fromCodePoint(r.code)).join(''),
    { targetFormat: 'truetype' },
  );
  // The stylesheet's head (licence, @font-face, the .codicon rule, the spin modifier) up to
  // the first glyph rule, then one rule per glyph kept.
  const head = css.slice(0, css.search(/^\.codicon-[a-z0-9-]+:before/m));
  fs.mkdirSync('dist/codicons', { recursive: true });
  fs.writeFileSync('dist/codicons/codicon.ttf', ttf);
  fs.writeFileSync(
    'dist/codicons/codicon.css',
    `${head.replace(/codicon\.ttf\?[0-9a-f]+/, 'codicon.ttf')}${rules.map((r) => r.line).join('\n')}\n`,
  );
}
if (inputsOnly) {
  const inputs = {};
  for (const [name, opts] of selected) inputs[name] = Object.keys(await inputsOf(opts));
  console.log(JSON.stringify(inputs));
} else if (watch) {
  for (const [, opts] of selected) {
    const ctx = await esbuild.context({ ...common, ...opts });
    await ctx.watch();
  }
  console.log('[esbuild] watching', selected.map(([n]) => n).join(', '));
} else {
  const results = await Promise.all(
    selected.map(([, opts]) => esbuild.build({ ...common, ...opts, metafile: true })),
  );
  if (process.env.ODIN_METAFILE_DIR)
    for (const [i, [name]] of selected.entries())
      fs.writeFileSync(
        path.join(process.env.ODIN_METAFILE_DIR, `${name}.json`),
        JSON.stringify(results[i].metafile),
      );
  if (analyze) for (const r of results) console.log(await esbuild.analyzeMetafile(r.metafile));
}
