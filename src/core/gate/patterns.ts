/**
 * Patterns in query text (wildcards, regular expressions, fuzzy terms) against the names of
 * the deny lists: whether a pattern could match a denied name or one of its subdomains, so
 * the gate refuses `hostnames:*mycompany*` when `mycompany.com` is denied, as it refuses
 * `vpn.mycompany.com` written out.
 *
 * "Could match" asks more than a match: `*` alone matches every name, so a pattern counts
 * only when its own characters pin at least PINNED characters of the name's distinctive part
 * (the name without its top-level label: `mycompany` of `mycompany.com`). `nginx*`, `www.*`
 * and `*.com` say nothing of a denied name and pass; `*mycompany*`, `mycomp*`, `my*ny.com`
 * and `*pany.com` pin it and are refused.
 *
 * Wildcards (`*`, `?`, `\` escapes) are decided exactly: the pattern's automaton against the
 * names `d` and `x.d`. Regular expressions are not (Elasticsearch's dialect has operators no
 * JavaScript engine knows, and the intersection of two expressions is no small program), so
 * one is refused when it holds a label of the name, or when it shares PINNED characters with
 * the name and matches it or a subdomain of it; with an operator it cannot read it is
 * `unknown`, which the gate refuses.
 *
 * Special-use and internal names: a wildcard whose tail is such a suffix (`*payroll*.corp`)
 * and that pins PINNED characters besides it (`internalSuffix`). (Wildcards over addresses
 * are values: `core/gate/query.ts` reads `203.0.11*` as the blocks it spans.)
 * Pure: no `vscode` import.
 */
import { SPECIAL_DOMAINS } from '../privacy';

/** A pattern term of a query, as written (escapes kept: they decide what is literal). */
export interface QueryPattern {
  kind: 'wildcard' | 'regex' | 'fuzzy';
  text: string;
}

/** How many characters of a name's distinctive part a pattern must pin to count. */
const PINNED = 4;

/** The name without its last label, where a pattern says something of it. */
function distinctive(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** How many pinned characters make a pattern name `name` (fewer when the part is short). */
function needed(name: string): number {
  return Math.min(PINNED, distinctive(name).replace(/\./g, '').length);
}

type Token = { many: true } | { one: true } | { ch: string };

function wildcardTokens(text: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) out.push({ ch: text[++i].toLowerCase() });
    else if (c === '*') out.push({ many: true });
    else if (c === '?') out.push({ one: true });
    else out.push({ ch: c.toLowerCase() });
  }
  return out;
}

/**
 * Whether the wildcard pattern matches a name in {d} ∪ {x.d : x non-empty} while its literal
 * characters pin `need` characters of d's distinctive part. A search of the product of the
 * pattern's positions and the name automaton's states (S: nothing read; P: in the prefix x;
 * k: k characters of d read), over the characters that matter and one that stands for all
 * others, counting the pinned characters up to `need`.
 */
function wildcardCouldMatch(tokens: Token[], d: string, need: number): boolean {
  const OTHER = '\u0000';
  const alphabet = new Set<string>([...d, '.', OTHER]);
  for (const t of tokens) if ('ch' in t) alphabet.add(t.ch);
  const limit = distinctive(d).length;
  // Name states: -2 = S, -1 = P, 0..d.length = characters of d read.
  const key = (i: number, s: number, n: number): string => `${i},${s},${n}`;
  const seen = new Set<string>();
  const queue: Array<[number, number, number]> = [];
  const push = (i: number, s: number, n: number): void => {
    const k = key(i, s, Math.min(n, need));
    if (seen.has(k)) return;
    seen.add(k);
    queue.push([i, s, Math.min(n, need)]);
  };
  push(0, -2, 0);
  push(0, 0, 0);
  while (queue.length) {
    const [i, s, n] = queue.shift()!;
    if (i === tokens.length && s === d.length && n >= need) return true;
    const t = tokens[i];
    if (t && 'many' in t) push(i + 1, s, n); // `*` matching nothing
    if (!t) continue;
    for (const c of alphabet) {
      if ('ch' in t && t.ch !== c) continue;
      const next: Array<[number, boolean]> = [];
      if (s === -2 && c !== '.') next.push([-1, false]);
      if (s === -1) {
        next.push([-1, false]);
        if (c === '.') next.push([0, false]);
      }
      if (s >= 0 && s < d.length && d[s] === c) next.push([s + 1, 'ch' in t && s < limit && c !== '.']);
      for (const [s2, pinned] of next) push('many' in t ? i : i + 1, s2, n + (pinned ? 1 : 0));
    }
  }
  return false;
}

/** Elasticsearch regular-expression operators a JavaScript RegExp does not read the same. */
const ES_ONLY = /(?<!\\)[~&#@<>"]/;

/** The literal runs of a regular expression (`\.` is a dot; classes and operators split). */
function literalRuns(text: string): string[] {
  const runs: string[] = [];
  let run = '';
  let inClass = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) {
      if (!inClass) run += text[++i].toLowerCase();
      else i++;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    if (inClass || /[[\]().*+?{}|^$]/.test(c)) {
      // A quantified character may occur zero times: it ends the run before it.
      if (/[*?{]/.test(c) && run) run = run.slice(0, -1);
      if (run) runs.push(run);
      run = '';
      if (c === '{') i = text.indexOf('}', i) < 0 ? i : text.indexOf('}', i);
      continue;
    }
    run += c.toLowerCase();
  }
  if (run) runs.push(run);
  return runs;
}

/** Whether `a` and `b` share a substring of `n` characters. */
function share(a: string, b: string, n: number): boolean {
  if (n <= 0) return true;
  for (let i = 0; i + n <= a.length; i++) if (b.includes(a.slice(i, i + n))) return true;
  return false;
}

function regexCouldMatch(text: string, d: string, need: number): boolean | 'unknown' {
  if (ES_ONLY.test(text)) return 'unknown';
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${text})$`, 'i');
  } catch {
    return 'unknown';
  }
  const part = distinctive(d);
  const runs = literalRuns(text);
  const labels = part.split('.').filter((l) => l.length >= Math.min(3, part.length));
  if (runs.some((r) => labels.some((l) => r.includes(l)))) return true;
  if (!runs.some((r) => share(r.replace(/\./g, ''), part.replace(/\./g, ''), need))) return false;
  return ['', 'a.', 'www.', '0.', 'x-1.', 'a.b.'].some((p) => re.test(`${p}${d}`));
}

/** Levenshtein distance, stopping early once it is over `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

function fuzzyCouldMatch(text: string, d: string): boolean {
  const term = text.replace(/\\(.)/g, '$1').toLowerCase();
  const labels = distinctive(d)
    .split('.')
    .filter((l) => l.length >= 4);
  // Lucene's fuzzy queries allow at most two edits.
  return distance(term, d, 2) <= 2 || labels.some((l) => distance(term, l, 2) <= 2);
}

/**
 * Whether `pattern` could match the denied name `name` (canonical: lower case, ASCII) or a
 * subdomain of it: true, false, or `unknown` when the pattern is not read here.
 */
export function patternCouldMatchName(pattern: QueryPattern, name: string): boolean | 'unknown' {
  const need = needed(name);
  if (pattern.kind === 'wildcard') return wildcardCouldMatch(wildcardTokens(pattern.text), name, need);
  if (pattern.kind === 'fuzzy') return fuzzyCouldMatch(pattern.text, name);
  return regexCouldMatch(pattern.text, name, need);
}

/**
 * The special-use or internal suffix a wildcard pattern's names must end in, when its own
 * characters pin PINNED characters besides it: `*payroll*.corp` names an internal host as
 * surely as `payroll.corp`; `*.corp` alone says nothing and passes.
 */
export function internalSuffix(pattern: QueryPattern): (typeof SPECIAL_DOMAINS)[number] | undefined {
  if (pattern.kind !== 'wildcard') return undefined;
  const tokens = wildcardTokens(pattern.text);
  let tail = '';
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i];
    if (!('ch' in t)) break;
    tail = t.ch + tail;
  }
  if (tail.length === tokens.length) return undefined;
  const pinned = tokens.filter((t) => 'ch' in t && t.ch !== '.').length;
  // The most specific suffix decides (`home.arpa` before `arpa`).
  const special = SPECIAL_DOMAINS.find((d) => tail.endsWith(`.${d.suffix}`));
  return special && pinned - special.suffix.replace(/\./g, '').length >= PINNED ? special : undefined;
}
