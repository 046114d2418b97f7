/**
 * The query language of the search endpoints: the Lucene query-string subset ODIN-FACTS
 * documents, parsed by a small recursive-descent parser and evaluated over plain JSON
 * records.
 *
 * Grammar (whitespace between tokens is free, also after a colon):
 *   query   := or
 *   or      := and (("OR" | "||") and)*
 *   and     := unary (("AND" | "&&")? unary)*        -- juxtaposition is AND
 *   unary   := ("NOT" | "!" | "-") unary | "+"? primary
 *   primary := "(" or ")" | phrase | range | field ":" value | word
 *   value   := "(" or ")" | phrase | range | word     -- the field applies inside a group
 *   range   := ("[" | "{") bound "TO" bound ("]" | "}")   -- bound: word, phrase or *
 *   phrase  := "..." | '...'
 * Words may contain `*` and `?` wildcards and `\` escapes; `*` alone (or an empty query)
 * matches everything, `field:*` means the field exists. Matching is case-insensitive; a
 * term matches a string value that equals it or contains it as whole words (so
 * `name: prod` finds `prod.db`, like an analysed text field).
 *
 * The parser is linear in the input and bounded (length, nesting depth, clause count): a
 * query outside the bounds is a QueryError (answered 400), never a stack overflow.
 */
import { BlockList, isIP } from 'node:net';

export type QNode =
  | { t: 'all' }
  | { t: 'and'; c: QNode[] }
  | { t: 'or'; c: QNode[] }
  | { t: 'not'; c: QNode }
  | { t: 'term'; field?: string; value: string; phrase: boolean; wildcard: boolean }
  | { t: 'range'; field: string; lo?: string; hi?: string; loInc: boolean; hiInc: boolean }
  | { t: 'exists'; field: string };

export class QueryError extends Error {}

export const QUERY_LIMITS = { maxLength: 8192, maxDepth: 32, maxClauses: 512 };

const FIELD_RE = /^[A-Za-z_@][\w.@*-]*$/;

class Parser {
  private pos = 0;
  private clauses = 0;

  constructor(private readonly src: string) {}

  parse(): QNode {
    this.ws();
    if (this.pos >= this.src.length) return { t: 'all' };
    const node = this.or(0, undefined);
    this.ws();
    if (this.pos < this.src.length) this.fail(`unexpected '${this.src[this.pos]}'`);
    return node;
  }

  private fail(msg: string, at = this.pos): never {
    throw new QueryError(`Invalid query: ${msg} at position ${at}`);
  }

  /** Fails at the operator just read when nothing but whitespace or ')' follows it. */
  private needsRight(op: string, at: number): void {
    let i = this.pos;
    while (i < this.src.length && /\s/.test(this.src[i])) i++;
    if (i >= this.src.length || this.src[i] === ')')
      this.fail(`operator ${op} needs a term on its right`, at);
  }

  private ws(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos])) this.pos++;
  }

  /** True (and consumed) if the input continues with keyword `kw` followed by a delimiter. */
  private keyword(kw: string): boolean {
    if (!this.src.startsWith(kw, this.pos)) return false;
    const next = this.src[this.pos + kw.length];
    if (kw.length > 2 || /[A-Z]/.test(kw)) {
      if (next !== undefined && !/[\s("']/.test(next)) return false;
    }
    this.pos += kw.length;
    return true;
  }

  private or(depth: number, field: string | undefined): QNode {
    const items = [this.and(depth, field)];
    for (;;) {
      this.ws();
      const at = this.pos;
      if (this.keyword('OR') || this.keyword('||')) {
        this.needsRight(this.src.slice(at, this.pos), at);
        items.push(this.and(depth, field));
      } else break;
    }
    return items.length === 1 ? items[0] : { t: 'or', c: items };
  }

  private and(depth: number, field: string | undefined): QNode {
    const items = [this.unary(depth, field)];
    for (;;) {
      this.ws();
      if (this.pos >= this.src.length || this.src[this.pos] === ')') break;
      const save = this.pos;
      if (this.keyword('OR') || this.keyword('||')) {
        this.pos = save;
        break;
      }
      if (this.keyword('AND') || this.keyword('&&')) this.needsRight(this.src.slice(save, this.pos), save);
      items.push(this.unary(depth, field));
    }
    return items.length === 1 ? items[0] : { t: 'and', c: items };
  }

  private unary(depth: number, field: string | undefined): QNode {
    this.ws();
    if (depth > QUERY_LIMITS.maxDepth) this.fail('query nested too deeply');
    const ch = this.src[this.pos];
    const next = this.src[this.pos + 1];
    const at = this.pos;
    if (this.keyword('NOT')) {
      this.needsRight('NOT', at);
      return { t: 'not', c: this.unary(depth + 1, field) };
    }
    if ((ch === '!' || ch === '-') && next !== undefined && !/\s/.test(next)) {
      this.pos++;
      return { t: 'not', c: this.unary(depth + 1, field) };
    }
    if (ch === '+') this.pos++;
    return this.primary(depth, field);
  }

  private clause(): void {
    if (++this.clauses > QUERY_LIMITS.maxClauses) this.fail('too many clauses');
  }

  private primary(depth: number, field: string | undefined): QNode {
    this.ws();
    const ch = this.src[this.pos];
    if (ch === undefined) this.fail('unexpected end of query');
    if (ch === '(') return this.group(depth, field);
    if (ch === '"' || ch === "'") {
      this.clause();
      return { t: 'term', field, value: this.quoted(), phrase: true, wildcard: false };
    }
    if (ch === '[' || ch === '{') {
      if (!field) this.fail('a range needs a field');
      return this.range(field);
    }
    if (ch === ')' || ch === ']' || ch === '}') this.fail(`unexpected '${ch}'`);
    const start = this.pos;
    const word = this.word(true);
    // Lucene reads `a:b:c` as an error: a colon inside a value must be quoted or escaped.
    if (field !== undefined && this.src[this.pos] === ':')
      this.fail("a ':' in a value must be quoted or escaped");
    if (field === undefined && this.src[this.pos] === ':') {
      const name = word.text;
      if (!FIELD_RE.test(name)) {
        this.pos = start;
        this.fail(`invalid field name '${name.slice(0, 40)}'`);
      }
      this.pos++;
      this.ws();
      if (this.pos >= this.src.length || this.src[this.pos] === ')')
        this.fail(`missing value for field '${name}'`);
      return this.primary(depth, name);
    }
    if (word.text === '') this.fail(`unexpected '${ch}'`);
    if (!word.escaped && (word.text === 'AND' || word.text === 'OR')) {
      this.pos = start;
      this.fail(`unexpected operator ${word.text}`);
    }
    this.clause();
    if (word.text === '*' && !word.escaped) return field ? { t: 'exists', field } : { t: 'all' };
    return { t: 'term', field, value: word.text, phrase: false, wildcard: word.wildcard };
  }

  private group(depth: number, field: string | undefined): QNode {
    if (depth + 1 > QUERY_LIMITS.maxDepth) this.fail('query nested too deeply');
    const open = this.pos++;
    this.ws();
    if (this.src[this.pos] === ')') this.fail('empty group');
    const node = this.or(depth + 1, field);
    this.ws();
    // Reported at the '(' that is never closed (where a person fixes it).
    if (this.src[this.pos] !== ')') this.fail("missing ')'", open);
    this.pos++;
    return node;
  }

  /** A bare word; stops at whitespace, parentheses, quotes and (in field position) a colon. */
  private word(stopAtColon: boolean): { text: string; wildcard: boolean; escaped: boolean } {
    let text = '';
    let wildcard = false;
    let escaped = false;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === '\\') {
        const n = this.src[this.pos + 1];
        if (n === undefined) this.fail('dangling escape');
        text += n;
        escaped = true;
        this.pos += 2;
        continue;
      }
      if (/[\s()"]/.test(c) || (stopAtColon && c === ':')) break;
      if (c === '*' || c === '?') wildcard = true;
      text += c;
      this.pos++;
    }
    return { text, wildcard, escaped };
  }

  private quoted(): string {
    const open = this.pos;
    const q = this.src[this.pos++];
    let text = '';
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === '\\' && this.pos + 1 < this.src.length) {
        text += this.src[this.pos + 1];
        this.pos += 2;
        continue;
      }
      if (c === q) {
        this.pos++;
        return text;
      }
      text += c;
      this.pos++;
    }
    return this.fail('unterminated quoted phrase', open);
  }

  private bound(): string | undefined {
    this.ws();
    const c = this.src[this.pos];
    if (c === '"' || c === "'") return this.quoted();
    let text = '';
    while (this.pos < this.src.length && !/[\s\]}]/.test(this.src[this.pos])) text += this.src[this.pos++];
    if (text === '') this.fail('missing range bound');
    return text === '*' ? undefined : text;
  }

  private range(field: string): QNode {
    this.clause();
    const open = this.pos;
    const loInc = this.src[this.pos++] === '[';
    // A range cut off by the end of the query is reported at its opening bracket.
    const unclosed = (): void => {
      this.ws();
      if (this.pos >= this.src.length) this.fail('range never closed', open);
    };
    unclosed();
    const lo = this.bound();
    unclosed();
    if (!this.keyword('TO')) this.fail("expected 'TO' in range");
    unclosed();
    const hi = this.bound();
    unclosed();
    const close = this.src[this.pos];
    if (close !== ']' && close !== '}') this.fail("expected ']' or '}' to close the range");
    this.pos++;
    return { t: 'range', field, lo, hi, loInc, hiInc: close === ']' };
  }
}

export function parseQuery(query: string): QNode {
  if (query.length > QUERY_LIMITS.maxLength) {
    throw new QueryError(`Invalid query: longer than ${QUERY_LIMITS.maxLength} characters`);
  }
  return new Parser(query).parse();
}

// ---------------------------------------------------------------- evaluation

type Primitive = string | number | boolean;

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

export interface TermsAggregation {
  buckets: { key: Primitive; doc_count: number }[];
  doc_count_error_upper_bound: number;
  sum_other_doc_count: number;
}

/** An Elasticsearch terms aggregation: each record counts once per distinct value. */
export function termsAggregation<T>(records: T[], path: string, size: number): TermsAggregation {
  const counts = new Map<string, { key: Primitive; doc_count: number }>();
  for (const r of records) {
    const seen = new Set<string>();
    for (const v of valuesAt(r, path)) {
      const k = `${typeof v}:${String(v)}`;
      if (seen.has(k)) continue;
      seen.add(k);
      const b = counts.get(k);
      if (b) b.doc_count++;
      else counts.set(k, { key: v, doc_count: 1 });
    }
  }
  const all = [...counts.values()].sort(
    (a, b) =>
      b.doc_count - a.doc_count ||
      (String(a.key) < String(b.key) ? -1 : String(a.key) > String(b.key) ? 1 : 0),
  );
  const top = all.slice(0, size);
  const other = all.slice(size).reduce((n, b) => n + b.doc_count, 0);
  return { buckets: top, doc_count_error_upper_bound: 0, sum_other_doc_count: other };
}
