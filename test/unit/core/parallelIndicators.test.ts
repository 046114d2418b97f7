/**
 * A large text's chunks read on worker threads (src/core/detect/parallel.ts; the tsc build's
 * here, test/unit/package/detectWorker.test.ts holds the bundled one) give exactly the list
 * this thread gives, end with the list or its cancel, and fall back to this thread when a
 * worker cannot start.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chunkEnds, listIndicators, type ListOptions } from '../../../src/core/detect/indicators';
import { tallyInWorkers, workerCounts } from '../../../src/core/detect/parallel';
import { chunkOptions } from '../../../src/core/detect/tally';

const root = join(__dirname, '..', '..', '..', '..');

/** The benches' generated logs (ES modules of the scripts: read in a child Node). */
function benchText(script: string, call: string): string {
  return execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(join(root, 'scripts', 'bench', script))}); process.stdout.write(m.${call});`,
    ],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
}

/** Every text file of the sample and hostile workspaces. */
function fixtureTexts(): string {
  const texts: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else texts.push(readFileSync(p, 'utf8'));
    }
  };
  for (const w of ['sample-workspace', 'hostile-workspace']) walk(join(root, 'test', 'fixtures', w));
  return texts.join('\n');
}

async function both(text: string, opts: ListOptions): Promise<void> {
  const here = await listIndicators(text, { ...opts, workers: 0 });
  const logged: string[] = [];
  const there = await listIndicators(text, { ...opts, workers: 2, log: (_, m) => logged.push(m) });
  assert.deepEqual(logged, [
    `List: ${chunkEnds(text, opts.chunkChars!).length} chunks read on 2 worker threads`,
  ]);
  assert.deepEqual(there, here);
  assert.ok(here.total > 0);
  assert.equal(workerCounts().running, 0, 'no worker left running');
}

void describe('listIndicators on worker threads', () => {
  void it('gives exactly the list of this thread: the detection fixtures, in both modes', async () => {
    const text = fixtureTexts();
    for (const mode of ['code', 'text'] as const) {
      await both(text, { mode, chunkChars: 2048 });
      // Past maxUnique: the same values left out, the same truncated flag.
      await both(text, { mode, chunkChars: 2048, maxUnique: 40 });
    }
  });

  void it("gives exactly the list of this thread: the triage and detection benches' logs", async () => {
    const triageLog = benchText('triage.mjs', 'makeLog(1, 500)');
    await both(triageLog, { mode: 'text', chunkChars: 1 << 16 });
    await both(triageLog, { mode: 'text', chunkChars: 1 << 16, maxUnique: 300 });
    const detectLog = benchText('detect.mjs', 'generateLog(1 << 20, 3)');
    for (const mode of ['code', 'text'] as const) await both(detectLog, { mode, chunkChars: 1 << 15 });
  });

  void it('ends every worker when cancelled, and rejects with the reason', async () => {
    const text = benchText('triage.mjs', 'makeLog(1, 500)');
    const controller = new AbortController();
    let chunks = 0;
    const pending = listIndicators(text, {
      mode: 'text',
      chunkChars: 4096,
      workers: 2,
      signal: controller.signal,
      onProgress: () => {
        if (++chunks === 3) controller.abort();
      },
    });
    await assert.rejects(pending, { name: 'AbortError' });
    assert.equal(chunks, 3, 'no chunk merged after the cancel');
    assert.equal(workerCounts().running, 0);
  });

  void it('gives up, logged, when a worker cannot start (its code throws or is missing): the list is read here', async () => {
    const text = 'from 1.2.3.4\nto example.com\n'.repeat(100);
    const cuts = chunkEnds(text, 100);
    const missing = join(root, 'no-such-module.js');
    for (const code of [`throw new Error('no detection here');`, `require(${JSON.stringify(missing)});`]) {
      const logged: string[] = [];
      const chunks: number[] = [];
      const done = await tallyInWorkers(text, cuts, { mode: 'text' }, 2, {
        code,
        log: (level, m) => logged.push(`${level}: ${m}`),
        onChunk: (k) => chunks.push(k),
      });
      assert.equal(done, false);
      assert.deepEqual(chunks, []);
      assert.equal(logged.length, 1, logged.join('\n'));
      assert.match(logged[0]!, /^warn: /);
      assert.equal(workerCounts().running, 0);
    }
  });

  void it('copies each reply: a worker never detaches a buffer (the first detach in a thread slows its every typed-array read)', async () => {
    const text = 'from 1.2.3.4\nto example.com\n'.repeat(100);
    const parallel = join(root, 'out', 'src', 'core', 'detect', 'parallel.js');
    const code = `const { parentPort } = require('node:worker_threads');
const post = parentPort.postMessage.bind(parentPort);
parentPort.postMessage = (m, transfer) => post({ ...m, transferred: transfer === undefined ? 0 : transfer.length });
require(${JSON.stringify(parallel)}).serveChunks();`;
    const transferred: unknown[] = [];
    const done = await tallyInWorkers(text, chunkEnds(text, 100), { mode: 'text' }, 2, {
      code,
      onChunk: (_k, _source, tally) => transferred.push((tally as { transferred?: unknown }).transferred),
    });
    assert.equal(done, true);
    assert.ok(transferred.length > 10);
    assert.deepEqual(new Set(transferred), new Set([0]));
  });

  void it('sends a worker the detection options only, whatever else the caller passed', () => {
    const passed = {
      mode: 'text',
      limit: 5,
      apiKey: 'k',
      signal: new AbortController().signal,
    } as ListOptions;
    assert.deepEqual(chunkOptions(passed), { kinds: undefined, mode: 'text', limit: 5 });
  });

  void it('leaves a small text to this thread, and starts workers for a large one', async () => {
    const started = workerCounts().started;
    const list = await listIndicators('from 1.2.3.4\n'.repeat(1000));
    assert.equal(list.total, 1000);
    assert.equal(workerCounts().started, started);
    await listIndicators('from 1.2.3.4\n'.repeat(1000), { chunkChars: 1000 });
    assert.ok(workerCounts().started > started);
    assert.equal(workerCounts().running, 0);
  });
});
