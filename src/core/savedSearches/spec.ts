/**
 * Validation of a search specification (from a file, a command argument or the store),
 * equality and fresh ids. Its one-line description is the kind's (core/search/kinds.ts).
 */
import { KINDS, type SearchKind, type SearchSpec } from '../search/kinds';
import { l10n } from '../text/l10n';

export const MAX_TEXT_LENGTH = 4000;

export function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function isSearchKind(v: unknown): v is SearchKind {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(KINDS, v);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `undefined` when `text` is a real calendar date written YYYY-MM-DD, else the reason. */
export function dateError(text: string): string | undefined {
  const m = DATE_RE.exec(text);
  if (!m) return l10n.t('Use the form YYYY-MM-DD, e.g. 2024-07-08.');
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) {
    return l10n.t('{0} is not a calendar date.', text);
  }
  return undefined;
}

/**
 * Validates one search specification (from a file, a command argument or the store).
 * Returns the normalised spec (unknown and unused keys dropped, strings trimmed) or the
 * reason it is invalid.
 */
export function validateSpec(raw: unknown): { spec: SearchSpec } | { error: string } {
  if (!isObj(raw)) return { error: l10n.t('is not an object') };
  if (!isSearchKind(raw.kind)) {
    return {
      error:
        raw.kind === undefined
          ? l10n.t('has no "kind"')
          : l10n.t(
              'has an unknown kind {0} (expected one of {1})',
              JSON.stringify(raw.kind).slice(0, 40),
              Object.keys(KINDS).join(', '),
            ),
    };
  }
  const kind = raw.kind;
  const info = KINDS[kind];
  const spec: SearchSpec = { kind };
  for (const key of info.uses) {
    const value = raw[key];
    if (value === undefined || value === null || value === '') continue;
    if (key === 'limit') {
      if (!Number.isSafeInteger(value) || (value as number) < 1 || (value as number) > 10000) {
        return { error: l10n.t('"limit" must be a whole number from 1 to 10000') };
      }
      spec.limit = value as number;
      continue;
    }
    if (typeof value !== 'string') return { error: l10n.t('"{0}" must be a string', key) };
    if (value.length > MAX_TEXT_LENGTH)
      return { error: l10n.t('"{0}" is longer than {1} characters', key, MAX_TEXT_LENGTH) };
    const text = key === 'query' ? value : value.trim();
    if (key === 'publishedAfter' || key === 'publishedBefore') {
      const why = dateError(text);
      if (why) return { error: `"${key}": ${why}` };
    }
    if (key === 'sortDir' && text !== 'asc' && text !== 'desc')
      return { error: l10n.t('"sortDir" must be "asc" or "desc"') };
    if (key === 'sortBy' && !/^[A-Za-z0-9_.]+$/.test(text))
      return { error: l10n.t('"sortBy" must be a field name') };
    (spec as unknown as Record<string, unknown>)[key] = text;
  }
  for (const p of info.required) {
    if (spec[p] === undefined || String(spec[p]).trim() === '')
      return { error: l10n.t('needs "{0}" for kind {1}', p, kind) };
  }
  if (spec.publishedAfter && spec.publishedBefore && spec.publishedAfter > spec.publishedBefore) {
    return { error: l10n.t('"publishedAfter" is later than "publishedBefore"') };
  }
  return { spec };
}

/** Equality of two specs (same kind and same parameters). */
export function sameSpec(a: SearchSpec, b: SearchSpec): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

export function canonical(spec: SearchSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(spec).sort()) {
    const v = (spec as unknown as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
}

let idCounter = 0;
/** A fresh id (unique within a process; ids only need to be unique within one list). */
export function newId(now = Date.now()): string {
  idCounter = (idCounter + 1) % 1_000_000;
  return `s${now.toString(36)}${idCounter.toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}
