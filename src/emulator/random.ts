/**
 * A small seeded PRNG (mulberry32) and the helpers the dataset generator needs. Every
 * record derives its own generator from (seed, kind, index), so a record does not depend
 * on how many others were generated before it.
 */

/** 32-bit string/number hash (FNV-1a), used to derive sub-seeds. */
export function hash32(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = String(part);
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x7c;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const HEX_BYTES = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static derive(seed: number, ...parts: (string | number)[]): Rng {
    return new Rng(hash32(seed, ...parts));
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight; `weights[i]` belongs to `items[i]`. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      r -= weights[i];
      if (r < 0) return items[i];
    }
    return items[items.length - 1];
  }

  /** Up to `n` distinct items, in random order. */
  sample<T>(items: readonly T[], n: number): T[] {
    const copy = items.slice();
    const out: T[] = [];
    while (out.length < n && copy.length > 0) {
      const i = Math.floor(this.next() * copy.length);
      out.push(copy[i]);
      copy[i] = copy[copy.length - 1];
      copy.pop();
    }
    return out;
  }

  hex(len: number): string {
    let s = '';
    for (let i = 0; i < len; i += 8) {
      const n = Math.floor(this.next() * 4294967296);
      s +=
        HEX_BYTES[n >>> 24] + HEX_BYTES[(n >>> 16) & 255] + HEX_BYTES[(n >>> 8) & 255] + HEX_BYTES[n & 255];
    }
    return s.length === len ? s : s.slice(0, len);
  }
}
