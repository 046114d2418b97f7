/**
 * Diagnostics for one query of a `.odinq` file: the syntax as the core's one query parser
 * (`core/query/parser.ts`) judges it, then unknown and locked fields and the domain form,
 * as short messages with quick fixes. Pure: no VS Code.
 */
import type * as lucene from 'lucene';
import type { FieldInfo } from '../query/completion';
import { parseLucene, type ParseOutcome, type QueryDiagnostic } from '../query/parser';
import { l10n } from '../text/l10n';
import { nearest, type HuntKind } from './file';

export {
  normalise,
  parseLucene,
  type DiagnosticCode,
  type FieldRef,
  type ParseOutcome,
  type QueryDiagnostic,
  type QueryFix,
} from '../query/parser';

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
