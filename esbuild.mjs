// Bundles the extension, the webview script and the API emulator.
// Usage: node esbuild.mjs [--watch] [--production] [--only=extension,webview,emulator]
import * as esbuild from 'esbuild';

const args = process.argv.slice(2);
const watch = args.includes('--watch');
const production = args.includes('--production');
const onlyArg = args.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice('--only='.length).split(',')) : null;

/** @type {Record<string, import('esbuild').BuildOptions>} */
const targets = {
  // The extension host entry. `vscode` is provided by the host at run time.
  extension: {
    entryPoints: { extension: 'src/extension/extension.ts' },
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // The public suffix list is loaded on first use from dist/psl.js, not at activation.
    alias: { tldts: './src/extension/pslLazy.ts' },
    outdir: 'dist',
  },
  psl: {
    entryPoints: { psl: 'src/extension/psl.ts' },
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outdir: 'dist',
  },
  // Loaded lazily by the extension ("Try with demo data") and by `npm run emulator`.
  emulator: {
    entryPoints: { emulator: 'src/emulator/cli.ts' },
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outdir: 'dist',
  },
  // Runs inside the webview (a browser sandbox): no Node APIs.
  webview: {
    entryPoints: { webview: 'src/webview/main.ts' },
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    outdir: 'dist',
  },
};

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  legalComments: 'none',
};

const selected = Object.entries(targets).filter(([name]) => !only || only.has(name));

// The details pages load the codicon font from the extension's own files (CSP: no remote fonts).
if (!only || only.has('webview')) {
  const fs = await import('node:fs');
  fs.mkdirSync('dist/codicons', { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) {
    fs.copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, `dist/codicons/${f}`);
  }
}
if (watch) {
  for (const [, opts] of selected) {
    const ctx = await esbuild.context({ ...common, ...opts });
    await ctx.watch();
  }
  console.log('[esbuild] watching', selected.map(([n]) => n).join(', '));
} else {
  await Promise.all(selected.map(([, opts]) => esbuild.build({ ...common, ...opts, metafile: true })));
}
