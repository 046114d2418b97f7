/**
 * Diagnostics for one query of a `.odinq` file. The syntax is judged by the `lucene` package
 * (a PEG.js parser of the Lucene query-string syntax that reports error positions); this
 * module only adapts ODIN's dialect to it and turns its answers into short messages with
 * quick fixes. Pure: no VS Code.
 *
 * ODIN accepts two things the library does not: single-quoted phrases and quoted range
 * bounds (ODIN-FACTS, "Query language"). Both are rewritten before parsing without changing
 * the text's length, so every position the library reports is a position in the original.
 */
import * as lucene from 'lucene';
import type { FieldInfo } from '../query/completion';
import { l10n } from '../text/l10n';
import { nearest, type HuntKind } from './file';

export type DiagnosticCode =
  | 'syntax'
  | 'unclosedQuote'
  | 'unclosedGroup'
  | 'unmatchedClose'
  | 'unclosedRange'
  | 'danglingOperator'
  | 'unknownField'
  | 'lockedField'
  | 'emptyQuery'
  | 'domainSyntax';

export interface QueryFix {
  title: string;
  start: number;
  end: number;
  text: string;
}

export interface QueryDiagnostic {
  /** Offsets into the query text given to `checkQuery`. */
  start: number;
  end: number;
  severity: 'error' | 'warning';
  code: DiagnosticCode;
  message: string;
  fix?: QueryFix;
}

/** The structured fields of a domain search (it takes no query string). */
export const DOMAIN_FIELDS: Record<string, string> = {
  get domain() {
    return l10n.t('The domain whose subdomains are listed, e.g. example.com.');
  },
  get keyword() {
    return l10n.t('A word the domain or subdomain contains.');
  },
  get publishedAfter() {
    return l10n.t('Only records added after this date (YYYY-MM-DD).');
  },
  get publishedBefore() {
    return l10n.t('Only records added before this date (YYYY-MM-DD).');
  },
};

export interface CheckOptions {
  /** The field catalogue of the kind; without it unknown fields are not reported. */
  fields?: readonly FieldInfo[];
}

export interface FieldRef {
  field: string;
  start: number;
  end: number;
  /** The value as written (a term or a range), for domain filters. */
  value?: string;
  range?: boolean;
}

interface Normalised {
  text: string;
  problems: QueryDiagnostic[];
}

const OPEN_AT = /[\s:([{!+-]/;

/**
 * Rewrites single-quoted phrases as double-quoted ones and quoted range bounds as bare
 * words, keeping every offset. Reports a quote that is never closed.
 */
export function normalise(text: string): Normalised {
  const out = text.split('');
  const problems: QueryDiagnostic[] = [];
  let rangeDepth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '[' || ch === '{') rangeDepth++;
    else if ((ch === ']' || ch === '}') && rangeDepth > 0) rangeDepth--;
    const single = ch === "'" && (i === 0 || OPEN_AT.test(text[i - 1]));
    if (ch !== '"' && !single) continue;
    let j = i + 1;
    while (j < text.length && text[j] !== ch) j += text[j] === '\\' ? 2 : 1;
    if (j >= text.length) {
      const lineEnd = text.indexOf('\n', i);
      const at =
        (lineEnd < 0 ? text.length : lineEnd) -
        (text[(lineEnd < 0 ? text.length : lineEnd) - 1] === '\r' ? 1 : 0);
      let insertAt = at;
      while (insertAt > i + 1 && /\s/.test(text[insertAt - 1])) insertAt--;
      problems.push({
        start: i,
        end: i + 1,
        severity: 'error',
        code: 'unclosedQuote',
        message:
          ch === '"'
            ? l10n.t('This double quote is never closed.')
            : l10n.t('This single quote is never closed.'),
        fix: { title: l10n.t('Close the quote'), start: insertAt, end: insertAt, text: ch },
      });
      return { text: out.join(''), problems };
    }
    if (rangeDepth > 0) {
      // A quoted bound: the library takes bare words only; the content is one bound.
      out[i] = '_';
      out[j] = '_';
      for (let k = i + 1; k < j; k++) if (/[\s"'\\]/.test(out[k])) out[k] = '_';
    } else if (single) {
      out[i] = '"';
      out[j] = '"';
      for (let k = i + 1; k < j; k++) if (text[k] === '"') out[k] = "'";
    }
    i = j;
  }
  return { text: out.join(''), problems };
}

/** Unclosed `(` / `[` and stray `)` outside phrases, to explain a parse error with a fix. */
function balanceProblem(text: string): QueryDiagnostic | undefined {
  const stack: Array<{ ch: string; at: number }> = [];
  let quote = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '"') quote = !quote;
    if (quote) continue;
    if (ch === '(' || ch === '[' || ch === '{') stack.push({ ch, at: i });
    else if (ch === ')' || ch === ']' || ch === '}') {
      const top = stack.pop();
      const want = top?.ch === '(' ? ')' : top ? ']}' : '';
      if (!top || !want.includes(ch)) {
        return {
          start: i,
          end: i + 1,
          severity: 'error',
          code: 'unmatchedClose',
          message: l10n.t('This "{0}" closes nothing.', ch),
          fix: { title: l10n.t('Remove "{0}"', ch), start: i, end: i + 1, text: '' },
        };
      }
    }
  }
  const open = stack.pop();
  if (!open) return undefined;
  let end = text.length;
  while (end > open.at + 1 && /\s/.test(text[end - 1])) end--;
  if (open.ch === '(') {
    return {
      start: open.at,
      end: open.at + 1,
      severity: 'error',
      code: 'unclosedGroup',
      message: l10n.t('This "(" is never closed.'),
      fix: { title: l10n.t('Add the closing ")"'), start: end, end, text: ')' },
    };
  }
  return {
    start: open.at,
    end: open.at + 1,
    severity: 'error',
    code: 'unclosedRange',
    message: l10n.t(
      'This range is never closed: write it as {0} (* for an open end).',
      // l10n: English, query syntax
      `${open.ch}low TO high${open.ch === '[' ? ']' : '}'}`,
    ),
  };
}

/** Operators with nothing on one side (the library silently drops a trailing `OR`). */
function danglingOperator(text: string): QueryDiagnostic | undefined {
  // Phrases blanked so an AND inside quotes is not an operator.
  const plain = text.replace(/"(?:[^"\\]|\\.)*"/g, (m) => ' '.repeat(m.length));
  const ops = /(?<![^\s()])(AND|OR|NOT|&&|\|\|)(?![^\s()])/g;
  for (const m of plain.matchAll(ops)) {
    const at = m.index ?? 0;
    const before = plain.slice(0, at).trimEnd();
    const after = plain.slice(at + m[0].length).trimStart();
    const binary = m[0] !== 'NOT';
    const missingRight = after === '' || after.startsWith(')');
    // `a AND OR b` is reported at the second operator (where the emulator's parser stops too).
    const missingLeft =
      binary && (before === '' || before.endsWith('(') || /(?<![^\s()])(AND|OR|NOT|&&|\|\|)$/.test(before));
    if (missingRight || missingLeft) {
      return {
        start: at,
        end: at + m[0].length,
        severity: 'error',
        code: 'danglingOperator',
        message: missingLeft
          ? l10n.t('"{0}" needs a term on its left.', m[0])
          : l10n.t('"{0}" needs a term on its right.', m[0]),
        fix: { title: l10n.t('Remove "{0}"', m[0]), start: at, end: at + m[0].length, text: '' },
      };
    }
  }
  return undefined;
}

function collectFields(node: lucene.Node | undefined, out: FieldRef[]): void {
  if (!node) return;
  if (node.field && node.field !== '<implicit>' && node.fieldLocation) {
    let field = node.field;
    let start = node.fieldLocation.start.offset;
    const strip = /^[-+!]+/.exec(field)?.[0].length ?? 0;
    field = field.slice(strip);
    start += strip;
    const ref: FieldRef = { field, start, end: node.fieldLocation.end.offset };
    if (node.term !== undefined) ref.value = node.term;
    if (node.term_min !== undefined) ref.range = true;
    out.push(ref);
  }
  collectFields(node.left, out);
  collectFields(node.right, out);
}

export interface ParseOutcome {
  ast?: lucene.Node;
  fields: FieldRef[];
  error?: QueryDiagnostic;
}

/** Parses `text` with the library (after `normalise`); the first problem, or the tree and its fields. */
export function parseLucene(text: string): ParseOutcome {
  const norm = normalise(text);
  if (norm.problems.length) return { fields: [], error: norm.problems[0] };
  let ast: lucene.Node;
  try {
    ast = lucene.parse(norm.text);
  } catch (err) {
    const e = err as lucene.SyntaxError;
    const at = e.location?.start.offset ?? 0;
    const explained = balanceProblem(norm.text);
    if (explained) return { fields: [], error: explained };
    const found = e.found ?? null;
    return {
      fields: [],
      error: {
        start: at,
        end: Math.max(at + 1, e.location?.end.offset ?? at + 1),
        severity: 'error',
        code: 'syntax',
        message:
          found === null
            ? l10n.t('The query ends too early: a value or term is missing here.')
            : found === ':'
              ? l10n.t('A ":" here has no field name before it (quote values that contain ":").')
              : l10n.t('Unexpected "{0}" here.', found),
      },
    };
  }
  const dangling = danglingOperator(norm.text);
  if (dangling) return { fields: [], error: dangling };
  const fields: FieldRef[] = [];
  collectFields(ast, fields);
  return { ast, fields };
}

/** Whether `text` has anything but whitespace (comments are blanked before this). */
export function isEmptyQuery(text: string): boolean {
  return text.trim() === '';
}

/** All diagnostics of one query. `text` is the body with comments blanked (offsets 1:1). */
export function checkQuery(text: string, kind: HuntKind, opts: CheckOptions = {}): QueryDiagnostic[] {
  if (isEmptyQuery(text)) {
    return [
      {
        start: 0,
        end: 0,
        severity: 'warning',
        code: 'emptyQuery',
        message:
          kind === 'domains'
            ? l10n.t('This domain search has no filter: add e.g. "domain: example.com".')
            : l10n.t('This query is empty and would match everything: write "*" if that is what you mean.'),
        ...(kind === 'domains'
          ? {}
          : { fix: { title: l10n.t('Write "*" (match everything)'), start: 0, end: 0, text: '*' } }),
      },
    ];
  }
  const parsed = parseLucene(text);
  if (parsed.error) return [parsed.error];
  const out: QueryDiagnostic[] = [];
  if (kind === 'domains') {
    out.push(...checkDomainQuery(text, parsed));
    return out;
  }
  const fields = opts.fields;
  if (!fields?.length) return out;
  const byName = new Map(fields.map((f) => [f.name, f]));
  const names = fields.map((f) => f.name);
  for (const ref of parsed.fields) {
    if (ref.field.includes('*')) continue;
    const info = byName.get(ref.field);
    if (!info) {
      const guess = nearest(ref.field, names);
      out.push({
        start: ref.start,
        end: ref.end,
        severity: 'warning',
        code: 'unknownField',
        message: guess
          ? l10n.t('"{0}" is not a field of {1}. Did you mean "{2}"?', ref.field, kind, guess)
          : l10n.t('"{0}" is not a field of {1}.', ref.field, kind),
        ...(guess
          ? { fix: { title: l10n.t('Change to {0}', guess), start: ref.start, end: ref.end, text: guess } }
          : {}),
      });
    } else if (info.locked) {
      out.push({
        start: ref.start,
        end: ref.end,
        severity: 'warning',
        code: 'lockedField',
        message: l10n.t('"{0}" needs a higher ODIN plan; the search may be refused.', ref.field),
      });
    }
  }
  return out;
}

function checkDomainQuery(text: string, parsed: ParseOutcome): QueryDiagnostic[] {
  const out: QueryDiagnostic[] = [];
  const plain = text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, (m) => ' '.repeat(m.length));
  const bad = /(?<![^\s()])(OR|NOT|\|\|)(?![^\s()])|[()[\]{}]/.exec(plain);
  if (bad) {
    out.push({
      start: bad.index,
      end: bad.index + bad[0].length,
      severity: 'error',
      code: 'domainSyntax',
      message: l10n.t(
        'A domain search takes "field: value" filters joined by AND only (domain, keyword, publishedAfter, publishedBefore).',
      ),
    });
  }
  const implicit = collectImplicit(parsed.ast);
  if (implicit) {
    out.push({
      start: implicit.start,
      end: implicit.end,
      severity: 'error',
      code: 'domainSyntax',
      message: l10n.t('Write filters as "field: value", e.g. "domain: example.com".'),
      fix: {
        title: l10n.t('Make it "domain: …"'),
        start: implicit.start,
        end: implicit.start,
        text: 'domain: ',
      },
    });
  }
  const names = Object.keys(DOMAIN_FIELDS);
  for (const ref of parsed.fields) {
    if (!Object.hasOwn(DOMAIN_FIELDS, ref.field)) {
      const guess = nearest(ref.field, names);
      out.push({
        start: ref.start,
        end: ref.end,
        severity: 'error',
        code: 'unknownField',
        message: l10n.t('A domain search has no filter "{0}"; use {1}.', ref.field, names.join(', ')),
        ...(guess
          ? { fix: { title: l10n.t('Change to {0}', guess), start: ref.start, end: ref.end, text: guess } }
          : {}),
      });
    } else if (
      /^published/.test(ref.field) &&
      ref.value !== undefined &&
      !/^\d{4}-\d{2}-\d{2}$/.test(stripQuotes(ref.value))
    ) {
      out.push({
        start: ref.start,
        end: ref.end,
        severity: 'error',
        code: 'domainSyntax',
        message: l10n.t('"{0}" takes a date as YYYY-MM-DD.', ref.field),
      });
    }
  }
  return out;
}

function collectImplicit(node: lucene.Node | undefined): { start: number; end: number } | undefined {
  if (!node) return undefined;
  if (node.field === '<implicit>' && node.termLocation)
    return { start: node.termLocation.start.offset, end: node.termLocation.end.offset };
  return collectImplicit(node.left) ?? collectImplicit(node.right);
}

const stripQuotes = (v: string): string => v.replace(/^["'](.*)["']$/s, '$1');

/** The filter of a domain query (`domain: example.com AND keyword: api`); undefined values are absent. */
export function domainFilterOf(text: string): Record<string, string> {
  const parsed = parseLucene(text);
  const out: Record<string, string> = {};
  for (const ref of parsed.fields)
    if (Object.hasOwn(DOMAIN_FIELDS, ref.field) && ref.value !== undefined)
      out[ref.field] = stripQuotes(ref.value);
  return out;
}
