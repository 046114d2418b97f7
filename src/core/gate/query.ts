/**
 * Query text as values: what IP addresses, CIDR blocks and host names a Lucene query names,
 * as the service reads them (escapes resolved: `10\.0\.0\.1` and `10\u002e0\u002e0\u002e1`
 * are `10.0.0.1`), for the gate to classify each one like a hovered value (`Gate.query`).
 *
 * Two readings, both kept (a value found by either is classified):
 *   1. the query parsed with the `lucene` package (ODIN's single quotes and quoted range
 *      bounds adapted first, as the hunts' diagnostics do): every term, phrase and range
 *      bound, escapes resolved;
 *   2. the whole text, escapes resolved, with the field names the parse found blanked: the
 *      hover's detector and a token split over it. This reading also covers a query the
 *      parser refuses (the service's parser may still accept it), so nothing fails open.
 *
 * Field names are never values. Pure TypeScript: no `vscode` import.
 */
import type * as lucene from 'lucene';
import { detect } from '../detect';
import { parseLucene } from '../query/parser';
import type { QueryPattern } from './patterns';

/** Resolves Lucene escapes as the service's parser does: `\x` is `x`, `\uXXXX` is that unit. */
export function unescapeLucene(text: string): string {
  return text.replace(/\\(?:u([0-9a-fA-F]{4})|([\s\S]))/g, (_m, hex: string | undefined, ch: string) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : ch,
  );
}

/** A value and how it was written: a whole term (or phrase word) or a detection inside text. */
export interface QueryValue {
  /** The value to classify (escapes resolved). */
  value: string;
  /** `term`: a whole term or token; `detected`: found by the detector inside longer text. */
  from: 'term' | 'detected';
}

/** Characters that separate words in the text reading (Lucene syntax and phrase spacing). */
const SEPARATORS = /[\s()[\]{}"'^~!+,;<>=|&]+/;

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** Whole octets, each with its dot, then the digits of a partial octet, before a wildcard. */
const ADDRESS_HEAD = new RegExp(`^((?:${OCTET}\\.){1,3})(\\d{0,3})[*?]`);

/**
 * The blocks an IPv4 wildcard's addresses lie in, read from its whole octets and the digits
 * of the next: `10.*` is 10.0.0.0/8, `10.0.0.*` 10.0.0.0/24, and `203.0.11*` spans 203.0.11.0/24
 * and 203.0.110.0/24 … 203.0.119.0/24. Each is decided as a CIDR block is, so a pattern reaches
 * no address a block written out could not.
 */
function wildcardBlocks(word: string): string[] {
  const m = ADDRESS_HEAD.exec(word);
  if (!m) return [];
  const octets = m[1].slice(0, -1).split('.');
  const block = (parts: string[]): string =>
    `${[...parts, '0', '0', '0'].slice(0, 4).join('.')}/${parts.length * 8}`;
  if (m[2] === '') return [block(octets)];
  const out: string[] = [];
  for (let v = 0; v <= 255; v++) if (String(v).startsWith(m[2])) out.push(block([...octets, String(v)]));
  return out;
}

function addWords(text: string, out: QueryValue[]): void {
  for (const raw of text.split(SEPARATORS)) {
    const word = raw.replace(/^[*?]+/, '').replace(/[,:]+$/, '');
    if (word === '') continue;
    for (const block of wildcardBlocks(word)) out.push({ value: block, from: 'term' });
    // `db.corp*` names db.corp.
    const bare = word.replace(/[*?]+$/, '');
    if (bare !== '') out.push({ value: bare, from: 'term' });
    // `field:value` where the parse did not split it (a query the parser refused).
    const colon = /^[A-Za-z_][\w.]*:(.+)$/.exec(bare);
    if (colon) out.push({ value: colon[1], from: 'term' });
  }
}

function addText(raw: string, out: QueryValue[]): void {
  const folded = raw.normalize('NFKC');
  for (const text of folded === raw ? [raw] : [raw, folded]) {
    for (const d of detect(text)) out.push({ value: d.value, from: 'detected' });
    addWords(text, out);
  }
}

function walk(node: lucene.Node | undefined, visit: (text: string) => void): void {
  if (!node) return;
  if (typeof node.term === 'string') visit(node.term);
  for (const bound of [node.term_min, node.term_max]) {
    // A quoted bound was rewritten as `_bound_` for the parser.
    if (typeof bound === 'string') visit(bound.replace(/^_|_$/g, ''));
  }
  walk(node.left, visit);
  walk(node.right, visit);
}

/**
 * Every candidate value in a query (duplicates possible), escapes resolved. Read as written
 * and in NFKC form: `１０．０．０．１` (full-width digits and dots) is 10.0.0.1 to a service
 * that folds compatibility characters, so the gate decides on that form too.
 */
export function queryValues(query: string): QueryValue[] {
  const out = readValues(query);
  const folded = query.normalize('NFKC');
  if (folded !== query) out.push(...readValues(folded));
  // An escape can spell a full-width character (`\uff11`): fold what the escapes resolve to.
  for (const v of [...out]) {
    const f = v.value.normalize('NFKC');
    if (f !== v.value) out.push({ value: f, from: v.from });
  }
  return out;
}

function readValues(query: string): QueryValue[] {
  const out: QueryValue[] = [];
  const parsed = parseLucene(query);
  let text = query;
  if (parsed.ast) {
    walk(parsed.ast, (term) => {
      const value = unescapeLucene(term);
      out.push({ value: value.trim(), from: 'term' });
      addText(value, out);
    });
    // Field names are not values: blanked (same length) before the text reading.
    const chars = text.split('');
    for (const f of parsed.fields) for (let i = f.start; i < f.end; i++) chars[i] = ' ';
    text = chars.join('');
  }
  addText(unescapeLucene(text), out);
  return out;
}

/** An unescaped `*` or `?`: a wildcard term. */
const WILDCARD = /(?:^|[^\\])(?:\\\\)*[*?]/;

/**
 * The pattern terms of a query (wildcards, regular expressions, fuzzy terms), as written and
 * in NFKC form, for the gate to hold against the deny lists (`patterns.ts`). Read from the
 * parse, and from the text's words too (a query the parser refuses may still run), so
 * nothing fails open. A term in quotes with a wildcard counts too.
 */
export function queryPatterns(query: string): QueryPattern[] {
  const out = new Map<string, QueryPattern>();
  const add = (p: QueryPattern): void => {
    const text = p.text.normalize('NFKC');
    if (text.replace(/[*?\\]/g, '') !== '' || p.kind !== 'wildcard')
      out.set(`${p.kind} ${text}`, { ...p, text });
  };
  for (const text of new Set([query, query.normalize('NFKC')])) {
    const parsed = parseLucene(text);
    const visit = (node: lucene.Node | undefined): void => {
      if (!node) return;
      if (typeof node.term === 'string') {
        if (node.regex) add({ kind: 'regex', text: node.term });
        else if (typeof node.similarity === 'number') add({ kind: 'fuzzy', text: node.term });
        else if (WILDCARD.test(node.term)) add({ kind: 'wildcard', text: node.term });
      }
      visit(node.left);
      visit(node.right);
    };
    visit(parsed.ast);
    for (const raw of text.split(SEPARATORS)) {
      const word = raw.replace(/^[A-Za-z_][\w.]*:/, '');
      if (word.startsWith('/')) continue;
      if (/[^\\]~[\d.]*$/.test(word)) add({ kind: 'fuzzy', text: word.replace(/~[\d.]*$/, '') });
      else if (WILDCARD.test(word)) add({ kind: 'wildcard', text: word });
    }
    if (!parsed.ast)
      for (const m of text.matchAll(/\/((?:[^/\\\n]|\\.)+)\//g)) add({ kind: 'regex', text: m[1] });
  }
  return [...out.values()];
}
