// Per-kind analysis, host names: the TLD checked in place, the name's facts cached by spelling,
// and the context rules (context.ts) that decide whether a public host name is meant here.
import { detached } from '../text/detached';
import { ALPHA, Ch, CLS, find, gluedAt, isIdnLabelAt, isTrimmed, UNICODE } from './chars';
import { codeAfter, CTX_AT, CTX_DEFANGED, CTX_PATH, CTX_URL, leftContext } from './context';
import { acceptFacts, isIcannTld, nameFacts, nameValue, type NameFacts } from './domain';
import { portAt } from './ipv4Runs';
import { emit, type Sink } from './output';
import { isMarkerClose, isMarkerOpen, markerAt, refangRun } from './refang';
import { RunView } from './runView';

/** What a candidate name says about itself, whatever its surroundings. */
export interface WrittenName {
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
const NAME_BITS = 14;
export const NAME_SLOTS = 1 << NAME_BITS;
export const nameKeys: (string | undefined)[] = new Array<string | undefined>(NAME_SLOTS).fill(undefined);
export const nameEntries: (WrittenName | undefined)[] = new Array<WrittenName | undefined>(NAME_SLOTS).fill(
  undefined,
);

/** What str[x, y) (with defang markers when `marked`) says about itself. */
export function writtenName(str: string, x: number, y: number, marked: boolean): WrittenName {
  const n = y - x;
  let h = n;
  for (let k = x; k < y; k++) h = (Math.imul(h, 31) + str.charCodeAt(k)) | 0;
  // The product's top bits pick the slot: every character counts (the low bits of the sum let
  // `cdn1.example-shop.com` and `cdn21.example-shop.com` take turns in one slot).
  const slot = Math.imul(h, 0x9e3779b1) >>> (32 - NAME_BITS);
  const known = nameKeys[slot];
  if (known !== undefined && known.length === n) {
    let k = 0;
    while (k < n && known.charCodeAt(k) === str.charCodeAt(x + k)) k++;
    if (k === n) return nameEntries[slot] as WrittenName;
  }
  const key = detached(str.slice(x, y));
  const written = marked ? refangRun(key, 0, n) : key;
  // A name written with letters outside ASCII is looked up, and sent, in punycode (IDNA).
  const name = nameValue(written);
  const w: WrittenName = {
    written,
    name,
    facts: name === '' ? undefined : nameFacts(name),
    mixedCase: written.toLowerCase() !== written && written.toUpperCase() !== written,
  };
  nameKeys[slot] = key;
  nameEntries[slot] = w;
  return w;
}

/** Where a name candidate stands, besides the CTX_* bits of the text before it: */
/** it ends where its run ends, so what follows it is context (`(`, `@`, `=`); */
export const AT_RUN_END = 16;
/** it is defanged (a marker in it, or a defanged scheme or `[at]` before it). */
export const DEFANGED = 32;

/**
 * The name candidate `w` at original [st, en), standing as `where` says (CTX_* | AT_RUN_END |
 * DEFANGED): emits it if it is a public host name in this context. True if it did.
 */
export function emitDomain(
  sink: Sink,
  w: WrittenName,
  st: number,
  en: number,
  where: number,
  port?: number,
): boolean {
  if ((where & CTX_PATH) !== 0 || w.facts === undefined) return false;
  const after = (where & AT_RUN_END) !== 0 ? codeAfter(sink.text, en) : undefined;
  if (after === 'call') return false;
  const defanged = (where & DEFANGED) !== 0;
  const strong = (where & (CTX_URL | CTX_AT)) !== 0 || defanged;
  const q = sink.text.charCodeAt(st - 1);
  const quoted = (q === Ch.Quote || q === Ch.Apostrophe) && sink.text.charCodeAt(en) === q;
  if (!acceptFacts(w.facts, strong, sink.mode === 'code', after === 'assign', w.mixedCase, quoted))
    return false;
  // Without markers in it, the written form is the raw text (markers are longer than a dot).
  emit(sink, 'domain', st, en, w.name, defanged, port, en - st === w.written.length ? w.written : undefined);
  return true;
}

/** The CTX_* bits before a run at `s`, with DEFANGED when they say so. */
export function whereAfter(text: string, s: number): number {
  const left = leftContext(text, s);
  return (left & CTX_DEFANGED) !== 0 ? left | DEFANGED : left;
}

/**
 * A run of letters, digits, dots, hyphens and underscores with no colon and no marker: a host
 * name candidate. The TLD is checked first, straight from the text, so that `app.css`,
 * `index.html` or `gate.php` cost one small map lookup.
 */
export function analyzeNameRun(sink: Sink, s: number, e: number): void {
  const text = sink.text;
  let x = s;
  let y = e;
  while (x < y && isTrimmed(text.charCodeAt(x))) x++;
  while (y > x && isTrimmed(text.charCodeAt(y - 1))) y--;
  if (!hasIcannTld(text, x, y)) return;
  if ((x === s && gluedAt(text, s - 1)) || (y === e && gluedAt(text, e))) return;
  if (!sink.allKinds && !sink.kinds.has('domain')) return;
  const where = whereAfter(text, s) | (y === e ? AT_RUN_END : 0);
  emitDomain(sink, writtenName(text, x, y, false), x, y, where);
}

/**
 * Letters, digits, `.`, `-`, `_` and dot markers, no colon (`evil[.]com`, `bad-site(dot)com`):
 * a defanged host name candidate. The TLD is checked in place first; the refanged name is
 * built only for a candidate under an ICANN TLD. What analyzeRun finds in such a run (tests
 * compare the two).
 */
export function analyzeMarkedName(sink: Sink, s: number, e: number): void {
  const text = sink.text;
  let x = s;
  let y = e;
  // Trim `.` and `-` at both ends, as in the refanged run (a marker reads as a dot). A run
  // never ends with a marker: one continues a run only before a letter or digit.
  while (x < y) {
    const c = text.charCodeAt(x);
    const m = x > s && isMarkerOpen(c) ? markerAt(text, x) : 0;
    if (isTrimmed(c)) x++;
    else if (m !== 0) x += m;
    else break;
  }
  while (y > x && isTrimmed(text.charCodeAt(y - 1))) y--;
  // The TLD: after the last dot or marker.
  let t = y;
  let marker = false;
  for (; t > x; t--) {
    const c = text.charCodeAt(t - 1);
    if (c === Ch.Dot) break;
    if (isMarkerClose(c)) {
      marker = true;
      break;
    }
  }
  if (t === x) return; // no dot left: nothing to find (the general path skips it too)
  const dotStart = marker ? t - (text.charCodeAt(t - 2) === Ch.Dot ? 3 : 5) : t - 1;
  if (dotStart <= x || !tldAt(text, t, y)) return;
  if (!sink.allKinds && !sink.kinds.has('domain')) return;
  if ((x === s && gluedAt(text, s - 1)) || (y === e && gluedAt(text, e))) return;
  let defanged = false;
  for (let k = x; k < y && !defanged; k++) {
    const c = text.charCodeAt(k);
    defanged = isMarkerOpen(c) && markerAt(text, k) !== 0;
  }
  const where = whereAfter(text, s) | (y === e ? AT_RUN_END : 0) | (defanged ? DEFANGED : 0);
  emitDomain(sink, writtenName(text, x, y, true), x, y, where);
}

/**
 * Does `str[x, y)` end in a dot and an ICANN TLD? Checked before anything is sliced or cached:
 * the TLD must be letters (or an `xn--` label), so `1.120Z`, `v2.0.1` or `a.b_c` stop here.
 */
export function hasIcannTld(str: string, x: number, y: number): boolean {
  let t = y;
  while (t > x && str.charCodeAt(t - 1) !== Ch.Dot) t--;
  return t > x + 1 && tldAt(str, t, y);
}

/** Is str[t, y) (2-63 characters) an ICANN TLD? */
export function tldAt(str: string, t: number, y: number): boolean {
  if (y - t < 2 || y - t > 63) return false;
  let letters = true;
  let h = y - t;
  for (let k = t; k < y; k++) {
    const c = str.charCodeAt(k);
    if ((CLS[c] & ALPHA) === 0) letters = false;
    h = (Math.imul(h, 31) + c) | 0;
  }
  const idn = isIdnLabelAt(str, t);
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

export const TLD_SLOTS = 1024;
export const tldKeys: (string | undefined)[] = new Array<string | undefined>(TLD_SLOTS).fill(undefined);
export const tldValues = new Uint8Array(TLD_SLOTS);

/**
 * The names written with letters outside ASCII in the run text[s, e) (`bücher-login.de`,
 * `раураl.com`): each colon-separated part that holds such a letter, trimmed of dots and
 * hyphens, is a candidate, judged in punycode like any other name. Returns the span of the last
 * one emitted (the ASCII runs inside it are not read again), or undefined.
 */
export function analyzeIdnNames(
  sink: Sink,
  s: number,
  e: number,
): { start: number; end: number } | undefined {
  if (!sink.allKinds && !sink.kinds.has('domain')) return undefined;
  const text = sink.text;
  const v = RunView.marked(text, s, e);
  const { str, lo, hi } = v;
  let span: { start: number; end: number } | undefined;
  for (let p = lo; p < hi;) {
    const segStart = p;
    const segEnd = find(str, Ch.Colon, p, hi);
    p = segEnd + 1;
    let x = segStart;
    let y = segEnd;
    while (x < y && isTrimmed(str.charCodeAt(x))) x++;
    while (y > x && isTrimmed(str.charCodeAt(y - 1))) y--;
    let unicode = false;
    let dot = false;
    for (let k = x; k < y; k++) {
      const c = str.charCodeAt(k);
      if ((CLS[c] & UNICODE) !== 0) unicode = true;
      else if (c === Ch.Dot) dot = true;
    }
    if (!unicode || !dot) continue;
    if ((x === lo && gluedAt(text, s - 1)) || (y === hi && gluedAt(text, e))) continue;
    const st = v.orig(x);
    const en = v.orig(y);
    const port = y === segEnd && segEnd < hi ? portAt(str, segEnd + 1, hi) : undefined;
    let where = segStart === lo ? whereAfter(text, s) : 0;
    if (y === hi) where |= AT_RUN_END;
    if (v.markedIn(x, y)) where |= DEFANGED;
    if (emitDomain(sink, writtenName(str, x, y, false), st, en, where, port)) span = { start: st, end: en };
  }
  return span;
}
