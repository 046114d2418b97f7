/**
 * The bundled detection worker (dist/detectWorker.js, esbuild.mjs): it loads in plain Node
 * (a worker thread has no `vscode`) with the detection code of dist/shared.js, and the list
 * that code makes from dist/ (workers found beside the bundle) is the tsc build's, read here.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { listIndicators } from '../../../src/core/detect/indicators';
import type { ChunkReply, ChunkRequest } from '../../../src/core/detect/parallel';
import { Tally } from '../../../src/core/detect/tally';
import { root } from './bundleInputs';

const dist = join(root, 'dist');
const file = join(dist, 'detectWorker.js');
const text = readFileSync(join(root, 'test', 'fixtures', 'sample-workspace', 'logs', 'auth.log'), 'utf8');

test('dist/detectWorker.js runs on a worker thread in plain Node and tallies as the tsc build does', async () => {
  assert.ok(existsSync(file), 'dist/ is built by esbuild before the unit tests');
  const worker = new Worker(file);
  try {
    const tally = new Tally();
    const half = text.indexOf('\n', text.length >> 1) + 1;
    for (const [seq, chunk] of [text.slice(0, half), text.slice(half)].entries()) {
      const reply = new Promise<ChunkReply>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      const request: ChunkRequest = { seq, text: chunk, opts: { mode: 'text' } };
      worker.postMessage(request);
      const want = tally.count(chunk, { mode: 'text' });
      assert.ok(want.total > 0);
      assert.deepEqual(await reply, { seq, ...want });
    }
  } finally {
    await worker.terminate();
  }
});

test("dist/shared.js's listIndicators finds the worker beside it and lists as the tsc build does", async () => {
  // On this (main) thread the worker's entry only stands in for dist/extension.js (which needs
  // `vscode`) in require's cache: then dist/shared.js's detection loads, as in a worker.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(file);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const shared = require(join(dist, 'shared.js')) as {
    __odinShared: Record<string, { listIndicators: typeof listIndicators }>;
  };
  const bundled = shared.__odinShared['src/core/detect/indicators.ts']!.listIndicators;
  const logged: string[] = [];
  const got = await bundled(text, {
    mode: 'text',
    chunkChars: 512,
    workers: 2,
    log: (_, m) => logged.push(m),
  });
  assert.deepEqual(logged, [], 'the workers ran');
  assert.deepEqual(got, await listIndicators(text, { mode: 'text', workers: 0 }));
});
