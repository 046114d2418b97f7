import * as esbuild from 'esbuild';
import * as zlib from 'node:zlib';
const swap = (names) => ({ name: 'x', setup(b) {
  b.onResolve({ filter: new RegExp(`^\\./(${names.join('|')})$`) }, (a) => ({ path: a.path, namespace: 'stub' }));
  b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'module.exports = new Proxy({}, {get: () => () => {}})' }));
}});
for (const names of [[], ['admin', 'faultReplies', 'faults', 'change']]) {
  const r = await esbuild.build({ bundle: true, minify: true, platform: 'node', format: 'cjs', target: 'node20', legalComments: 'none', entryPoints: ['src/emulator/cli.ts'], write: false, plugins: [swap(names.length ? names : ['nothing'])] });
  const t = r.outputFiles[0].contents; console.log(names.join(','), t.length, zlib.deflateRawSync(t, { level: 9 }).length);
}
