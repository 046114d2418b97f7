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
  // Rows without the scanner's key (IPv6, blocks, defanged quads): most repeats are written the
  // same way, so the raw text finds the entry without rebuilding the value. (A zone id inside
  // brackets reads differently in context: not cached.)
  const byRaw = new Map<string, IndicatorSummary | null>();
  const byIp = new IpTable<IndicatorSummary | null>();
  // Keyed by the scanner's own value strings: a repeat is the same string, found by identity.
  const byName = new Map<string, IndicatorSummary | null>();
  let total = 0;
  let truncated = false;
  for (let a = 0; a < text.length;) {
    signal?.throwIfAborted();
    let b = a + chunkChars >= text.length ? text.length : text.indexOf('\n', a + chunkChars);
    b = b < 0 ? text.length : b + 1;
    const chunk = flat(a === 0 && b === text.length ? text : text.slice(a, b));
    const table = detectTable(chunk, detectOpts);
    for (let i = 0; i < table.length; i++) {
      total++;
      // Most hits in a log are found by the key the scanner left in the table, without a
      // slice: a dotted quad by its number, a host name by its value.
      const ip = table.address(i);
      const name = ip >= 0 ? undefined : table.name(i);
      let entry = ip >= 0 ? byIp.get(ip) : name !== undefined ? byName.get(name) : undefined;
      if (entry !== undefined) {
        if (entry !== null) {
          entry.count++;
          if (table.defanged(i)) entry.defanged = true;
        }
        continue;
      }
      const raw = chunk.slice(table.start(i), table.end(i));
      entry = byRaw.get(raw);
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
      if (ip >= 0) byIp.set(ip, entry);
      else if (name !== undefined) byName.set(name, entry);
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

/**
 * A sequential copy of `cut` when it is all Latin-1 (a log nearly always is), else `cut`. A slice
 * of a large text is a view into it, and the scanner's every character read then goes through
 * that view: a copy of 1 MB costs well under a millisecond and saves more in each chunk's scan.
 */
function flat(cut: string): string {
  const copy = Buffer.from(cut, 'latin1').toString('latin1');
  return copy === cut ? copy : cut;
}

/**
 * uint32 → value, open addressing on typed arrays: an address as a key costs a multiply and a
 * compare, where a `Map` would box most of them (past 2^30) and a string key needs a slice.
 */
export class IpTable<T> {
  private keys = new Int32Array(1024);
  /** 1 + the index in `values`; 0 for an empty slot. */
  private slots = new Int32Array(1024);
  private values: T[] = [];
  /** 32 - log2(slots): the product's top bits pick the slot. */
  private shift = 22;

  get(ip: number): T | undefined {
    const mask = this.slots.length - 1;
    const key = ip | 0;
    for (let h = Math.imul(key, 0x9e3779b1) >>> this.shift; ; h = (h + 1) & mask) {
      const at = this.slots[h];
      if (at === 0) return undefined;
      if (this.keys[h] === key) return this.values[at - 1];
    }
  }

  /** Adds `ip` (not in the table yet). */
  set(ip: number, value: T): void {
    this.values.push(value);
    if (2 * this.values.length > this.slots.length) this.grow();
    this.place(ip | 0, this.values.length);
  }

  private place(key: number, at: number): void {
    const mask = this.slots.length - 1;
    let h = Math.imul(key, 0x9e3779b1) >>> this.shift;
    while (this.slots[h] !== 0) h = (h + 1) & mask;
    this.keys[h] = key;
    this.slots[h] = at;
  }

  private grow(): void {
    const keys = this.keys;
    const slots = this.slots;
    this.keys = new Int32Array(2 * keys.length);
    this.slots = new Int32Array(2 * slots.length);
    this.shift--;
    for (let h = 0; h < slots.length; h++) if (slots[h] !== 0) this.place(keys[h], slots[h]);
  }
}
