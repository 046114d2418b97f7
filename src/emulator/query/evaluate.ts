/**
 * Evaluation of a parsed query (`parse.ts`) over plain JSON records: values at dotted paths,
 * case-insensitive whole-word and wildcard matching, ranges, `ip:` CIDR blocks.
 */
import { BlockList, isIP } from 'node:net';
import { parseQuery, QueryError, type QNode } from './parse';

export type Primitive = string | number | boolean;

/** Collects the primitive values at a dotted path, flattening arrays; `*` matches any key. */
export function valuesAt(record: unknown, path: string): Primitive[] {
  const out: Primitive[] = [];
  collect(record, path.split('.'), 0, out);
  return out;
}

function collect(obj: unknown, parts: string[], i: number, out: Primitive[]): void {
  if (obj === null || obj === undefined) return;
  if (Array.isArray(obj)) {
    for (const x of obj) collect(x, parts, i, out);
    return;
  }
  if (i === parts.length) {
    if (typeof obj === 'string' || typeof obj === 'number' || typeof obj === 'boolean') out.push(obj);
    return;
  }
  if (typeof obj !== 'object') return;
  const rec = obj as Record<string, unknown>;
  if (parts[i] === '*') {
    for (const k of Object.keys(rec)) collect(rec[k], parts, i + 1, out);
  } else if (Object.prototype.hasOwnProperty.call(rec, parts[i])) {
    collect(rec[parts[i]], parts, i + 1, out);
  }
}

/** How a collection maps query fields to values and what free text searches. */
export interface Schema<T> {
  aliases: Record<string, string>;
  /** Lower-cased text of the main string fields, for bare terms (may be cached by the caller). */
  freeText(record: T): string;
}

const isAlnum = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** True if `needle` occurs in `hay` on word boundaries (both already lower-cased). */
export function containsWords(hay: string, needle: string): boolean {
  if (needle === '') return false;
  const checkBefore = isAlnum(needle[0]);
  const checkAfter = isAlnum(needle[needle.length - 1]);
  let idx = hay.indexOf(needle);
  while (idx >= 0) {
    const okBefore = !checkBefore || !isAlnum(hay[idx - 1]);
    const okAfter = !checkAfter || !isAlnum(hay[idx + needle.length]);
    if (okBefore && okAfter) return true;
    idx = hay.indexOf(needle, idx + 1);
  }
  return false;
}

/** Glob match (`*`, `?`) in O(n·m) without regular expressions. */
export function globMatch(text: string, pattern: string): boolean {
  let t = 0;
  let p = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === text[t])) {
      t++;
      p++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      mark = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

function tokens(s: string): string[] {
  return s.split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
}

function termMatches(v: Primitive, value: string, lower: string, wildcard: boolean): boolean {
  if (typeof v === 'number') {
    if (wildcard) return globMatch(String(v), lower);
    return value.trim() !== '' && Number(value) === v;
  }
  if (typeof v === 'boolean') return lower === String(v);
  const s = v.toLowerCase();
  if (wildcard)
    return globMatch(s, lower) || (s.length < 4096 && tokens(s).some((tok) => globMatch(tok, lower)));
  if (s === lower) return true;
  // ASN numbers match with or without the "AS" prefix.
  if (/^as\d+$/.test(s) && /^\d+$/.test(lower)) return s.slice(2) === lower;
  return containsWords(s, lower);
}

function compare(v: Primitive, bound: string): number {
  if (typeof v === 'number') {
    const n = Number(bound);
    if (!Number.isNaN(n)) return v - n;
    return String(v).localeCompare(bound);
  }
  const s = String(v);
  if (/^\d{4}-\d{2}-\d{2}/.test(s) && /^\d{4}-\d{2}-\d{2}/.test(bound)) {
    const a = Date.parse(s);
    const b = Date.parse(bound);
    if (!Number.isNaN(a) && !Number.isNaN(b)) return a - b;
  }
  if (/^-?\d+(\.\d+)?$/.test(s) && /^-?\d+(\.\d+)?$/.test(bound)) return Number(s) - Number(bound);
  return s.toLowerCase() < bound.toLowerCase() ? -1 : s.toLowerCase() > bound.toLowerCase() ? 1 : 0;
}

function inRange(v: Primitive, n: Extract<QNode, { t: 'range' }>): boolean {
  if (n.lo !== undefined) {
    const c = compare(v, n.lo);
    if (Number.isNaN(c) || c < 0 || (c === 0 && !n.loInc)) return false;
  }
  if (n.hi !== undefined) {
    const c = compare(v, n.hi);
    if (Number.isNaN(c) || c > 0 || (c === 0 && !n.hiInc)) return false;
  }
  return true;
}

export type Predicate<T> = (record: T) => boolean;

const tokenCache = new WeakMap<object, string[]>();

/** The distinct words of a record's free text, cached per record. */
function freeTokens<T>(schema: Schema<T>, r: T): string[] {
  if (typeof r !== 'object' || r === null) return tokens(schema.freeText(r));
  let t = tokenCache.get(r);
  if (t === undefined) {
    t = [...new Set(tokens(schema.freeText(r)))];
    tokenCache.set(r, t);
  }
  return t;
}

/** Compiles a parsed query into a predicate over records of a schema. */
export function compile<T>(node: QNode, schema: Schema<T>): Predicate<T> {
  const field = (f: string): string => schema.aliases[f] ?? f;
  switch (node.t) {
    case 'all':
      return () => true;
    case 'and': {
      const parts = node.c.map((c) => compile(c, schema));
      return (r) => parts.every((p) => p(r));
    }
    case 'or': {
      const parts = node.c.map((c) => compile(c, schema));
      return (r) => parts.some((p) => p(r));
    }
    case 'not': {
      const inner = compile(node.c, schema);
      return (r) => !inner(r);
    }
    case 'exists': {
      const f = field(node.field);
      return (r) => valuesAt(r, f).length > 0;
    }
    case 'range': {
      const f = field(node.field);
      return (r) => valuesAt(r, f).some((v) => inRange(v, node));
    }
    case 'term': {
      const lower = node.value.toLowerCase();
      if (node.field === undefined) {
        if (node.wildcard) {
          return (r) => freeTokens(schema, r).some((tok) => globMatch(tok, lower));
        }
        return (r) => containsWords(schema.freeText(r), lower);
      }
      const f = field(node.field);
      const block = f === 'ip' && !node.wildcard ? cidrBlock(node.value) : undefined;
      if (block) return (r) => valuesAt(r, f).some((v) => typeof v === 'string' && inBlock(block, v));
      return (r) => valuesAt(r, f).some((v) => termMatches(v, node.value, lower, node.wildcard));
    }
  }
}

/** `ip:"a.b.c.0/24"` matches every address in the block, as Elasticsearch's ip field does. */
function cidrBlock(value: string): BlockList | undefined {
  const m = /^([0-9a-fA-F:.]+)\/(\d{1,3})$/.exec(value.trim());
  if (!m) return undefined;
  const family = isIP(m[1]);
  const prefix = Number(m[2]);
  if (family === 0 || prefix > (family === 4 ? 32 : 128)) return undefined;
  const list = new BlockList();
  list.addSubnet(m[1], prefix, family === 4 ? 'ipv4' : 'ipv6');
  return list;
}

function inBlock(block: BlockList, ip: string): boolean {
  const family = isIP(ip);
  return family !== 0 && block.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

/** Parses and compiles in one step; throws QueryError on a bad query. */
export function queryPredicate<T>(query: unknown, schema: Schema<T>): Predicate<T> {
  if (query !== undefined && query !== null && typeof query !== 'string') {
    throw new QueryError('Invalid query: query must be a string');
  }
  return compile(parseQuery(query ?? ''), schema);
}
