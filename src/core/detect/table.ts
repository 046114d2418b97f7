// Compact results: every detection as three numbers (start, end, kind and flags) in one typed
// array, with the `raw` and `value` strings built only when asked for. On a dense log the
// materialised form costs more than finding the detections (an object and one or two strings
// each, most of them kept alive until the scan ends); callers that count, filter or only look
// at a few of them (the bench, "list the indicators in this file") do not pay for that.
import { nameValue } from './domain';
import { formatIPv6, parseIPv6At, zoneValue } from './ip';
import { refang } from './refang';
import type { Detection, DetectionKind } from './types';

// A row's meta: the kind's index in KINDS, | DEFANGED, | HAS_PORT | port << 4.
export const KINDS: readonly DetectionKind[] = ['ipv4', 'ipv6', 'cidr', 'domain'];
export const DEFANGED = 4;
const HAS_PORT = 8;

/** The index of `kind` in KINDS (compared, not looked up: a keyed load by name is slow here). */
function kindIndex(kind: DetectionKind): number {
  return kind === 'ipv4' ? 0 : kind === 'ipv6' ? 1 : kind === 'cidr' ? 2 : 3;
}

/** Detections of one text, in order of `start`, as rows of (start, end, meta). */
export class DetectionTable {
  private rows = new Int32Array(3 * 256);
  /** Number of detections. */
  length = 0;

  constructor(readonly text: string) {}

  /** Internal: the scanner appends. */
  push(kind: DetectionKind, start: number, end: number, defanged: boolean, port: number | undefined): void {
    let rows = this.rows;
    const at = 3 * this.length;
    if (at + 3 > rows.length) {
      rows = new Int32Array(rows.length * 2);
      rows.set(this.rows);
      this.rows = rows;
    }
    rows[at] = start;
    rows[at + 1] = end;
    rows[at + 2] =
      kindIndex(kind) | (defanged ? DEFANGED : 0) | (port === undefined ? 0 : HAS_PORT | (port << 4));
    this.length++;
  }

  /** Internal: puts rows [from, length) in order of start (one run's worth: a handful). */
  sortFrom(from: number): void {
    const r = this.rows;
    for (let i = from + 1; i < this.length; i++) {
      const s = r[3 * i];
      const e = r[3 * i + 1];
      const m = r[3 * i + 2];
      let j = i - 1;
      while (j >= from && r[3 * j] > s) {
        r[3 * j + 3] = r[3 * j];
        r[3 * j + 4] = r[3 * j + 1];
        r[3 * j + 5] = r[3 * j + 2];
        j--;
      }
      r[3 * j + 3] = s;
      r[3 * j + 4] = e;
      r[3 * j + 5] = m;
    }
  }

  start(i: number): number {
    return this.rows[3 * i];
  }

  end(i: number): number {
    return this.rows[3 * i + 1];
  }

  kind(i: number): DetectionKind {
    return KINDS[this.rows[3 * i + 2] & 3];
  }

  defanged(i: number): boolean {
    return (this.rows[3 * i + 2] & DEFANGED) !== 0;
  }

  port(i: number): number | undefined {
    const m = this.rows[3 * i + 2];
    return (m & HAS_PORT) !== 0 ? m >>> 4 : undefined;
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
