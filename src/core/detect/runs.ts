// Per-run analysis: which analysis a run gets from the classes of its characters, and the
// general one for runs with colons (IPv6, `host:port`), hyphens (ranges) or defang markers.
import { ALPHA, Ch, CLS, COLON, DOT, find, gluedAt, HYPHEN, isTrimmed, UNDERSCORE } from './chars';
import { CTX_DEFANGED, isIsoTime, leftContext } from './context';
import { parseIPv4At } from './ip';
import { analyzeMarkedQuad, analyzeNumericRun, emitIPv4, portAt } from './ipv4Runs';
import { analyzeIPv6, mayBeIPv6, overlapsConsumed, resetConsumed } from './ipv6Runs';
import {
  analyzeMarkedName,
  analyzeNameRun,
  AT_RUN_END,
  DEFANGED,
  emitDomain,
  hasIcannTld,
  writtenName,
} from './nameRuns';
import { reorder, type Sink } from './output';
import { RunView } from './runView';

/** Internal, for tests: the special cases below can be turned off to compare with the general path. */
export let fastPaths = true;
export function setFastPaths(on: boolean): void {
  fastPaths = on;
}

/** General case: colons (IPv6, `host:port`) and/or defang markers. */
export function analyzeRun(
  sink: Sink,
  s: number,
  e: number,
  flags: number,
  marked: boolean,
  checked = false,
): void {
  const text = sink.text;
  const v = marked ? RunView.marked(text, s, e) : RunView.plain(text, s, e);
  const { str, lo, hi } = v;
  const left = leftContext(text, s);
  resetConsumed();
  if ((flags & COLON) !== 0 && (checked || mayBeIPv6(str, lo, hi))) analyzeIPv6(sink, s, e, v, left);
  if ((flags & DOT) === 0) return; // without a dot only IPv6 was possible
  // Colon-separated segments: `host:port`, `key:value`, `1.2.3.4:80:90`.
  let p = lo;
  while (p < hi) {
    const segStart = p;
    const segEnd = find(str, Ch.Colon, p, hi);
    p = segEnd + 1;
    if (segEnd - segStart < 3 || overlapsConsumed(segStart, segEnd)) continue;
    let x = segStart;
    let y = segEnd;
    while (x < y && isTrimmed(str.charCodeAt(x))) x++;
    while (y > x && isTrimmed(str.charCodeAt(y - 1))) y--;
    if (y - x < 3) continue;
    let alpha = false;
    let hyphen = false;
    let dots = 0;
    for (let k = x; k < y; k++) {
      const c = str.charCodeAt(k);
      if ((CLS[c] & (ALPHA | UNDERSCORE)) !== 0) alpha = true;
      else if (c === Ch.Hyphen) hyphen = true;
      else if (c === Ch.Dot) dots++;
    }
    if (dots === 0) continue;
    const touchesEnd = y === hi;
    if ((x === lo && gluedAt(text, s - 1)) || (touchesEnd && gluedAt(text, e))) continue;
    const st = v.orig(x);
    const en = v.orig(y);
    const port =
      y === segEnd && segEnd < hi && !overlapsConsumed(segEnd + 1, segEnd + 2)
        ? portAt(str, segEnd + 1, hi)
        : undefined;
    const segLeft = segStart === lo ? left : 0;
    const defanged = v.markedIn(x, y) || (segLeft & CTX_DEFANGED) !== 0;
    if (!alpha) {
      if (x > segStart && str.charCodeAt(segStart) === Ch.Dot) continue; // OID tail
      if (!hyphen) {
        const address = parseIPv4At(str, x, y);
        if (address >= 0)
          emitIPv4(
            sink,
            st,
            en,
            marked && sink.values ? str.slice(x, y) : undefined,
            touchesEnd,
            defanged,
            port,
            address,
          );
        continue;
      }
      // Ranges: `10.0.0.1-10.0.0.9`.
      let r = x;
      while (r < y) {
        const t = find(str, Ch.Hyphen, r, y);
        const address = parseIPv4At(str, r, t);
        if (address >= 0) {
          emitIPv4(
            sink,
            v.orig(r),
            v.orig(t),
            marked && sink.values ? str.slice(r, t) : undefined,
            t === hi,
            v.markedIn(r, t),
            undefined,
            address,
          );
        }
        r = t + 1;
      }
      continue;
    }
    if ((sink.allKinds || sink.kinds.has('domain')) && hasIcannTld(str, x, y)) {
      const where = segLeft | (touchesEnd ? AT_RUN_END : 0) | (defanged ? DEFANGED : 0);
      emitDomain(sink, writtenName(str, x, y, false), st, en, where, port);
    }
  }
}

/**
 * Analyses the run text[s, e) (it holds a dot or a colon and is at most MAX_RUN long), with
 * `flags` its classes and `marked` when it holds defang markers; `ipv6Checked` when mayBeIPv6
 * already passed.
 */
export function analyseRun(
  sink: Sink,
  s: number,
  e: number,
  flags: number,
  marked: boolean,
  ipv6Checked: boolean,
): void {
  const text = sink.text;
  // ISO 8601 times (`2025-11-21T08:30:01.120Z`), in most JSON log lines: nothing in them.
  if (
    !marked &&
    fastPaths &&
    (flags & COLON) !== 0 &&
    text.charCodeAt(s + 10) === Ch.UpperT &&
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
  else analyzeNumericRun(sink, s, e);
  reorder(sink, before);
}
