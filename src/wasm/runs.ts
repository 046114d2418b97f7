// The run finder of the detection scanner, in AssemblyScript, compiled to WebAssembly by
// `npm run build:wasm` (scripts/build-wasm.mjs) into src/core/detect/runsWasm.ts.
//
// It does for a chunk of UTF-16 text what scanTriggers of src/core/detect/scan.ts does: find
// the dots, colons and `[dot]` markers (eight characters at a time, with SIMD), walk each run of
// [0-9A-Za-z._:-] and defang markers around them once, and drop the runs that cannot hold
// anything for reasons read from the run alone (too long, an ISO time, colons that cannot be
// IPv6, digits and dots that are not a dotted quad). What is left is written out as records for
// the TypeScript analysis. The functions below are ports of scan.ts's of the same names;
// generated tests hold the two scans to the same results.
//
// Memory (one instance, 16 pages): [0, 2 * CAP) the chunk; CLS_AT the class table of scan.ts
// for ASCII, written by the host; OUT the records, three i32 each: start, end, flags (scan.ts
// bits, | MARKED, | IPV6_CHECKED, | IPV4_CHECKED).

const CAP: i32 = 65536;
const CLS_AT: usize = <usize>CAP * 2;
const OUT: usize = CLS_AT + 128;

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
const MAX_RUN: i32 = 1024;

/** The most characters a chunk can hold: the host reads it from here. */
export function capacity(): i32 {
  return CAP;
}

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

/** The forward loop of scanRun: the end of the run started at `s`, read on from `i`. */
function runEnd(s: i32, i: i32, f: u32): i32 {
  let marked = false;
  const n = len;
  while (i < n) {
    const c = ch(i);
    const k = cls(c);
    if (k != 0) {
      f |= k;
      i++;
      continue;
    }
    if ((c == 91 || c == 40 || c == 123) && i > s) {
      const m = markerAt(i);
      if (m != 0 && (cls(at(i + m)) & (ALPHA | DIGIT)) != 0) {
        marked = true;
        f |= at(i + 1) == 58 ? COLON : DOT;
        i += m;
        continue;
      }
    }
    break;
  }
  runFlags = f;
  runMarked = marked;
  return i;
}

/** isIsoTime of scan.ts: [s, e) is `YYYY-MM-DDThh:mm:ss`, an optional fraction and `Z`. */
function isIsoTime(s: i32, e: i32): bool {
  const n = e - s;
  if (n < 19 || n > 30) return false;
  for (let k = 0; k < 19; k++) {
    const c = ch(s + k);
    if (k == 4 || k == 7) {
      if (c != 45) return false;
    } else if (k == 10) {
      if (c != 84) return false;
    } else if (k == 13 || k == 16) {
      if (c != 58) return false;
    } else if (c - 48 > 9) return false;
  }
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

/** parseIPv4At of src/core/detect/ip.ts accepts [s, e): four parts 0-255, no leading zeros. */
function isIPv4(s: i32, e: i32): bool {
  let part: u32 = 0;
  let digits = 0;
  let parts = 0;
  let leadingZero = false;
  for (let i = s; i < e; i++) {
    const c = ch(i);
    if (c - 48 <= 9) {
      if (digits == 0) leadingZero = c == 48;
      else if (leadingZero || digits == 3) return false;
      part = part * 10 + (c - 48);
      digits++;
    } else if (c == 46) {
      if (digits == 0 || part > 255 || parts == 3) return false;
      parts++;
      part = 0;
      digits = 0;
    } else return false;
  }
  return digits != 0 && part <= 255 && parts == 3;
}

/** Writes the run [s, e) out unless it cannot hold anything; returns the new record count. */
function keep(s: i32, e: i32, ipv6Checked: bool, count: i32): i32 {
  let f = runFlags;
  const marked = runMarked;
  if ((f & (DOT | COLON)) == 0 || e - s > MAX_RUN) return count;
  if (!marked && (f & COLON) != 0 && isIsoTime(s, e)) return count;
  if (!marked && (f & (COLON | DOT)) == COLON) {
    if (!ipv6Checked && !mayBeIPv6(s, e)) return count;
    f |= IPV6_CHECKED;
  } else if (!marked && (f & (ALPHA | UNDERSCORE | HYPHEN | COLON)) == 0) {
    // Digits and dots: analyzeNumericRun reads nothing in an OID tail or in anything but a
    // dotted quad (which it need not parse again).
    if (ch(s) == 46) return count;
    let en = e;
    while (en > s && ch(en - 1) == 46) en--;
    if (en - s < 7 || en - s > 15 || !isIPv4(s, en)) return count;
    f |= IPV4_CHECKED;
  }
  if (marked) f |= MARKED;
  const o = OUT + <usize>count * 12;
  store<i32>(o, s);
  store<i32>(o, e, 4);
  store<i32>(o, <i32>f, 8);
  return count + 1;
}

const MAY_BE_IPV6: i32 = -1;
const UNSURE: i32 = -2;

/** ipv6WindowEnd of scan.ts, for the colon at `p`, with `stop` the scan's limit. */
function ipv6WindowEnd(p: i32, stop: i32): i32 {
  if (at(p - 1) == 91) return UNSURE;
  let colons = 0;
  let double = false;
  let i = p;
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
    (o == 91 || o == 40 || o == 123) &&
    (at(i + 1) | 32) == 111 &&
    (at(i + 2) | 32) == 116 &&
    (z == 93 || z == 41 || z == 125)
  );
}

/**
 * The first trigger at or after `i`: a dot, a colon, or the `d` of a `[dot]` marker; `len` if
 * none. Eight characters at a time: what indexOf and the DOT_WORD search of scan.ts find.
 */
function nextTrigger(i: i32): i32 {
  const dots = i16x8.splat(46);
  const colons = i16x8.splat(58);
  const space = i16x8.splat(32);
  const d = i16x8.splat(100);
  const sq = i16x8.splat(91);
  const rd = i16x8.splat(40);
  const cu = i16x8.splat(123);
  const n = len;
  if (i == 0) {
    if (n == 0) return 0;
    const c = at(0);
    if (c == 46 || c == 58) return 0;
    i = 1;
  }
  while (i + 8 <= n) {
    const at8 = (<usize>i) << 1;
    const v = v128.load(at8);
    const prev = v128.load(at8 - 2);
    const word = v128.and(
      i16x8.eq(v128.or(v, space), d),
      v128.or(v128.or(i16x8.eq(prev, sq), i16x8.eq(prev, rd)), i16x8.eq(prev, cu)),
    );
    const m = v128.or(v128.or(i16x8.eq(v, dots), i16x8.eq(v, colons)), word);
    let bits = i16x8.bitmask(m);
    while (bits != 0) {
      const j = i + ctz(bits);
      const c = ch(j);
      if (c == 46 || c == 58 || dotWordAt(j)) return j;
      bits &= bits - 1;
    }
    i += 8;
  }
  for (; i < n; i++) {
    const c = ch(i);
    if (c == 46 || c == 58 || ((c | 32) == 100 && dotWordAt(i))) return i;
  }
  return n;
}

/**
 * Scans the chunk of `n` characters (it ends with whitespace, or the text does) for runs that
 * start before `limit`, as scanTriggers of scan.ts does, and returns the record count.
 */
export function scan(n: i32, limit: i32): i32 {
  len = n;
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
    // Walk back to the run start; a trigger inside a marker belongs to the run before it.
    const opener = at(p - 1);
    const inMarker = (opener == 91 || opener == 40 || opener == 123) && p - 1 > pos && markerAt(p - 1) != 0;
    const start = inMarker ? p - 1 : p;
    let s = start;
    let flags: u32 = 0;
    while (s > pos) {
      const k = cls(ch(s - 1));
      if (k == 0) break;
      flags |= k;
      s--;
    }
    if (s > pos && s + 2 <= start && escapeEndsAt(s + 2)) {
      s += 2;
      flags = 0;
      for (let q = s; q < start; q++) flags |= cls(ch(q));
    }
    if (s == start) s = p;
    if (s >= limit) break;
    let e = runEnd(s, s == p ? p : start, s == p ? 0 : flags);
    count = keep(s, e, past == MAY_BE_IPV6, count);
    if (e <= p) {
      e = runEnd(p, p, 0);
      count = keep(p, e, false, count);
      if (e <= p) e = p + 1; // never: a trigger is a run character (guards against a bad table)
    }
    pos = e;
    from = e;
  }
  return count;
}
