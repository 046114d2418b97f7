/**
 * The detection workers of the bundled extension (src/core/detect/parallel.ts): each runs the
 * code of the bundle that carries it (dist/shared.js) in plain Node, a worker thread that has no
 * `vscode`, so that code must not need dist/extension.js; and the list it makes from dist/ is
 * the tsc build's, read on this thread.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { listIndicators } from '../../../src/core/detect/indicators';
import { root } from './bundleInputs';

const dist = join(root, 'dist');

test("dist/shared.js's listIndicators reads on workers from dist/ as the tsc build does here", async () => {
  const shared = join(dist, 'shared.js');
  assert.ok(existsSync(shared), 'dist/ is built by esbuild before the unit tests');
  const text = readFileSync(join(root, 'test', 'fixtures', 'sample-workspace', 'logs', 'auth.log'), 'utf8');
  type Carrier = { __odinShared: Record<string, { listIndicators: typeof listIndicators }> };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const carrier = require(shared) as Carrier;
  const carried = carrier.__odinShared['src/core/detect/indicators.ts'];
  assert.ok(carried, 'dist/shared.js carries the list');
  const logged: string[] = [];
  const got = await carried.listIndicators(text, {
    mode: 'text',
    chunkChars: 512,
    workers: 2,
    log: (level, m) => logged.push(`${level}: ${m}`),
  });
  assert.deepEqual(logged.length, 1, 'the workers started and answered');
  assert.match(logged[0]!, /^info: List: \d+ chunks read on 2 worker threads$/);
  assert.deepEqual(got, await listIndicators(text, { mode: 'text', workers: 0 }));
  assert.equal(require.cache[join(dist, 'extension.js')], undefined, 'the list loads no dist/extension.js');
  assert.equal(require.cache[join(dist, 'main.js')], undefined, 'nor the activation bundle');
});
