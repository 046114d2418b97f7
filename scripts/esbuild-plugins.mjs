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
 * throw if called, as do zod's JSON Schema converters (both ways: the tools' schemas are JSON
 * Schema already); `zod/v4-mini` is `zod/v4`, and zod's locales English only.
 */
export const mcpSlim = {
  name: 'odin-mcp-slim',
  setup(build) {
    const stub = (what) => ({ path: what, namespace: 'odin-mcp-stub' });
    build.onResolve({ filter: /^(zod\/v3|zod-to-json-schema)$/ }, (a) => stub(a.path));
    build.onResolve(
      {
        filter:
          /\/(validation\/ajv-provider\.js|from-json-schema\.cjs|json-schema-processors\.cjs|to-json-schema\.cjs)$/,
      },
      (a) => stub(path.basename(a.path)),
    );
    build.onLoad({ filter: /.*/, namespace: 'odin-mcp-stub' }, (a) => ({
      contents: `const no = () => { throw new Error(${JSON.stringify(`odin-mcp is built without ${a.path}`)}); };
module.exports = new Proxy({}, { get: (_, k) => (k === '__esModule' ? false : no) });`,
    }));
    build.onResolve({ filter: /^zod\/v4-mini$/ }, (a) =>
      build.resolve('zod/v4', { kind: a.kind, resolveDir: a.resolveDir }),
    );
    build.onResolve({ filter: /^\.\.\/locales\/index\.c?js$/ }, (a) =>
      /[\\/]zod[\\/]/.test(a.importer)
        ? { path: path.join(a.resolveDir, '../locales/en.cjs'), namespace: 'odin-zod-en' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'odin-zod-en' }, (a) => ({
      resolveDir: path.dirname(a.path),
      contents: `exports.en = require('./en.cjs').default;`,
    }));
  },
};
