// Single-pass scanner. It walks the text once, cutting it into "runs" of the characters an
// address or host name can be made of ([0-9A-Za-z._:-] plus the defang markers `[.]`, `(.)`,
// `{.}`, `[dot]`, `(dot)`, `{dot}`, `[:]`), and analyses each run on its own with fixed-size
// look-arounds into the text. Every step is linear in the run and runs longer than MAX_RUN are
// skipped, so the whole scan is linear in the input: no regular expression ever sees unbounded
// input.
import { acceptName } from './domain';
import { formatIPv4, formatIPv6, parseIPv4At, parseIPv6At } from './ip';
import type { Detection, DetectionKind, DetectOptions } from './types';

/** Runs longer than this are blobs (hashes, base64, minified identifiers): never analysed. */
export const MAX_RUN = 1024;

const DIGIT = 1;
const ALPHA = 2;
const DOT = 4;
const COLON = 8;
const HYPHEN = 16;
const UNDERSCORE = 32;
const RUN = 64;

const CLS = new Uint8Array(128);
for (let c = 48; c <= 57; c++) CLS[c] = RUN | DIGIT;
for (let c = 65; c <= 90; c++) CLS[c] = RUN | ALPHA;
for (let c = 97; c <= 122; c++) CLS[c] = RUN | ALPHA;
CLS[46] = RUN | DOT;
CLS[58] = RUN | COLON;
CLS[45] = RUN | HYPHEN;
CLS[95] = RUN | UNDERSCORE;

const ALL_KINDS: ReadonlySet<DetectionKind> = new Set(['ipv4', 'ipv6', 'cidr', 'domain']);
const DEFANGED_SCHEMES = new Set([
  'hxxp',
  'hxxps',
  'hxxxp',
  'hxxxps',
  'hxtp',
  'hxtps',
  'htxp',
  'htxps',
  'fxp',
  'fxps',
]);

function isHexCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

function isAlnumCode(c: number): boolean {
  return c < 128 && (CLS[c] & (DIGIT | ALPHA)) !== 0;
}

/** A letter glued to the candidate in an alphabetic script: `münchen.de` is not `nchen.de`. */
const ALPHABETIC_NEIGHBOUR = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}\p{M}]/u;

function gluedAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c < 128) return false;
  return ALPHABETIC_NEIGHBOUR.test(text[i]);
}

/**
 * Length of a defang marker starting at `i` (0 if none). Dot markers: `[.]` `(.)` `{.}` `[dot]`
 * `(dot)` `{dot}` in any case; colon marker: `[:]`.
 */
function markerAt(text: string, i: number): number {
  const open = text.charCodeAt(i);
  const close = open === 91 ? 93 : open === 40 ? 41 : 125;
  const c1 = text.charCodeAt(i + 1);
  if (c1 === 46 || (c1 === 58 && open === 91)) return text.charCodeAt(i + 2) === close ? 3 : 0;
  if ((c1 | 32) === 100 && (text.charCodeAt(i + 2) | 32) === 111 && (text.charCodeAt(i + 3) | 32) === 116) {
    return text.charCodeAt(i + 4) === close ? 5 : 0;
  }
  return 0;
}

/** A run under analysis: its refanged text and the map back to offsets in the original. */
interface RunView {
  str: string;
  /** Original offset of refanged index i (i may equal str.length: the run end). */
  startOf(i: number): number;
  /** Original offset just after refanged index i - 1. */
  endOf(i: number): number;
  /** True if refanged [a, b) contains a character that came from a defang marker. */
  markedIn(a: number, b: number): boolean;
}

function plainView(text: string, s: number, e: number): RunView {
  return {
    str: text.slice(s, e),
    startOf: (i) => s + i,
    endOf: (i) => s + i,
    markedIn: () => false,
  };
}

function markedView(text: string, s: number, e: number): RunView {
  let str = '';
  const starts: number[] = [];
  const ends: number[] = [];
  const marked: boolean[] = [];
  for (let i = s; i < e;) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 40 || c === 123) {
      const m = markerAt(text, i);
      str += text.charCodeAt(i + 1) === 58 ? ':' : '.';
      starts.push(i);
      ends.push(i + m);
      marked.push(true);
      i += m;
    } else {
      str += text[i];
      starts.push(i);
      ends.push(i + 1);
      marked.push(false);
      i++;
    }
  }
  return {
    str,
    startOf: (i) => (i < starts.length ? starts[i] : e),
    endOf: (i) => (i === 0 ? s : ends[i - 1]),
    markedIn: (a, b) => {
      for (let k = a; k < b; k++) if (marked[k]) return true;
      return false;
    },
  };
}

interface Sink {
  out: Detection[];
  kinds: ReadonlySet<DetectionKind>;
  mode: 'code' | 'text';
  limit: number;
}

interface LeftContext {
  /** After `scheme://`, `//`, `\\` or `[://]`. */
  url: boolean;
  /** After `@`, `[at]`, `(at)`. */
  at: boolean;
  /** The scheme or separator was defanged (`hxxp://`, `[:]//`, `[://]`, `[at]`). */
  defanged: boolean;
  /** After a lone `/` or `\`: a path component (`src/setup.py`). */
  path: boolean;
}

const NO_CONTEXT: LeftContext = { url: false, at: false, defanged: false, path: false };

function schemeBefore(text: string, p: number): string {
  let q = p;
  while (q > 0 && p - q < 10) {
    const c = text.charCodeAt(q - 1);
    if (c < 128 && (CLS[c] & ALPHA) !== 0) q--;
    else break;
  }
  return text.slice(q, p).toLowerCase();
}

function leftContext(text: string, s: number): LeftContext {
  const c1 = text.charCodeAt(s - 1);
  const c2 = text.charCodeAt(s - 2);
  if (c1 === 47 && c2 === 47) {
    // `scheme://host`, `scheme[:]//host` or `//host`.
    if (text.charCodeAt(s - 3) === 58) {
      return { url: true, at: false, defanged: DEFANGED_SCHEMES.has(schemeBefore(text, s - 3)), path: false };
    }
    if (text.startsWith('[:]', s - 5)) return { url: true, at: false, defanged: true, path: false };
    return { url: true, at: false, defanged: false, path: false };
  }
  if (c1 === 92 && c2 === 92) return { url: true, at: false, defanged: false, path: false };
  if (c1 === 93 && text.startsWith('[://]', s - 5))
    return { url: true, at: false, defanged: true, path: false };
  if (c1 === 64) return { url: false, at: true, defanged: false, path: false };
  if ((c1 === 93 || c1 === 41) && s >= 4) {
    const m = text.slice(s - 4, s).toLowerCase();
    if (m === '[at]' || m === '(at)') return { url: false, at: true, defanged: true, path: false };
    if (text.startsWith('[@]', s - 3)) return { url: false, at: true, defanged: true, path: false };
  }
  if (c1 === 47 || c1 === 92) return { url: false, at: false, defanged: false, path: true };
  return NO_CONTEXT;
}

/** `Chrome/120.0.0.0`, `Version=4.0.0.0`, `AssemblyVersion("1.0.0.0")`: version numbers. */
function versionBefore(text: string, st: number): boolean {
  if (text.charCodeAt(st - 1) === 47) {
    let q = st - 1;
    let letter = false;
    while (q > 0 && st - 1 - q < 40) {
      const c = text.charCodeAt(q - 1);
      if (c >= 128 || (CLS[c] & (ALPHA | DIGIT | DOT | HYPHEN | UNDERSCORE)) === 0) break;
      if ((CLS[c] & ALPHA) !== 0) letter = true;
      q--;
    }
    // A product token (`Chrome/`) rather than a path (`/ip/`) or a URL (`http://`).
    if (letter && q < st - 1 && text.charCodeAt(q - 1) !== 47) return true;
  }
  let q = st;
  while (q > 0 && st - q < 8) {
    const c = text.charCodeAt(q - 1);
    if (c === 32 || c === 9 || c === 61 || c === 58 || c === 34 || c === 39 || c === 40) q--;
    else break;
  }
  return q >= 7 && text.slice(q - 7, q).toLowerCase() === 'version';
}

/** Strict prefix length at `i` (no leading zeros), followed by a non-token character. */
function prefixAt(text: string, i: number, max: number): { bits: number; end: number } | undefined {
  let bits = 0;
  let j = i;
  while (j < text.length && j - i < 4) {
    const c = text.charCodeAt(j);
    if (c < 48 || c > 57) break;
    bits = bits * 10 + (c - 48);
    j++;
  }
  const len = j - i;
  if (len === 0 || len > 3 || (len > 1 && text.charCodeAt(i) === 48) || bits > max) return undefined;
  const next = text.charCodeAt(j);
  if (isAlnumCode(next) || next === 95) return undefined;
  if (next === 46 && isAlnumCode(text.charCodeAt(j + 1))) return undefined;
  return { bits, end: j };
}

/** Port digits at `str[i..]` up to the next `:` or the end: 1-5 digits, 0-65535. */
function portAt(str: string, i: number): number | undefined {
  let v = 0;
  let j = i;
  while (j < str.length && str.charCodeAt(j) !== 58) {
    const c = str.charCodeAt(j);
    if (c < 48 || c > 57 || j - i >= 5) return undefined;
    v = v * 10 + (c - 48);
    j++;
  }
  return j > i && v <= 65535 ? v : undefined;
}

function emit(
  sink: Sink,
  text: string,
  kind: DetectionKind,
  start: number,
  end: number,
  value: string,
  defanged: boolean,
  port?: number,
): void {
  if (!sink.kinds.has(kind) || sink.out.length >= sink.limit) return;
  const d: Detection = { kind, start, end, raw: text.slice(start, end), value, defanged };
  if (port !== undefined) d.port = port;
  sink.out.push(d);
}

/** IPv4 at original [st, en): emits an address or a CIDR block. */
function emitIPv4(
  sink: Sink,
  text: string,
  v4: number,
  st: number,
  en: number,
  atRunEnd: boolean,
  defanged: boolean,
  port?: number,
): void {
  if (versionBefore(text, st)) return;
  const value = formatIPv4(v4);
  if (atRunEnd && port === undefined && text.charCodeAt(en) === 47) {
    const p = prefixAt(text, en + 1, 32);
    if (p) {
      emit(sink, text, 'cidr', st, p.end, `${value}/${p.bits}`, defanged);
      return;
    }
  }
  emit(sink, text, 'ipv4', st, en, value, defanged, port);
}

/** Digits and dots only: the common case (`1.1`, `5.0`, `10.0.0.1`) handled without slicing. */
function analyzeNumericRun(sink: Sink, text: string, s: number, e: number): void {
  if (text.charCodeAt(s) === 46) return; // `.1.3.6.1`: an OID tail, not an address
  let en = e;
  while (en > s && text.charCodeAt(en - 1) === 46) en--;
  if (en - s < 7 || en - s > 15) return;
  const v4 = parseIPv4At(text, s, en);
  if (v4 < 0 || gluedAt(text, s - 1) || (en === e && gluedAt(text, e))) return;
  emitIPv4(sink, text, v4, s, en, en === e, leftContext(text, s).defanged);
}

function isWordCode(c: number): boolean {
  return c < 128 && (CLS[c] & (ALPHA | DIGIT | UNDERSCORE)) !== 0;
}

/** Finds IPv6 literals in the run; returns the refanged ranges they consumed. */
function analyzeIPv6(
  sink: Sink,
  text: string,
  s: number,
  e: number,
  v: RunView,
  left: LeftContext,
): number[] {
  const consumed: number[] = [];
  const str = v.str;
  const len = str.length;
  let a = 0;
  while (a < len) {
    // Maximal window of [0-9A-Fa-f:.].
    const c0 = str.charCodeAt(a);
    if (!(isHexCode(c0) || c0 === 58 || c0 === 46)) {
      a++;
      continue;
    }
    let b = a;
    let colons = 0;
    while (b < len) {
      const c = str.charCodeAt(b);
      if (c === 58) colons++;
      else if (!(isHexCode(c) || c === 46)) break;
      b++;
    }
    const wa = a;
    const wb = b;
    a = b;
    if (colons < 2) continue;
    let x = wa;
    let y = wb;
    while (y > x && str.charCodeAt(y - 1) === 46) y--;
    // A single colon at either end is a separator (`ip:2001:db8::1`, `2001:db8::1:`).
    if (str.charCodeAt(x) === 58 && str.charCodeAt(x + 1) !== 58) x++;
    else if (x > 0 && isWordCode(str.charCodeAt(x - 1))) continue; // glued: `x2001:db8::1`, `Foo::1`
    if (str.charCodeAt(y - 1) === 58 && str.charCodeAt(y - 2) !== 58) y--;
    else if (y === wb && y < len && isWordCode(str.charCodeAt(y))) continue; // `1::Int`, `::1x`
    if (y - x < 2) continue;
    const compressed = str.indexOf('::', x) >= 0 && str.indexOf('::', x) < y;
    if (compressed) {
      // `::` alone appears in code everywhere (`Foo::Bar`, `a[::2]` is handled below).
      let digit = false;
      for (let k = x; k < y && !digit; k++) {
        const c = str.charCodeAt(k);
        digit = c >= 48 && c <= 57;
      }
      if (!digit) continue;
    }
    const g = parseIPv6At(str, x, y);
    if (!g) continue;
    const wholeRun = x === 0 && y === len;
    const st = v.startOf(x);
    let en = v.endOf(y);
    if ((x === 0 && gluedAt(text, s - 1)) || (y === len && gluedAt(text, e))) continue;
    let port: number | undefined;
    let value = formatIPv6(g);
    let kind: DetectionKind = 'ipv6';
    if (wholeRun && text.charCodeAt(s - 1) === 91) {
      // `[::1]:8080` is a bracketed address; `a[::2]`, `x[1::3]` are slices.
      const before = text.charCodeAt(s - 2);
      if (isWordCode(before) || before === 93 || before === 41) continue;
    }
    if (y === len && text.charCodeAt(e) === 37 && isAlnumCode(text.charCodeAt(e + 1))) {
      // Zone id: `fe80::1%eth0`; `%25eth0` inside brackets is its URL-encoded form.
      let z = e + 1;
      while (z < text.length && z - e <= 64) {
        const c = text.charCodeAt(z);
        if (isWordCode(c) || c === 45 || (c === 46 && isAlnumCode(text.charCodeAt(z + 1)))) z++;
        else break;
      }
      let zone = text.slice(e + 1, z);
      if (
        text.charCodeAt(s - 1) === 91 &&
        text.charCodeAt(z) === 93 &&
        zone.startsWith('25') &&
        zone.length > 2
      ) {
        zone = zone.slice(2);
      }
      value += `%${zone}`;
      en = z;
    } else if (y === len && text.charCodeAt(e) === 47) {
      const p = prefixAt(text, e + 1, 128);
      if (p) {
        kind = 'cidr';
        value += `/${p.bits}`;
        en = p.end;
      }
    }
    if (
      wholeRun &&
      text.charCodeAt(s - 1) === 91 &&
      text.charCodeAt(en) === 93 &&
      text.charCodeAt(en + 1) === 58
    ) {
      let pv = 0;
      let j = en + 2;
      while (j < text.length && j - en - 2 < 6) {
        const c = text.charCodeAt(j);
        if (c < 48 || c > 57) break;
        pv = pv * 10 + (c - 48);
        j++;
      }
      const n = j - en - 2;
      if (n >= 1 && n <= 5 && pv <= 65535 && !isWordCode(text.charCodeAt(j))) port = pv;
    }
    emit(sink, text, kind, st, en, value, v.markedIn(x, y) || (x === 0 && left.defanged), port);
    consumed.push(wa, wb);
  }
  return consumed;
}

function overlaps(consumed: number[], a: number, b: number): boolean {
  for (let k = 0; k < consumed.length; k += 2) if (a < consumed[k + 1] && consumed[k] < b) return true;
  return false;
}

/** After the candidate: `foo.bar(` is a call, `a.b.name = x` an assignment, `first.last@` a mailbox. */
function codeAfter(text: string, en: number): boolean {
  const c = text.charCodeAt(en);
  if (c === 40 || c === 64) return true;
  let j = en;
  while (j < text.length && j - en < 4 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
  return text.charCodeAt(j) === 61;
}

function analyzeRun(sink: Sink, text: string, s: number, e: number, flags: number, marked: boolean): void {
  if (!marked && (flags & (ALPHA | COLON | HYPHEN | UNDERSCORE)) === 0) {
    analyzeNumericRun(sink, text, s, e);
    return;
  }
  const v = marked ? markedView(text, s, e) : plainView(text, s, e);
  const str = v.str;
  const len = str.length;
  const left = leftContext(text, s);
  const consumed = (flags & COLON) !== 0 ? analyzeIPv6(sink, text, s, e, v, left) : [];
  // Colon-separated segments: `host:port`, `key:value`, `1.2.3.4:80:90`.
  let p = 0;
  while (p < len) {
    let q = str.indexOf(':', p);
    if (q < 0) q = len;
    const segStart = p;
    const segEnd = q;
    p = q + 1;
    if (segEnd - segStart < 3 || overlaps(consumed, segStart, segEnd)) continue;
    let x = segStart;
    let y = segEnd;
    while (x < y && (str.charCodeAt(x) === 46 || str.charCodeAt(x) === 45)) x++;
    while (y > x && (str.charCodeAt(y - 1) === 46 || str.charCodeAt(y - 1) === 45)) y--;
    if (y - x < 3) continue;
    let alpha = false;
    let hyphen = false;
    let dots = 0;
    for (let k = x; k < y; k++) {
      const c = str.charCodeAt(k);
      const cls = c < 128 ? CLS[c] : 0;
      if ((cls & (ALPHA | UNDERSCORE)) !== 0) alpha = true;
      else if (c === 45) hyphen = true;
      else if (c === 46) dots++;
    }
    if (dots === 0) continue;
    const st = v.startOf(x);
    const en = v.endOf(y);
    const touchesStart = x === 0;
    const touchesEnd = y === len;
    if ((touchesStart && gluedAt(text, s - 1)) || (touchesEnd && gluedAt(text, e))) continue;
    const port =
      y === segEnd && segEnd < len && !overlaps(consumed, segEnd + 1, segEnd + 2)
        ? portAt(str, segEnd + 1)
        : undefined;
    const segLeft = segStart === 0 ? left : NO_CONTEXT;
    const defanged = v.markedIn(x, y) || (segStart === 0 && left.defanged);
    if (!alpha) {
      if (x > segStart && str.charCodeAt(segStart) === 46) continue; // OID tail
      if (!hyphen) {
        const v4 = parseIPv4At(str, x, y);
        if (v4 >= 0) emitIPv4(sink, text, v4, st, en, touchesEnd, defanged, port);
        continue;
      }
      // Ranges: `10.0.0.1-10.0.0.9`.
      let r = x;
      while (r < y) {
        let t = str.indexOf('-', r);
        if (t < 0 || t > y) t = y;
        const v4 = parseIPv4At(str, r, t);
        if (v4 >= 0) emitIPv4(sink, text, v4, v.startOf(r), v.endOf(t), t === len, defanged);
        r = t + 1;
      }
      continue;
    }
    if (!sink.kinds.has('domain') || segLeft.path) continue;
    if (touchesEnd && codeAfter(text, en)) continue;
    const name = str.slice(x, y).toLowerCase();
    const strong = segLeft.url || segLeft.at || defanged;
    if (!acceptName(name, { strong, mode: sink.mode })) continue;
    emit(sink, text, 'domain', st, en, name, defanged, port);
  }
}

/** Where a scan that must cover `from` can safely start: after whitespace, or a bounded distance back. */
function syncPoint(text: string, from: number): number {
  let i = from;
  const floor = Math.max(0, from - 2 * MAX_RUN);
  while (i > floor) {
    const c = text.charCodeAt(i - 1);
    if (c === 32 || c === 10 || c === 13 || c === 9) return i;
    i--;
  }
  return i;
}

export function scan(text: string, from: number, to: number, opts: DetectOptions = {}): Detection[] {
  const sink: Sink = {
    out: [],
    kinds: opts.kinds ? new Set(opts.kinds) : ALL_KINDS,
    mode: opts.mode ?? 'code',
    limit: opts.limit ?? Number.MAX_SAFE_INTEGER,
  };
  const n = text.length;
  from = Math.max(0, Math.min(from, n));
  to = Math.max(from, Math.min(to, n));
  // Runs that start before `stop` are analysed whole; a zero-width range asks for the
  // detection covering one offset.
  const stop = Math.max(to, from + 1);
  let i = syncPoint(text, from);
  while (i < stop && i < n) {
    let c = text.charCodeAt(i);
    let k = c < 128 ? CLS[c] : 0;
    if (k === 0) {
      // `%2F%2Fevil.com`: a percent-escape separates, it does not start a token.
      i += c === 37 && isHexCode(text.charCodeAt(i + 1)) && isHexCode(text.charCodeAt(i + 2)) ? 3 : 1;
      continue;
    }
    const s = i;
    let flags = 0;
    let marked = false;
    for (;;) {
      flags |= k;
      i++;
      if (i >= n) break;
      c = text.charCodeAt(i);
      k = c < 128 ? CLS[c] : 0;
      if (k !== 0) continue;
      if (c === 91 || c === 40 || c === 123) {
        const m = markerAt(text, i);
        if (m !== 0 && isAlnumCode(text.charCodeAt(i + m))) {
          marked = true;
          flags |= text.charCodeAt(i + 1) === 58 ? COLON : DOT;
          i += m;
          k = CLS[text.charCodeAt(i)];
          continue;
        }
      }
      break;
    }
    if ((flags & (DOT | COLON)) !== 0 && i - s <= MAX_RUN) {
      const before = sink.out.length;
      analyzeRun(sink, text, s, i, flags, marked);
      if (sink.out.length - before > 1) {
        const added = sink.out.splice(before).sort((a, b) => a.start - b.start);
        sink.out.push(...added);
      }
    }
    if (sink.out.length >= sink.limit) break;
  }
  return sink.out.filter((d) => d.end > from && d.start < stop);
}
