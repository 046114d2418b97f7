/**
 * The one reading of ODIN's query language: the `lucene` package (a PEG.js parser of the
 * Lucene query-string syntax that reports error positions) with ODIN's dialect adapted, and
 * its errors as short messages with quick fixes. The hunts' diagnostics and the gate's query
 * reading both parse here. Pure: no VS Code.
 *
 * ODIN accepts two things the library does not: single-quoted phrases and quoted range
 * bounds (ODIN-FACTS, "Query language"). Both are rewritten before parsing without changing
 * the text's length, so every position the library reports is a position in the original.
 */
import * as lucene from 'lucene';
import { l10n } from '../text/l10n';

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
