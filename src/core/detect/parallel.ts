// A large text's chunks read on worker threads: each worker gets chunk texts and the detection
// options only (never a key or a setting), and answers each with its tally (typed arrays and
// the values it had not sent yet). The workers start with the list and end with it, or as soon
// as it is cancelled; this thread only cuts, posts and merges, between messages, so it never
// blocks for long. Pure: no `vscode` import.
//
// A worker runs this module's `serveChunks`, loaded from the file that holds this code: the tsc
// build's parallel.js, or the bundle that carries it (dist/shared.js, by its `__odinShared` key;
// the detection code it needs is there too, none of it in dist/extension.js, which a worker
// could not load: it requires `vscode`). No script of its own: the .vsix has no room for one.
// dist/mcp.js takes this module from dist/shared.js too, so its workers load that file.
import * as os from 'node:os';
import { parentPort, Worker } from 'node:worker_threads';
import type { DetectOptions, ListLog } from './types';
import { Tally, type ChunkTally } from './tally';

/** A chunk to read (to a worker). */
export interface ChunkRequest {
  seq: number;
  text: string;
  opts: DetectOptions;
}

/** A chunk read (from a worker). */
export interface ChunkReply extends ChunkTally {
  seq: number;
}

/** The most workers a list starts: each keeps its own table of the values it has seen. */
const MAX_WORKERS = 4;
/** Chunks posted to a worker before it answers one: it never waits for this thread. */
const IN_FLIGHT = 2;

const counts = { started: 0, running: 0 };

/** Workers started so far, and running now (tests: none is left when a list ends). */
export function workerCounts(): { started: number; running: number } {
  return { ...counts };
}

/** Workers for a large text: one per core the process may use. */
export function workerCount(): number {
  return Math.min(MAX_WORKERS, Math.max(1, os.availableParallelism()));
}

/** This module's key in the bundle that carries it (scripts/esbuild-plugins.mjs carrierEntry). */
const KEY = 'src/core/detect/parallel.ts';
/** What a worker runs: this module's `serveChunks`, from the file that holds it. */
const WORKER_CODE = `const m = require(${JSON.stringify(__filename)});
(m.__odinShared ? m.__odinShared[${JSON.stringify(KEY)}] : m).serveChunks();`;

/**
 * Whether a worker finds `serveChunks` as WORKER_CODE looks for it: not in a bundle that holds
 * this module without carrying it (one standing alone: dist/ci/hunt.js, the npm packages' files).
 */
function servable(): boolean {
  // The file is loaded already (this code is in it): its exports, nothing run again.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const m = require(__filename) as {
    serveChunks?: unknown;
    __odinShared?: Record<string, { serveChunks?: unknown }>;
  };
  return typeof (m.__odinShared ? m.__odinShared[KEY]?.serveChunks : m.serveChunks) === 'function';
}

/** A worker thread's side: reads the chunks it is sent with one Tally (a value is sent once). */
export function serveChunks(): void {
  const tally = new Tally();
  parentPort?.on('message', ({ seq, text, opts }: ChunkRequest) => {
    const t = tally.read(text, opts);
    const reply: ChunkReply = { seq, ...t };
    // Copied, not transferred: a chunk's rows are a few hundred KB at most, and the first
    // buffer a thread detaches costs V8's guarantee that none ever is: every typed-array read
    // in this thread's optimised code is thrown away and rebuilt with a check for it. That
    // made each worker ~30% slower (100 MB log: 1.6 s → 1.2 s on two cores).
    parentPort?.postMessage(reply);
  });
}

export interface WorkerRun {
  /** The worker's code (tests): WORKER_CODE. */
  code?: string;
  signal?: AbortSignal;
  log?: ListLog;
  /** Chunk `k` (in text order, each once) tallied by worker `source`. */
  onChunk: (k: number, source: number, tally: ChunkTally) => void;
}

/**
 * Tallies the chunks ending at `cuts` on `count` workers and hands them to `onChunk` in text
 * order. False when a worker could not start or failed (logged; nothing was merged past what
 * the caller then discards): the caller reads the text itself. Rejects only when cancelled.
 */
export async function tallyInWorkers(
  text: string,
  cuts: readonly number[],
  opts: DetectOptions,
  count: number,
  run: WorkerRun,
): Promise<boolean> {
  run.signal?.throwIfAborted();
  if (run.code === undefined && !servable()) {
    run.log?.('debug', `List: no workers from ${__filename}; reading on this thread`);
    return false;
  }
  const workers: Worker[] = [];
  const replies = new Map<number, { source: number; tally: ChunkTally }>();
  let posted = 0;
  let merged = 0;
  const post = (w: number): void => {
    if (posted >= cuts.length) return;
    const k = posted++;
    const request: ChunkRequest = { seq: k, text: text.slice(k === 0 ? 0 : cuts[k - 1], cuts[k]), opts };
    workers[w]!.postMessage(request);
  };
  try {
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const fail = (why: unknown): void => {
        if (settled) return;
        settled = true;
        reject(why instanceof Error ? why : new Error(String(why)));
      };
      const abort = (): void => fail(run.signal?.reason ?? new Error('cancelled'));
      run.signal?.addEventListener('abort', abort, { once: true });
      const onReply = (source: number, reply: ChunkReply): void => {
        if (settled) return;
        try {
          replies.set(reply.seq, { source, tally: reply });
          // In text order: a chunk waits for the ones before it.
          for (let next = replies.get(merged); next && !settled; next = replies.get(merged)) {
            replies.delete(merged);
            run.onChunk(merged++, next.source, next.tally);
          }
          if (merged === cuts.length) {
            settled = true;
            run.signal?.removeEventListener('abort', abort);
            resolve();
          } else post(source);
        } catch (e) {
          fail(e);
        }
      };
      for (let w = 0; w < Math.min(count, cuts.length); w++) {
        // Only the text: no environment (the CLI's may hold the key), no data at start.
        const worker = new Worker(run.code ?? WORKER_CODE, {
          eval: true,
          env: {},
          stdout: true,
          stderr: true,
        });
        workers.push(worker);
        counts.started++;
        counts.running++;
        worker.on('message', (m: ChunkReply) => onReply(w, m));
        worker.on('error', fail);
        worker.on('exit', (code) => {
          counts.running--;
          fail(new Error(`exit ${code}`));
        });
        for (let i = 0; i < IN_FLIGHT; i++) post(w);
      }
    });
    return true;
  } catch (e) {
    if (run.signal?.aborted) throw run.signal.reason;
    run.log?.('warn', `List: a worker failed (${String(e)}); reading on this thread`);
    return false;
  } finally {
    // Ended before the list returns: none is left running, whatever happened.
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
