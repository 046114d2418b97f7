// Context rules: what the text around a candidate says about it. Before it: a URL, an `@`, a
// defanged scheme, a path, a product or `Version` token, a numbering word; after it: a call, a
// mailbox or an assignment. Each rule is a named predicate over a few characters either side.
import { ALPHA, Ch, cls, COLON, DIGIT, isDigit, lettersAre, lower, RUN, UNDERSCORE, UNICODE } from './chars';
import { isMarkerClose } from './refang';
import { DEFANGED_SCHEMES, ISO_TIME_SHAPE, NUMBERING_WORDS, VERSION_WORDS } from './rules';

// What the text right before a run says about it (bit set).
/** After `scheme://`, `//`, `\\` or `[://]`. */
export const CTX_URL = 1;
/** After `@`, `[at]`, `(at)`, `[@]`. */
export const CTX_AT = 2;
/** The scheme or separator was defanged (`hxxp://`, `[:]//`, `[://]`, `[at]`). */
export const CTX_DEFANGED = 4;
/** After a lone `/` or `\`: a path component (`src/setup.py`). */
export const CTX_PATH = 8;

const SCHEME_WORDS = Object.keys(DEFANGED_SCHEMES);
const SCHEME_MAX = Math.max(...SCHEME_WORDS.map((w) => w.length));

/** The letters right before `p` are a defanged scheme (`hxxps`, `fxp`), in any case. */
function defangedSchemeBefore(text: string, p: number): boolean {
  let q = p;
  while (q > 0 && p - q <= SCHEME_MAX && (cls(text, q - 1) & ALPHA) !== 0) q--;
  return lettersAre(text, q, p - q, SCHEME_WORDS);
}

/** `written` ends right before `s`. */
function endsBefore(text: string, s: number, written: string): boolean {
  const at = s - written.length;
  if (at < 0) return false;
  for (let k = 0; k < written.length; k++) {
    if (lower(text.charCodeAt(at + k)) !== written.charCodeAt(k)) return false;
  }
  return true;
}

/** Defanged `@` markers (rules.ts MARKERS meaning `@`). */
const AT_MARKERS = ['[at]', '(at)', '[@]'];

/** What the characters right before a run starting at `s` say about it (CTX_* bits). */
export function leftContext(text: string, s: number): number {
  const c1 = text.charCodeAt(s - 1);
  const c2 = text.charCodeAt(s - 2);
  if (c1 === Ch.Slash && c2 === Ch.Slash) {
    // `scheme://host`, `scheme[:]//host` or `//host`.
    if (text.charCodeAt(s - 3) === Ch.Colon) {
      return defangedSchemeBefore(text, s - 3) ? CTX_URL | CTX_DEFANGED : CTX_URL;
    }
    return endsBefore(text, s - 2, '[:]') ? CTX_URL | CTX_DEFANGED : CTX_URL;
  }
  if (c1 === Ch.Backslash && c2 === Ch.Backslash) return CTX_URL;
  if (c1 === Ch.Slash || c1 === Ch.Backslash) return CTX_PATH;
  if (c1 === Ch.At) return CTX_AT;
  if (!isMarkerClose(c1)) return 0;
  if (endsBefore(text, s, '[://]')) return CTX_URL | CTX_DEFANGED;
  for (const m of AT_MARKERS) if (endsBefore(text, s, m)) return CTX_AT | CTX_DEFANGED;
  return 0;
}

/** Characters between `Version` and its number: `Version=`, `version: "`, `Version(`. */
function isVersionGap(c: number): boolean {
  return (
    c === Ch.Space ||
    c === Ch.Tab ||
    c === Ch.Equals ||
    c === Ch.Colon ||
    c === Ch.Quote ||
    c === Ch.Apostrophe ||
    c === Ch.OpenParen
  );
}

/**
 * A product token before the number: `Chrome/120.0.0.0`, `python-requests/2.31.0.1` (letters
 * before a `/`), not a path (`/ip/1.2.3.4`) or a URL (`http://1.2.3.4`).
 */
function productBefore(text: string, st: number): boolean {
  if (text.charCodeAt(st - 1) !== Ch.Slash) return false;
  let q = st - 1;
  let letter = false;
  while (q > 0 && st - 1 - q < 40) {
    const k = cls(text, q - 1);
    // `.`, `-` and `_` belong to the token; a colon, a non-ASCII letter or a separator ends it.
    if ((k & RUN) === 0 || (k & (COLON | UNICODE)) !== 0) break;
    if ((k & ALPHA) !== 0) letter = true;
    q--;
  }
  return letter && q < st - 1 && text.charCodeAt(q - 1) !== Ch.Slash;
}

/** The last letters of `words`, as bits (a = 1): most words before an address do not end so. */
function lastLetters(words: readonly string[]): number {
  return words.reduce((m, w) => m | (1 << (w.charCodeAt(w.length - 1) - Ch.LowerA)), 0);
}

/** The character at `i` is a letter (either case) among the `mask` bits of lastLetters(). */
function letterIn(text: string, i: number, mask: number): boolean {
  const k = lower(text.charCodeAt(i)) - Ch.LowerA;
  return k >= 0 && k <= 25 && (mask & (1 << k)) !== 0;
}

const VERSION_LAST_LETTERS = lastLetters(VERSION_WORDS);

/** `Chrome/120.0.0.0`, `Version=4.0.0.0`, `AssemblyVersion("1.0.0.0")`: version numbers. */
export function versionBefore(text: string, st: number): boolean {
  if (productBefore(text, st)) return true;
  let q = st;
  while (q > 0 && st - q < 8 && isVersionGap(text.charCodeAt(q - 1))) q--;
  // Every address in a log is checked: one letter rules most of them out.
  if (!letterIn(text, q - 1, VERSION_LAST_LETTERS)) return false;
  for (const w of VERSION_WORDS) if (endsBefore(text, q, w)) return true;
  return false;
}

const NUMBERING_LAST_LETTERS = lastLetters(NUMBERING_WORDS);
const NUMBERING_MAX = Math.max(...NUMBERING_WORDS.map((w) => w.length));
/** NUMBERING_WORDS by length: a word before an address is compared with those of its length only. */
const NUMBERING_BY_LENGTH: readonly (readonly string[])[] = Array.from(
  { length: NUMBERING_MAX + 2 },
  (_, n) => NUMBERING_WORDS.filter((w) => w.length === n),
);

/**
 * `Section 2.8.3.2`, `Sect. 2.8.3.2`, `§ 2.8.3.2`, `§2.8.3.2`: a section number (NUMBERING_WORDS).
 * Reads a few characters back from `st`. (A Markdown heading `### 2.8.3.2` is not told apart: a
 * comment `# 10.0.0.1 gateway` in a config file looks the same.)
 */
export function numberingBefore(text: string, st: number): boolean {
  let q = st;
  while (q > 0 && st - q < 3) {
    const c = text.charCodeAt(q - 1);
    if (c === Ch.Space || c === Ch.Tab || c === Ch.NoBreakSpace) q--;
    else break;
  }
  const c = text.charCodeAt(q - 1);
  if (c === Ch.Section) return true;
  if (q === st) return false; // a word must be set apart by a space
  const end = c === Ch.Dot ? q - 1 : q; // an abbreviation: `Sect. 4.1.2.3`, `Fig. 1.2.3.4`
  if (!letterIn(text, end - 1, NUMBERING_LAST_LETTERS)) return false;
  let w = end;
  while (w > 0 && end - w <= NUMBERING_MAX && (cls(text, w - 1) & ALPHA) !== 0) w--;
  if ((cls(text, w - 1) & (ALPHA | DIGIT | UNDERSCORE)) !== 0) return false;
  return lettersAre(text, w, end - w, NUMBERING_BY_LENGTH[end - w]);
}

const VERSION_OR_NUMBERING_LAST_LETTERS = VERSION_LAST_LETTERS | NUMBERING_LAST_LETTERS;

/**
 * `versionBefore(text, st) || numberingBefore(text, st)`: a version or a section number, not an
 * address. Most addresses in a log follow a word and a space (`from 10.0.0.1`): a letter ends
 * the gap either rule skips, so when it ends no version or numbering word, neither rule can
 * hold and neither is read (a test holds this to the two rules).
 */
export function versionOrNumberingBefore(text: string, st: number): boolean {
  if (
    text.charCodeAt(st - 1) === Ch.Space &&
    (cls(text, st - 2) & ALPHA) !== 0 &&
    !letterIn(text, st - 2, VERSION_OR_NUMBERING_LAST_LETTERS)
  ) {
    return false;
  }
  return versionBefore(text, st) || numberingBefore(text, st);
}

/**
 * After the candidate: `foo.bar(` is a call and `first.last@` a mailbox (never hosts); `a.b = x`
 * is an assignment or a `key=value` key (a host only if its TLD is unambiguous).
 */
export function codeAfter(text: string, en: number): 'call' | 'assign' | undefined {
  const c = text.charCodeAt(en);
  if (c === Ch.OpenParen || c === Ch.At) return 'call';
  let j = en;
  while (j - en < 4 && (text.charCodeAt(j) === Ch.Space || text.charCodeAt(j) === Ch.Tab)) j++;
  return text.charCodeAt(j) === Ch.Equals ? 'assign' : undefined;
}

/**
 * text[s, e) is exactly ISO_TIME_SHAPE, optionally with a fraction and a `Z`. The general
 * analysis finds nothing in one: its IPv6 windows hold two colons and no `::`, and its
 * colon-separated parts are `YYYY-MM-DDThh` (no dot), `mm`, and `ss.fff` or `ss.fffZ` (one dot,
 * no TLD); a shortcut, held to the general analysis by tests.
 */
export function isIsoTime(text: string, s: number, e: number): boolean {
  const n = e - s;
  const shape = ISO_TIME_SHAPE.length;
  if (n < shape || n > shape + 11) return false;
  for (let k = 0; k < shape; k++) {
    const c = text.charCodeAt(s + k);
    const want = ISO_TIME_SHAPE[k];
    if (want === 'd' ? !isDigit(c) : c !== want.charCodeAt(0)) return false;
  }
  let k = s + shape;
  if (k < e && text.charCodeAt(k) === Ch.Dot) {
    k++;
    const from = k;
    while (k < e && isDigit(text.charCodeAt(k))) k++;
    if (k === from) return false;
  }
  if (k < e && text.charCodeAt(k) === Ch.UpperZ) k++;
  return k === e;
}
