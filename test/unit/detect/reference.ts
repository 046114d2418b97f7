// The reference detector: every rule of src/core/detect stated plainly, with regular
// expressions over the same rule tables (rules.ts), slow and allocation-happy, used only by the
// tests that hold the scanner to it (reference.test.ts). It shares no code with the scanner's
// candidate finding, context rules, defang handling or shortcuts; it shares the rule data
// (rules.ts), the strict IP parsers (ip.ts: the one IP parser of the project) and the per-name
// facts (domain.ts: what a name is, wherever it stands).
import { acceptFacts, nameFacts, nameValue } from '../../../src/core/detect/domain';
import { formatIPv6, parseIPv4, parseIPv6 } from '../../../src/core/detect/ip';
import {
  DEFANGED_SCHEMES,
  MARKERS,
  MAX_RUN,
  NUMBERING_WORDS,
  RUN_MARKERS,
  VERSION_WORDS,
} from '../../../src/core/detect/rules';
import type { Detection, DetectOptions } from '../../../src/core/detect/types';
import { NAME_LETTER_RANGES } from '../../../src/core/detect/chars';

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const UNI = NAME_LETTER_RANGES.map(([a, b]) => `\\u{${a.toString(16)}}-\\u{${b.toString(16)}}`).join('');
const ALPHABETIC = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}\p{M}]/u;
/** A marker, letters in any case (no `i` flag: with `u` it would fold the Kelvin sign into `k`). */
const anyCase = (w: string): string =>
  [...w].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : esc(c))).join('');
const RUN_MARK = RUN_MARKERS.map((m) => anyCase(m.written)).join('|');
/** A run: run characters, joined by run markers that sit between a run character and a letter or digit. */
const RUN = new RegExp(
  `[0-9A-Za-z_.:\\-${UNI}]+(?:(?:${RUN_MARK})(?=[0-9A-Za-z${UNI}])[0-9A-Za-z_.:\\-${UNI}]+)*`,
  'gu',
);
const ASCII_RUN = new RegExp(`[0-9A-Za-z_.:-]+(?:(?:${RUN_MARK})(?=[0-9A-Za-z])[0-9A-Za-z_.:-]+)*`, 'g');
const HAS_UNI = new RegExp(`[${UNI}]`, 'u');
const SCHEMES = Object.keys(DEFANGED_SCHEMES).join('|');

interface Run {
  text: string;
  s: number;
  e: number;
  /** The run refanged, and the original offset of each of its characters (and of its end). */
  str: string;
  at: number[];
  /** Characters of `str` that came from a marker. */
  marked: boolean[];
}

function refanged(text: string, s: number, e: number): Run {
  let str = '';
  const at: number[] = [];
  const marked: boolean[] = [];
  const re = new RegExp(RUN_MARK, 'y');
  for (let i = s; i < e;) {
    re.lastIndex = i;
    const m = re.exec(text);
    if (m) {
      const means = RUN_MARKERS.find((k) => k.written === m[0].toLowerCase())?.means ?? '.';
      str += means;
      at.push(i);
      marked.push(true);
      i += m[0].length;
    } else {
      str += text[i];
      at.push(i);
      marked.push(false);
      i++;
    }
  }
  at.push(e);
  return { text, s, e, str, at, marked };
}

// ------------------------------------------------------------------ context (regexes on the text around)

const before = (text: string, i: number, n = 48): string => text.slice(Math.max(0, i - n), i);

function leftContext(
  text: string,
  s: number,
): { url: boolean; at: boolean; defanged: boolean; path: boolean } {
  const b = before(text, s);
  const r = { url: false, at: false, defanged: false, path: false };
  if (/\/\/$/.test(b)) {
    r.url = true;
    r.defanged = new RegExp(`(?<![A-Za-z])(?:${SCHEMES}):\\/\\/$`, 'i').test(b) || /\[:\]\/\/$/.test(b);
  } else if (/\\\\$/.test(b)) r.url = true;
  else if (/[/\\]$/.test(b)) r.path = true;
  else if (/@$/.test(b)) r.at = true;
  else if (/\[:\/\/\]$/.test(b)) r.url = r.defanged = true;
  else if (
    new RegExp(
      `(?:${MARKERS.filter((m) => m.means === '@')
        .map((m) => esc(m.written))
        .join('|')})$`,
      'i',
    ).test(b)
  )
    r.at = r.defanged = true;
  return r;
}

function isVersion(text: string, st: number): boolean {
  if (text[st - 1] === '/') {
    const token = /[\w.-]*$/.exec(text.slice(0, st - 1))?.[0] ?? '';
    const last = token.slice(-40);
    if (/[A-Za-z]/.test(last) && text[st - 1 - last.length - 1] !== '/') return true;
  }
  return new RegExp(`(?:${VERSION_WORDS.join('|')})[ \\t=:"'(]{0,8}$`, 'i').test(before(text, st));
}

function isNumbering(text: string, st: number): boolean {
  const words = NUMBERING_WORDS.join('|');
  return new RegExp(`(?:§[ \\t\\u00a0]{0,3}|(?<![\\w])(?:${words})\\.?[ \\t\\u00a0]{1,3})$`, 'i').test(
    before(text, st),
  );
}

function after(text: string, en: number): 'call' | 'assign' | undefined {
  if (/^[(@]/.test(text.slice(en, en + 1))) return 'call';
  return /^[ \t]{0,4}=/.test(text.slice(en, en + 5)) ? 'assign' : undefined;
}

const glued = (text: string, i: number): boolean =>
  i >= 0 && i < text.length && text.charCodeAt(i) >= 128 && ALPHABETIC.test(text[i]);

// ------------------------------------------------------------------ the detector

/** All detections in `text`, as detect() returns them. */
export function referenceDetect(text: string, opts: DetectOptions = {}): Detection[] {
  const out: Detection[] = [];
  // A percent-escape (`%2F`) separates runs.
  const masked = text.replace(/%[0-9A-Fa-f]{2}/g, '   ');
  for (const m of masked.matchAll(RUN)) analyseRun(text, m.index, m.index + m[0].length, opts, out);
  const kinds = opts.kinds;
  const found = out.filter((d) => !kinds || kinds.includes(d.kind));
  return opts.limit === undefined ? found : found.slice(0, opts.limit);
}

function analyseRun(text: string, s: number, e: number, opts: DetectOptions, out: Detection[]): void {
  const run = text.slice(s, e);
  if (HAS_UNI.test(run)) {
    // The ASCII runs in it, as if those letters were spaces; those starting in a name written
    // with them are part of it (the search resumes after the name).
    const hasDot = refanged(text, s, e).str.includes('.');
    const idn = e - s <= MAX_RUN && hasDot ? idnNames(text, s, e, opts, out) : undefined;
    const ascii = run.replace(new RegExp(`[${UNI}]`, 'gu'), ' ');
    const re = new RegExp(ASCII_RUN.source, 'g');
    for (let m = re.exec(ascii); m; m = re.exec(ascii)) {
      const a = s + m.index;
      if (idn && a >= idn[0] && a < idn[1]) {
        re.lastIndex = idn[1] - s;
        continue;
      }
      analyseRun(text, a, a + m[0].length, opts, out);
    }
    out.sort((x, y) => x.start - y.start);
    return;
  }
  if (e - s > MAX_RUN) return;
  const r = refanged(text, s, e);
  if (!/[.:]/.test(r.str)) return;
  const left = leftContext(text, s);
  const ipv6 = ipv6Windows(r, left.defanged, out);
  // Colon-separated segments: `host:port`, `key:value`.
  let p = 0;
  for (const seg of r.str.split(':')) {
    const segStart = p;
    const segEnd = p + seg.length;
    p = segEnd + 1;
    if (seg.length < 3 || ipv6.some(([a, b]) => segStart < b && a < segEnd)) continue;
    const trimmed = /^[.-]*(.*?)[.-]*$/.exec(seg)?.[1] ?? '';
    if (trimmed.length < 3 || !trimmed.includes('.')) continue;
    const x = segStart + seg.indexOf(trimmed);
    const y = x + trimmed.length;
    const atEnd = y === r.str.length;
    if ((x === 0 && glued(text, s - 1)) || (atEnd && glued(text, e))) continue;
    const portOk =
      y === segEnd && segEnd < r.str.length && !ipv6.some(([a, b]) => segEnd + 1 < b && a < segEnd + 2);
    const pm = portOk ? /^(\d{1,5})(?::|$)/.exec(r.str.slice(segEnd + 1)) : null;
    const port = pm && Number(pm[1]) <= 65535 ? Number(pm[1]) : undefined;
    const segLeft = segStart === 0 ? left : { url: false, at: false, defanged: false, path: false };
    const defanged = r.marked.slice(x, y).some(Boolean) || segLeft.defanged;
    if (!/[A-Za-z_]/.test(trimmed)) {
      if (x > segStart && seg[0] === '.') continue; // an OID tail
      if (!trimmed.includes('-')) {
        if (parseIPv4(trimmed) >= 0) ipv4(r, x, y, atEnd, defanged, port, out);
        continue;
      }
      let q = x;
      for (const part of trimmed.split('-')) {
        if (parseIPv4(part) >= 0)
          ipv4(
            r,
            q,
            q + part.length,
            q + part.length === r.str.length,
            r.marked.slice(q, q + part.length).some(Boolean),
            undefined,
            out,
          );
        q += part.length + 1;
      }
      continue;
    }
    if (!/\.(?:[A-Za-z]{2,63}|xn-[\w-]*)$/i.test(trimmed)) continue;
    name(text, r.str.slice(x, y), r.at[x], r.at[y], atEnd, segLeft, defanged, port, opts, out);
  }
  out.sort((a, b) => a.start - b.start);
}

function push(out: Detection[], d: Detection): void {
  if (d.port === undefined) delete d.port;
  out.push(d);
}

function ipv4(
  r: Run,
  x: number,
  y: number,
  atEnd: boolean,
  defanged: boolean,
  port: number | undefined,
  out: Detection[],
): void {
  const { text } = r;
  const st = r.at[x];
  const en = r.at[y];
  if (isVersion(text, st) || isNumbering(text, st)) return;
  const value = r.str.slice(x, y);
  const prefix = /^\/(0|[12]\d?|3[0-2]?|[4-9])(?![\w]|\.[A-Za-z0-9])/.exec(text.slice(en, en + 5));
  if (atEnd && port === undefined && prefix) {
    const end = en + prefix[0].length;
    push(out, {
      kind: 'cidr',
      start: st,
      end,
      raw: text.slice(st, end),
      value: `${value}${prefix[0]}`,
      defanged,
    });
    return;
  }
  push(out, { kind: 'ipv4', start: st, end: en, raw: text.slice(st, en), value, defanged, port });
}

function name(
  text: string,
  written: string,
  st: number,
  en: number,
  atEnd: boolean,
  left: ReturnType<typeof leftContext>,
  defanged: boolean,
  port: number | undefined,
  opts: DetectOptions,
  out: Detection[],
): boolean {
  if (left.path) return false;
  const next = atEnd ? after(text, en) : undefined;
  if (next === 'call') return false;
  const value = nameValue(written);
  const facts = value === '' ? undefined : nameFacts(value);
  if (!facts) return false;
  const mixed = written.toLowerCase() !== written && written.toUpperCase() !== written;
  const quoted = /^["']$/.test(text[st - 1] ?? '') && text[en] === text[st - 1];
  const code = (opts.mode ?? 'code') === 'code';
  if (!acceptFacts(facts, left.url || left.at || defanged, code, next === 'assign', mixed, quoted))
    return false;
  push(out, { kind: 'domain', start: st, end: en, raw: text.slice(st, en), value, defanged, port });
  return true;
}

/** Names written with letters outside ASCII: each colon-separated part holding one. */
function idnNames(
  text: string,
  s: number,
  e: number,
  opts: DetectOptions,
  out: Detection[],
): [number, number] | undefined {
  const r = refanged(text, s, e);
  let span: [number, number] | undefined;
  let p = 0;
  for (const seg of r.str.split(':')) {
    const segStart = p;
    const segEnd = p + seg.length;
    p = segEnd + 1;
    const trimmed = /^[.-]*(.*?)[.-]*$/.exec(seg)?.[1] ?? '';
    if (!HAS_UNI.test(trimmed) || !trimmed.includes('.')) continue;
    const x = segStart + seg.indexOf(trimmed);
    const y = x + trimmed.length;
    if ((x === 0 && glued(text, s - 1)) || (y === r.str.length && glued(text, e))) continue;
    const pm =
      y === segEnd && segEnd < r.str.length ? /^(\d{1,5})(?::|$)/.exec(r.str.slice(segEnd + 1)) : null;
    const port = pm && Number(pm[1]) <= 65535 ? Number(pm[1]) : undefined;
    const left =
      segStart === 0 ? leftContext(text, s) : { url: false, at: false, defanged: false, path: false };
    const defanged = r.marked.slice(x, y).some(Boolean) || left.defanged;
    if (opts.kinds && !opts.kinds.includes('domain')) continue;
    if (name(text, trimmed, r.at[x], r.at[y], y === r.str.length, left, defanged, port, opts, out))
      span = [r.at[x], r.at[y]];
  }
  return span;
}

/** IPv6 literals in the run; returns the windows they take (in the refanged run). */
function ipv6Windows(r: Run, leftDefanged: boolean, out: Detection[]): [number, number][] {
  const { text, str, s, e } = r;
  const taken: [number, number][] = [];
  for (const m of str.matchAll(/[0-9A-Fa-f:.]+/g)) {
    const wa = m.index;
    const wb = wa + m[0].length;
    const w = m[0];
    const colons = (w.match(/:/g) ?? []).length;
    const double = w.includes('::');
    if (colons < 2 || (!double && colons < 6)) continue;
    let x = wa;
    let y = wa + w.replace(/\.+$/, '').length;
    const word = (c: string | undefined): boolean => c !== undefined && /\w/.test(c);
    if (str[x] === ':' && str[x + 1] !== ':') x++;
    else if (x > 0 && word(str[x - 1])) continue;
    if (str[y - 1] === ':' && str[y - 2] !== ':') y--;
    else if (y === wb && y < str.length && word(str[y])) continue;
    if (y - x < 2) continue;
    const groups = parseIPv6(str.slice(x, y));
    if (!groups) continue;
    if ((x === 0 && glued(text, s - 1)) || (y === str.length && glued(text, e))) continue;
    const bracketed = x === 0 && y === str.length && text[s - 1] === '[';
    if (bracketed && /[\w\])]/.test(text[s - 2] ?? '')) continue;
    const prefix =
      y === str.length
        ? /^\/(0|[1-9]\d?|1[01]\d|12[0-8])(?![\w]|\.[A-Za-z0-9])/.exec(text.slice(e, e + 5))
        : null;
    if (double && !/\d/.test(str.slice(wa, wb)) && !(bracketed && text[e] === ']') && !prefix) continue;
    let value = formatIPv6(groups);
    let kind: Detection['kind'] = 'ipv6';
    let en = r.at[y];
    const zone =
      y === str.length ? /^%([A-Za-z0-9](?:[\w-]|\.(?=[A-Za-z0-9]))*)/.exec(text.slice(e, e + 66)) : null;
    if (zone) {
      const z = zone[1].slice(0, 64);
      en = e + 1 + z.length;
      value += `%${bracketed && text[en] === ']' && z.length > 2 && z.startsWith('25') ? z.slice(2) : z}`;
    } else if (prefix) {
      kind = 'cidr';
      value += prefix[0];
      en = e + prefix[0].length;
    }
    const pm = bracketed ? /^\]:(\d{1,5})(?![A-Za-z_\d])/.exec(text.slice(en, en + 8)) : null;
    const port = pm && Number(pm[1]) <= 65535 ? Number(pm[1]) : undefined;
    const defanged = r.marked.slice(x, y).some(Boolean) || (x === 0 && leftDefanged);
    push(out, { kind, start: r.at[x], end: en, raw: text.slice(r.at[x], en), value, defanged, port });
    taken.push([wa, wb]);
  }
  return taken;
}
