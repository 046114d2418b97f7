// The unique indicators of one chunk of a text, compactly: per unique value its id, count and
// first occurrence in typed arrays, and each value's string once per thread (the first chunk it
// appears in). A worker thread sends this over (parallel.ts); listIndicators merges the chunks
// in text order, the same way whether they were tallied here or on a worker. Pure: no `vscode`.
import { detectTable, type DetectOptions } from './index';
import { detached } from '../text/detached';

/**
 * Numbers per unique value in `ChunkTally.rows`: id, count, first, firstLength, and its kind
 * (its index in table.ts's KINDS) << 1 | 1 if an occurrence was written defanged.
 */
export const ROW = 5;

export interface ChunkTally {
  /** Occurrences in the chunk. */
  total: number;
  /** Per unique value, in order of first occurrence in the chunk: ROW numbers. */
  rows: Int32Array<ArrayBuffer>;
  /** The values this thread saw first in this chunk, in order: the next ids. */
  fresh: string[];
}

/** The detection options a chunk is read with (what a worker is sent: nothing else). */
export function chunkOptions(opts: DetectOptions): DetectOptions {
  const { kinds, mode, limit } = opts;
  return { kinds, mode, limit };
}

/** One thread's tallies: the ids of the values it has seen stay the same from chunk to chunk. */
export class Tally {
  // Most hits in a log are found by the key the scanner left in the table, without a slice: a
  // dotted quad by its number, a host name by its value (a repeat is the same string, found by
  // identity). Rows without a key (IPv6, blocks, defanged quads) by their raw text: most
  // repeats are written the same way (a zone id inside brackets reads differently in context:
  // not cached).
  private readonly byIp = new IpTable<number>();
  private readonly byName = new Map<string, number>();
  private readonly byRaw = new Map<string, number>();
  private readonly byValue = new Map<string, number>();
  /** Each id's value. */
  private readonly strings: string[] = [];
  /** Per id: 1 + the chunk it was last seen in, and its index in that chunk's rows. */
  private seenIn = new Int32Array(1024);
  private local = new Int32Array(1024);
  private chunks = 0;

  read(chunk: string, opts: DetectOptions): ChunkTally {
    const table = detectTable(chunk, opts);
    const stamp = ++this.chunks;
    const fresh: string[] = [];
    let rows = new Int32Array(ROW * 256);
    let n = 0;
    for (let i = 0; i < table.length; i++) {
      const ip = table.address(i);
      const name = ip >= 0 ? undefined : table.name(i);
      let id = ip >= 0 ? (this.byIp.get(ip) ?? -1) : name !== undefined ? (this.byName.get(name) ?? -1) : -1;
      if (id < 0) {
        const raw = chunk.slice(table.start(i), table.end(i));
        id = this.byRaw.get(raw) ?? -1;
        if (id < 0) {
          const d = table.get(i);
          id = this.byValue.get(d.value) ?? -1;
          if (id < 0) {
            id = this.add(d.value);
            fresh.push(this.strings[id]!);
          }
          if (!raw.includes('%')) this.byRaw.set(raw, id);
        }
        if (ip >= 0) this.byIp.set(ip, id);
        else if (name !== undefined) this.byName.set(name, id);
      }
      const defanged = table.defanged(i) ? 1 : 0;
      if (this.seenIn[id] === stamp) {
        const at = ROW * this.local[id];
        rows[at + 1]++;
        rows[at + 4] |= defanged;
        continue;
      }
      this.seenIn[id] = stamp;
      this.local[id] = n;
      if (ROW * (n + 1) > rows.length) {
        const grown = new Int32Array(rows.length * 2);
        grown.set(rows);
        rows = grown;
      }
      const at = ROW * n++;
      const start = table.start(i);
      rows[at] = id;
      rows[at + 1] = 1;
      rows[at + 2] = start;
      rows[at + 3] = table.end(i) - start;
      rows[at + 4] = (table.kindIndex(i) << 1) | defanged;
    }
    return { total: table.length, rows: rows.slice(0, ROW * n), fresh };
  }

  private add(value: string): number {
    const id = this.strings.length;
    // The list outlives the scan (a pick may look the value up and cache it): a copy, not a
    // view into the chunk's text.
    const own = detached(value);
    this.strings.push(own);
    this.byValue.set(own, id);
    if (id >= this.seenIn.length) {
      const seen = new Int32Array(2 * this.seenIn.length);
      seen.set(this.seenIn);
      this.seenIn = seen;
      const local = new Int32Array(2 * this.local.length);
      local.set(this.local);
      this.local = local;
    }
    return id;
  }
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
