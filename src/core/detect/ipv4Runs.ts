// Per-kind analysis, IPv4: dotted quads, their blocks (`/24`) and ports, defanged quads.
import { ALPHA, Ch, cls, DIGIT, DOT, gluedAt, isDigit, RUN, UNDERSCORE } from './chars';
import { CTX_DEFANGED, leftContext, versionOrNumberingBefore } from './context';
import { parseIPv4At } from './ip';
import { emit, type Sink } from './output';
import { markerAt, refangRun } from './refang';

/** Strict prefix length at `i` (no leading zeros), followed by a non-token character. */
export function prefixAt(text: string, i: number, max: number): { bits: number; end: number } | undefined {
  let bits = 0;
  let j = i;
  while (j < text.length && j - i < 4 && (cls(text, j) & DIGIT) !== 0) {
    bits = bits * 10 + (text.charCodeAt(j) - Ch.Zero);
    j++;
  }
  const len = j - i;
  if (len === 0 || len > 3 || (len > 1 && text.charCodeAt(i) === Ch.Zero) || bits > max) return undefined;
  const next = cls(text, j);
  if ((next & (ALPHA | DIGIT | UNDERSCORE)) !== 0) return undefined;
  if (next === (RUN | DOT) && (cls(text, j + 1) & (ALPHA | DIGIT)) !== 0) return undefined;
  return { bits, end: j };
}

/** Port digits at `str[i..]` up to the next `:` or `hi`: 1-5 digits, 0-65535. */
export function portAt(str: string, i: number, hi: number): number | undefined {
  let v = 0;
  let j = i;
  while (j < hi && str.charCodeAt(j) !== Ch.Colon) {
    const c = str.charCodeAt(j);
    if (!isDigit(c) || j - i >= 5) return undefined;
    v = v * 10 + (c - Ch.Zero);
    j++;
  }
  return j > i && v <= 65535 ? v : undefined;
}

/**
 * IPv4 at original [st, en): emits an address or a CIDR block. `value` is undefined when the
 * raw text is already canonical (strict parsing accepts only canonical dotted quads); `address`
 * is its number when the caller parsed it.
 */
export function emitIPv4(
  sink: Sink,
  st: number,
  en: number,
  value: string | undefined,
  atRunEnd: boolean,
  defanged: boolean,
  port?: number,
  address = -1,
): void {
  const text = sink.text;
  if (versionOrNumberingBefore(text, st)) return;
  if (atRunEnd && port === undefined && text.charCodeAt(en) === Ch.Slash) {
    const p = prefixAt(text, en + 1, 32);
    if (p) {
      // A strict address and a strict prefix are canonical as written: the raw text is the value.
      emit(sink, 'cidr', st, p.end, value === undefined ? undefined : `${value}/${p.bits}`, defanged);
      return;
    }
  }
  emit(sink, 'ipv4', st, en, value, defanged, port, undefined, address);
}

/**
 * Digits, dots and dot markers only (`185.220.101[.]34`, `52[.]14[.]88[.]213`): a defanged
 * dotted quad, parsed in place with each marker read as a dot. What analyzeRun finds in such a
 * run, without building the refanged string (tests compare the two).
 */
export function analyzeMarkedQuad(sink: Sink, s: number, e: number): void {
  const text = sink.text;
  if (text.charCodeAt(s) === Ch.Dot) return; // `.1[.]3`: an OID tail, as in the refanged run
  let y = e;
  while (y > s && text.charCodeAt(y - 1) === Ch.Dot) y--;
  let part = 0;
  let digits = 0;
  let dots = 0;
  let leadingZero = false;
  for (let i = s; i < y;) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) {
      if (digits === 0) leadingZero = c === Ch.Zero;
      else if (leadingZero || digits === 3) return;
      part = part * 10 + (c - Ch.Zero);
      digits++;
      i++;
      continue;
    }
    const step = c === Ch.Dot ? 1 : markerAt(text, i);
    if (step === 0 || digits === 0 || part > 255 || dots === 3) return;
    dots++;
    part = 0;
    digits = 0;
    i += step;
  }
  if (digits === 0 || part > 255 || dots !== 3) return;
  if (gluedAt(text, s - 1) || (y === e && gluedAt(text, e))) return;
  emitIPv4(sink, s, y, sink.values ? refangRun(text, s, y) : undefined, y === e, true);
}

/** Digits and dots only: the common case (`1.1`, `5.0`, `10.0.0.1`) handled without slicing. */
export function analyzeNumericRun(sink: Sink, s: number, e: number): void {
  const text = sink.text;
  if (text.charCodeAt(s) === Ch.Dot) return; // `.1.3.6.1`: an OID tail, not an address
  let en = e;
  while (en > s && text.charCodeAt(en - 1) === Ch.Dot) en--;
  if (en - s < 7 || en - s > 15) return;
  const address = parseIPv4At(text, s, en);
  if (address < 0 || gluedAt(text, s - 1) || (en === e && gluedAt(text, e))) return;
  emitIPv4(sink, s, en, undefined, en === e, (leftContext(text, s) & CTX_DEFANGED) !== 0, undefined, address);
}

/** `[::1]:8080` → 8080: the port after a bracketed address ending at `en`. */
export function bracketPort(text: string, en: number): number | undefined {
  if (text.charCodeAt(en) !== Ch.CloseBracket || text.charCodeAt(en + 1) !== Ch.Colon) return undefined;
  let pv = 0;
  let j = en + 2;
  while (j - en - 2 < 6 && (cls(text, j) & DIGIT) !== 0) {
    pv = pv * 10 + (text.charCodeAt(j) - Ch.Zero);
    j++;
  }
  const n = j - en - 2;
  return n >= 1 && n <= 5 && pv <= 65535 && (cls(text, j) & (ALPHA | UNDERSCORE)) === 0 ? pv : undefined;
}
