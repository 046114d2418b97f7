// Compact results: every detection as three numbers (start, end, kind and flags) in one typed
// array, with the `raw` and `value` strings built only when asked for. On a dense log the
// materialised form costs more than finding the detections (an object and one or two strings
// each, most of them kept alive until the scan ends); callers that count, filter or only look
// at a few of them (the bench, "list the indicators in this file") do not pay for that.
import { nameValue } from './domain';
import { formatIPv6, parseIPv6At, zoneValue } from './ip';
import { refang } from './refang';
import type { Detection, DetectionKind } from './types';

// A row's meta: the kind's index in KINDS, | DEFANGED, | HAS_PORT | port << 4, | HAS_ADDRESS or
// HAS_NAME when the row's fourth number is the key the scanner had at hand.
export const KINDS: readonly DetectionKind[] = ['ipv4', 'ipv6', 'cidr', 'domain'];
export const DEFANGED = 4;
const HAS_PORT = 8;
/** The fourth number is the IPv4 address (as int32). */
const HAS_ADDRESS = 1 << 20;
/** The fourth number indexes `names`: the host name's value. */
const HAS_NAME = 1 << 21;
/** Numbers per row: start, end, meta, key. */
const W = 4;

/** The index of `kind` in KINDS (compared, not looked up: a keyed load by name is slow here). */
function kindIndex(kind: DetectionKind): number {
  return kind === 'ipv4' ? 0 : kind === 'ipv6' ? 1 : kind === 'cidr' ? 2 : 3;
}

/** Detections of one text, in order of `start`, as rows of (start, end, meta, key). */
export class DetectionTable {
  private rows: Int32Array;
  /** The host names' values the scanner built (their rows index them). */
  private names: string[] = [];
  /** Number of detections. */
  length = 0;

  constructor(readonly text: string) {
    // Sized for a dense log (a detection per 16 characters, up to 64 K rows: 1 MB), so a
    // chunk of a large text seldom regrows.
    this.rows = new Int32Array(W * Math.min(1 << 16, Math.max(256, text.length >> 4)));
  }

  /**
   * Internal: the scanner appends, with the key it had at hand: `name`, a host name's value,
   * or `address`, a dotted quad's number (-1: none).
   */
  push(
    kind: DetectionKind,
    start: number,
    end: number,
    defanged: boolean,
    port: number | undefined,
    name: string | undefined,
    address: number,
  ): void {
    let rows = this.rows;
    const at = W * this.length;
    if (at + W > rows.length) {
      rows = new Int32Array(rows.length * 2);
      rows.set(this.rows);
      this.rows = rows;
    }
    let meta =
      kindIndex(kind) | (defanged ? DEFANGED : 0) | (port === undefined ? 0 : HAS_PORT | (port << 4));
    if (name !== undefined) {
      meta |= HAS_NAME;
      rows[at + 3] = this.names.length;
      this.names.push(name);
    } else if (address >= 0) {
      meta |= HAS_ADDRESS;
      rows[at + 3] = address | 0;
    }
    rows[at] = start;
    rows[at + 1] = end;
    rows[at + 2] = meta;
    this.length++;
  }

  /** Internal: puts rows [from, length) in order of start (one run's worth: a handful). */
  sortFrom(from: number): void {
    const r = this.rows;
    for (let i = from + 1; i < this.length; i++) {
      const [s, e, m, k] = [r[W * i], r[W * i + 1], r[W * i + 2], r[W * i + 3]];
      let j = i - 1;
      while (j >= from && r[W * j] > s) {
        r.copyWithin(W * j + W, W * j, W * j + W);
        j--;
      }
      const to = W * j + W;
      r[to] = s;
      r[to + 1] = e;
      r[to + 2] = m;
      r[to + 3] = k;
    }
  }

  start(i: number): number {
    return this.rows[W * i];
  }

  end(i: number): number {
    return this.rows[W * i + 1];
  }

  kind(i: number): DetectionKind {
    return KINDS[this.kindIndex(i)];
  }

  /** The kind's index in KINDS (what a tally sends instead of the name). */
  kindIndex(i: number): number {
    return this.rows[W * i + 2] & 3;
  }

  defanged(i: number): boolean {
    return (this.rows[W * i + 2] & DEFANGED) !== 0;
  }

  port(i: number): number | undefined {
    const m = this.rows[W * i + 2];
    return (m & HAS_PORT) !== 0 ? (m >>> 4) & 0xffff : undefined;
  }

  /** The dotted quad's number as the scanner parsed it (uint32), or -1. */
  address(i: number): number {
    return (this.rows[W * i + 2] & HAS_ADDRESS) !== 0 ? this.rows[W * i + 3] >>> 0 : -1;
  }

  /** The host name's value as the scanner built it (what `get(i).value` rebuilds), or undefined. */
  name(i: number): string | undefined {
    return (this.rows[W * i + 2] & HAS_NAME) !== 0 ? this.names[this.rows[W * i + 3]] : undefined;
  }

  /** Detection i as `detect()` returns it. */
  get(i: number): Detection {
    const start = this.start(i);
    const end = this.end(i);
    const kind = this.kind(i);
    const raw = this.text.slice(start, end);
    const value = valueOf(this.text, kind, start, end, raw);
    const d: Detection = {
      kind,
      start,
      end,
      raw,
      value: value === raw ? raw : value,
      defanged: this.defanged(i),
    };
    const port = this.port(i);
    if (port !== undefined) d.port = port;
    return d;
  }

  /** All detections as `detect()` returns them. */
  toArray(): Detection[] {
    const out: Detection[] = [];
    for (let i = 0; i < this.length; i++) out.push(this.get(i));
    return out;
  }
}

/**
 * The canonical value of a detection the scanner found at text[start, end): what the scanner
 * builds inline when it materialises (tests hold the two to the same answer).
 */
export function valueOf(text: string, kind: DetectionKind, start: number, end: number, raw: string): string {
  // A detection's raw text holds dot and colon markers at most: refang() turns them back.
  const plain = /[[({]/.test(raw) ? refang(raw) : raw;
  if (kind === 'domain') return nameValue(plain);
  if (kind === 'ipv4') return plain;
  const slash = kind === 'cidr' ? plain.lastIndexOf('/') : -1;
  const addr = slash >= 0 ? plain.slice(0, slash) : plain;
  if (!addr.includes(':')) return plain; // an IPv4 block: canonical as written
  const pct = addr.indexOf('%');
  const groups = parseIPv6At(addr, 0, pct >= 0 ? pct : addr.length);
  if (!groups) return plain; // not reached: the scanner emitted it
  let v = formatIPv6(groups);
  if (pct >= 0) {
    const bracketed = text.charCodeAt(start - 1) === 91 && text.charCodeAt(end) === 93;
    v += `%${zoneValue(addr.slice(pct + 1), bracketed)}`;
  }
  return slash >= 0 ? `${v}${plain.slice(slash)}` : v;
}
