import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

// The esbuild plugins of esbuild.mjs besides its module map.
//
// oneNamespace, for the extension's bundles (faster activation): every `import * as vscode from
// 'vscode'` (and of a `node:` module) in a bundle becomes one shared module that re-exports the
// host's, instead of esbuild's `__toESM(require('vscode'))` in each importing file, which copies
// every property of the API object each time (25 copies of `vscode` cost ~11 ms at activation).
// Both the shipped build (esbuild.mjs) and the bench's one bundle use it.
export const oneNamespace = {
  name: 'odin-one-namespace',
  setup(build) {
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
