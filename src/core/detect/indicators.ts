// The unique indicators of a whole text (a log, a threat report), with how often and where
// each one first occurs: what "ODIN: List Indicators" shows. Pure: no `vscode` import.
//
// Works on the compact detection table, in chunks cut at line ends (a detection never spans a
// line end, and a chunk that starts after a newline reads exactly as the whole text does), so
// a 50 MB log neither allocates an object per hit nor blocks the extension host: the caller
// gets control back between chunks and can cancel. A large text's chunks are read on worker
// threads (parallel.ts), a small one's here; either way each chunk comes back as a tally of
// its unique values (tally.ts), merged in text order, so both give the same list.
import type { DetectionKind, DetectOptions } from './index';
import type { ListLog } from './types';
import { chunkOptions, ROW, Tally, type ChunkTally } from './tally';
import { KINDS } from './table';
import { tallyInWorkers, workerCount } from './parallel';

export interface IndicatorSummary {
  /** Refanged, canonical (what a lookup sends). */
  value: string;
  kind: DetectionKind;
  /** Occurrences in the text. */
  count: number;
  /** Offset of the first occurrence, and its length as written. */
  first: number;
  firstLength: number;
  /** At least one occurrence was written defanged. */
  defanged: boolean;
}

export interface IndicatorList {
  /** Most frequent first, then in order of first occurrence. */
  items: IndicatorSummary[];
  /** Occurrences in all. */
  total: number;
  /** More unique values than `maxUnique`: the rest are counted in `total` only. */
  truncated: boolean;
}

export interface ListOptions extends DetectOptions {
  signal?: AbortSignal;
  /** Characters per chunk (cut at the next line end). */
  chunkChars?: number;
  /** At most this many unique values are listed. */
  maxUnique?: number;
  onProgress?: (done: number, total: number) => void;
  /**
   * Worker threads to read the chunks on; 0: all on this thread. Default: as many as the
   * machine has cores for a text of 8 chunks or more, else 0.
   */
  workers?: number;
  /** Why the workers were not used (the list is then read here). */
  log?: ListLog;
}

const DEFAULT_CHUNK = 1 << 20;
/** Chunks below which workers cost more (starting them, ~50 ms) than they save. */
const PARALLEL_CHUNKS = 8;

export async function listIndicators(text: string, opts: ListOptions = {}): Promise<IndicatorList> {
  const { signal, chunkChars = DEFAULT_CHUNK, maxUnique = 10_000, onProgress, log } = opts;
  const detectOpts = chunkOptions(opts);
  const cuts = chunkEnds(text, chunkChars);
  const workers = opts.workers ?? (cuts.length >= PARALLEL_CHUNKS ? workerCount() : 0);
  if (workers > 0) {
    const merge = new IndicatorMerge(maxUnique);
    const done = await tallyInWorkers(text, cuts, detectOpts, workers, {
      signal,
      log,
      onChunk: (k, source, tally) => {
        merge.add(source, k === 0 ? 0 : cuts[k - 1]!, tally);
        onProgress?.(cuts[k]!, text.length);
      },
    });
    if (done) {
      log?.('info', `List: ${cuts.length} chunks read on ${workers} worker threads`);
      return merge.result();
    }
  }
  signal?.throwIfAborted();
  const merge = new IndicatorMerge(maxUnique);
  const tally = new Tally();
  for (let k = 0, a = 0; k < cuts.length; k++) {
    signal?.throwIfAborted();
    const b = cuts[k]!;
    merge.add(0, a, tally.read(flat(a === 0 && b === text.length ? text : text.slice(a, b)), detectOpts));
    a = b;
    onProgress?.(a, text.length);
    if (a < text.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return merge.result();
}

/** Where each chunk ends: `chunkChars` on, after the next line end (or at the text's end). */
export function chunkEnds(text: string, chunkChars: number): number[] {
  const cuts: number[] = [];
  for (let a = 0; a < text.length;) {
    const b = a + chunkChars >= text.length ? text.length : text.indexOf('\n', a + chunkChars);
    a = b < 0 ? text.length : b + 1;
    cuts.push(a);
  }
  return cuts;
}

/**
 * The chunks' tallies merged in text order (each chunk's values in order of first occurrence
 * there), so a value's entry is made at its first occurrence in the text, as a single pass
 * would: the same `first`, and the same values left out past `maxUnique`.
 */
class IndicatorMerge {
  private readonly byValue = new Map<string, IndicatorSummary>();
  /** Per source (a thread's Tally): its values by id, and their entries (null: not listed). */
  private readonly values: string[][] = [];
  private readonly entries: (IndicatorSummary | null)[][] = [];
  private total = 0;
  private truncated = false;

  constructor(private readonly maxUnique: number) {}

  /** A chunk at `base` in the text, tallied by `source`. */
  add(source: number, base: number, t: ChunkTally): void {
    while (this.values.length <= source) {
      this.values.push([]);
      this.entries.push([]);
    }
    const values = this.values[source]!;
    const entries = this.entries[source]!;
    for (const value of t.fresh) values.push(value);
    this.total += t.total;
    const rows = t.rows;
    for (let at = 0; at < rows.length; at += ROW) {
      const id = rows[at]!;
      let entry = entries[id];
      if (entry === undefined) {
        const value = values[id]!;
        entry = this.byValue.get(value) ?? null;
        if (entry === null && this.byValue.size < this.maxUnique) {
          entry = {
            value,
            kind: KINDS[rows[at + 4]! >> 1]!,
            count: 0,
            first: base + rows[at + 2]!,
            firstLength: rows[at + 3]!,
            defanged: false,
          };
          this.byValue.set(value, entry);
        }
        entries[id] = entry;
      }
      if (entry === null) {
        this.truncated = true;
        continue;
      }
      entry.count += rows[at + 1]!;
      if (rows[at + 4]! & 1) entry.defanged = true;
    }
  }

  result(): IndicatorList {
    const items = [...this.byValue.values()].sort((x, y) => y.count - x.count || x.first - y.first);
    return { items, total: this.total, truncated: this.truncated };
  }
}

/**
 * A sequential copy of `cut` when it is all Latin-1 (a log nearly always is), else `cut`. A slice
 * of a large text is a view into it, and the scanner's every character read then goes through
 * that view: a copy of 1 MB costs well under a millisecond and saves more in each chunk's scan.
 */
function flat(cut: string): string {
  const copy = Buffer.from(cut, 'latin1').toString('latin1');
  return copy === cut ? copy : cut;
}
