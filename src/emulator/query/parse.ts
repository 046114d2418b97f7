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
