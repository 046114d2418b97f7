// An esbuild plugin for the extension's bundles (faster activation): every `import * as vscode from
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
