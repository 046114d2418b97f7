// The unique indicators of a whole text (a log, a threat report), with how often and where
// each one first occurs: what "ODIN: List Indicators" shows. Pure: no `vscode` import.
//
// Works on the compact detection table, in chunks cut at line ends (a detection never spans a
// line end, and a chunk that starts after a newline reads exactly as the whole text does), so
// a 50 MB log neither allocates an object per hit nor blocks the extension host: the caller
// gets control back between chunks and can cancel.
import { detectTable, type DetectionKind, type DetectOptions } from './index';
import { detached } from '../text/inert';

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
}

const DEFAULT_CHUNK = 1 << 20;

export async function listIndicators(text: string, opts: ListOptions = {}): Promise<IndicatorList> {
  const { signal, chunkChars = DEFAULT_CHUNK, maxUnique = 10_000, onProgress, ...detectOpts } = opts;
  const byValue = new Map<string, IndicatorSummary>();
  // Most repeats are written the same way: the raw text finds the entry without rebuilding
  // the value. (A zone id inside brackets reads differently in context: not cached.)
  const byRaw = new Map<string, IndicatorSummary | null>();
  let total = 0;
  let truncated = false;
  for (let a = 0; a < text.length;) {
    signal?.throwIfAborted();
    let b = a + chunkChars >= text.length ? text.length : text.indexOf('\n', a + chunkChars);
    b = b < 0 ? text.length : b + 1;
    const chunk = a === 0 && b === text.length ? text : text.slice(a, b);
    const table = detectTable(chunk, detectOpts);
    for (let i = 0; i < table.length; i++) {
      total++;
      const raw = chunk.slice(table.start(i), table.end(i));
      let entry = byRaw.get(raw);
      if (entry === undefined) {
        const d = table.get(i);
        entry = byValue.get(d.value) ?? null;
        if (entry === null && byValue.size < maxUnique) {
          entry = {
            // The list outlives the scan (a pick may look the value up and cache it): keep a
            // copy, not a view into the document's text.
            value: detached(d.value),
            kind: d.kind,
            count: 0,
            first: a + d.start,
            firstLength: d.end - d.start,
            defanged: false,
          };
          byValue.set(entry.value, entry);
        }
        if (entry === null) truncated = true;
        if (!raw.includes('%')) byRaw.set(raw, entry);
      }
      if (entry !== null) {
        entry.count++;
        if (table.defanged(i)) entry.defanged = true;
      }
    }
    a = b;
    onProgress?.(a, text.length);
    if (a < text.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const items = [...byValue.values()].sort((x, y) => y.count - x.count || x.first - y.first);
  return { items, total, truncated };
}
