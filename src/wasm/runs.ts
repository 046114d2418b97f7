// The run finder of the detection scanner, in AssemblyScript, compiled to WebAssembly by
// `npm run build:wasm` (scripts/build-wasm.mjs) into src/core/detect/runsWasm.ts.
//
// It does for a chunk of UTF-16 text what scanTriggers of src/core/detect/scan.ts does. It
// classifies the chunk once, sixteen characters at a time (SIMD), into bitmaps; finds the dots,
// colons and `[dot]` markers, and the run of [0-9A-Za-z._:-] and defang markers around each,
// with bit scans; and drops the runs that cannot hold anything for reasons read from the run
// alone (too long, an ISO time, colons that cannot be IPv6, digits and dots that are not a
// dotted quad, a name whose TLD is known not to be one). A dotted quad or an IPv6 address in
// plain context is decided here, and so is a host name whose spelling the host has judged: each
// is written out as a row of the detection table. A host name candidate comes with its TLD's
// verdict and the slot of its spelling, once the host has told the module about them. What is
// left is written out as records for the TypeScript analysis. The functions below are ports of
// scan.ts's of the same names; generated tests hold the two scans to the same results.
//
// Memory (one instance, fixed size): [0, 2 * CAP) the chunk; CLS_AT the class table of scan.ts
// for ASCII, written by the host; MAPS the bitmaps; TLDS and NAMES the verdicts and spellings
// the host has stored; OUT the records, RECORD bytes each: start, end, flags (scan.ts bits, |
// MARKED, | IPV6_CHECKED, | IPV4_CHECKED, | NAME, | TLD_KNOWN, | NAME_KNOWN, | DEFANGED_NAME, |
// the TLD's length << TLD_LENGTH_SHIFT), for a NAME the name's start and end (trimmed) and its
// slots (TLD | name << 16), and the number of rows written before it; ROWS the rows: start and
// end in the text (the chunk's offset added), and the kind and flags as table.ts has them.

const CAP: i32 = 65536;
const CLS_AT: usize = 0x20000;
const MAPS: usize = 0x20100;
const TLDS: usize = 0x31000;
const NAMES: usize = 0x51000;
const OUT: usize = 0x251000;
const RECORD: usize = 28;
/** Rows of the detections decided here (ROW bytes each), as DetectionTable stores them. */
const ROWS: usize = 0x340000;
const ROW: usize = 12;

const DIGIT: u32 = 1;
const ALPHA: u32 = 2;
const DOT: u32 = 4;
const COLON: u32 = 8;
const HYPHEN: u32 = 16;
const UNDERSCORE: u32 = 32;
const HEX: u32 = 64;
const MARKED: u32 = 256;
const IPV6_CHECKED: u32 = 512;
const IPV4_CHECKED: u32 = 1024;
// A row's kind and flags, as in src/core/detect/table.ts: the kind's index, | DEFANGED_ROW.
const ROW_IPV4: u32 = 0;
const ROW_IPV6: u32 = 1;
const ROW_CIDR: u32 = 2;
const ROW_DOMAIN: u32 = 3;
const DEFANGED_ROW: u32 = 4;
/** A domain row's name slot, from this bit on (the table reads no bit there). */
const ROW_SLOT_SHIFT: u32 = 16;
const NAME: u32 = 4096;
const TLD_KNOWN: u32 = 8192;
const NAME_KNOWN: u32 = 16384;
/** A marked NAME with a marker in its trimmed name: defanged. */
const DEFANGED_NAME: u32 = 32768;
/** The TLD's length, in a NAME's flags from this bit on. */
const TLD_LENGTH_SHIFT: u32 = 16;
const MAX_RUN: i32 = 1024;

/** The most characters a chunk can hold: the host reads it from here. */
export function capacity(): i32 {
  return CAP;
}

/** Where the class table goes. */
export function classesAt(): i32 {
  return <i32>CLS_AT;
}

/** Name slots: the host keeps what each slot's spelling says, by slot. */
export function nameSlots(): i32 {
  return <i32>NAME_SLOTS;
}

/** Where the records are, and their size in bytes. */
export function recordsAt(): i32 {
  return <i32>OUT;
}

export function recordSize(): i32 {
  return <i32>RECORD;
}

/** Where the rows are (three i32 each). */
export function rowsAt(): i32 {
  return <i32>ROWS;
}

/** Rows written by the last scan. */
export function rowCount(): i32 {
  return rows;
}

/** Rows written so far in this scan. */
let rows: i32 = 0;
/** Offset of the chunk in the text: rows hold offsets in the text. */
let base: i32 = 0;

/** Characters in the chunk. */
let len: i32 = 0;
/** Classes and marker of the last run read by runEnd. */
let runFlags: u32 = 0;
let runMarked: bool = false;

function at(i: i32): u32 {
  // Outside the chunk reads as "nothing", as charCodeAt's NaN does: a chunk ends with
  // whitespace (or the text), so no run, marker or escape reads past it.
  return <u32>i < <u32>len ? <u32>load<u16>((<usize>i) << 1) : 0;
}

/** text[i], for `i` known to be in the chunk. */
function ch(i: i32): u32 {
  return <u32>load<u16>((<usize>i) << 1);
}

/**
 * The sixteen characters at `i`, a byte each: a character beyond U+00FF narrows to 0 or 255,
 * neither of which is in any class.
 */
// @ts-ignore: decorator
@inline
function chars16(i: i32): v128 {
  const bytes = (<usize>i) << 1;
  return i8x16.narrow_i16x8_u(v128.load(bytes), v128.load(bytes, 16));
}

/** The lanes of `v` (from chars16) that are ASCII digits. */
// @ts-ignore: decorator
@inline
function digits16(v: v128): v128 {
  return i8x16.lt_u(i8x16.sub(v, i8x16.splat(48)), i8x16.splat(10));
}

function cls(c: u32): u32 {
  return c < 128 ? <u32>load<u8>(CLS_AT + c) : 0;
}

/** Length of a defang marker at `i` (0 if none): markerAt of scan.ts. */
function markerAt(i: i32): i32 {
  const open = at(i);
  const close: u32 = open == 91 ? 93 : open == 40 ? 41 : 125;
  const c1 = at(i + 1);
  if (c1 == 46 || (c1 == 58 && open == 91)) return at(i + 2) == close ? 3 : 0;
  if ((c1 | 32) == 100 && (at(i + 2) | 32) == 111 && (at(i + 3) | 32) == 116) {
    return at(i + 4) == close ? 5 : 0;
  }
  return 0;
}

/**
 * The end of the run started at `s`: the forward loop of scanRun, a bitmap word at a time. A
 * defang marker between run characters continues the run (`evil[.]com`); its classes are the
 * classes it stands for, not its letters'.
 */
function runEnd(s: i32): i32 {
  let f: u32 = 0;
  let marked = false;
  let seg = s;
  for (;;) {
    const e = nextStop(seg);
    if (e > seg) f |= classesOf(seg, e);
    if (e < len && e > s) {
      const c = ch(e);
      if (isOpener(c)) {
        const m = markerAt(e);
        if (m != 0 && (cls(at(e + m)) & (ALPHA | DIGIT)) != 0) {
          marked = true;
          f |= at(e + 1) == 58 ? COLON : DOT;
          seg = e + m;
          continue;
        }
      }
    }
    runFlags = f;
    runMarked = marked;
    return e;
  }
}

/** isIsoTime of scan.ts: [s, e) is `YYYY-MM-DDThh:mm:ss`, an optional fraction and `Z`. */
function isIsoTime(s: i32, e: i32): bool {
  const n = e - s;
  if (n < 19 || n > 30) return false;
  // `YYYY-MM-DDThh:mm` sixteen characters at once (the run holds at least 19), then `:ss`.
  const v = chars16(s);
  const digits = i8x16.bitmask(digits16(v));
  const marks = i8x16.bitmask(i8x16.eq(v, i8x16(0, 0, 0, 0, 45, 0, 0, 45, 0, 0, 84, 0, 0, 58, 0, 0)));
  if ((digits & ISO_DIGITS) != ISO_DIGITS || (marks & ISO_MARKS) != ISO_MARKS) return false;
  if (ch(s + 16) != 58 || ch(s + 17) - 48 > 9 || ch(s + 18) - 48 > 9) return false;
  let k = s + 19;
  if (k < e && ch(k) == 46) {
    k++;
    const from = k;
    while (k < e && ch(k) - 48 <= 9) k++;
    if (k == from) return false;
  }
  if (k < e && ch(k) == 90) k++;
  return k == e;
}

/** The digits of `YYYY-MM-DDThh:mm`, a bit each (the first lowest), and its `-`, `T` and `:`. */
const ISO_DIGITS: i32 = 0b1101101101101111;
const ISO_MARKS: i32 = 0b0010010010010000;

/** mayBeIPv6 of scan.ts: some window of [0-9A-Fa-f:.] in [s, e) has `::` or 6 to 10 colons. */
function mayBeIPv6(s: i32, e: i32): bool {
  let colons = 0;
  let double = false;
  for (let i = s; i <= e; i++) {
    const c: u32 = i < e ? ch(i) : 0;
    if (c == 58) {
      colons++;
      if (i > s && ch(i - 1) == 58) double = true;
    } else if (i == e || ((cls(c) & HEX) == 0 && c != 46)) {
      if (colons >= 2 && colons <= 10 && (double || colons >= 6)) return true;
      colons = 0;
      double = false;
    }
  }
  return false;
}

/**
 * parseIPv4At of src/core/detect/ip.ts accepts [s, e) (7 to 15 digits and dots): four parts
 * 0-255, no leading zeros. The dots are found sixteen characters at once (the characters past
 * `e` are masked off; they are in memory, past the chunk at worst).
 */
function isIPv4(s: i32, e: i32): bool {
  const n = e - s;
  const dots = <u32>i8x16.bitmask(i8x16.eq(chars16(s), i8x16.splat(46))) & ((<u32>1 << n) - 1);
  if (popcnt(dots) != 3) return false;
  const d1 = <i32>ctz(dots);
  const rest = dots & (dots - 1);
  const d2 = <i32>ctz(rest);
  const d3 = <i32>ctz(rest & (rest - 1));
  return (
    isOctet(s, d1) && isOctet(s + d1 + 1, d2 - d1 - 1) && isOctet(s + d2 + 1, d3 - d2 - 1) && isOctet(s + d3 + 1, n - d3 - 1)
  );
}

/** The `n` digits at `i` are a part of a dotted quad: 1 to 3 digits, 0-255, no leading zero. */
// @ts-ignore: decorator
@inline
function isOctet(i: i32, n: i32): bool {
  if (n == 1) return true;
  if (n < 1 || n > 3 || ch(i) == 48) return false;
  return n == 2 || (ch(i) - 48) * 100 + (ch(i + 1) - 48) * 10 + ch(i + 2) - 48 <= 255;
}

/** `c` is in the set of ASCII characters whose bits are `low` (0-63) and `high` (64-127). */
// @ts-ignore: decorator
@inline
function isIn(c: u32, low: u64, high: u64): bool {
  return c < 64 ? ((low >> <u64>c) & 1) != 0 : c < 128 && ((high >> <u64>(c - 64)) & 1) != 0;
}

/** `c` opens a defang marker: `[`, `(` or `{`. */
// @ts-ignore: decorator
@inline
function isOpener(c: u32): bool {
  return isIn(c, <u64>1 << 40, (<u64>1 << (91 - 64)) | (<u64>1 << (123 - 64)));
}

/** What makes a context when it comes right before a token (leftContext): `/` `)` and `@` `\` `]`. */
const CONTEXT_LOW: u64 = (<u64>1 << 47) | (<u64>1 << 41);
const CONTEXT_HIGH: u64 = (<u64>1 << (64 - 64)) | (<u64>1 << (92 - 64)) | (<u64>1 << (93 - 64));
/** What versionBefore of scan.ts skips between `version` and a number: space, tab, `=:"'(`. */
const VERSION_SEPARATORS: u64 =
  (<u64>1 << 32) | (<u64>1 << 9) | (<u64>1 << 61) | (<u64>1 << 58) | (<u64>1 << 34) | (<u64>1 << 39) | (<u64>1 << 40);

/** The last letters of scan.ts's NUMBERING_WORDS (`section` … `step`), a bit each (a = 1). */
const NUMBERING_LAST_LETTERS: u32 =
  (1 << 13) | (1 << 18) | (1 << 19) | (1 << 2) | (1 << 17) | (1 << 4) | (1 << 7) | (1 << 0) | (1 << 23) | (1 << 6) | (1 << 15);

/**
 * The dotted quad [s, en) of the run [s, e) is an address as it stands: what analyzeNumericRun
 * and emitIPv4 of scan.ts decide, for the plain case only. False whenever they could decide
 * otherwise, or would read before the chunk: no URL, path, `@` or defang mark before it
 * (leftContext), no letter glued to it (gluedAt), no word that could be `version`
 * (versionBefore) or a numbering word (numberingBefore) before it. A `/` after it is read by
 * quadRecord. The TypeScript analysis decides the rest.
 */
function plainQuad(s: i32, en: i32, e: i32): bool {
  if (s < 24) return false;
  const c1 = ch(s - 1);
  if (c1 >= 128 || isIn(c1, CONTEXT_LOW, CONTEXT_HIGH)) return false;
  if (en == e && at(e) >= 128) return false;
  // versionBefore: separators, then a word ending in `n`.
  let q = s;
  while (s - q < 8) {
    const c = ch(q - 1);
    if (isIn(c, VERSION_SEPARATORS, 0)) q--;
    else break;
  }
  if ((ch(q - 1) | 32) == 110) return false;
  // numberingBefore: spaces, then `§` or a word ending in a numbering word's last letter.
  q = s;
  while (s - q < 3) {
    const c = ch(q - 1);
    if (c == 32 || c == 9 || c == 160) q--;
    else break;
  }
  const c = ch(q - 1);
  if (c == 0xa7) return false;
  if (q == s) return true;
  const end = c == 46 ? q - 1 : q;
  const last = ch(end - 1) | 32;
  if (last < 97 || last > 122 || (NUMBERING_LAST_LETTERS & (1 << (last - 97))) == 0) return true;
  return !numberingWordBefore(end);
}

/**
 * The letters right before `end` are one of scan.ts's NUMBERING_WORDS, set apart (the word
 * test of numberingBefore). `end` is at least 16: the loop stays in the chunk.
 */
function numberingWordBefore(end: i32): bool {
  let w = end;
  while (end - w < 10 && (cls(ch(w - 1)) & ALPHA) != 0) w--;
  const n = end - w;
  if (n < 3 || n > 9 || (cls(ch(w - 1)) & (ALPHA | DIGIT | UNDERSCORE)) != 0) return false;
  if (n == 9) return lettersAre(w, 8, 0x7061726761726170) /* paragrap */ && (ch(w + 8) | 32) == 104;
  return (
    lettersAre(w, n, 0x6e6f6974636573) /* section */ ||
    lettersAre(w, n, 0x736e6f6974636573) /* sections */ ||
    lettersAre(w, n, 0x74636573) /* sect */ ||
    lettersAre(w, n, 0x636573) /* sec */ ||
    lettersAre(w, n, 0x72657470616863) /* chapter */ ||
    lettersAre(w, n, 0x657375616c63) /* clause */ ||
    lettersAre(w, n, 0x61726170) /* para */ ||
    lettersAre(w, n, 0x7869646e65707061) /* appendix */ ||
    lettersAre(w, n, 0x78656e6e61) /* annex */ ||
    lettersAre(w, n, 0x657275676966) /* figure */ ||
    lettersAre(w, n, 0x676966) /* fig */ ||
    lettersAre(w, n, 0x70657473) /* step */
  );
}

function isHexDigit(c: u32): bool {
  return c - 48 <= 9 || (c | 32) - 97 <= 5;
}

/** parseIPv6Groups of src/core/detect/ip.ts accepts [s, e), for hex digits and colons (no IPv4 tail). */
function isIPv6(s: i32, e: i32): bool {
  if (e - s < 2 || e - s > 45) return false;
  let n = 0;
  let gap = -1;
  let i = s;
  if (ch(i) == 58) {
    if (ch(i + 1) != 58) return false;
    gap = 0;
    i += 2;
    if (i == e) return true;
  }
  for (;;) {
    const start = i;
    while (i < e && i - start < 5 && isHexDigit(ch(i))) i++;
    const groupLength = i - start;
    if (groupLength == 0 || groupLength > 4 || n == 8) return false;
    n++;
    if (i == e) break;
    if (ch(i) != 58) return false;
    i++;
    if (i < e && ch(i) == 58) {
      if (gap >= 0) return false;
      gap = n;
      i++;
      if (i == e) break;
    } else if (i == e) return false;
  }
  return gap < 0 ? n == 8 : n != 8;
}

/** prefixAt of scan.ts: the end of a strict prefix length of at most `max` at `i`, or -1. */
function prefixEnd(i: i32, max: u32): i32 {
  let bits: u32 = 0;
  let j = i;
  while (j - i < 4 && (cls(at(j)) & DIGIT) != 0) {
    bits = bits * 10 + (ch(j) - 48);
    j++;
  }
  const n = j - i;
  if (n == 0 || n > 3 || (n > 1 && ch(i) == 48) || bits > max) return -1;
  const next = at(j);
  if ((cls(next) & (ALPHA | DIGIT | UNDERSCORE)) != 0) return -1;
  if (next == 46 && (cls(at(j + 1)) & (ALPHA | DIGIT)) != 0) return -1;
  return j;
}

/**
 * The run [s, e) (colons, no dot, no marker; mayBeIPv6 passed) is one IPv6 address as it stands,
 * with its zone id or prefix length if one follows: what analyzeRun and analyzeIPv6 of scan.ts
 * decide, for the plain case only. Returns where the address (or block, when
 * `ipv6Block` is set) ends, or -1 whenever they could decide otherwise: hex digits and colons
 * only (isIPv6 refuses a single colon at either end), a decimal digit in it unless it is a
 * block (`::` without one is code), nothing before it that makes a context (a bracket, a URL,
 * path, `@` or defang mark, a letter glued to it), and no bracket or glued letter after it.
 */
function plainIPv6(s: i32, e: i32): i32 {
  ipv6Block = false;
  const c1 = at(s - 1);
  if (c1 >= 128 || isIn(c1, CONTEXT_LOW, CONTEXT_HIGH | (<u64>1 << (91 - 64)))) return -1;
  const c2 = at(e);
  if (c2 >= 128 || c2 == 93) return -1;
  let digits = false;
  for (let k = s; k < e; k++) {
    const c = ch(k);
    if (c != 58 && !isHexDigit(c)) return -1;
    if (c - 48 <= 9) digits = true;
  }
  if (!isIPv6(s, e)) return -1;
  // `::` without a decimal digit is code (`a::b`), unless it is a block (`::/0`).
  if (digits && c2 == 37 && (cls(at(e + 1)) & (ALPHA | DIGIT)) != 0) {
    // A zone id: `fe80::1%eth0`.
    let z = e + 1;
    while (z - e <= 64) {
      const k = cls(at(z));
      if ((k & (ALPHA | DIGIT | UNDERSCORE | HYPHEN)) != 0 || ((k & DOT) != 0 && (cls(at(z + 1)) & (ALPHA | DIGIT)) != 0)) z++;
      else break;
    }
    return z;
  }
  if (c2 == 47) {
    const end = prefixEnd(e + 1, 128);
    if (end >= 0) {
      ipv6Block = true;
      return end;
    }
  }
  return digits ? e : -1;
}

/**
 * analyzeMarkedQuad of scan.ts accepts [s, y) (digits, dots and dot markers, no dot at either
 * end): four parts 0-255 without leading zeros, each marker read as a dot.
 */
function isMarkedIPv4(s: i32, y: i32): bool {
  let part: u32 = 0;
  let digits = 0;
  let dots = 0;
  let leadingZero = false;
  for (let i = s; i < y; ) {
    const c = ch(i);
    if (c - 48 <= 9) {
      if (digits == 0) leadingZero = c == 48;
      else if (leadingZero || digits == 3) return false;
      part = part * 10 + (c - 48);
      digits++;
      i++;
      continue;
    }
    const step = c == 46 ? 1 : markerAt(i);
    if (step == 0 || digits == 0 || part > 255 || dots == 3) return false;
    dots++;
    part = 0;
    digits = 0;
    i += step;
  }
  return digits != 0 && part <= 255 && dots == 3;
}

/**
 * The row of the plain dotted quad [s, en) of the run [s, e), as emitIPv4 of scan.ts emits
 * it: a block when a strict prefix length follows the run (`10.0.0.0/8`), else the address.
 * `defanged`: DEFANGED_ROW or 0.
 */
function quadRecord(count: i32, s: i32, en: i32, e: i32, defanged: u32): i32 {
  if (en == e && at(e) == 47) {
    const end = prefixEnd(e + 1, 32);
    if (end >= 0) return row(count, s, end, ROW_CIDR | defanged);
  }
  return row(count, s, en, ROW_IPV4 | defanged);
}

/** Set by plainIPv6: what it found is a block (`2001:db8::/32`). */
let ipv6Block = false;

/**
 * Writes a record of `start`, `end` and `flags` (its name fields as they were) and the rows
 * before it; returns the new count.
 */
function record(count: i32, start: i32, end: i32, flags: u32): i32 {
  const o = OUT + <usize>count * RECORD;
  store<i32>(o, start);
  store<i32>(o, end, 4);
  store<i32>(o, <i32>flags, 8);
  store<i32>(o, rows, 24);
  return count + 1;
}

/** Writes the detection [start, end) of `kind` (ROW_IPV4 …, | DEFANGED_ROW) as a row; returns `count`. */
function row(count: i32, start: i32, end: i32, kind: u32): i32 {
  const o = ROWS + <usize>rows * ROW;
  store<i32>(o, start + base);
  store<i32>(o, end + base, 4);
  store<i32>(o, <i32>kind, 8);
  rows++;
  return count;
}

/** Writes the run [s, e) out unless it cannot hold anything; returns the new record count. */
// @ts-ignore: decorator
@inline
function keep(s: i32, e: i32, ipv6Checked: bool, count: i32): i32 {
  let f = runFlags;
  const marked = runMarked;
  if ((f & (DOT | COLON)) == 0 || e - s > MAX_RUN) return count;
  if (!marked && (f & COLON) != 0 && isIsoTime(s, e)) return count;
  if (!marked && (f & (COLON | DOT)) == COLON) {
    if (!ipv6Checked && !mayBeIPv6(s, e)) return count;
    const end = plainIPv6(s, e);
    if (end >= 0) {
      return row(count, s, end, ipv6Block ? ROW_CIDR : ROW_IPV6);
    }
    f |= IPV6_CHECKED;
  } else if (!marked && (f & (ALPHA | UNDERSCORE | HYPHEN | COLON)) == 0) {
    // Digits and dots: analyzeNumericRun reads nothing in an OID tail or in anything but a
    // dotted quad (which it need not parse again).
    if (ch(s) == 46) return count;
    let en = e;
    while (en > s && ch(en - 1) == 46) en--;
    if (en - s < 7 || en - s > 15 || !isIPv4(s, en)) return count;
    if (plainQuad(s, en, e)) return quadRecord(count, s, en, e, 0);
    f |= IPV4_CHECKED;
  } else if (marked && (f & (ALPHA | UNDERSCORE | HYPHEN | COLON)) == 0) {
    // Digits, dots and dot markers: analyzeMarkedQuad.
    if (ch(s) == 46) return count;
    let y = e;
    while (y > s && ch(y - 1) == 46) y--;
    if (!isMarkedIPv4(s, y)) return count;
    if (plainQuad(s, y, e)) return quadRecord(count, s, y, e, DEFANGED_ROW);
  }
  if (!marked && (f & COLON) == 0 && (f & (ALPHA | UNDERSCORE)) != 0) return nameRecord(s, e, f, false, count);
  if (marked && (f & (ALPHA | COLON)) == ALPHA) return nameRecord(s, e, f | MARKED, true, count);
  return record(count, s, e, marked ? f | MARKED : f);
}

// TLD verdicts, by the TLD in lower case: TLD_SLOTS slots of TLD_SLOT bytes, each the length
// (0: empty), the verdict (1: not an ICANN TLD, 2: one) and the letters.
const TLD_SLOTS: u32 = 1024;
const TLD_SLOT: usize = 128;
// Spellings of names as written: NAME_SLOTS slots of NAME_SLOT bytes, each the length (u16, 0:
// empty) and the characters. The host keeps what each slot's name says about itself.
const NAME_SLOTS: u32 = 16384;
const NAME_SLOT: usize = 128;
/** The characters of a name slot start here, eight-byte aligned, in UTF-16 as in the chunk. */
const NAME_CHARS: usize = 8;
const NAME_MAX: i32 = <i32>(NAME_SLOT - NAME_CHARS) >> 1;
/** Slot number for "none": a name too long to keep. */
const NO_SLOT: u32 = 0xffff;
// What the host says about a spelling, in its slot (acceptFacts of domain.ts, without context):
// a public host name at all; one in text where nothing around it says otherwise; the same in
// code, as it stands or quoted.
const HOST_NAME: u32 = 1;
const TEXT_OK: u32 = 2;
const CODE_OK: u32 = 4;
const CODE_OK_QUOTED: u32 = 8;

/** The text is code (ScanOptions `mode`), for this scan. */
let codeMode = false;

// What the text right before a name says (leftContext of scan.ts), where it is decided here.
const NOT_DECIDED: i32 = 0;
const NO_CONTEXT: i32 = 1;
const URL: i32 = 2;
const DEFANGED_URL: i32 = 3;

/**
 * chunk[q, q + n) is, in any case, the word of `n` lower-case letters packed into `word` (one
 * byte each, the first lowest). Not a string: the chunk overwrites the module's static data.
 */
function lettersAre(q: i32, n: i32, word: u64): bool {
  if (n < 8 && word >> (<u64>n << 3) != 0) return false;
  for (let k = 0; k < n; k++) {
    if (<u64>(ch(q + k) | 32) != ((word >> (<u64>k << 3)) & 0xff)) return false;
  }
  return true;
}

/** defangedSchemeBefore of scan.ts: the letters right before `p` are a defanged scheme. */
function defangedSchemeBefore(p: i32): bool {
  let q = p;
  while (q > 0 && p - q < 7 && (cls(ch(q - 1)) & ALPHA) != 0) q--;
  const n = p - q;
  if (n < 3 || n > 6) return false;
  if ((ch(q + 1) | 32) != 120 && (ch(q + 2) | 32) != 120) return false;
  return (
    lettersAre(q, n, 0x70787868) /* hxxp */ ||
    lettersAre(q, n, 0x7370787868) /* hxxps */ ||
    lettersAre(q, n, 0x7078787868) /* hxxxp */ ||
    lettersAre(q, n, 0x737078787868) /* hxxxps */ ||
    lettersAre(q, n, 0x70747868) /* hxtp */ ||
    lettersAre(q, n, 0x7370747868) /* hxtps */ ||
    lettersAre(q, n, 0x70787468) /* htxp */ ||
    lettersAre(q, n, 0x7370787468) /* htxps */ ||
    lettersAre(q, n, 0x707866) /* fxp */ ||
    lettersAre(q, n, 0x73707866) /* fxps */
  );
}

/**
 * What is around the name [x, y) of the run [s, e), where it is all emitDomain of scan.ts reads:
 * nothing (NO_CONTEXT), `scheme://` or `//` (URL), a defanged scheme (DEFANGED_URL). NOT_DECIDED
 * for anything else: a path, `@` or defang mark before it, a letter glued to it (gluedAt), a
 * call, mailbox or assignment after it when it ends the run (codeAfter, which must be read
 * within the chunk), or a start too close to the chunk's to read back.
 */
function nameContext(s: i32, e: i32, y: i32): i32 {
  if (s < 16) return NOT_DECIDED;
  const c1 = ch(s - 1);
  let context = NO_CONTEXT;
  if (c1 == 47 && ch(s - 2) == 47) {
    if (ch(s - 3) == 58) context = defangedSchemeBefore(s - 3) ? DEFANGED_URL : URL;
    else if (ch(s - 5) == 91 && ch(s - 4) == 58 && ch(s - 3) == 93) context = DEFANGED_URL;
    else context = URL;
  } else if (c1 >= 128 || isIn(c1, CONTEXT_LOW, CONTEXT_HIGH)) return NOT_DECIDED;
  const c2 = at(e);
  if (c2 >= 128) return NOT_DECIDED;
  if (y < e) return context;
  if (c2 == 40 || c2 == 64) return NOT_DECIDED;
  let j = e;
  while (j - e < 4 && j < len && (ch(j) == 32 || ch(j) == 9)) j++;
  return j < len && ch(j) != 61 ? context : NOT_DECIDED;
}

function mix(h: u32): u32 {
  return h ^ (h >> 15);
}

/**
 * A run analyzeNameRun of scan.ts reads (letters or `_`, dots, no colon, no marker) or, when
 * `marked`, one analyzeMarkedName reads (letters, dots or dot markers, no colon): dropped if it
 * cannot end in an ICANN TLD (the checks of hasIcannTld and tldAt), or if its TLD is known not
 * to be one; otherwise recorded with the trimmed name [x, y), the TLD's length and slot
 * (TLD_KNOWN if it is known to be one) and the name's slot (NAME_KNOWN if the slot holds this
 * spelling).
 */
function nameRecord(s: i32, e: i32, f: u32, marked: bool, count: i32): i32 {
  let x = s;
  let y = e;
  while (x < y) {
    const c = ch(x);
    if (c == 46 || c == 45) x++;
    else if (marked && x > s && isOpener(c) && markerAt(x) != 0) x += markerAt(x);
    else break;
  }
  while (y > x && (ch(y - 1) == 46 || ch(y - 1) == 45)) y--;
  // The TLD: after the last dot (or marker).
  let t = y;
  let closer = false;
  while (t > x) {
    const c = ch(t - 1);
    if (c == 46) break;
    if (marked && (c == 93 || c == 41 || c == 125)) {
      closer = true;
      break;
    }
    t--;
  }
  if (t == x) return count;
  if ((closer ? t - (ch(t - 2) == 46 ? 3 : 5) : t - 1) <= x) return count;
  const n = y - t;
  if (n < 2 || n > 63) return count;
  let letters = true;
  let h: u32 = <u32>n;
  for (let k = t; k < y; k++) {
    const c = ch(k);
    if ((cls(c) & ALPHA) == 0) letters = false;
    h = h * 31 + (c | 32);
  }
  if (!letters && !((ch(t) | 32) == 120 && (ch(t + 1) | 32) == 110 && ch(t + 2) == 45)) return count;
  const tldSlot = mix(h) & (TLD_SLOTS - 1);
  const tld = TLDS + <usize>tldSlot * TLD_SLOT;
  if (<i32>load<u8>(tld) == n) {
    let k = 0;
    while (k < n && <u32>load<u8>(tld + 2 + <usize>k) == (ch(t + k) | 32)) k++;
    if (k == n) {
      if (load<u8>(tld, 1) == 1) return count;
      f |= TLD_KNOWN;
    }
  }
  if (marked) {
    for (let k = x; k < y; k++) {
      const c = ch(k);
      if (isOpener(c) && markerAt(k) != 0) {
        f |= DEFANGED_NAME;
        break;
      }
    }
  }
  f |= (<u32>n) << TLD_LENGTH_SHIFT;
  let nameSlot = NO_SLOT;
  const m = y - x;
  if (m <= NAME_MAX) {
    // Four characters at a time: hashed, then compared with the slot's.
    const from = (<usize>x) << 1;
    const bytes = (<usize>m) << 1;
    const whole = bytes & ~(<usize>7);
    let g: u64 = <u64>m;
    for (let k: usize = 0; k < whole; k += 8) g = (g ^ load<u64>(from + k)) * 0x9e3779b97f4a7c15;
    for (let k = whole; k < bytes; k += 2) g = (g ^ <u64>load<u16>(from + k)) * 0x9e3779b97f4a7c15;
    // Two slots per spelling: the one that holds it, or else an empty one, or else either.
    const pair = <u32>(g >> 40) & (NAME_SLOTS - 2);
    for (let way: u32 = 0; way < 2 && nameSlot == NO_SLOT; way++) {
      const candidate = NAMES + <usize>(pair + way) * NAME_SLOT;
      if (<i32>load<u16>(candidate) != m) continue;
      const chars = candidate + NAME_CHARS;
      let k: usize = 0;
      while (k < whole && load<u64>(chars + k) == load<u64>(from + k)) k += 8;
      if (k < whole) continue;
      while (k < bytes && load<u16>(chars + k) == load<u16>(from + k)) k += 2;
      if (k == bytes) nameSlot = pair + way;
    }
    if (nameSlot != NO_SLOT) f |= NAME_KNOWN;
    else if (load<u16>(NAMES + <usize>pair * NAME_SLOT) == 0) nameSlot = pair;
    else if (load<u16>(NAMES + <usize>(pair + 1) * NAME_SLOT) == 0) nameSlot = pair + 1;
    else nameSlot = pair + (<u32>(g >> 39) & 1);
    const name = NAMES + <usize>nameSlot * NAME_SLOT;
    if ((f & (TLD_KNOWN | NAME_KNOWN)) == (TLD_KNOWN | NAME_KNOWN)) {
      // What the host said about this spelling decides it where nothing around it can.
      const verdicts = <u32>load<u8>(name, 2);
      if ((verdicts & HOST_NAME) == 0) return count;
      const context = nameContext(s, e, y);
      if (context != NOT_DECIDED) {
        const defanged = (f & DEFANGED_NAME) != 0 || context == DEFANGED_URL;
        let ok = defanged || context == URL;
        if (!ok && codeMode) {
          const q = at(x - 1);
          ok = (verdicts & ((q == 34 || q == 39) && at(y) == q ? CODE_OK_QUOTED : CODE_OK)) != 0;
        } else if (!ok) ok = (verdicts & TEXT_OK) != 0;
        if (!ok) return count;
        return row(count, x, y, ROW_DOMAIN | (defanged ? DEFANGED_ROW : 0) | (nameSlot << ROW_SLOT_SHIFT));
      }
    }
  }
  const o = OUT + <usize>count * RECORD;
  store<i32>(o, x, 12);
  store<i32>(o, y, 16);
  store<i32>(o, <i32>(tldSlot | (nameSlot << 16)), 20);
  return record(count, s, e, f | NAME);
}

/** The host's verdict on the TLD chunk[t, y) (2-63 ASCII characters), for `slot`. */
export function rememberTld(slot: u32, t: i32, y: i32, icann: bool): void {
  const tld = TLDS + <usize>slot * TLD_SLOT;
  for (let k = t; k < y; k++) store<u8>(tld + 2 + <usize>(k - t), ch(k) | 32);
  store<u8>(tld, y - t);
  store<u8>(tld, icann ? 2 : 1, 1);
}

/** The name chunk[x, y) (at most NAME_MAX characters) is what the host keeps for `slot`. */
export function rememberName(slot: u32, x: i32, y: i32, verdicts: u32): void {
  const name = NAMES + <usize>slot * NAME_SLOT;
  memory.copy(name + NAME_CHARS, (<usize>x) << 1, (<usize>(y - x)) << 1);
  store<u16>(name, y - x);
  store<u8>(name, verdicts, 2);
}

const MAY_BE_IPV6: i32 = -1;
const UNSURE: i32 = -2;

/** ipv6WindowEnd of scan.ts, for the colon at `p`, with `stop` the scan's limit. */
function ipv6WindowEnd(p: i32, stop: i32): i32 {
  if (at(p - 1) == 91) return UNSURE;
  let colons = 0;
  let double = false;
  let i = p;
  if (p + 16 <= len) {
    // Most windows (`:12:45`, `:8080`) end within sixteen characters: read at once.
    const v = chars16(p);
    const isColon = i8x16.eq(v, i8x16.splat(58));
    const isWindow = v128.or(
      v128.or(
        digits16(v),
        i8x16.lt_u(i8x16.sub(v128.or(v, i8x16.splat(32)), i8x16.splat(97)), i8x16.splat(6)),
      ),
      v128.or(isColon, i8x16.eq(v, i8x16.splat(46))),
    );
    const outside = ~i8x16.bitmask(isWindow) & 0xffff;
    // A window longer than that (an address, a MAC address) is read on from its seventeenth.
    const n = outside != 0 ? <i32>ctz(outside) : 16;
    const bits = <u32>i8x16.bitmask(isColon) & ((<u32>1 << n) - 1);
    colons = <i32>popcnt(bits);
    double = (bits & (bits >> 1)) != 0 || at(p - 1) == 58;
    i = p + n;
    if (outside != 0) {
      if (i >= stop || ch(i) == 91) return UNSURE;
      return colons < 2 || colons > 10 || (!double && colons < 6) ? i : MAY_BE_IPV6;
    }
  }
  const cap = min(len, p + MAX_RUN);
  for (; i < cap; i++) {
    const c = ch(i);
    if (c == 58) {
      colons++;
      if (at(i - 1) == 58) double = true;
    } else if ((cls(c) & HEX) == 0 && c != 46) break;
  }
  if (i == cap || i >= stop || at(i) == 91) return UNSURE;
  return colons < 2 || colons > 10 || (!double && colons < 6) ? i : MAY_BE_IPV6;
}

/** `%2F` ends right before `i`. */
function escapeEndsAt(i: i32): bool {
  return i >= 3 && at(i - 3) == 37 && (cls(at(i - 2)) & HEX) != 0 && (cls(at(i - 1)) & HEX) != 0;
}

/** `[dot]` in any case, with any of the brackets, whose `d` is at `i`: DOT_WORD of scan.ts. */
function dotWordAt(i: i32): bool {
  const o = at(i - 1);
  const z = at(i + 3);
  return (
    isOpener(o) &&
    (at(i + 1) | 32) == 111 &&
    (at(i + 2) | 32) == 116 &&
    (z == 93 || z == 41 || z == 125)
  );
}

// The chunk's bitmaps: one bit per character, 64 characters to a word. Each word index has a
// 64-byte line of maps, so one run's words sit together: STOP (not a run character, or past the
// chunk; the word after the last is all ones, so every search for a stop ends), TRIGGER (a dot,
// a colon before a run character or after a bracket, or a `d` after an opening bracket: maybe
// `[dot]`), and the classes a run's flags are made of.
const STOP_MAP: usize = 0;
const TRIGGER_MAP: usize = 8;
const DOT_MAP: usize = 16;
const COLON_MAP: usize = 24;
const ALPHA_MAP: usize = 32;
const UNDERSCORE_MAP: usize = 40;
const HYPHEN_MAP: usize = 48;

/** Words of the maps that hold the chunk. */
let words: i32 = 0;

function word(map: usize, w: i32): u64 {
  return load<u64>(MAPS + ((<usize>w) << 6) + map);
}

/** Stores the classes of the 16 characters at `i` into the maps, as 16-bit pieces of their words. */
// @ts-ignore: decorator
@inline
function classify16(i: i32): void {
  const v = chars16(i);
  const lower = v128.or(v, i8x16.splat(32));
  const isDot = i8x16.eq(v, i8x16.splat(46));
  const isColon = i8x16.eq(v, i8x16.splat(58));
  const isHyphen = i8x16.eq(v, i8x16.splat(45));
  const isUnderscore = i8x16.eq(v, i8x16.splat(95));
  const isAlpha = i8x16.lt_u(i8x16.sub(lower, i8x16.splat(97)), i8x16.splat(26));
  const isDigit = digits16(v);
  const isRun = v128.or(
    v128.or(v128.or(isDot, isColon), v128.or(isHyphen, isUnderscore)),
    v128.or(isAlpha, isDigit),
  );
  const isOpen = v128.or(
    v128.or(i8x16.eq(v, i8x16.splat(91)), i8x16.eq(v, i8x16.splat(40))),
    i8x16.eq(v, i8x16.splat(123)),
  );
  // An opening bracket right before: the first character's is in the block before, so it
  // counts as one (nextTrigger confirms every candidate).
  const afterOpen = i8x16.shuffle(
    i8x16.splat(-1), isOpen, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
  );
  // A colon is a trigger only before a run character, or after a bracket (`[:]`). Any other
  // colon ends its run, and is the only colon there that a trigger would not reach first
  // (`"key":"value"`, `sshd[42]: `, `ipv6: `): such a run holds nothing. The characters past
  // the block count as run characters and brackets.
  const beforeRun = i8x16.shuffle(isRun, i8x16.splat(-1), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
  const isTrigger = v128.or(
    v128.or(isDot, v128.and(isColon, v128.or(beforeRun, afterOpen))),
    v128.and(i8x16.eq(lower, i8x16.splat(100)), afterOpen),
  );
  const line = MAPS + (((<usize>i) >> 6) << 6) + (((<usize>i) >> 3) & 7);
  store<u16>(line + STOP_MAP, ~i8x16.bitmask(isRun));
  store<u16>(line + TRIGGER_MAP, i8x16.bitmask(isTrigger));
  store<u16>(line + DOT_MAP, i8x16.bitmask(isDot));
  store<u16>(line + COLON_MAP, i8x16.bitmask(isColon));
  store<u16>(line + ALPHA_MAP, i8x16.bitmask(isAlpha));
  store<u16>(line + UNDERSCORE_MAP, i8x16.bitmask(isUnderscore));
  store<u16>(line + HYPHEN_MAP, i8x16.bitmask(isHyphen));
}

/** Classifies the chunk's `n` characters sixteen at a time (chars16) into the maps. */
function buildMaps(n: i32): void {
  words = (n + 63) >> 6;
  const end = words << 6;
  for (let i = 0; i < end; i += 64) {
    classify16(i);
    classify16(i + 16);
    classify16(i + 32);
    classify16(i + 48);
  }
  if ((n & 63) != 0) {
    // The last word: nothing past the chunk, whatever the memory there holds.
    const valid: u64 = (<u64>1 << <u64>(n & 63)) - 1;
    const line = MAPS + ((<usize>(words - 1)) << 6);
    store<u64>(line + STOP_MAP, load<u64>(line + STOP_MAP) | ~valid);
    for (let m: usize = TRIGGER_MAP; m <= HYPHEN_MAP; m += 8) store<u64>(line + m, load<u64>(line + m) & valid);
  }
  store<u64>(MAPS + ((<usize>words) << 6) + STOP_MAP, -1);
}

/**
 * The first trigger at or after `i`: a dot, a colon before a run character or after a bracket,
 * or the `d` of a `[dot]` marker; `len` if none. What indexOf and the DOT_WORD search of scan.ts
 * find, less the colons that end a run holding no other trigger.
 */
function nextTrigger(i: i32): i32 {
  if (i >= len) return len;
  let w = i >> 6;
  let bits = word(TRIGGER_MAP, w) & (<u64>-1 << <u64>(i & 63));
  for (;;) {
    while (bits == 0) {
      w++;
      if (w >= words) return len;
      bits = word(TRIGGER_MAP, w);
    }
    const j = (w << 6) + <i32>ctz(bits);
    const c = ch(j);
    if (c == 46 || c == 58 || dotWordAt(j)) return j;
    bits &= bits - 1;
  }
  return len; // not reached
}

/** The first stop at or after `i` (at most `len`). */
function nextStop(i: i32): i32 {
  let w = i >> 6;
  let bits = word(STOP_MAP, w) & (<u64>-1 << <u64>(i & 63));
  while (bits == 0) bits = word(STOP_MAP, ++w);
  return (w << 6) + <i32>ctz(bits);
}

/** The start of the run holding `i - 1`: after the last stop before `i`, but not before `floor`. */
function runStart(i: i32, floor: i32): i32 {
  if (i <= floor) return i;
  let w = (i - 1) >> 6;
  let bits = word(STOP_MAP, w) & ((<u64>2 << <u64>((i - 1) & 63)) - 1);
  const last = floor >> 6;
  while (bits == 0) {
    if (w <= last) return floor;
    bits = word(STOP_MAP, --w);
  }
  return max((w << 6) + 64 - <i32>clz(bits), floor);
}

/** The classes (DOT, COLON, ALPHA, UNDERSCORE, HYPHEN) of the run characters [a, b). */
function classesOf(a: i32, b: i32): u32 {
  let f: u32 = 0;
  let w = a >> 6;
  const last = (b - 1) >> 6;
  let m: u64 = <u64>-1 << <u64>(a & 63);
  for (;;) {
    if (w == last) m &= (<u64>2 << <u64>((b - 1) & 63)) - 1;
    const line = MAPS + ((<usize>w) << 6);
    if ((load<u64>(line + DOT_MAP) & m) != 0) f |= DOT;
    if ((load<u64>(line + COLON_MAP) & m) != 0) f |= COLON;
    if ((load<u64>(line + ALPHA_MAP) & m) != 0) f |= ALPHA;
    if ((load<u64>(line + UNDERSCORE_MAP) & m) != 0) f |= UNDERSCORE;
    if ((load<u64>(line + HYPHEN_MAP) & m) != 0) f |= HYPHEN;
    if (w == last) return f;
    w++;
    m = -1;
  }
  return f; // not reached
}

/**
 * Scans the chunk of `n` characters (it ends with whitespace, or the text does), at `offset` in
 * the text, for runs that start before `limit`, as scanTriggers of scan.ts does; returns the
 * record count (rowCount has the rows).
 */
export function scan(n: i32, limit: i32, code: bool, offset: i32): i32 {
  len = n;
  base = offset;
  rows = 0;
  codeMode = code;
  buildMaps(n);
  let count = 0;
  let pos = 0;
  let from = 0;
  while (pos < limit) {
    let p = nextTrigger(from);
    if (p >= len) break;
    let past = UNSURE;
    if (ch(p) == 58) {
      // Most colons are separators; a window of IPv6 characters that cannot hold an address
      // is passed over whole (its dots are still triggers).
      past = ipv6WindowEnd(p, limit);
      if (past >= 0) {
        let q = p + 1;
        while (q < past && ch(q) != 46) q++;
        if (q == past) {
          from = past;
          continue;
        }
        p = q;
        past = UNSURE;
      }
    }
    // Back to the run start; a trigger inside a marker belongs to the run before it.
    const opener = at(p - 1);
    const inMarker = isOpener(opener) && p - 1 > pos && markerAt(p - 1) != 0;
    const start = inMarker ? p - 1 : p;
    let s = runStart(start, pos);
    // A percent-escape (`%2F`) can only end right after the stop: the run starts after it.
    if (s > pos && s + 2 <= start && escapeEndsAt(s + 2)) s += 2;
    if (s == start) s = p;
    if (s >= limit) break;
    let e = runEnd(s);
    count = keep(s, e, past == MAY_BE_IPV6, count);
    if (e <= p) {
      e = runEnd(p);
      count = keep(p, e, false, count);
      if (e <= p) e = p + 1; // never: a trigger is a run character
    }
    pos = e;
    from = e;
  }
  return count;
}
