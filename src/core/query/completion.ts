/**
 * Completions for the query input (a QuickPick used as a text box: the whole query is the
 * value, so every completion is the whole new query). Pure: no VS Code.
 *
 * The query is scanned to find the token under construction (after the last whitespace or
 * parenthesis outside quotes). In a field position, field names from the catalogue
 * complete it; after `categories:`, `labels:`, `provider:` (and the file fields
 * `category:`, `label:`), the enumerations of the spec do; after a complete term the
 * operators `AND` / `OR` are offered.
 */
import { BUCKET_CATEGORIES, BUCKET_LABELS, BUCKET_PROVIDERS } from '../../api/types';
import { walkUnquoted } from './query';
import { l10n } from '../text/l10n';

export interface FieldInfo {
  name: string;
  /** Needs a higher plan (`is_locked` of the catalogue). */
  locked?: boolean;
  category?: string;
}

export type CompletionKind = 'field' | 'value' | 'operator';

export interface Completion {
  kind: CompletionKind;
  /** What is inserted (the field with its colon, the value, the operator). */
  label: string;
  /** The whole query after accepting this completion. */
  value: string;
  detail?: string;
  locked?: boolean;
}

export const ENUMERATIONS: Record<string, readonly string[]> = {
  categories: BUCKET_CATEGORIES,
  category: BUCKET_CATEGORIES,
  labels: BUCKET_LABELS,
  label: BUCKET_LABELS,
  provider: BUCKET_PROVIDERS,
};

export interface TokenContext {
  /** Index where the token under construction starts. */
  start: number;
  /** `field` while typing a field name or bare term; `value` after `field:`. */
  position: 'field' | 'value';
  /** The field whose value is typed (position `value`). */
  field?: string;
  /** What is typed of the field or value so far (without an opening quote). */
  prefix: string;
  /** The value started with a quote (which one). */
  quote?: string;
  /** The text before the token ends a complete term (so an operator may come next). */
  afterTerm: boolean;
}

/** Finds the token under construction at the end of `text`. */
export function tokenAt(text: string): TokenContext {
  let start = 0;
  walkUnquoted(text, (ch, i) => {
    if (/[\s()]/.test(ch)) start = i + 1;
  });
  const token = text.slice(start);
  const before = text.slice(0, start);
  // `provider: aw`: whitespace after the colon is allowed, so the field is the previous token.
  const prevField = /([A-Za-z0-9_.]+):\s+$/.exec(before);
  const colon = token.search(/:/);
  if (colon >= 0 && !/^["']/.test(token)) {
    const raw = token.slice(colon + 1);
    const q = /^["']/.exec(raw)?.[0];
    return {
      start: start + colon + 1,
      position: 'value',
      field: token.slice(0, colon),
      prefix: q ? raw.slice(1) : raw,
      ...(q ? { quote: q } : {}),
      afterTerm: false,
    };
  }
  if (prevField) {
    const q = /^["']/.exec(token)?.[0];
    return {
      start,
      position: 'value',
      field: prevField[1],
      prefix: q ? token.slice(1) : token,
      ...(q ? { quote: q } : {}),
      afterTerm: false,
    };
  }
  const trimmed = before.trimEnd();
  const afterTerm = trimmed !== '' && !/(\bAND|\bOR|\bNOT|\(|:)$/.test(trimmed);
  return { start, position: 'field', prefix: token, afterTerm };
}

export interface CompleteOptions {
  fields: readonly FieldInfo[];
  /** Maximum number of completions returned (default 50). */
  max?: number;
}

/** Completions for the query `text` (the cursor is at its end). */
export function complete(text: string, opts: CompleteOptions): Completion[] {
  const max = opts.max ?? 50;
  const ctx = tokenAt(text);
  const head = text.slice(0, ctx.start);
  const out: Completion[] = [];
  if (ctx.position === 'value') {
    const values =
      // Own keys only: a field typed as `valueOf:` or `constructor:` is no enumeration.
      (Object.hasOwn(ENUMERATIONS, ctx.field ?? '') ? ENUMERATIONS[ctx.field ?? ''] : undefined) ??
      (ctx.field?.startsWith('file_cat_count') ? [] : undefined);
    if (values) {
      const p = ctx.prefix.toLowerCase();
      for (const v of values) {
        if (!v.startsWith(p) || v === p) continue;
        out.push({
          kind: 'value',
          label: v,
          value: `${head}${ctx.quote ? `${ctx.quote}${v}${ctx.quote}` : v}`,
          detail: l10n.t('{0} value', ctx.field ?? ''),
        });
      }
    }
    return out.slice(0, max);
  }
  if (ctx.afterTerm && ctx.prefix === '') {
    for (const op of ['AND', 'OR'])
      out.push({ kind: 'operator', label: op, value: `${text}${op} `, detail: l10n.t('operator') });
  } else if (ctx.afterTerm && /^[AO]/.test(ctx.prefix)) {
    for (const op of ['AND', 'OR']) {
      if (op.startsWith(ctx.prefix) && op !== ctx.prefix)
        out.push({ kind: 'operator', label: op, value: `${head}${op} `, detail: l10n.t('operator') });
    }
  }
  const p = ctx.prefix.toLowerCase();
  const seen = new Set<string>();
  const prefixHits: Completion[] = [];
  const innerHits: Completion[] = [];
  for (const f of opts.fields) {
    if (seen.has(f.name)) continue;
    seen.add(f.name);
    const name = f.name.toLowerCase();
    if (name === p) continue;
    const hit: Completion = {
      kind: 'field',
      label: `${f.name}:`,
      value: `${head}${f.name}:`,
      ...(f.category ? { detail: f.category } : {}),
      ...(f.locked ? { locked: true } : {}),
    };
    if (name.startsWith(p)) prefixHits.push(hit);
    else if (p.length >= 2 && name.includes(p)) innerHits.push(hit);
  }
  // Unlocked fields first: a locked one costs a plan upgrade.
  const byLock = (a: Completion, b: Completion): number => Number(!!a.locked) - Number(!!b.locked);
  out.push(...prefixHits.sort(byLock), ...innerHits.sort(byLock));
  return out.slice(0, max);
}

/** Field names known without the catalogue (used until it arrives, or when it fails). */
export const BUILTIN_FIELDS: Record<'hosts' | 'buckets' | 'files', readonly string[]> = {
  hosts: [
    'ip',
    'services.port',
    'services.product',
    'services.name',
    'services.version',
    'services.cve.id',
    'services.modules.http.title',
    'asn.number',
    'asn.organization',
    'location.country_code',
    'location.country_name',
    'location.city',
    'tags.name',
    'banner',
    'hostnames.name',
    'domains.name',
    'last_updated_at',
    'is_vuln',
  ],
  buckets: [
    'name',
    'provider',
    'region',
    'labels',
    'categories',
    'files',
    'file_cat_count.src',
    'ins_at',
    'scan_at',
  ],
  files: ['name', 'path', 'bucket', 'provider', 'ext', 'category', 'label', 'size', 'url'],
};
