/**
 * Saved searches: the model, its validation, and the versioned file format a team can
 * commit to a repository (`{ "version": 1, "searches": [...] }`). Pure: no VS Code.
 *
 * Damaged input never loses data: entries that do not validate are returned beside the
 * good ones (with a per-entry reason) so the caller can keep them aside and report them.
 */

/** Every kind of search the extension can run (one per command that takes inputs). */
export type SearchKind =
  | 'hosts'
  | 'hostSummary'
  | 'host'
  | 'hostCves'
  | 'hostExploits'
  | 'hostCve'
  | 'domains'
  | 'domainCount'
  | 'subdomainCount'
  | 'whois'
  | 'whoisHistory'
  | 'buckets'
  | 'fileCount'
  | 'fileSummary';

export type SearchGroup = 'hosts' | 'domains' | 'storage';

type Param = 'query' | 'field' | 'ip' | 'cve' | 'domain';

export interface KindInfo {
  /** Short label ("Host search"). */
  label: string;
  group: SearchGroup;
  /** Parameters that must be present (non-empty) for the search to run. */
  required: Param[];
  /** Parameters the kind uses at all (others are dropped on normalisation). */
  uses: Array<keyof SearchSpec>;
}

const DOMAIN_FILTER: Array<keyof SearchSpec> = ['domain', 'keyword', 'publishedAfter', 'publishedBefore'];

export const KINDS: Record<SearchKind, KindInfo> = {
  hosts: { label: 'Host search', group: 'hosts', required: [], uses: ['query'] },
  hostSummary: {
    label: 'Host summary',
    group: 'hosts',
    required: ['field'],
    uses: ['query', 'field', 'limit'],
  },
  host: { label: 'Host', group: 'hosts', required: ['ip'], uses: ['ip'] },
  hostCves: { label: 'Host CVEs', group: 'hosts', required: ['ip'], uses: ['ip'] },
  hostExploits: { label: 'Host exploits', group: 'hosts', required: ['ip'], uses: ['ip'] },
  hostCve: { label: 'CVE on host', group: 'hosts', required: ['ip', 'cve'], uses: ['ip', 'cve'] },
  domains: { label: 'Domain search', group: 'domains', required: [], uses: DOMAIN_FILTER },
  domainCount: { label: 'Domain count', group: 'domains', required: [], uses: DOMAIN_FILTER },
  subdomainCount: { label: 'Subdomain count', group: 'domains', required: [], uses: DOMAIN_FILTER },
  whois: { label: 'Whois', group: 'domains', required: ['domain'], uses: ['domain'] },
  whoisHistory: { label: 'Whois history', group: 'domains', required: ['domain'], uses: ['domain'] },
  buckets: { label: 'Bucket search', group: 'storage', required: [], uses: ['query', 'sortBy', 'sortDir'] },
  fileCount: { label: 'File count', group: 'storage', required: [], uses: ['query'] },
  fileSummary: {
    label: 'File summary',
    group: 'storage',
    required: ['field'],
    uses: ['query', 'field', 'limit'],
  },
};

export const GROUP_LABELS: Record<SearchGroup, string> = {
  hosts: 'Hosts',
  domains: 'Domains and whois',
  storage: 'Exposed storage',
};

export const BUCKET_SORT_FIELDS = ['ins_at', 'files', 'scan_at', 'last_found_at'] as const;

/** What to run: the kind and its parameters (flat; `KINDS[kind].uses` says which apply). */
export interface SearchSpec {
  kind: SearchKind;
  query?: string;
  field?: string;
  limit?: number;
  domain?: string;
  keyword?: string;
  /** YYYY-MM-DD */
  publishedAfter?: string;
  publishedBefore?: string;
  sortBy?: string;
  sortDir?: 'asc' | 'desc';
  ip?: string;
  cve?: string;
}

export interface SavedSearch {
  id: string;
  name: string;
  spec: SearchSpec;
}

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

export const FORMAT_VERSION = 1;
export const MAX_NAME_LENGTH = 200;
export const MAX_TEXT_LENGTH = 4000;
export const MAX_SEARCHES = 1000;

export function isSearchKind(v: unknown): v is SearchKind {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(KINDS, v);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `undefined` when `text` is a real calendar date written YYYY-MM-DD, else the reason. */
export function dateError(text: string): string | undefined {
  const m = DATE_RE.exec(text);
  if (!m) return 'Use the form YYYY-MM-DD, e.g. 2024-07-08.';
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) {
    return `${text} is not a calendar date.`;
  }
  return undefined;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Validates one search specification (from a file, a command argument or the store).
 * Returns the normalised spec (unknown and unused keys dropped, strings trimmed) or the
 * reason it is invalid.
 */
export function validateSpec(raw: unknown): { spec: SearchSpec } | { error: string } {
  if (!isObj(raw)) return { error: 'is not an object' };
  if (!isSearchKind(raw.kind)) {
    return {
      error:
        raw.kind === undefined
          ? 'has no "kind"'
          : `has an unknown kind ${JSON.stringify(raw.kind).slice(0, 40)} (expected one of ${Object.keys(KINDS).join(', ')})`,
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
        return { error: '"limit" must be a whole number from 1 to 10000' };
      }
      spec.limit = value as number;
      continue;
    }
    if (typeof value !== 'string') return { error: `"${key}" must be a string` };
    if (value.length > MAX_TEXT_LENGTH)
      return { error: `"${key}" is longer than ${MAX_TEXT_LENGTH} characters` };
    const text = key === 'query' ? value : value.trim();
    if (key === 'publishedAfter' || key === 'publishedBefore') {
      const why = dateError(text);
      if (why) return { error: `"${key}": ${why}` };
    }
    if (key === 'sortDir' && text !== 'asc' && text !== 'desc')
      return { error: '"sortDir" must be "asc" or "desc"' };
    if (key === 'sortBy' && !/^[A-Za-z0-9_.]+$/.test(text)) return { error: '"sortBy" must be a field name' };
    (spec as unknown as Record<string, unknown>)[key] = text;
  }
  for (const p of info.required) {
    if (spec[p] === undefined || String(spec[p]).trim() === '')
      return { error: `needs "${p}" for kind ${kind}` };
  }
  if (spec.publishedAfter && spec.publishedBefore && spec.publishedAfter > spec.publishedBefore) {
    return { error: '"publishedAfter" is later than "publishedBefore"' };
  }
  return { spec };
}

/** A one-line summary of what a spec searches for ("services.port:443", "example.com after 2024-01-01"). */
export function describeSpec(spec: SearchSpec): string {
  switch (spec.kind) {
    case 'hosts':
    case 'fileCount':
      return spec.query?.trim() ? spec.query : '*';
    case 'buckets':
      return `${spec.query?.trim() ? spec.query : '*'}${spec.sortBy ? ` (by ${spec.sortBy} ${spec.sortDir ?? 'desc'})` : ''}`;
    case 'hostSummary':
    case 'fileSummary':
      return `${spec.field ?? ''} over ${spec.query?.trim() ? spec.query : '*'}`;
    case 'host':
    case 'hostCves':
    case 'hostExploits':
      return spec.ip ?? '';
    case 'hostCve':
      return `${spec.cve ?? ''} on ${spec.ip ?? ''}`;
    case 'whois':
    case 'whoisHistory':
      return spec.domain ?? '';
    case 'domains':
    case 'domainCount':
    case 'subdomainCount': {
      const parts: string[] = [];
      if (spec.domain) parts.push(spec.domain);
      if (spec.keyword) parts.push(`keyword ${spec.keyword}`);
      if (spec.publishedAfter) parts.push(`after ${spec.publishedAfter}`);
      if (spec.publishedBefore) parts.push(`before ${spec.publishedBefore}`);
      return parts.length ? parts.join(', ') : 'all';
    }
  }
}

/** Equality of two specs (same kind and same parameters). */
export function sameSpec(a: SearchSpec, b: SearchSpec): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(spec: SearchSpec): Record<string, unknown> {
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

/**
 * Validates one saved-search entry in file form: `{ name, kind, ...parameters }` (the
 * parameters sit beside name and kind so the file reads well in a code review). Also
 * accepts the older nested form `{ name, spec: {...} }`.
 */
export function validateEntry(raw: unknown): { search: SavedSearch } | { error: string } {
  if (!isObj(raw)) return { error: 'is not an object' };
  const name = typeof raw.name === 'string' ? raw.name.trim() : '';
  if (!name) return { error: 'has no "name"' };
  if (name.length > MAX_NAME_LENGTH) return { error: `"name" is longer than ${MAX_NAME_LENGTH} characters` };
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
    return { fatal: `The file is not valid JSON (${err instanceof Error ? err.message : String(err)}).` };
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
        return { fatal: 'The file has no "version" and no "searches" list.' };
    } else if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
      return {
        fatal: `The file's "version" ${JSON.stringify(version).slice(0, 20)} is not a version number.`,
      };
    } else if (version > FORMAT_VERSION) {
      return {
        fatal: `The file was written by a newer version of the extension (format version ${version}; this one reads up to ${FORMAT_VERSION}). Update the extension.`,
      };
    }
    list = data.searches;
    if (!Array.isArray(list)) return { fatal: 'The file\'s "searches" is not a list.' };
    if (Array.isArray(data.rejected)) rejected = data.rejected.slice();
  } else {
    return { fatal: 'The file does not contain a saved-search list ({ "version": 1, "searches": [...] }).' };
  }
  const entries = list as unknown[];
  const searches: SavedSearch[] = [];
  const errors: EntryError[] = [];
  const ids = new Set<string>();
  entries.forEach((raw, index) => {
    if (index >= MAX_SEARCHES) {
      errors.push({ index, message: `is beyond the limit of ${MAX_SEARCHES} saved searches`, raw });
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
  return `Entry ${e.index + 1}${e.name ? ` ("${e.name}")` : ''}: ${e.message}`;
}

// ---------------------------------------------------------------- list operations (immutable)

/** `base`, or `base (2)`, `base (3)`, ... whichever is not taken. */
export function uniqueName(base: string, taken: Iterable<string>): string {
  const names = new Set(taken);
  if (!names.has(base)) return base;
  const stem = base.replace(/ \(\d+\)$/, '');
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})`;
    if (!names.has(candidate)) return candidate;
  }
}

export function nameError(name: string): string | undefined {
  const t = name.trim();
  if (!t) return 'Give the search a name.';
  if (t.length > MAX_NAME_LENGTH) return `At most ${MAX_NAME_LENGTH} characters.`;
  return undefined;
}

export function replaceSearch(
  list: readonly SavedSearch[],
  id: string,
  patch: Partial<Omit<SavedSearch, 'id'>>,
): SavedSearch[] {
  return list.map((s) => (s.id === id ? { ...s, ...patch } : s));
}

export function duplicateSearch(list: readonly SavedSearch[], id: string): SavedSearch[] {
  const i = list.findIndex((s) => s.id === id);
  if (i < 0) return list.slice();
  const src = list[i];
  const copy: SavedSearch = {
    id: newId(),
    name: uniqueName(
      `${src.name} (copy)`,
      list.map((s) => s.name),
    ),
    spec: { ...src.spec },
  };
  return [...list.slice(0, i + 1), copy, ...list.slice(i + 1)];
}

/**
 * Moves an entry up or down among the entries of the same group (the view shows one
 * list per group, so "up" means past the previous entry of that group).
 */
export function moveSearch(list: readonly SavedSearch[], id: string, direction: -1 | 1): SavedSearch[] {
  const i = list.findIndex((s) => s.id === id);
  if (i < 0) return list.slice();
  const group = KINDS[list[i].spec.kind].group;
  let j = i + direction;
  while (j >= 0 && j < list.length && KINDS[list[j].spec.kind].group !== group) j += direction;
  if (j < 0 || j >= list.length) return list.slice();
  const out = list.slice();
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

/** Moves `ids` to just before `targetId` (or to the end when undefined): drag and drop. */
export function moveBefore(
  list: readonly SavedSearch[],
  ids: readonly string[],
  targetId: string | undefined,
): SavedSearch[] {
  const moving = list.filter((s) => ids.includes(s.id));
  if (!moving.length || (targetId && ids.includes(targetId))) return list.slice();
  const rest = list.filter((s) => !ids.includes(s.id));
  const at = targetId ? rest.findIndex((s) => s.id === targetId) : -1;
  if (at < 0) return [...rest, ...moving];
  return [...rest.slice(0, at), ...moving, ...rest.slice(at)];
}

/**
 * Merges imported searches into a list: an import never overwrites. An entry whose id is
 * taken gets a fresh id; a clash of names gets a suffix; an exact duplicate (same name and
 * same spec) is skipped and counted.
 */
export function mergeImported(
  list: readonly SavedSearch[],
  incoming: readonly SavedSearch[],
): { list: SavedSearch[]; added: number; skipped: number } {
  const out = list.slice();
  let added = 0;
  let skipped = 0;
  for (const s of incoming) {
    if (out.some((o) => o.name === s.name && sameSpec(o.spec, s.spec))) {
      skipped++;
      continue;
    }
    const id = out.some((o) => o.id === s.id) ? newId() : s.id;
    out.push({
      id,
      name: uniqueName(
        s.name,
        out.map((o) => o.name),
      ),
      spec: { ...s.spec },
    });
    added++;
  }
  return { list: out, added, skipped };
}
