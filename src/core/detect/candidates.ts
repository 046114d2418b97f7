// Candidate finding: cutting the text into runs of the characters an address or a host name is
// made of (chars.ts), joined by defang markers, and handing each run with a dot or a colon to
// its analysis (runs.ts). Small ranges read every character; large texts jump between dots,
// colons and `[dot]` markers with native searches.
import { ALPHA, Ch, CLS, cls, COLON, DIGIT, DOT, HEX, isSpace, UNICODE } from './chars';
import { reorder, type Sink } from './output';
import { analyzeIdnNames } from './nameRuns';
import { isMarkerOpen, markerAt, runMarkerAt } from './refang';
import { MAX_RUN } from './rules';
import { analyseRun } from './runs';

export const MAY_BE_IPV6 = -1;
export const UNSURE = -2;

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
export function ipv6WindowEnd(text: string, p: number, stop: number): number {
  if (text.charCodeAt(p - 1) === Ch.OpenBracket) return UNSURE; // `[:]`
  let colons = 0;
  let double = false;
  let i = p;
  const cap = Math.min(text.length, p + MAX_RUN);
  for (; i < cap; i++) {
    const c = text.charCodeAt(i);
    if (c === Ch.Colon) {
      colons++;
      if (text.charCodeAt(i - 1) === Ch.Colon) double = true;
    } else if ((CLS[c] & HEX) === 0 && c !== Ch.Dot) break;
  }
  if (i === cap || i >= stop || text.charCodeAt(i) === Ch.OpenBracket) return UNSURE;
  return colons < 2 || colons > 10 || (!double && colons < 6) ? i : MAY_BE_IPV6;
}

/** Where a scan that must cover `from` can safely start: after whitespace, or a bounded distance back. */
export function syncPoint(text: string, from: number): number {
  let i = from;
  const floor = Math.max(0, from - 2 * MAX_RUN);
  while (i > floor) {
    const c = text.charCodeAt(i - 1);
    if (isSpace(c)) return i;
    i--;
  }
  return i;
}

/**
 * Scans the run starting at `s` (resuming at `i` with the `flags` of `s..i` when the caller has
 * already read them), analyses it if it can hold anything, and returns its end. Characters of a
 * class in `stop` end the run (the ASCII runs inside a run with letters outside ASCII).
 */
export function scanRun(sink: Sink, s: number, i = s, flags = 0, ipv6Checked = false, stop = 0): number {
  const text = sink.text;
  const n = text.length;
  let marked = false;
  while (i < n) {
    const c = text.charCodeAt(i);
    const k = CLS[c];
    if (k !== 0 && (k & stop) === 0) {
      flags |= k;
      i++;
      continue;
    }
    // A defang marker continues a run between two run characters: `evil[.]com`, `1(.)2`.
    const m = i > s ? runMarkerAt(text, i) : undefined;
    if (m !== undefined && (cls(text, i + m.written.length) & (ALPHA | DIGIT | (UNICODE & ~stop))) !== 0) {
      marked = true;
      flags |= m.means === ':' ? COLON : DOT;
      i += m.written.length;
      continue;
    }
    break;
  }
  if ((flags & UNICODE) !== 0) analyzeUnicodeRun(sink, s, i, (flags & DOT) !== 0 && i - s <= MAX_RUN);
  else if ((flags & (DOT | COLON)) !== 0 && i - s <= MAX_RUN)
    analyseRun(sink, s, i, flags, marked, ipv6Checked);
  return i;
}

/**
 * A run with letters outside ASCII: the ASCII runs in it, as if those letters were spaces (a
 * name glued to them is part of a word: `münchen.de` is not `nchen.de`), and the names written
 * with them (`bücher-login.de`) when `names`.
 */
function analyzeUnicodeRun(sink: Sink, s: number, e: number, names: boolean): void {
  const text = sink.text;
  const before = sink.n;
  const idn = names ? analyzeIdnNames(sink, s, e) : undefined;
  for (let i = s; i < e;) {
    const k = CLS[text.charCodeAt(i)];
    if (k === 0 || (k & UNICODE) !== 0) i++;
    else if (idn !== undefined && i >= idn.start && i < idn.end) i = idn.end;
    else i = scanRun(sink, i, i, 0, false, UNICODE);
  }
  reorder(sink, before);
}

/** `%2F` ends right before `i`: a percent-escape, which separates runs. */
export function escapeEndsAt(text: string, i: number): boolean {
  return (
    i >= 3 &&
    text.charCodeAt(i - 3) === Ch.Percent &&
    (cls(text, i - 2) & HEX) !== 0 &&
    (cls(text, i - 1) & HEX) !== 0
  );
}

/** Every character, for small ranges (a hover's line): bounded work around the range. */
export function scanEach(sink: Sink, start: number, stop: number): void {
  const text = sink.text;
  let i = start;
  while (i < stop && sink.n < sink.limit) {
    const c = text.charCodeAt(i);
    if (CLS[c] !== 0) {
      i = scanRun(sink, i);
    } else {
      // `%2F%2Fevil.com`: a percent-escape separates, it does not start a token.
      i += c === Ch.Percent && (cls(text, i + 1) & HEX) !== 0 && (cls(text, i + 2) & HEX) !== 0 ? 3 : 1;
    }
  }
}

export const DOT_WORD = /[[({][dD][oO][tT][\])}]/g;

/**
 * Large inputs: only runs holding a dot, a colon or a `[dot]` marker can yield anything, so jump
 * between those with native searches (indexOf, one regex) and walk back to each run's start.
 * Yields exactly the runs `scanEach` analyses: a run never spans a character that is not a run
 * character (or a marker, and every marker holds a trigger), nor a percent-escape.
 */
export function scanTriggers(sink: Sink, start: number, stop: number): void {
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
    const inMarker = isMarkerOpen(opener) && p - 1 > pos && markerAt(text, p - 1) !== 0;
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
