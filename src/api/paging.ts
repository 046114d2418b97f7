/**
 * Pagination. The spec does not say how `start`, `pagination.last` and `pagination.total`
 * lead to the next result set; the live service and Cyble's own clients do this: send the
 * previous page's `last` back as `start`, and stop when `last` is null. On host search
 * `last` is `[epoch_ms, score]` live (integers per the spec); on bucket and domain search
 * it is opaque and sent back exactly as received.
 *
 * A page has a next cursor unless it is empty, its `last` is null/absent/not an array of
 * the right kind, `last` equals the `start` that produced it (a server that ignores the
 * cursor would otherwise loop forever), or the `total` is reached. `pages()` adds the
 * checks that need the whole walk: total reached over all pages and a cursor repeating an
 * earlier one.
 */
import { FIRST_CVE_PAGE } from './endpoints';
import { OdinApiError } from './errors';
import type { CallOptions, HostCursor, OpaqueCursor, Page } from './types';

/** Host search cursor: a non-empty array of finite numbers. */
export function parseHostCursor(v: unknown): HostCursor | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  return v.every((x) => typeof x === 'number' && Number.isFinite(x)) ? (v as number[]).slice() : undefined;
}

/** Bucket / domain search cursor: any non-empty array, kept as it came. */
export function parseOpaqueCursor(v: unknown): OpaqueCursor | undefined {
  return Array.isArray(v) && v.length > 0 ? v : undefined;
}

/** Structural equality of two JSON values (cursors). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.prototype.hasOwnProperty.call(b, k) &&
      jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

export interface PageInput<T, C> {
  items: T[];
  /** The `pagination` object of the response (empty when absent). */
  pagination: Record<string, unknown>;
  /** The cursor sent as `start` for this page (`undefined` on page one). */
  start: C | undefined;
  parseCursor: (v: unknown) => C | undefined;
}

/** Builds a `Page` and decides whether there is a next one (see the file comment). */
export function toPage<T, C>({ items, pagination, start, parseCursor }: PageInput<T, C>): Page<T, C> {
  const total = Number.isSafeInteger(pagination.total) ? (pagination.total as number) : undefined;
  const limit = Number.isSafeInteger(pagination.limit) ? (pagination.limit as number) : undefined;
  let next = parseCursor(pagination.last);
  if (items.length === 0) next = undefined;
  else if (next !== undefined && start !== undefined && jsonEqual(next, start)) next = undefined;
  else if (start === undefined && total !== undefined && items.length >= total) next = undefined;
  const page: Page<T, C> = { items };
  if (total !== undefined) page.total = total;
  if (limit !== undefined) page.limit = limit;
  if (next !== undefined) page.next = next;
  return page;
}

/** One page of a search: `client.searchHosts.bind(client)`, or a wrapper `(p, o) => …`. */
export type FetchPage<P, T, C> = (params: P, opts?: CallOptions) => Promise<Page<T, C>>;

export interface WalkOptions {
  signal?: AbortSignal;
  /** Safety stop for servers whose cursors never end (default 1000 pages). */
  maxPages?: number;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new OdinApiError({
      kind: 'cancelled',
      endpoint: 'paging',
      detail: 'paging cancelled between pages',
    });
  }
}

/**
 * Yields page after page of a search, starting at `params.start` (page one when absent),
 * until the last page. Example: `for await (const p of pages(c.searchHosts.bind(c), {query}))`.
 */
export async function* pages<P extends object, T, C>(
  fetchPage: FetchPage<P, T, C>,
  params: P,
  signalOrOptions?: AbortSignal | WalkOptions,
): AsyncGenerator<Page<T, C>, void, undefined> {
  const opts: WalkOptions =
    signalOrOptions instanceof AbortSignal ? { signal: signalOrOptions } : (signalOrOptions ?? {});
  const maxPages = opts.maxPages ?? 1000;
  const seenCursors: unknown[] = [];
  let start = (params as { start?: unknown }).start;
  let seen = 0;
  for (let n = 0; n < maxPages; n++) {
    throwIfAborted(opts.signal);
    const page = await fetchPage({ ...params, start }, { signal: opts.signal });
    yield page;
    seen += page.items.length;
    const next = page.next;
    if (next === undefined) return;
    if (page.total !== undefined && seen >= page.total) return;
    if (seenCursors.some((c) => jsonEqual(c, next))) return;
    if (start !== undefined) seenCursors.push(start);
    seenCursors.push(next);
    start = next;
  }
}

export interface CollectOptions extends WalkOptions {
  /** Stop once this many items are collected (the result is cut to exactly this many). */
  maxItems?: number;
}

/** All items of a search (or the first `maxItems`), walking pages with `pages()`. */
export async function collect<P extends object, T, C>(
  fetchPage: FetchPage<P, T, C>,
  params: P,
  opts: CollectOptions = {},
): Promise<T[]> {
  const max = opts.maxItems ?? Number.POSITIVE_INFINITY;
  const out: T[] = [];
  if (max <= 0) return out;
  for await (const page of pages(fetchPage, params, opts)) {
    for (const item of page.items) {
      out.push(item);
      if (out.length >= max) return out;
    }
  }
  return out;
}

/**
 * A page of `/v1/cves/all/{ip}/{page}`. `next` is the following page number, set while the
 * server says there are more (`has_more`, `total`, `pages`, or a message "page n of m") or,
 * when it says nothing, while pages are not empty.
 */
export function cvePage<T>(
  items: T[],
  page: number,
  info: Record<string, unknown>,
  message: unknown,
): Page<T, number> {
  const total = Number.isSafeInteger(info.total) ? (info.total as number) : undefined;
  const limit = Number.isSafeInteger(info.limit) ? (info.limit as number) : undefined;
  // Hints, best first: a `pages` field, else a message like "… (page 2 of 3)".
  const pageOf = /\bpage\s+\d+\s+of\s+(\d+)\b/i.exec(typeof message === 'string' ? message : '');
  const pagesTotal = Number.isSafeInteger(info.pages)
    ? (info.pages as number)
    : pageOf
      ? Number(pageOf[1])
      : undefined;
  const hasMore = typeof info.has_more === 'boolean' ? info.has_more : info.hasMore;
  let more = items.length > 0;
  if (typeof hasMore === 'boolean') more = more && hasMore;
  else if (pagesTotal !== undefined) more = more && page - FIRST_CVE_PAGE + 1 < pagesTotal;
  else if (total !== undefined && limit !== undefined)
    more = more && (page - FIRST_CVE_PAGE + 1) * limit < total;
  else if (total !== undefined) more = more && (page - FIRST_CVE_PAGE + 1) * items.length < total;
  const out: Page<T, number> = { items };
  if (total !== undefined) out.total = total;
  if (limit !== undefined) out.limit = limit;
  if (more) out.next = page + 1;
  return out;
}
