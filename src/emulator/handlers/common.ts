/**
 * What every endpoint handler shares: the request context, the reply, the envelope
 * helpers, parameter checks and the cursors of domain and bucket search. Handlers are pure
 * functions from a parsed request to a reply; `../server.ts` does transport, auth, faults
 * and logging.
 */
import { isIP } from 'node:net';
import type { Dataset } from '../records';
import type { Dialect } from '../dialect';
import { type Schema, queryPredicate } from '../query/evaluate';

export interface Reply {
  status: number;
  /** JSON body (serialised by the server). */
  body?: unknown;
  /** Raw text body instead of JSON. */
  text?: string;
  contentType?: string;
}

export interface Credits {
  hostLeft: number;
  hostPlan: number;
  bucketLeft: number;
  bucketPlan: number;
  expiresOn: string;
}

export interface Ctx {
  ds: Dataset;
  dialect: Dialect;
  notFound: '404' | 'null';
  credits: Credits;
}

export type Body = Record<string, unknown>;
export type Handler = (ctx: Ctx, params: string[], body: Body) => Reply;

/** Default and maximum page sizes (the spec is silent; these follow the official clients). */
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
/** Host search `total` is capped like the live service's Elasticsearch track_total_hits. */
export const HOST_TOTAL_CAP = 10_000;
/** CVE list (endpoint 12): pages are 1-based, 10 CVEs each. */
export const CVE_PAGE_SIZE = 10;

export class BadRequest extends Error {}

export function ok(body: Record<string, unknown>): Reply {
  return { status: 200, body: { success: true, ...body } };
}

export function fail(status: number, message: string): Reply {
  return { status, body: { success: false, message } };
}

export function notFound(ctx: Ctx, what: string): Reply {
  if (ctx.notFound === 'null') return ok({ message: `${what} not found`, data: null });
  return fail(404, `${what} not found`);
}

export function limitOf(body: Body, max = MAX_LIMIT): number {
  const raw = body.limit;
  if (raw === undefined || raw === null || raw === 0) return DEFAULT_LIMIT;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
    throw new BadRequest('limit must be a positive integer');
  return Math.min(n, max);
}

export function optString(body: Body, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new BadRequest(`${key} must be a string`);
  return v;
}

export function dateBound(body: Body, key: string): number | undefined {
  const v = optString(body, key);
  if (v === undefined) return undefined;
  const t = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(t)) throw new BadRequest(`${key} must be a date (YYYY-MM-DD or ISO 8601)`);
  return t;
}

export function queryOf<T>(body: Body, schema: Schema<T>): (r: T) => boolean {
  return queryPredicate(body.query, schema);
}

/** Validates and canonicalises an IP path parameter (IPv6 compressed, lower case). */
export function canonicalIp(raw: string): string {
  const kind = isIP(raw);
  if (kind === 4) return raw;
  if (kind === 6) return new URL(`http://[${raw}]/`).hostname.slice(1, -1);
  throw new BadRequest(`Invalid IP address: ${raw.slice(0, 64)}`);
}

/**
 * Cursors of domain and bucket search. The spec dialect writes one object
 * (`[{added_at, subdomain}]`, `[{<sort_by>: value, name}]`); the live one plain values as
 * Elasticsearch's `search_after` does (`[added_at_ms, position]`, numbers as the Go CLI
 * decodes them; `[value, name]` for buckets, dates as epoch ms). Either form is accepted
 * back in either dialect. `undefined` on page one.
 */
export function cursorValues(start: unknown): unknown[] | undefined {
  if (start === undefined || start === null || (Array.isArray(start) && start.length === 0)) return undefined;
  if (!Array.isArray(start))
    throw new BadRequest('start must be the pagination.last array of the previous page');
  return start;
}

export const badCursor = (): BadRequest =>
  new BadRequest('start must be the pagination.last array of the previous page');

export function pageStart(ctx: Ctx, start: unknown): unknown {
  return Array.isArray(start) && start.length > 0 ? start : ctx.dialect === 'live' ? null : [];
}
