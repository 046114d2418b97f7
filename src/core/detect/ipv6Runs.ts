// Per-kind analysis, IPv6: windows of hex digits, colons and dots in a run, parsed strictly;
// zone ids, prefix lengths and bracketed ports.
import {
  ALPHA,
  Ch,
  CLS,
  cls,
  DIGIT,
  DOT,
  gluedAt,
  HEX,
  HYPHEN,
  isDigit,
  isWordChar,
  RUN,
  UNDERSCORE,
} from './chars';
import { CTX_DEFANGED } from './context';
import { formatIPv6, parseIPv6Into, zoneValue } from './ip';
import { bracketPort, prefixAt } from './ipv4Runs';
import { emit, type Sink } from './output';
import type { RunView } from './runView';
import type { DetectionKind } from './types';

export const groups = new Uint16Array(8);

/** Ranges (pairs) of the current run taken by IPv6 literals; reused across runs (no reentrancy). */
export const consumed: number[] = [];
/** Entries of `consumed` in use (resetting a count is cheaper than `length = 0`). */
let consumedN = 0;

export function resetConsumed(): void {
  consumedN = 0;
}

/** Some IPv6 literal of the current run takes part of [a, b). */
export function overlapsConsumed(a: number, b: number): boolean {
  return consumedN > 0 && overlaps(a, b);
}

/** Where the zone id after the `%` at `percent` ends: letters, digits, `_`, `-`, inner dots; 64 at most. */
function zoneEnd(text: string, percent: number): number {
  let z = percent + 1;
  while (z - percent <= 64) {
    const k = cls(text, z);
    if (
      (k & (ALPHA | DIGIT | UNDERSCORE | HYPHEN)) !== 0 ||
      (k === (RUN | DOT) && (cls(text, z + 1) & (ALPHA | DIGIT)) !== 0)
    )
      z++;
    else break;
  }
  return z;
}

/** Finds IPv6 literals in the run and records the ranges they take in `consumed`. */
export function analyzeIPv6(sink: Sink, s: number, e: number, v: RunView, left: number): void {
  const text = sink.text;
  consumedN = 0;
  const { str, lo, hi } = v;
  let a = lo;
  while (a < hi) {
    // Maximal window of [0-9A-Fa-f:.].
    const c0 = str.charCodeAt(a);
    if ((CLS[c0] & HEX) === 0 && c0 !== Ch.Colon && c0 !== Ch.Dot) {
      a++;
      continue;
    }
    let b = a;
    let colons = 0;
    let digits = 0;
    let doubleColon = false;
    while (b < hi) {
      const c = str.charCodeAt(b);
      if (c === Ch.Colon) {
        colons++;
        if (str.charCodeAt(b - 1) === Ch.Colon && b > a) doubleColon = true;
      } else if (isDigit(c)) digits++;
      else if ((CLS[c] & HEX) === 0 && c !== Ch.Dot) break;
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
    while (y > x && str.charCodeAt(y - 1) === Ch.Dot) y--;
    // A single colon at either end is a separator (`ip:2001:db8::1`, `2001:db8::1:`).
    if (str.charCodeAt(x) === Ch.Colon && str.charCodeAt(x + 1) !== Ch.Colon) x++;
    else if (x > lo && isWordChar(str.charCodeAt(x - 1))) continue; // glued: `x2001:db8::1`, `Foo::1`
    if (str.charCodeAt(y - 1) === Ch.Colon && str.charCodeAt(y - 2) !== Ch.Colon) y--;
    else if (y === wb && y < hi && isWordChar(str.charCodeAt(y))) continue; // `1::Int`, `::1x`
    if (y - x < 2 || !parseIPv6Into(str, x, y, groups)) continue;
    if ((x === lo && gluedAt(text, s - 1)) || (y === hi && gluedAt(text, e))) continue;
    // `[::1]:8080` is a bracketed address; `a[::2]`, `x[1::3]` are slices.
    const bracketed = x === lo && y === hi && text.charCodeAt(s - 1) === Ch.OpenBracket;
    if (
      bracketed &&
      (isWordChar(text.charCodeAt(s - 2)) ||
        text.charCodeAt(s - 2) === Ch.CloseBracket ||
        text.charCodeAt(s - 2) === Ch.CloseParen)
    ) {
      continue;
    }
    // `::` without any digit is code (`Foo::Bar`, `a::b`), unless it is bracketed (`[::]:80`)
    // or a block (`::/0`).
    if (
      doubleColon &&
      digits === 0 &&
      !(bracketed && text.charCodeAt(e) === Ch.CloseBracket) &&
      !(y === hi && text.charCodeAt(e) === Ch.Slash && prefixAt(text, e + 1, 128))
    ) {
      continue;
    }
    let value = sink.values ? formatIPv6(groups) : '';
    let kind: DetectionKind = 'ipv6';
    let en = v.orig(y);
    if (y === hi && text.charCodeAt(e) === Ch.Percent && (cls(text, e + 1) & (ALPHA | DIGIT)) !== 0) {
      // Zone id: `fe80::1%eth0`; `%25eth0` inside brackets is its URL-encoded form.
      const z = zoneEnd(text, e);
      if (sink.values)
        value += `%${zoneValue(text.slice(e + 1, z), bracketed && text.charCodeAt(z) === Ch.CloseBracket)}`;
      en = z;
    } else if (y === hi && text.charCodeAt(e) === Ch.Slash) {
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

export function overlaps(a: number, b: number): boolean {
  for (let k = 0; k < consumedN; k += 2) if (a < consumed[k + 1] && consumed[k] < b) return true;
  return false;
}

/**
 * Cheap filter before the IPv6 analysis of str[s, e): some window of IPv6 characters
 * ([0-9A-Fa-f:.]) holds `::` or 6 colons, and at most 10 (8 in the longest address, plus a
 * separator at each end): the test analyzeIPv6 applies to each window. Most runs with colons
 * fail it (`":"` in JSON, `08:14:02`, `https:`, MAC addresses).
 */
export function mayBeIPv6(str: string, s: number, e: number): boolean {
  let colons = 0;
  let double = false;
  for (let i = s; i <= e; i++) {
    const c = i < e ? str.charCodeAt(i) : 0;
    if (c === Ch.Colon) {
      colons++;
      if (i > s && str.charCodeAt(i - 1) === Ch.Colon) double = true;
    } else if (i === e || ((CLS[c] & HEX) === 0 && c !== Ch.Dot)) {
      if (colons >= 2 && colons <= 10 && (double || colons >= 6)) return true;
      colons = 0;
      double = false;
    }
  }
  return false;
}
