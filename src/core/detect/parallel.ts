// A large text's chunks read on worker threads (detectWorker.ts): each worker gets chunk texts
// and the detection options only (never a key or a setting), and answers each with its tally
// (typed arrays and the values it had not sent yet). The workers start with the list and end
// with it, or as soon as it is cancelled; this thread only cuts, posts and merges, between
// messages, so it never blocks for long. Pure: no `vscode` import.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DetectOptions } from './types';
import type { ChunkTally } from './tally';

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

/**
 * The worker's script: beside this module in the tsc build (out/src/core/detect/), and beside
 * the bundle that holds it in dist/ (esbuild.mjs builds dist/detectWorker.js). A bundle standing
 * alone (the npm packages, dist/ci/) has none: its lists are read on the calling thread.
 */
export const WORKER_FILE = path.join(__dirname, 'detectWorker.js');

export interface WorkerRun {
  /** The worker's script (tests): WORKER_FILE. */
  script?: string;
  signal?: AbortSignal;
  log?: (level: 'debug' | 'info' | 'warn', message: string) => void;
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
  const script = run.script ?? WORKER_FILE;
  if (!fs.existsSync(script)) {
    run.log?.('debug', `List: no ${script}; reading on this thread`);
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
        const worker = new Worker(script, { env: {}, stdout: true, stderr: true });
        workers.push(worker);
        counts.started++;
        counts.running++;
        worker.on('message', (m: ChunkReply) => onReply(w, m));
        worker.on('error', fail);
        worker.on('exit', (code) => {
          counts.running--;
          fail(new Error(`detection worker ${w} exited (${code})`));
        });
        for (let i = 0; i < IN_FLIGHT; i++) post(w);
      }
    });
    return true;
  } catch (e) {
    if (run.signal?.aborted) throw run.signal.reason;
    run.log?.(
      'warn',
      `List: a detection worker failed (${e instanceof Error ? e.message : String(e)}); reading on this thread`,
    );
    return false;
  } finally {
    // Ended before the list returns: none is left running, whatever happened.
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
