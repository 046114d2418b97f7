// Characters: their names, the classes the scanner reads them by, and the predicates on them.
// Everything else in detection compares characters through these names, never through numbers.

/** The characters detection compares, by name (UTF-16 code units). */
export const enum Ch {
  Tab = 9,
  Newline = 10,
  Return = 13,
  Space = 32,
  Quote = 34,
  Percent = 37,
  Apostrophe = 39,
  OpenParen = 40,
  CloseParen = 41,
  Hyphen = 45,
  Dot = 46,
  Slash = 47,
  Zero = 48,
  Nine = 57,
  Colon = 58,
  Equals = 61,
  At = 64,
  UpperT = 84,
  UpperZ = 90,
  OpenBracket = 91,
  Backslash = 92,
  CloseBracket = 93,
  Underscore = 95,
  LowerA = 97,
  LowerF = 102,
  LowerZ = 122,
  OpenBrace = 123,
  CloseBrace = 125,
  NoBreakSpace = 160,
  Section = 167,
}

// Classes (bits): what a character can be part of.
export const DIGIT = 1;
export const ALPHA = 2;
export const DOT = 4;
export const COLON = 8;
export const HYPHEN = 16;
export const UNDERSCORE = 32;
export const HEX = 64;
/** Part of a run: the characters an address or a host name is made of. */
export const RUN = 128;
/** A letter or mark of an alphabetic script outside ASCII: part of an internationalised name. */
export const UNICODE = 256;

/**
 * Letters and combining marks outside ASCII that belong to a name (`bücher-login.de`,
 * `раураl.com`): the Latin, Greek, Cyrillic and Armenian letters and the combining marks, as
 * code-unit ranges (inclusive). A unit test holds each range to Unicode's Script property.
 * Other scripts (CJK, Arabic, …) and punctuation separate, as spaces do.
 */
export const NAME_LETTER_RANGES: readonly (readonly [number, number])[] = [
  [0x00c0, 0x00d6], // Latin-1 letters (not × and ÷)
  [0x00d8, 0x00f6],
  [0x00f8, 0x024f], // Latin Extended-A and -B
  [0x0300, 0x036f], // combining diacritical marks
  [0x0370, 0x0373], // Greek
  [0x0376, 0x0377],
  [0x037b, 0x037d],
  [0x0386, 0x0386],
  [0x0388, 0x03e1], // (not the Coptic letters U+03E2-03EF)
  [0x03f0, 0x03f5],
  [0x03f7, 0x03ff],
  [0x0400, 0x0481], // Cyrillic
  [0x0483, 0x052f],
  [0x0531, 0x0556], // Armenian
  [0x0560, 0x0588],
  [0x1e00, 0x1eff], // Latin Extended Additional
  [0x1f00, 0x1f15], // Greek Extended (letters)
];

/** Character classes for every UTF-16 code unit (0: never part of a run). */
export const CLS = new Uint16Array(65536);
for (let c = Ch.Zero; c <= Ch.Nine; c++) CLS[c] = RUN | DIGIT | HEX;
for (let c = 65; c <= Ch.UpperZ; c++) CLS[c] = RUN | ALPHA | (c <= 70 ? HEX : 0);
for (let c = Ch.LowerA; c <= Ch.LowerZ; c++) CLS[c] = RUN | ALPHA | (c <= Ch.LowerF ? HEX : 0);
CLS[Ch.Dot] = RUN | DOT;
CLS[Ch.Colon] = RUN | COLON;
CLS[Ch.Hyphen] = RUN | HYPHEN;
CLS[Ch.Underscore] = RUN | UNDERSCORE;
for (const [from, to] of NAME_LETTER_RANGES) for (let c = from; c <= to; c++) CLS[c] = RUN | UNICODE;

/** The class of text[i]; 0 out of range (`charCodeAt` gives NaN there, and CLS[NaN] is undefined). */
export function cls(text: string, i: number): number {
  return i >= 0 && i < text.length ? CLS[text.charCodeAt(i)] : 0;
}

export function isDigit(c: number): boolean {
  return c >= Ch.Zero && c <= Ch.Nine;
}

/** An ASCII letter, digit or `_`: a character of an identifier, so a neighbour that glues. */
export function isWordChar(c: number): boolean {
  return (CLS[c] & (ALPHA | DIGIT | UNDERSCORE)) !== 0;
}

/** A letter of an alphabetic script: glued to a candidate, it makes it part of a word. */
const ALPHABETIC = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}\p{M}]/u;

/** text[i] is a letter outside ASCII that glues (`münchen` is not `nchen`). */
export function gluedAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length || text.charCodeAt(i) < 128) return false;
  return ALPHABETIC.test(text[i]);
}

/** An `xn--` label (an IDN in punycode) starts at str[t]. */
export function isIdnLabelAt(str: string, t: number): boolean {
  return (
    lower(str.charCodeAt(t)) === 120 &&
    lower(str.charCodeAt(t + 1)) === 110 &&
    str.charCodeAt(t + 2) === Ch.Hyphen
  );
}

export function isSpace(c: number): boolean {
  return c === Ch.Space || c === Ch.Tab || c === Ch.Newline || c === Ch.Return;
}

/** ASCII lower case of `c` (other characters unchanged). */
export function lower(c: number): number {
  return c >= 65 && c <= Ch.UpperZ ? c + 32 : c;
}

/** `.` or `-`: trimmed from both ends of a candidate (`-foo.com.` is `foo.com`). */
export function isTrimmed(c: number): boolean {
  return c === Ch.Dot || c === Ch.Hyphen;
}

/** First index of `code` in str[from, to), or `to`. Bounded: never reads past the run. */
export function find(str: string, code: number, from: number, to: number): number {
  let i = from;
  while (i < to && str.charCodeAt(i) !== code) i++;
  return i;
}

/** text[at, at + n) (letters) is one of `words` (lower case), in any case. Compared in place. */
export function lettersAre(text: string, at: number, n: number, words: readonly string[]): boolean {
  for (const word of words) {
    if (word.length !== n) continue;
    let k = 0;
    while (k < n && lower(text.charCodeAt(at + k)) === word.charCodeAt(k)) k++;
    if (k === n) return true;
  }
  return false;
}
