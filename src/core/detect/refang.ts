// Refanging: the inverse of the defanging threat reports use so indicators are not clickable.
// The one home of it: the markers and schemes are the tables in rules.ts; the scanner reads
// markers inside runs with markerAt/refangRun, everything else (prompts, the privacy filter,
// pasted input) calls refang().
import { Ch, lower } from './chars';
import { DEFANGED_SCHEMES, MARKERS, RUN_MARKERS, type Marker } from './rules';

/** `written` is at text[i..] (letters in any case). */
function writtenAt(text: string, i: number, written: string): boolean {
  if (i + written.length > text.length) return false;
  for (let k = 0; k < written.length; k++) {
    if (lower(text.charCodeAt(i + k)) !== lower(written.charCodeAt(k))) return false;
  }
  return true;
}

/** An opening bracket of a marker: `[`, `(` or `{`. */
export function isMarkerOpen(c: number): boolean {
  return c === Ch.OpenBracket || c === Ch.OpenParen || c === Ch.OpenBrace;
}

/** A closing bracket of a marker: `]`, `)` or `}`. */
export function isMarkerClose(c: number): boolean {
  return c === Ch.CloseBracket || c === Ch.CloseParen || c === Ch.CloseBrace;
}

/** The run marker (RUN_MARKERS: `[.]`, `(dot)`, `[:]` …) at text[i..], or undefined. */
export function runMarkerAt(text: string, i: number): Marker | undefined {
  if (!isMarkerOpen(text.charCodeAt(i))) return undefined;
  for (const m of RUN_MARKERS) if (writtenAt(text, i, m.written)) return m;
  return undefined;
}

/** Length of the run marker at text[i..] (0 if none). */
export function markerAt(text: string, i: number): number {
  return runMarkerAt(text, i)?.written.length ?? 0;
}

/**
 * text[s, e) with its run markers replaced by what they stand for (`.` or `:`). With `marks`,
 * also records each marker as (index in the result, original offset, marker length).
 */
export function refangRun(text: string, s: number, e: number, marks?: number[]): string {
  let out = '';
  let last = s;
  for (let i = s; i < e;) {
    const m = runMarkerAt(text, i);
    if (m === undefined) {
      i++;
      continue;
    }
    out += text.slice(last, i);
    marks?.push(out.length, i, m.written.length);
    out += m.means;
    i += m.written.length;
    last = i;
  }
  return out + text.slice(last, e);
}

const SCHEME = new RegExp(`\\b(?:${Object.keys(DEFANGED_SCHEMES).join('|')})(?=:\\/\\/)`, 'gi');

/**
 * Replaces every defang marker (MARKERS: `[.]` `(dot)` `[:]` `[://]` `[at]` …) with what it
 * stands for, and defanged schemes (`hxxps://`) with real ones.
 *
 * One left-to-right pass with the output used as a stack: a marker is reduced when its closing
 * bracket arrives, so nested forms (`[[.]]`) reduce fully and the result is a fixed point:
 * `refang(refang(x)) === refang(x)`. Linear time.
 */
export function refang(s: string): string {
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    out.push(c);
    if (isMarkerClose(s.charCodeAt(i))) reduce(out);
  }
  return out.join('').replace(SCHEME, (m) => DEFANGED_SCHEMES[m.toLowerCase()]);
}

/** If `out` ends with a marker, replaces it by its meaning. */
function reduce(out: string[]): void {
  for (const m of MARKERS) {
    const n = m.written.length;
    if (out.length < n) continue;
    let k = 0;
    while (k < n && lower(out[out.length - n + k].charCodeAt(0)) === lower(m.written.charCodeAt(k))) k++;
    if (k < n) continue;
    out.length -= n;
    for (const ch of m.means) out.push(ch);
    return;
  }
}
