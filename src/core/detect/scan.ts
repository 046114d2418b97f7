// Single-pass scanner. It walks the text once, cutting it into "runs" of the characters an
// address or host name can be made of ([0-9A-Za-z._:-] plus the defang markers `[.]`, `(.)`,
// `{.}`, `[dot]`, `(dot)`, `{dot}`, `[:]`), and analyses each run that holds a dot or a colon on
// its own, with fixed-size look-arounds into the text. Every step is linear in the run and runs
// longer than MAX_RUN are skipped, so the whole scan is linear in the input: the one regular
// expression that reads the whole text matches a fixed five-character marker (`[dot]`).
//
// Speed on large inputs comes from visiting as little as possible: native searches jump to the
// characters that can start something (dots, colons, `[dot]` markers); separator colons and
// ISO times are dismissed without analysis; defanged quads and names are read in place. Each
// such shortcut can be switched off (setFastPaths) and is held by generated tests to the
// general analysis. Results go to Detection objects, or to a compact DetectionTable.
import { detached } from '../text';
import { acceptFacts, isIcannTld, nameFacts, type NameFacts } from './domain';
import { formatIPv6, parseIPv4At, parseIPv6Into, zoneValue } from './ip';
import { DetectionTable } from './table';
import type { Detection, DetectionKind, DetectOptions } from './types';

/** Runs longer than this are blobs (hashes, base64, minified identifiers): never analysed. */
export const MAX_RUN = 1024;

const DIGIT = 1;
const ALPHA = 2;
const DOT = 4;
const COLON = 8;
const HYPHEN = 16;
const UNDERSCORE = 32;
const HEX = 64;
const RUN = 128;

/** Character classes for every UTF-16 code unit (non-ASCII is 0: never part of a run). */
const CLS = new Uint8Array(65536);
for (let c = 48; c <= 57; c++) CLS[c] = RUN | DIGIT | HEX;
for (let c = 65; c <= 90; c++) CLS[c] = RUN | ALPHA | (c <= 70 ? HEX : 0);
for (let c = 97; c <= 122; c++) CLS[c] = RUN | ALPHA | (c <= 102 ? HEX : 0);
CLS[46] = RUN | DOT;
CLS[58] = RUN | COLON;
CLS[45] = RUN | HYPHEN;
CLS[95] = RUN | UNDERSCORE;

/** `charCodeAt` out of range is NaN; CLS[NaN] is undefined: always go through this. */
function cls(text: string, i: number): number {
  return i >= 0 && i < text.length ? CLS[text.charCodeAt(i)] : 0;
}

const ALL_KINDS: ReadonlySet<DetectionKind> = new Set(['ipv4', 'ipv6', 'cidr', 'domain']);
const DEFANGED_SCHEMES: readonly string[] = [
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
];

/** A letter glued to the candidate in an alphabetic script: `münchen.de` is not `nchen.de`. */
const ALPHABETIC_NEIGHBOUR = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}\p{M}]/u;

function gluedAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length || text.charCodeAt(i) < 128) return false;
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

/**
 * A run under analysis, as `str[lo, hi)`. A plain run is read in place (`str` is the text, no
 * copy); a run with defang markers is refanged into a new string with a map back to offsets in
 * the original.
 */
class RunView {
  constructor(
    public str: string,
    public lo: number,
    public hi: number,
    /** For runs with markers: the original offset of index 0. */
    private readonly base = 0,
    /** For runs with markers: triples (refanged index, original offset, marker length). */
    private readonly marks?: number[],
  ) {}

  static marked(text: string, s: number, e: number): RunView {
    const marks: number[] = [];
    const str = refang(text, s, e, marks);
    return new RunView(str, 0, str.length, s, marks);
  }

  /** The shared view of a plain run (no markers): analyses are not reentrant. */
  static plain(text: string, s: number, e: number): RunView {
    const v = PLAIN_VIEW;
    v.str = text;
    v.lo = s;
    v.hi = e;
    return v;
  }

  /**
   * Original offset of index i: where character i starts, which is also where character i - 1
   * ends (i may equal hi: the run end).
   */
  orig(i: number): number {
    if (this.marks === undefined) return i;
    let off = this.base + i;
    for (let k = 0; k < this.marks.length && this.marks[k] < i; k += 3) off += this.marks[k + 2] - 1;
    return off;
  }

  /** True if [a, b) holds a character that came from a defang marker. */
  markedIn(a: number, b: number): boolean {
    if (this.marks === undefined) return false;
    for (let k = 0; k < this.marks.length; k += 3) if (this.marks[k] >= a && this.marks[k] < b) return true;
    return false;
  }
}

const PLAIN_VIEW = new RunView('', 0, 0);

/** First index of `code` in str[from, to), or `to`. Bounded: never reads past the run. */
function find(str: string, code: number, from: number, to: number): number {
  let i = from;
  while (i < to && str.charCodeAt(i) !== code) i++;
  return i;
}

interface Sink {
  text: string;
  /** Materialised detections (undefined when filling a table). */
  out: Detection[];
  /** Compact mode: detections as rows of numbers; `value` strings are not built. */
  table: DetectionTable | undefined;
  /** Build `value` strings (false in compact mode: `valueOf` builds one on demand). */
  values: boolean;
  /** Detections so far (either mode). */
  n: number;
  kinds: ReadonlySet<DetectionKind>;
  /** No kinds filter: every kind is wanted (skips the set lookups). */
  allKinds: boolean;
  mode: 'code' | 'text';
  limit: number;
}

// What the text right before a run says about it (bit set).
/** After `scheme://`, `//`, `\\` or `[://]`. */
const CTX_URL = 1;
/** After `@`, `[at]`, `(at)`, `[@]`. */
const CTX_AT = 2;
/** The scheme or separator was defanged (`hxxp://`, `[:]//`, `[://]`, `[at]`). */
const CTX_DEFANGED = 4;
/** After a lone `/` or `\`: a path component (`src/setup.py`). */
const CTX_PATH = 8;

/**
 * The letters right before `p` are a defanged scheme (`hxxps`, `fxp`), in any case. Compared in
 * place: every defanged scheme is 3-6 letters with an `x` second or third.
 */
function defangedSchemeBefore(text: string, p: number): boolean {
  let q = p;
  while (q > 0 && p - q < 7 && (cls(text, q - 1) & ALPHA) !== 0) q--;
  const n = p - q;
  if (n < 3 || n > 6) return false;
  if ((text.charCodeAt(q + 1) | 32) !== 120 && (text.charCodeAt(q + 2) | 32) !== 120) return false;
  return lettersAre(text, q, n, DEFANGED_SCHEMES);
}

/** text[at, at + n) (letters) is one of `words` (lower case), in any case. Compared in place. */
function lettersAre(text: string, at: number, n: number, words: readonly string[]): boolean {
  for (const word of words) {
    if (word.length !== n) continue;
    let k = 0;
    while (k < n && (text.charCodeAt(at + k) | 32) === word.charCodeAt(k)) k++;
    if (k === n) return true;
  }
  return false;
}

function leftContext(text: string, s: number): number {
  const c1 = text.charCodeAt(s - 1);
  if (c1 !== 47 && c1 !== 92 && c1 !== 64 && c1 !== 93 && c1 !== 41) return 0;
  const c2 = text.charCodeAt(s - 2);
  if (c1 === 47 && c2 === 47) {
    // `scheme://host`, `scheme[:]//host` or `//host`.
    if (text.charCodeAt(s - 3) === 58) {
      return defangedSchemeBefore(text, s - 3) ? CTX_URL | CTX_DEFANGED : CTX_URL;
    }
    return text.startsWith('[:]', s - 5) ? CTX_URL | CTX_DEFANGED : CTX_URL;
  }
  if (c1 === 92 && c2 === 92) return CTX_URL;
  if (c1 === 47 || c1 === 92) return CTX_PATH;
  if (c1 === 64) return CTX_AT;
  if (c1 === 93 && text.startsWith('[://]', s - 5)) return CTX_URL | CTX_DEFANGED;
  if (s >= 4) {
    // `[at]`, `(at)` in any case, or `[@]`: compared in place (only ASCII lower-cases to a, t).
    const o = text.charCodeAt(s - 4);
    if (
      ((o === 91 && c1 === 93) || (o === 40 && c1 === 41)) &&
      (text.charCodeAt(s - 3) | 32) === 97 &&
      (text.charCodeAt(s - 2) | 32) === 116
    ) {
      return CTX_AT | CTX_DEFANGED;
    }
    if (c1 === 93 && text.charCodeAt(s - 2) === 64 && text.charCodeAt(s - 3) === 91)
      return CTX_AT | CTX_DEFANGED;
  }
  return 0;
}

/** `Chrome/120.0.0.0`, `Version=4.0.0.0`, `AssemblyVersion("1.0.0.0")`: version numbers. */
function versionBefore(text: string, st: number): boolean {
  if (text.charCodeAt(st - 1) === 47) {
    let q = st - 1;
    let letter = false;
    while (q > 0 && st - 1 - q < 40) {
      const k = cls(text, q - 1);
      if ((k & RUN) === 0 || k === (RUN | COLON)) break;
      if ((k & ALPHA) !== 0) letter = true;
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
  if (q < 7 || (text.charCodeAt(q - 1) | 32) !== 110) return false; // ends in "n"
  return text.slice(q - 7, q).toLowerCase() === 'version';
}

/**
 * Words after which a dotted quad numbers a part of a document, not a host: `Section 2.8.3.2`,
 * `Figure 1.1.2.3`, `Step 4.1.1.2`. Not `table`: `ip route add ... table 10.0.0.1` is networking.
 */
const NUMBERING_WORDS: readonly string[] = [
  'section',
  'sections',
  'sect',
  'sec',
  'chapter',
  'clause',
  'paragraph',
  'para',
  'appendix',
  'annex',
  'figure',
  'fig',
  'step',
];

/** The last letters of NUMBERING_WORDS, as bits (a = 1). */
const NUMBERING_LAST_LETTERS = NUMBERING_WORDS.reduce(
  (m, w) => m | (1 << (w.charCodeAt(w.length - 1) - 97)),
  0,
);

/**
 * `Section 2.8.3.2`, `Sect. 2.8.3.2`, `§ 2.8.3.2`, `§2.8.3.2`: a section number. Reads at most
 * 16 characters back from `st`. (A Markdown heading `### 2.8.3.2` is not told apart: a comment
 * `# 10.0.0.1 gateway` in a config file looks the same.)
 */
function numberingBefore(text: string, st: number): boolean {
  let q = st;
  while (q > 0 && st - q < 3) {
    const c = text.charCodeAt(q - 1);
    if (c === 32 || c === 9 || c === 160) q--;
    else break;
  }
  const c = text.charCodeAt(q - 1);
  if (c === 0xa7) return true; // §
  if (q === st) return false; // a word must be set apart by a space
  const end = c === 46 ? q - 1 : q; // an abbreviation: `Sect. 4.1.2.3`, `Fig. 1.2.3.4`
  // Most words before an address (`from`, `and`, `host`) end in a letter no numbering word ends in.
  const last = text.charCodeAt(end - 1) | 32;
  if (last < 97 || last > 122 || (NUMBERING_LAST_LETTERS & (1 << (last - 97))) === 0) return false;
  let w = end;
  while (w > 0 && end - w < 10 && (cls(text, w - 1) & ALPHA) !== 0) w--;
  const n = end - w;
  if (n < 3 || n > 9 || (cls(text, w - 1) & (ALPHA | DIGIT | UNDERSCORE)) !== 0) return false;
  return lettersAre(text, w, n, NUMBERING_WORDS);
}

/** Strict prefix length at `i` (no leading zeros), followed by a non-token character. */
function prefixAt(text: string, i: number, max: number): { bits: number; end: number } | undefined {
  let bits = 0;
  let j = i;
  while (j < text.length && j - i < 4 && (cls(text, j) & DIGIT) !== 0) {
    bits = bits * 10 + (text.charCodeAt(j) - 48);
    j++;
  }
  const len = j - i;
  if (len === 0 || len > 3 || (len > 1 && text.charCodeAt(i) === 48) || bits > max) return undefined;
  const next = cls(text, j);
  if ((next & (ALPHA | DIGIT | UNDERSCORE)) !== 0) return undefined;
  if (next === (RUN | DOT) && (cls(text, j + 1) & (ALPHA | DIGIT)) !== 0) return undefined;
  return { bits, end: j };
}

/** Port digits at `str[i..]` up to the next `:` or `hi`: 1-5 digits, 0-65535. */
function portAt(str: string, i: number, hi: number): number | undefined {
  let v = 0;
  let j = i;
  while (j < hi && str.charCodeAt(j) !== 58) {
    const c = str.charCodeAt(j);
    if (c < 48 || c > 57 || j - i >= 5) return undefined;
    v = v * 10 + (c - 48);
    j++;
  }
  return j > i && v <= 65535 ? v : undefined;
}

function emit(
  sink: Sink,
  kind: DetectionKind,
  start: number,
  end: number,
  value: string | undefined,
  defanged: boolean,
  port?: number,
  written?: string,
): void {
  if ((!sink.allKinds && !sink.kinds.has(kind)) || sink.n >= sink.limit) return;
  sink.n++;
  if (sink.table !== undefined) {
    sink.table.push(kind, start, end, defanged, port);
    return;
  }
  const raw = written ?? sink.text.slice(start, end);
  // One string when the text is already canonical: the result list is most of what survives.
  const d: Detection = {
    kind,
    start,
    end,
    raw,
    value: value === undefined || value === raw ? raw : value,
    defanged,
  };
  if (port !== undefined) d.port = port;
  sink.out.push(d);
}

/**
 * IPv4 at original [st, en): emits an address or a CIDR block. `value` is undefined when the
 * raw text is already canonical (strict parsing accepts only canonical dotted quads).
 */
function emitIPv4(
  sink: Sink,
  st: number,
  en: number,
  value: string | undefined,
  atRunEnd: boolean,
  defanged: boolean,
  port?: number,
): void {
  const text = sink.text;
  if (versionBefore(text, st) || numberingBefore(text, st)) return;
  if (atRunEnd && port === undefined && text.charCodeAt(en) === 47) {
    const p = prefixAt(text, en + 1, 32);
    if (p) {
      // A strict address and a strict prefix are canonical as written: the raw text is the value.
      emit(sink, 'cidr', st, p.end, value === undefined ? undefined : `${value}/${p.bits}`, defanged);
      return;
    }
  }
  emit(sink, 'ipv4', st, en, value, defanged, port);
}

/**
 * text[s, e) is exactly `YYYY-MM-DDThh:mm:ss`, optionally with a fraction and a `Z`. The
 * general analysis finds nothing in one: its IPv6 windows hold two colons and no `::`, and
 * its colon-separated parts are `YYYY-MM-DDThh` (no dot), `mm`, and `ss.fff` or `ss.fffZ`
 * (one dot, no TLD).
 */
function isIsoTime(text: string, s: number, e: number): boolean {
  const n = e - s;
  if (n < 19 || n > 30) return false;
  for (let k = 0; k < 19; k++) {
    const c = text.charCodeAt(s + k);
    const want = ISO_SHAPE.charCodeAt(k);
    if (want === 100 /* d */ ? c < 48 || c > 57 : c !== want) return false;
  }
  let k = s + 19;
  if (k < e && text.charCodeAt(k) === 46) {
    k++;
    const from = k;
    while (k < e && text.charCodeAt(k) >= 48 && text.charCodeAt(k) <= 57) k++;
    if (k === from) return false;
  }
  if (k < e && text.charCodeAt(k) === 90) k++;
  return k === e;
}

const ISO_SHAPE = 'dddd-dd-ddTdd:dd:dd';

/** Internal, for tests: the special cases below can be turned off to compare with the general path. */
let fastPaths = true;
export function setFastPaths(on: boolean): void {
  fastPaths = on;
}

/**
 * Digits, dots and dot markers only (`185.220.101[.]34`, `52[.]14[.]88[.]213`): a defanged
 * dotted quad, parsed in place with each marker read as a dot. What analyzeRun finds in such a
 * run, without building the refanged string (tests compare the two).
 */
function analyzeMarkedQuad(sink: Sink, s: number, e: number): void {
  const text = sink.text;
  if (text.charCodeAt(s) === 46) return; // `.1[.]3`: an OID tail, as in the refanged run
  let y = e;
  while (y > s && text.charCodeAt(y - 1) === 46) y--;
  let part = 0;
  let digits = 0;
  let dots = 0;
  let leadingZero = false;
  for (let i = s; i < y;) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digits === 0) leadingZero = c === 48;
      else if (leadingZero || digits === 3) return;
      part = part * 10 + (c - 48);
      digits++;
      i++;
      continue;
    }
    const step = c === 46 ? 1 : markerAt(text, i);
    if (step === 0 || digits === 0 || part > 255 || dots === 3) return;
    dots++;
    part = 0;
    digits = 0;
    i += step;
  }
  if (digits === 0 || part > 255 || dots !== 3) return;
  if (gluedAt(text, s - 1) || (y === e && gluedAt(text, e))) return;
  emitIPv4(sink, s, y, sink.values ? refang(text, s, y) : undefined, y === e, true);
}

/**
 * Letters, digits, `.`, `-`, `_` and dot markers, no colon (`evil[.]com`, `bad-site(dot)com`):
 * a defanged host name candidate. The TLD is checked in place first; the refanged name is
 * built only for a candidate under an ICANN TLD. What analyzeRun finds in such a run (tests
 * compare the two).
 */
function analyzeMarkedName(sink: Sink, s: number, e: number): void {
  const text = sink.text;
  let x = s;
  let y = e;
  // Trim `.` and `-` at both ends, as in the refanged run (a marker reads as a dot). A run
  // never ends with a marker: one continues a run only before a letter or digit.
  while (x < y) {
    const c = text.charCodeAt(x);
    const m = x > s && (c === 91 || c === 40 || c === 123) ? markerAt(text, x) : 0;
    if (c === 46 || c === 45) x++;
    else if (m !== 0) x += m;
    else break;
  }
  while (y > x && (text.charCodeAt(y - 1) === 46 || text.charCodeAt(y - 1) === 45)) y--;
  // The TLD: after the last dot or marker.
  let t = y;
  let marker = false;
  for (; t > x; t--) {
    const c = text.charCodeAt(t - 1);
    if (c === 46) break;
    if (c === 93 || c === 41 || c === 125) {
      marker = true;
      break;
    }
  }
  if (t === x) return; // no dot left: nothing to find (the general path skips it too)
  const dotStart = marker ? t - (text.charCodeAt(t - 2) === 46 ? 3 : 5) : t - 1;
  if (dotStart <= x || !tldAt(text, t, y)) return;
  if (!sink.allKinds && !sink.kinds.has('domain')) return;
  if ((x === s && gluedAt(text, s - 1)) || (y === e && gluedAt(text, e))) return;
  let defanged = false;
  for (let k = x; k < y && !defanged; k++) {
    const c = text.charCodeAt(k);
    defanged = (c === 91 || c === 40 || c === 123) && markerAt(text, k) !== 0;
  }
  const left = leftContext(text, s);
  emitDomain(sink, text, x, y, true, x, y, y === e, left, defanged || (left & CTX_DEFANGED) !== 0);
}

/**
 * text[s, e) with its markers replaced by what they stand for (`.` or `:`). With `marks`, also
 * records each marker as (index in the result, original offset, marker length).
 */
function refang(text: string, s: number, e: number, marks?: number[]): string {
  let out = '';
  let last = s;
  for (let i = s; i < e;) {
    const c = text.charCodeAt(i);
    const m = c === 91 || c === 40 || c === 123 ? markerAt(text, i) : 0;
    if (m === 0) {
      i++;
      continue;
    }
    out += text.slice(last, i);
    marks?.push(out.length, i, m);
    out += text.charCodeAt(i + 1) === 58 ? ':' : '.';
    i += m;
    last = i;
  }
  return out + text.slice(last, e);
}

/**
 * Digits and dots only: the common case (`1.1`, `5.0`, `10.0.0.1`) handled without slicing.
 * `quad` when the run finder has already parsed it as a dotted quad.
 */
function analyzeNumericRun(sink: Sink, s: number, e: number, quad = false): void {
  const text = sink.text;
  if (text.charCodeAt(s) === 46) return; // `.1.3.6.1`: an OID tail, not an address
  let en = e;
  while (en > s && text.charCodeAt(en - 1) === 46) en--;
  if (en - s < 7 || en - s > 15) return;
  if ((!quad && parseIPv4At(text, s, en) < 0) || gluedAt(text, s - 1) || (en === e && gluedAt(text, e)))
    return;
  emitIPv4(sink, s, en, undefined, en === e, (leftContext(text, s) & CTX_DEFANGED) !== 0);
}

function isWordCode(c: number): boolean {
  return (CLS[c] & (ALPHA | DIGIT | UNDERSCORE)) !== 0;
}

/** `[::1]:8080` → 8080: the port after a bracketed address ending at `en`. */
function bracketPort(text: string, en: number): number | undefined {
  if (text.charCodeAt(en) !== 93 || text.charCodeAt(en + 1) !== 58) return undefined;
  let pv = 0;
  let j = en + 2;
  while (j - en - 2 < 6 && (cls(text, j) & DIGIT) !== 0) {
    pv = pv * 10 + (text.charCodeAt(j) - 48);
    j++;
  }
  const n = j - en - 2;
  return n >= 1 && n <= 5 && pv <= 65535 && (cls(text, j) & (ALPHA | UNDERSCORE)) === 0 ? pv : undefined;
}

const groups = new Uint16Array(8);

/** Ranges (pairs) of the current run taken by IPv6 literals; reused across runs (no reentrancy). */
const consumed: number[] = [];
/** Entries of `consumed` in use (resetting a count is cheaper than `length = 0`). */
let consumedN = 0;

/** Finds IPv6 literals in the run and records the ranges they take in `consumed`. */
function analyzeIPv6(sink: Sink, s: number, e: number, v: RunView, left: number): void {
  const text = sink.text;
  consumedN = 0;
  const { str, lo, hi } = v;
  let a = lo;
  while (a < hi) {
    // Maximal window of [0-9A-Fa-f:.].
    const c0 = str.charCodeAt(a);
    if ((CLS[c0] & HEX) === 0 && c0 !== 58 && c0 !== 46) {
      a++;
      continue;
    }
    let b = a;
    let colons = 0;
    let digits = 0;
    let doubleColon = false;
    while (b < hi) {
      const c = str.charCodeAt(b);
      if (c === 58) {
        colons++;
        if (str.charCodeAt(b - 1) === 58 && b > a) doubleColon = true;
      } else if (c >= 48 && c <= 57) digits++;
      else if ((CLS[c] & HEX) === 0 && c !== 46) break;
      b++;
    }
    const wa = a;
    const wb = b;
    a = b;
    // Eight groups need seven colons (six with an IPv4 tail) unless `::` stands for some.
    // Timestamps stop here.
    if (colons < 2 || (!doubleColon && colons < 6)) continue;
    let x = wa;
    let y = wb;
    while (y > x && str.charCodeAt(y - 1) === 46) y--;
    // A single colon at either end is a separator (`ip:2001:db8::1`, `2001:db8::1:`).
    if (str.charCodeAt(x) === 58 && str.charCodeAt(x + 1) !== 58) x++;
    else if (x > lo && isWordCode(str.charCodeAt(x - 1))) continue; // glued: `x2001:db8::1`, `Foo::1`
    if (str.charCodeAt(y - 1) === 58 && str.charCodeAt(y - 2) !== 58) y--;
    else if (y === wb && y < hi && isWordCode(str.charCodeAt(y))) continue; // `1::Int`, `::1x`
    if (y - x < 2 || !parseIPv6Into(str, x, y, groups)) continue;
    if ((x === lo && gluedAt(text, s - 1)) || (y === hi && gluedAt(text, e))) continue;
    // `[::1]:8080` is a bracketed address; `a[::2]`, `x[1::3]` are slices.
    const bracketed = x === lo && y === hi && text.charCodeAt(s - 1) === 91;
    if (
      bracketed &&
      (isWordCode(text.charCodeAt(s - 2)) || text.charCodeAt(s - 2) === 93 || text.charCodeAt(s - 2) === 41)
    ) {
      continue;
    }
    // `::` without any digit is code (`Foo::Bar`, `a::b`), unless it is bracketed (`[::]:80`)
    // or a block (`::/0`).
    if (
      doubleColon &&
      digits === 0 &&
      !(bracketed && text.charCodeAt(e) === 93) &&
      !(y === hi && text.charCodeAt(e) === 47 && prefixAt(text, e + 1, 128))
    ) {
      continue;
    }
    let value = sink.values ? formatIPv6(groups) : '';
    let kind: DetectionKind = 'ipv6';
    let en = v.orig(y);
    if (y === hi && text.charCodeAt(e) === 37 && (cls(text, e + 1) & (ALPHA | DIGIT)) !== 0) {
      // Zone id: `fe80::1%eth0`; `%25eth0` inside brackets is its URL-encoded form.
      let z = e + 1;
      while (z - e <= 64) {
        const k = cls(text, z);
        if (
          (k & (ALPHA | DIGIT | UNDERSCORE | HYPHEN)) !== 0 ||
          (k === (RUN | DOT) && (cls(text, z + 1) & (ALPHA | DIGIT)) !== 0)
        )
          z++;
        else break;
      }
      if (sink.values) value += `%${zoneValue(text.slice(e + 1, z), bracketed && text.charCodeAt(z) === 93)}`;
      en = z;
    } else if (y === hi && text.charCodeAt(e) === 47) {
      const p = prefixAt(text, e + 1, 128);
      if (p) {
        kind = 'cidr';
        if (sink.values) value += `/${p.bits}`;
        en = p.end;
      }
    }
    const port = bracketed ? bracketPort(text, en) : undefined;
    emit(
      sink,
      kind,
      v.orig(x),
      en,
      value,
      v.markedIn(x, y) || (x === lo && (left & CTX_DEFANGED) !== 0),
      port,
    );
    consumed[consumedN++] = wa;
    consumed[consumedN++] = wb;
  }
}

function overlaps(a: number, b: number): boolean {
  for (let k = 0; k < consumedN; k += 2) if (a < consumed[k + 1] && consumed[k] < b) return true;
  return false;
}

/**
 * After the candidate: `foo.bar(` is a call and `first.last@` a mailbox (never hosts); `a.b = x`
 * is an assignment or a `key=value` key (a host only if its TLD is unambiguous).
 */
function codeAfter(text: string, en: number): 'call' | 'assign' | undefined {
  const c = text.charCodeAt(en);
  if (c === 40 || c === 64) return 'call';
  let j = en;
  while (j - en < 4 && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
  return text.charCodeAt(j) === 61 ? 'assign' : undefined;
}

/** What a candidate name says about itself, whatever its surroundings. */
interface WrittenName {
  /** The candidate with its markers read as dots. */
  written: string;
  /** Its lower-case form: the value. */
  name: string;
  /** Undefined when it is not a public host name. */
  facts: NameFacts | undefined;
  /** Lower-casing changed it, and it is not all capitals (`WWW.EXAMPLE.COM`): `Date.now`. */
  mixedCase: boolean;
}

/**
 * Candidates as they stand in the text (markers included) → what they say about themselves: a
 * repeated name costs a hash and a comparison in place, not a slice, a refang, a lower-casing and
 * a map lookup (a map lookup of a fresh slice alone costs about 300 ns on the benchmark machine).
 * Direct-mapped: a colliding name replaces the slot's entry.
 */
const NAME_SLOTS = 16384;
const nameKeys: (string | undefined)[] = new Array<string | undefined>(NAME_SLOTS).fill(undefined);
const nameEntries: (WrittenName | undefined)[] = new Array<WrittenName | undefined>(NAME_SLOTS).fill(
  undefined,
);

/** What str[x, y) (with defang markers when `marked`) says about itself. */
function writtenName(str: string, x: number, y: number, marked: boolean): WrittenName {
  const n = y - x;
  let h = n;
  for (let k = x; k < y; k++) h = (Math.imul(h, 31) + str.charCodeAt(k)) | 0;
  const slot = (h ^ (h >>> 15)) & (NAME_SLOTS - 1);
  const known = nameKeys[slot];
  if (known !== undefined && known.length === n) {
    let k = 0;
    while (k < n && known.charCodeAt(k) === str.charCodeAt(x + k)) k++;
    if (k === n) return nameEntries[slot] as WrittenName;
  }
  const key = detached(str.slice(x, y));
  const written = marked ? refang(key, 0, n) : key;
  const name = written.toLowerCase();
  const w: WrittenName = {
    written,
    name,
    facts: nameFacts(name),
    mixedCase: name !== written && written.toUpperCase() !== written,
  };
  nameKeys[slot] = key;
  nameEntries[slot] = w;
  return w;
}

/**
 * The name candidate at original [st, en), written as str[x, y) (with defang markers when `marked`):
 * emits it if it is a public host name in this context.
 */
function emitDomain(
  sink: Sink,
  str: string,
  x: number,
  y: number,
  marked: boolean,
  st: number,
  en: number,
  atRunEnd: boolean,
  left: number,
  defanged: boolean,
  port?: number,
  known?: WrittenName,
): void {
  if ((left & CTX_PATH) !== 0) return;
  const after = atRunEnd ? codeAfter(sink.text, en) : undefined;
  if (after === 'call') return;
  const w = known ?? writtenName(str, x, y, marked);
  if (w.facts === undefined) return;
  const strong = (left & (CTX_URL | CTX_AT)) !== 0 || defanged;
  const q = sink.text.charCodeAt(st - 1);
  const quoted = (q === 34 || q === 39) && sink.text.charCodeAt(en) === q;
  if (acceptFacts(w.facts, strong, sink.mode === 'code', after === 'assign', w.mixedCase, quoted)) {
    // Without markers in it, the written form is the raw text (markers are longer than a dot).
    emit(
      sink,
      'domain',
      st,
      en,
      w.name,
      defanged,
      port,
      en - st === w.written.length ? w.written : undefined,
    );
  }
}

/**
 * A run of letters, digits, dots, hyphens and underscores with no colon and no marker: a host
 * name candidate. The TLD is checked first, straight from the text, so that `app.css`,
 * `index.html` or `gate.php` cost one small map lookup.
 */
function analyzeNameRun(sink: Sink, s: number, e: number): void {
  const text = sink.text;
  let x = s;
  let y = e;
  while (x < y && (text.charCodeAt(x) === 46 || text.charCodeAt(x) === 45)) x++;
  while (y > x && (text.charCodeAt(y - 1) === 46 || text.charCodeAt(y - 1) === 45)) y--;
  if (!hasIcannTld(text, x, y)) return;
  if ((x === s && gluedAt(text, s - 1)) || (y === e && gluedAt(text, e))) return;
  if (!sink.allKinds && !sink.kinds.has('domain')) return;
  const left = leftContext(text, s);
  emitDomain(sink, text, x, y, false, x, y, y === e, left, (left & CTX_DEFANGED) !== 0);
}

/**
 * Does `str[x, y)` end in a dot and an ICANN TLD? Checked before anything is sliced or cached:
 * the TLD must be letters (or an `xn--` label), so `1.120Z`, `v2.0.1` or `a.b_c` stop here.
 */
function hasIcannTld(str: string, x: number, y: number): boolean {
  let t = y;
  while (t > x && str.charCodeAt(t - 1) !== 46) t--;
  return t > x + 1 && tldAt(str, t, y);
}

/** Is str[t, y) (2-63 characters) an ICANN TLD? */
function tldAt(str: string, t: number, y: number): boolean {
  if (y - t < 2 || y - t > 63) return false;
  let letters = true;
  let h = y - t;
  for (let k = t; k < y; k++) {
    const c = str.charCodeAt(k);
    if ((CLS[c] & ALPHA) === 0) letters = false;
    h = (Math.imul(h, 31) + c) | 0;
  }
  const idn =
    (str.charCodeAt(t) | 32) === 120 && (str.charCodeAt(t + 1) | 32) === 110 && str.charCodeAt(t + 2) === 45;
  if (!letters && !idn) return false;
  // Direct-mapped cache on the TLD as written, compared in place: no slice, no string hashing.
  const slot = (h ^ (h >>> 13)) & (TLD_SLOTS - 1);
  const known = tldKeys[slot];
  if (known !== undefined && known.length === y - t) {
    let same = true;
    for (let k = 0; k < known.length && same; k++) same = known.charCodeAt(k) === str.charCodeAt(t + k);
    if (same) return tldValues[slot] === 1;
  }
  const tld = detached(str.slice(t, y));
  let v = isIcannTld(tld);
  if (!v) {
    const lower = tld.toLowerCase();
    v = lower !== tld && isIcannTld(lower);
  }
  tldKeys[slot] = tld;
  tldValues[slot] = v ? 1 : 0;
  return v;
}

const TLD_SLOTS = 1024;
const tldKeys: (string | undefined)[] = new Array<string | undefined>(TLD_SLOTS).fill(undefined);
const tldValues = new Uint8Array(TLD_SLOTS);

/** General case: colons (IPv6, `host:port`) and/or defang markers. */
function analyzeRun(sink: Sink, s: number, e: number, flags: number, marked: boolean, checked = false): void {
  const text = sink.text;
  const v = marked ? RunView.marked(text, s, e) : RunView.plain(text, s, e);
  const { str, lo, hi } = v;
  const left = leftContext(text, s);
  consumedN = 0;
  if ((flags & COLON) !== 0 && (checked || mayBeIPv6(str, lo, hi))) analyzeIPv6(sink, s, e, v, left);
  if ((flags & DOT) === 0) return; // without a dot only IPv6 was possible
  // Colon-separated segments: `host:port`, `key:value`, `1.2.3.4:80:90`.
  let p = lo;
  while (p < hi) {
    const segStart = p;
    const segEnd = find(str, 58, p, hi);
    p = segEnd + 1;
    if (segEnd - segStart < 3 || (consumedN > 0 && overlaps(segStart, segEnd))) continue;
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
      if ((CLS[c] & (ALPHA | UNDERSCORE)) !== 0) alpha = true;
      else if (c === 45) hyphen = true;
      else if (c === 46) dots++;
    }
    if (dots === 0) continue;
    const touchesEnd = y === hi;
    if ((x === lo && gluedAt(text, s - 1)) || (touchesEnd && gluedAt(text, e))) continue;
    const st = v.orig(x);
    const en = v.orig(y);
    const port =
      y === segEnd && segEnd < hi && !(consumedN > 0 && overlaps(segEnd + 1, segEnd + 2))
        ? portAt(str, segEnd + 1, hi)
        : undefined;
    const segLeft = segStart === lo ? left : 0;
    const defanged = v.markedIn(x, y) || (segLeft & CTX_DEFANGED) !== 0;
    if (!alpha) {
      if (x > segStart && str.charCodeAt(segStart) === 46) continue; // OID tail
      if (!hyphen) {
        if (parseIPv4At(str, x, y) >= 0)
          emitIPv4(
            sink,
            st,
            en,
            marked && sink.values ? str.slice(x, y) : undefined,
            touchesEnd,
            defanged,
            port,
          );
        continue;
      }
      // Ranges: `10.0.0.1-10.0.0.9`.
      let r = x;
      while (r < y) {
        const t = find(str, 45, r, y);
        if (parseIPv4At(str, r, t) >= 0) {
          emitIPv4(
            sink,
            v.orig(r),
            v.orig(t),
            marked && sink.values ? str.slice(r, t) : undefined,
            t === hi,
            v.markedIn(r, t),
          );
        }
        r = t + 1;
      }
      continue;
    }
    if ((sink.allKinds || sink.kinds.has('domain')) && hasIcannTld(str, x, y)) {
      emitDomain(sink, str, x, y, false, st, en, touchesEnd, segLeft, defanged, port);
    }
  }
}

/**
 * Cheap filter before the IPv6 analysis of str[s, e): some window of IPv6 characters
 * ([0-9A-Fa-f:.]) holds `::` or 6 colons, and at most 10 (8 in the longest address, plus a
 * separator at each end): the test analyzeIPv6 applies to each window. Most runs with colons
 * fail it (`":"` in JSON, `08:14:02`, `https:`, MAC addresses).
 */
function mayBeIPv6(str: string, s: number, e: number): boolean {
  let colons = 0;
  let double = false;
  for (let i = s; i <= e; i++) {
    const c = i < e ? str.charCodeAt(i) : 0;
    if (c === 58) {
      colons++;
      if (i > s && str.charCodeAt(i - 1) === 58) double = true;
    } else if (i === e || ((CLS[c] & HEX) === 0 && c !== 46)) {
      if (colons >= 2 && colons <= 10 && (double || colons >= 6)) return true;
      colons = 0;
      double = false;
    }
  }
  return false;
}

const MAY_BE_IPV6 = -1;
const UNSURE = -2;

/**
 * For the colon at `p`, the first colon found after the last analysed run: if the window of
 * IPv6 characters ([0-9A-Fa-f:.]) it starts cannot hold an address, the offset where that
 * window ends (every colon before it can be skipped); MAY_BE_IPV6 if the window passes the
 * mayBeIPv6 test, UNSURE if the run must be analysed for another reason. A window
 * can hold one only with `::` or 6 colons and at most 10 (8 in the longest address, plus a
 * separator at each end), and a `[:]` marker next to it makes it longer than it looks. Colons
 * to the left of `p` in the same window cannot exist: the window would have started a run
 * already analysed, or an earlier colon would have been found first.
 */
function ipv6WindowEnd(text: string, p: number, stop: number): number {
  if (text.charCodeAt(p - 1) === 91) return UNSURE; // `[:]`
  let colons = 0;
  let double = false;
  let i = p;
  const cap = Math.min(text.length, p + MAX_RUN);
  for (; i < cap; i++) {
    const c = text.charCodeAt(i);
    if (c === 58) {
      colons++;
      if (text.charCodeAt(i - 1) === 58) double = true;
    } else if ((CLS[c] & HEX) === 0 && c !== 46) break;
  }
  if (i === cap || i >= stop || text.charCodeAt(i) === 91) return UNSURE;
  return colons < 2 || colons > 10 || (!double && colons < 6) ? i : MAY_BE_IPV6;
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

/**
 * Scans the run starting at `s` (resuming at `i` with the `flags` of `s..i` when the caller has
 * already read them), analyses it if it can hold anything, and returns its end.
 */
function scanRun(sink: Sink, s: number, i = s, flags = 0, ipv6Checked = false): number {
  const text = sink.text;
  const n = text.length;
  let marked = false;
  while (i < n) {
    const c = text.charCodeAt(i);
    const k = CLS[c];
    if (k !== 0) {
      flags |= k;
      i++;
      continue;
    }
    // A defang marker continues a run between two run characters: `evil[.]com`, `1(.)2`.
    if ((c === 91 || c === 40 || c === 123) && i > s) {
      const m = markerAt(text, i);
      if (m !== 0 && (cls(text, i + m) & (ALPHA | DIGIT)) !== 0) {
        marked = true;
        flags |= text.charCodeAt(i + 1) === 58 ? COLON : DOT;
        i += m;
        continue;
      }
    }
    break;
  }
  if ((flags & (DOT | COLON)) !== 0 && i - s <= MAX_RUN) analyseRun(sink, s, i, flags, marked, ipv6Checked);
  return i;
}

/**
 * Analyses the run text[s, e) (it holds a dot or a colon and is at most MAX_RUN long), with
 * `flags` its classes and `marked` when it holds defang markers; `ipv6Checked` when mayBeIPv6
 * already passed, `quad` when the run is digits and dots that parse as a dotted quad.
 */
function analyseRun(
  sink: Sink,
  s: number,
  e: number,
  flags: number,
  marked: boolean,
  ipv6Checked: boolean,
  quad = false,
): void {
  const text = sink.text;
  // ISO 8601 times (`2025-11-21T08:30:01.120Z`), in most JSON log lines: nothing in them.
  if (
    !marked &&
    fastPaths &&
    (flags & COLON) !== 0 &&
    text.charCodeAt(s + 10) === 84 &&
    isIsoTime(text, s, e)
  ) {
    return;
  }
  const before = sink.n;
  if (!marked && (flags & (COLON | DOT)) === COLON) {
    if (ipv6Checked || mayBeIPv6(text, s, e)) analyzeRun(sink, s, e, flags, false, true);
  } else if (marked && fastPaths && (flags & (ALPHA | UNDERSCORE | HYPHEN | COLON)) === 0) {
    analyzeMarkedQuad(sink, s, e);
  } else if (marked && fastPaths && (flags & (ALPHA | COLON)) === ALPHA) {
    analyzeMarkedName(sink, s, e);
  } else if (marked || (flags & COLON) !== 0) analyzeRun(sink, s, e, flags, marked);
  else if ((flags & (ALPHA | UNDERSCORE)) !== 0) analyzeNameRun(sink, s, e);
  else if ((flags & HYPHEN) !== 0) analyzeRun(sink, s, e, flags, false);
  else analyzeNumericRun(sink, s, e, quad);
  if (sink.n - before > 1) {
    if (sink.table !== undefined) sink.table.sortFrom(before);
    else if (!sortedFrom(sink.out, before)) {
      const added = sink.out.splice(before).sort((a, b) => a.start - b.start);
      for (const d of added) sink.out.push(d);
    }
  }
}

/** out[from..] already in order of start (the common case: nothing to reorder). */
function sortedFrom(out: Detection[], from: number): boolean {
  for (let k = from + 1; k < out.length; k++) if (out[k].start < out[k - 1].start) return false;
  return true;
}

/** `%2F` ends right before `i`: a percent-escape, which separates runs. */
function escapeEndsAt(text: string, i: number): boolean {
  return (
    i >= 3 &&
    text.charCodeAt(i - 3) === 37 &&
    (cls(text, i - 2) & HEX) !== 0 &&
    (cls(text, i - 1) & HEX) !== 0
  );
}

/** Every character, for small ranges (a hover's line): bounded work around the range. */
function scanEach(sink: Sink, start: number, stop: number): void {
  const text = sink.text;
  let i = start;
  while (i < stop && sink.n < sink.limit) {
    const c = text.charCodeAt(i);
    if (CLS[c] !== 0) {
      i = scanRun(sink, i);
    } else {
      // `%2F%2Fevil.com`: a percent-escape separates, it does not start a token.
      i += c === 37 && (cls(text, i + 1) & HEX) !== 0 && (cls(text, i + 2) & HEX) !== 0 ? 3 : 1;
    }
  }
}

const DOT_WORD = /[[({][dD][oO][tT][\])}]/g;

/**
 * Large inputs: only runs holding a dot, a colon or a `[dot]` marker can yield anything, so jump
 * between those with native searches (indexOf, one regex) and walk back to each run's start.
 * Yields exactly the runs `scanEach` analyses: a run never spans a character that is not a run
 * character (or a marker, and every marker holds a trigger), nor a percent-escape.
 */
function scanTriggers(sink: Sink, start: number, stop: number): void {
  const text = sink.text;
  let pos = start;
  let nDot = -2;
  let nColon = -2;
  let nWord = -2;
  while (pos < stop && sink.n < sink.limit) {
    if (nDot !== -1 && nDot < pos) nDot = text.indexOf('.', pos);
    if (nColon !== -1 && nColon < pos) nColon = text.indexOf(':', pos);
    if (nWord !== -1 && nWord < pos) {
      // test() rather than exec(): no match object; every match is 5 characters long.
      DOT_WORD.lastIndex = pos;
      nWord = DOT_WORD.test(text) ? DOT_WORD.lastIndex - 4 : -1;
    }
    let p = nDot;
    if (nColon !== -1 && (p === -1 || nColon < p)) p = nColon;
    if (nWord !== -1 && (p === -1 || nWord < p)) p = nWord;
    if (p === -1) break;
    let past = UNSURE;
    if (p === nColon && p !== nDot && p !== nWord) {
      // Most colons in logs are separators (`"key":"value"`, `08:30:01`, MAC addresses). A colon
      // matters only as part of an IPv6 candidate; a run with a dot or a `[dot]` marker is
      // analysed from that trigger anyway.
      // Separators come in series (`{"ts":"…","level":"info","msg":…`): skip them here, as the
      // loop would one by one, while a colon comes before the next dot and `[dot]` trigger.
      const other = nWord === -1 || (nDot !== -1 && nDot < nWord) ? nDot : nWord;
      for (;;) {
        past = ipv6WindowEnd(text, p, stop);
        if (past < 0) break;
        nColon = text.indexOf(':', past);
        if (nColon === -1 || (other !== -1 && nColon >= other)) break;
        p = nColon;
      }
      if (past >= 0) continue;
    }
    // Walk back to the run start (collecting the classes on the way); a trigger inside a
    // marker belongs to the run before the marker, if there is one.
    const opener = text.charCodeAt(p - 1);
    const inMarker =
      (opener === 91 || opener === 40 || opener === 123) && p - 1 > pos && markerAt(text, p - 1) !== 0;
    const from = inMarker ? p - 1 : p;
    let s = from;
    let flags = 0;
    while (s > pos) {
      const k = CLS[text.charCodeAt(s - 1)];
      if (k === 0) break;
      flags |= k;
      s--;
    }
    // A percent-escape (`%2F`) can only end right after the character that stopped the walk
    // (`%` is not a run character): the run starts after it.
    if (s > pos && s + 2 <= from && escapeEndsAt(text, s + 2)) {
      s += 2;
      flags = 0;
      for (let q = s; q < from; q++) flags |= CLS[text.charCodeAt(q)];
    }
    if (s === from) s = p; // nothing before the marker: the trigger starts a run of its own
    if (s >= stop) break;
    let e = scanRun(sink, s, s === p ? p : from, flags, past === MAY_BE_IPV6);
    // The marker did not continue the run (`a[.] b`): the trigger starts a run of its own.
    if (e <= p) e = scanRun(sink, p);
    pos = e;
  }
}

/** Internal: tests compare the strategies, which must agree on every input. */
export interface ScanOptions extends DetectOptions {
  strategy?: Strategy;
}

type Strategy = 'each' | 'triggers';

export function scan(text: string, from: number, to: number, opts: ScanOptions = {}): Detection[] {
  const sink = newSink(text, opts, undefined);
  const stop = run(sink, from, to, opts);
  if (from === 0 && stop === text.length) return sink.out;
  return sink.out.filter((d) => d.end > from && d.start < stop);
}

/** The whole text into a compact table (no per-detection objects or value strings). */
export function scanTable(text: string, opts: ScanOptions = {}): DetectionTable {
  const table = new DetectionTable(text);
  run(newSink(text, opts, table), 0, text.length, opts);
  return table;
}

function newSink(text: string, opts: DetectOptions, table: DetectionTable | undefined): Sink {
  return {
    text,
    out: [],
    table,
    values: table === undefined,
    n: 0,
    kinds: opts.kinds ? new Set(opts.kinds) : ALL_KINDS,
    allKinds: opts.kinds === undefined,
    mode: opts.mode ?? 'code',
    limit: opts.limit ?? Number.MAX_SAFE_INTEGER,
  };
}

/** Scans the runs that start in [from, to) (or cover `from` when empty); returns the stop offset. */
function run(sink: Sink, from: number, to: number, opts: ScanOptions): number {
  const text = sink.text;
  const n = text.length;
  from = Math.max(0, Math.min(from, n));
  to = Math.max(from, Math.min(to, n));
  // Runs that start before `stop` are analysed whole; a zero-width range asks for the
  // detection covering one offset.
  const stop = Math.min(n, Math.max(to, from + 1));
  const start = syncPoint(text, from);
  const strategy = opts.strategy ?? (stop - start > 65_536 ? 'triggers' : 'each');
  if (strategy === 'each') scanEach(sink, start, stop);
  else scanTriggers(sink, start, stop);
  return stop;
}
