import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

// The esbuild plugins of esbuild.mjs, and which file carries a module two bundles need.
//
// oneNamespace, for the extension's bundles (faster activation): every `import * as vscode from
// 'vscode'` (and of a `node:` module) in a bundle becomes one shared module that re-exports the
// host's, instead of esbuild's `__toESM(require('vscode'))` in each importing file, which copies
// every property of the API object each time (25 copies of `vscode` cost ~11 ms at activation).
// Both the shipped build (esbuild.mjs) and the bench's one bundle use it. In a CommonJS bundle
// the shared module then becomes the host's object itself: esbuild's `export *` would still
// copy every property once (`__reExport`: ~300 getters for `vscode`, each read through one
// afterwards), on the path of every activation; the object is the same API either way.
export const oneNamespace = {
  name: 'odin-one-namespace',
  setup(build) {
    if (build.initialOptions.format === 'cjs' && build.initialOptions.write !== false) {
      build.initialOptions.metafile = true;
      build.onEnd((result) => {
        for (const [file, out] of Object.entries(result.metafile?.outputs ?? {})) {
          if (file.endsWith('.js')) sameObject(file, out);
        }
      });
    }
    build.onResolve({ filter: /^(vscode|node:[\w/]+)$/ }, (a) =>
      a.namespace === 'odin-namespace'
        ? { path: a.path, external: true }
        : { path: a.path, namespace: 'odin-namespace' },
    );
    build.onLoad({ filter: /.*/, namespace: 'odin-namespace' }, (a) => ({
      loader: 'js',
      contents: `export * from ${JSON.stringify(a.path)};`,
    }));
  },
};

/**
 * Rewrites each shared namespace module of one output file, `__reExport(x_exports,
 * require("vscode"))` (minified: `D(n,require("vscode"))`), to `x_exports = require("vscode")`;
 * fails the build unless every namespace module of the file was rewritten, by one helper.
 */
function sameObject(file, out) {
  const expected = Object.keys(out.inputs).filter((i) => i.startsWith('odin-namespace:')).length;
  if (!expected) return;
  const helpers = new Set();
  let found = 0;
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(/([\w$]+)\(([\w$]+),\s*require\(("(?:vscode|node:[\w/]+)")\)\)/g, (_, helper, ns, mod) => {
      helpers.add(helper);
      found++;
      return `${ns}=require(${mod})`;
    });
  if (found !== expected || helpers.size !== 1)
    throw new Error(
      `${file}: ${found} of ${expected} namespace modules rewritten (helpers: ${[...helpers]})`,
    );
  fs.writeFileSync(file, text);
}

/**
 * What the MCP server leaves out of the SDK (a smaller .vsix; docs/benchmarks.md): it uses the
 * low-level `Server` with JSON Schemas of its own over stdio, so the SDK's zod 3 support
 * (`zod/v3`, `zod-to-json-schema`; its own schemas are zod 4) and its ajv provider (the server
 * elicits nothing and passes its own validator: src/agent/mcp/server.ts) become modules that
 * throw if called, as do zod's JSON Schema converters (the tools' schemas are JSON Schema
 * already); `zod/v4-mini` is `zod/v4`, and zod's locales English only.
 * The SDK is bundled from its ES modules, which import zod's (tsconfig.json maps the SDK to its
 * CommonJS build, for tsc's types), so esbuild drops what nothing calls: zod's ES modules are
 * declared free of side effects, its CommonJS ones are kept whole (`z.compile`'s code generator,
 * `z.fromJSONSchema` ...). test/unit/agent/mcp.test.ts drives this bundle with the SDK's client.
 */
export const mcpSlim = {
  name: 'odin-mcp-slim',
  setup(build) {
    // (the package's exports give `require.resolve` the CommonJS file: the ES one is beside it)
    const cjsTypes = createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/types.js');
    const sdkEsm = path.join(path.dirname(fs.realpathSync(cjsTypes)), '../esm');
    build.onResolve({ filter: /^@modelcontextprotocol\/sdk\// }, (a) => ({
      path: path.join(sdkEsm, a.path.slice('@modelcontextprotocol/sdk/'.length)),
    }));
    // A stub has the module's export names (esbuild's metafile reads them without running it).
    const stub = (what, file) => ({ path: what, namespace: 'odin-mcp-stub', pluginData: file });
    build.onResolve({ filter: /^(zod\/v3|zod-to-json-schema)$/ }, (a) => stub(a.path));
    build.onResolve(
      { filter: /\/(validation\/ajv-provider|core\/(json-schema-processors|to-json-schema))\.js$/ },
      async (a) => {
        if (a.pluginData) return undefined;
        const r = await build.resolve(a.path, {
          kind: a.kind,
          resolveDir: a.resolveDir,
          importer: a.importer,
          pluginData: true,
        });
        return stub(path.basename(a.path), r.path);
      },
    );
    build.onLoad({ filter: /.*/, namespace: 'odin-mcp-stub' }, async (a) => {
      const no = `const no = () => { throw new Error(${JSON.stringify(`odin-mcp is built without ${a.path}`)}); };`;
      if (!a.pluginData)
        return {
          contents: `${no}\nmodule.exports = new Proxy({}, { get: (_, k) => (k === '__esModule' ? false : no) });`,
        };
      const { metafile } = await build.esbuild.build({
        entryPoints: [a.pluginData],
        write: false,
        metafile: true,
        format: 'esm',
        outdir: 'x',
        logLevel: 'silent',
      });
      const names = Object.values(metafile.outputs).flatMap((o) => o.exports);
      return {
        contents: `${no}\n${names.map((n) => (n === 'default' ? 'export default no;' : `export const ${n} = no;`)).join('\n')}`,
      };
    });
    build.onResolve({ filter: /^zod\/v4-mini$/ }, (a) =>
      build.resolve('zod/v4', { kind: a.kind, resolveDir: a.resolveDir }),
    );
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (a) =>
      /[\\/]zod[\\/]/.test(a.importer)
        ? { path: path.join(a.resolveDir, '../locales/en.js'), namespace: 'odin-zod-en' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'odin-zod-en' }, (a) => ({
      resolveDir: path.dirname(a.path),
      contents: `export { default as en } from './en.js';`,
    }));
  },
};

const SHARED = '__odinShared';
const rel = (file) => path.relative(process.cwd(), file).split(path.sep).join('/');

/**
 * The extension's module map. Where a relative import goes: a part's entry (`parts`: name →
 * entry), required, stays a file of its own (`require('./<part>.js')`); a module of `swap` is
 * replaced; a module another file carries (`carriers`: module → 'extension' or 'shared') is
 * read from that file's `__odinShared` getters, so each module exists once.
 */
export const moduleMapOf = ({ parts, swap = {}, carriers = new Map() }) => {
  const partOf = new Map(Object.entries(parts).map(([name, file]) => [file, `./${name}.js`]));
  return {
    name: 'odin-module-map',
    setup(build) {
      build.onResolve({ filter: /^\./ }, async (a) => {
        if (a.namespace !== 'file' || a.pluginData) return undefined;
        const r = await build.resolve(a.path, { kind: a.kind, resolveDir: a.resolveDir, pluginData: true });
        const file = rel(r.path);
        if (a.kind === 'require-call' && partOf.has(file)) return { path: partOf.get(file), external: true };
        if (swap[file]) return { path: path.resolve(swap[file]) };
        return carriers.has(file) ? { path: file, namespace: 'odin-shared' } : r;
      });
      build.onLoad({ filter: /.*/, namespace: 'odin-shared' }, (a) => ({
        loader: 'js',
        contents: `module.exports = require(require('path').join(__dirname, '${carriers.get(a.path)}.js')).${SHARED}[${JSON.stringify(a.path)}];`,
      }));
    },
  };
};

/**
 * Which file carries each module that two bundles of the extension need, from esbuild's
 * inputs of dist/extension.js (`main`) and of each part: dist/extension.js ('extension') a
 * module it holds itself that a part imports (error classes that `instanceof` checks, context
 * keys, config), dist/shared.js ('shared') a module two or more parts hold and activation does
 * not. A part's entry is never carried (it is its own file).
 */
export function carriersOf(main, partInputs, partEntries) {
  const entries = new Set(partEntries);
  const seen = new Map();
  for (const files of partInputs)
    for (const f of Object.keys(files))
      if (!(f in main) && f.startsWith('src/') && !entries.has(f)) seen.set(f, (seen.get(f) ?? 0) + 1);
  const carriers = new Map([...seen].filter(([, n]) => n > 1).map(([f]) => [f, 'shared']));
  for (const files of partInputs)
    for (const [file, input] of Object.entries(files))
      if (!(file in main))
        for (const i of input.imports)
          if (i.path in main && !i.path.includes(':')) carriers.set(i.path, 'extension');
  return carriers;
}

/**
 * The modules dist/shared.js carries that a bundle run by plain Node (dist/mcp.js) takes from
 * it, of those the bundle holds (`inputs`, esbuild's): each whose imports never reach a module
 * dist/extension.js carries, since that file requires `vscode`.
 */
export function sharedOutsideHost(carriers, inputs) {
  const host = new Set([...carriers].filter(([, c]) => c === 'extension').map(([f]) => f));
  for (let grew = true; grew;) {
    grew = false;
    for (const [f, { imports }] of Object.entries(inputs))
      if (!host.has(f) && imports.some((i) => host.has(i.path))) grew = Boolean(host.add(f));
  }
  return new Map([...carriers].filter(([f, c]) => c === 'shared' && f in inputs && !host.has(f)));
}

/**
 * A carrier's entry (esbuild's `stdin`): its modules as `__odinShared` getters, each evaluated
 * when a part first asks for it, not when the file loads; dist/extension.js's also exports the
 * extension's entry (`reexport`).
 */
export function carrierEntry(carriers, of, reexport) {
  const getters = [...carriers]
    .filter(([, c]) => c === of)
    .map(([f]) => f)
    .sort()
    .map((f) => `get ${JSON.stringify(f)}() { return require('./${f}'); }`);
  const head = reexport ? `export * from './${reexport}';\n` : '';
  return {
    contents: `${head}export const ${SHARED} = {${getters.join(', ')}};`,
    resolveDir: process.cwd(),
    sourcefile: `${of}-entry.ts`,
    loader: 'ts',
  };
}
