/**
 * The versioned file format a team can commit to a repository (`{ "version": 1,
 * "searches": [...] }`). Damaged input never loses data: entries that do not validate are
 * returned beside the good ones (with a per-entry reason) so the caller can keep them aside
 * and report them.
 */
import type { SavedSearch } from '../search/kinds';
import { canonical, isObj, newId, validateSpec } from './spec';
import { l10n } from '../text/l10n';

export const FORMAT_VERSION = 1;
export const MAX_NAME_LENGTH = 200;
export const MAX_SEARCHES = 1000;

export interface EntryError {
  /** Position in the input list (0-based). */
  index: number;
  /** The entry's name when it has one, for the message. */
  name?: string;
  message: string;
  /** The entry exactly as read, kept aside so nothing is lost. */
  raw: unknown;
}

export interface ParsedSearches {
  searches: SavedSearch[];
  errors: EntryError[];
  /** Entries kept aside earlier (the store's `rejected` list), carried over untouched. */
  rejected: unknown[];
}

/**
 * Validates one saved-search entry in file form: `{ name, kind, ...parameters }` (the
 * parameters sit beside name and kind so the file reads well in a code review). Also
 * accepts the older nested form `{ name, spec: {...} }`.
 */
export function validateEntry(raw: unknown): { search: SavedSearch } | { error: string } {
  if (!isObj(raw)) return { error: l10n.t('is not an object') };
  const name = typeof raw.name === 'string' ? raw.name.trim() : '';
  if (!name) return { error: l10n.t('has no "name"') };
  if (name.length > MAX_NAME_LENGTH)
    return { error: l10n.t('"name" is longer than {0} characters', MAX_NAME_LENGTH) };
  const specSource = isObj(raw.spec) ? raw.spec : raw;
  const result = validateSpec(specSource);
  if ('error' in result) return { error: result.error };
  const id = typeof raw.id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(raw.id) ? raw.id : newId();
  return { search: { id, name, spec: result.spec } };
}

/** The file form of an entry: `{ id, name, kind, ...params }`. */
export function toEntry(search: SavedSearch): Record<string, unknown> {
  return { id: search.id, name: search.name, ...canonical(search.spec) };
}

/**
 * Reads the versioned file format. Version 1 is `{ version: 1, searches: [...] }`; the
 * unversioned form written before it (a bare array of entries) is migrated. A file from a
 * newer version, or one that is not JSON, is an error for the whole file (`fatal`).
 */
export function parseSearchesFile(text: string): ParsedSearches | { fatal: string } {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''), (key, value: unknown) =>
      key === '__proto__' || key === 'constructor' || key === 'prototype' ? undefined : value,
    );
  } catch (err) {
    return {
      fatal: l10n.t('The file is not valid JSON ({0}).', err instanceof Error ? err.message : String(err)),
    };
  }
  return parseSearchesData(data);
}

export function parseSearchesData(data: unknown): ParsedSearches | { fatal: string } {
  let list: unknown;
  let rejected: unknown[] = [];
  if (Array.isArray(data)) {
    list = data; // version 0: a bare array
  } else if (isObj(data)) {
    const version = data.version;
    if (version === undefined) {
      if (!Array.isArray(data.searches))
        return { fatal: l10n.t('The file has no "version" and no "searches" list.') };
    } else if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
      return {
        fatal: l10n.t(
          'The file\'s "version" {0} is not a version number.',
          JSON.stringify(version).slice(0, 20),
        ),
      };
    } else if (version > FORMAT_VERSION) {
      return {
        fatal: l10n.t(
          'The file was written by a newer version of the extension (format version {0}; this one reads up to {1}). Update the extension.',
          version,
          FORMAT_VERSION,
        ),
      };
    }
    list = data.searches;
    if (!Array.isArray(list)) return { fatal: l10n.t('The file\'s "searches" is not a list.') };
    if (Array.isArray(data.rejected)) rejected = data.rejected.slice();
  } else {
    return {
      fatal: l10n.t(
        'The file does not contain a saved-search list ({0}).',
        '{ "version": 1, "searches": [...] }',
      ),
    };
  }
  const entries = list as unknown[];
  const searches: SavedSearch[] = [];
  const errors: EntryError[] = [];
  const ids = new Set<string>();
  entries.forEach((raw, index) => {
    if (index >= MAX_SEARCHES) {
      errors.push({ index, message: l10n.t('is beyond the limit of {0} saved searches', MAX_SEARCHES), raw });
      return;
    }
    const r = validateEntry(raw);
    if ('error' in r) {
      const name =
        isObj(raw) && typeof raw.name === 'string' ? raw.name.slice(0, MAX_NAME_LENGTH) : undefined;
      errors.push({ index, ...(name ? { name } : {}), message: r.error, raw });
      return;
    }
    let search = r.search;
    if (ids.has(search.id)) search = { ...search, id: newId() };
    ids.add(search.id);
    searches.push(search);
  });
  return { searches, errors, rejected };
}

/** The file text for `searches` (and entries kept aside, in the store). Stable key order, 2-space indent. */
export function serializeSearches(
  searches: readonly SavedSearch[],
  rejected: readonly unknown[] = [],
): string {
  const doc: Record<string, unknown> = { version: FORMAT_VERSION, searches: searches.map(toEntry) };
  if (rejected.length) doc.rejected = rejected;
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** One line per entry error: "Entry 3 ("Prod web"): has no "kind"". */
export function describeEntryError(e: EntryError): string {
  return e.name
    ? l10n.t('Entry {0} ("{1}"): {2}', e.index + 1, e.name, e.message)
    : l10n.t('Entry {0}: {1}', e.index + 1, e.message);
}
