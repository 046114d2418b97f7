/**
 * The 17 endpoints (plus ping and credits) as pure functions from a parsed request to a
 * reply. No sockets here: `server.ts` does transport, auth, faults and logging.
 */
import { isIP } from 'node:net';
import type { BucketRecord, Dataset, DomainRecord, FileRecord, HostRecord } from './records';
import { bucketOut, cveOut, type Dialect, hostOut } from './dialect';
import { hash32 } from './random';
import { QueryError, type Schema, queryPredicate, termsAggregation, valuesAt } from './query';

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

// ---------------------------------------------------------------- helpers

export function ok(body: Record<string, unknown>): Reply {
  return { status: 200, body: { success: true, ...body } };
}

export function fail(status: number, message: string): Reply {
  return { status, body: { success: false, message } };
}

function notFound(ctx: Ctx, what: string): Reply {
  if (ctx.notFound === 'null') return ok({ message: `${what} not found`, data: null });
  return fail(404, `${what} not found`);
}

function limitOf(body: Body, max = MAX_LIMIT): number {
  const raw = body.limit;
  if (raw === undefined || raw === null || raw === 0) return DEFAULT_LIMIT;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
    throw new BadRequest('limit must be a positive integer');
  return Math.min(n, max);
}

function optString(body: Body, key: string): string | undefined {
  const v = body[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new BadRequest(`${key} must be a string`);
  return v;
}

function dateBound(body: Body, key: string): number | undefined {
  const v = optString(body, key);
  if (v === undefined) return undefined;
  const t = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(t)) throw new BadRequest(`${key} must be a date (YYYY-MM-DD or ISO 8601)`);
  return t;
}

function queryOf<T>(body: Body, schema: Schema<T>): (r: T) => boolean {
  return queryPredicate(body.query, schema);
}

/** Validates and canonicalises an IP path parameter (IPv6 compressed, lower case). */
function canonicalIp(raw: string): string {
  const kind = isIP(raw);
  if (kind === 4) return raw;
  if (kind === 6) return new URL(`http://[${raw}]/`).hostname.slice(1, -1);
  throw new BadRequest(`Invalid IP address: ${raw.slice(0, 64)}`);
}

// ---------------------------------------------------------------- schemas

const textCache = new WeakMap<object, string>();
function freeText<T extends object>(fields: string[]): (r: T) => string {
  return (r) => {
    let s = textCache.get(r);
    if (s === undefined) {
      s = fields
        .flatMap((f) => valuesAt(r, f))
        .join('\n')
        .toLowerCase();
      textCache.set(r, s);
    }
    return s;
  };
}

export const HOST_SCHEMA: Schema<HostRecord> = {
  aliases: {
    port: 'services.port',
    product: 'services.product',
    service: 'services.name',
    version: 'services.version',
    cve: 'services.cve.id',
    'cve.id': 'services.cve.id',
    'services.cve': 'services.cve.id',
    severity: 'services.cve.severity',
    country: 'location.country_code',
    country_code: 'location.country_code',
    city: 'location.city',
    asn: 'asn.number',
    org: 'asn.organization',
    hostname: 'hostnames.name',
    hostnames: 'hostnames.name',
    domain: 'domains.name',
    tag: 'tags.name',
    tags: 'tags.name',
    title: 'services.modules.http.title',
    'http.title': 'services.modules.http.title',
    'services.banner': 'services.modules.*.banner',
  },
  freeText: freeText<HostRecord>([
    'ip',
    'hostnames.name',
    'domains.name',
    'asn.number',
    'asn.organization',
    'location.city',
    'location.country_name',
    'location.country_code',
    'services.name',
    'services.product',
    'services.version',
    'services.modules.http.title',
    'services.cve.id',
    'tags.name',
    'banner',
    'whois.organization',
  ]),
};

export const BUCKET_SCHEMA: Schema<BucketRecord> = {
  aliases: { label: 'labels', category: 'categories', bucket: 'name', bucket_name: 'name' },
  freeText: freeText<BucketRecord>(['name', 'provider', 'region', 'labels', 'categories']),
};

export const FILE_SCHEMA: Schema<FileRecord> = {
  aliases: { labels: 'label', categories: 'category', extension: 'ext', bucket_name: 'bucket' },
  freeText: freeText<FileRecord>(['name', 'path', 'bucket', 'ext', 'category', 'label', 'provider']),
};

// ---------------------------------------------------------------- hosts

function hostCursor(ctx: Ctx, h: HostRecord): number[] {
  const ms = ctx.ds.hostTime.get(h) ?? 0;
  if (ctx.dialect === 'live') return [ms, Math.round((1 + (hash32(h.ip) % 900) / 100) * 100) / 100 + 0.0017];
  return [ms, h.scan_id];
}

function hostSearchError(ctx: Ctx, status: number, message: string): Reply {
  if (ctx.dialect === 'spec') return { status, body: { success: false, message, ' error': message } };
  return fail(status, message);
}

export const hostsSearch: Handler = (ctx, _params, body) => {
  let limit: number;
  let pred: (h: HostRecord) => boolean;
  let after = Infinity;
  try {
    limit = limitOf(body);
    pred = queryOf(body, HOST_SCHEMA);
    const start = body.start;
    if (start !== undefined && start !== null && !(Array.isArray(start) && start.length === 0)) {
      const first = Array.isArray(start) ? Number(start[0]) : NaN;
      if (!Number.isFinite(first))
        throw new BadRequest('start must be the pagination.last array of the previous page');
      after = first;
    }
  } catch (e) {
    if (e instanceof BadRequest || e instanceof QueryError) return hostSearchError(ctx, 400, e.message);
    throw e;
  }
  const page: HostRecord[] = [];
  let total = 0;
  for (const h of ctx.ds.hosts) {
    if (!pred(h)) continue;
    total++;
    if (page.length < limit && (ctx.ds.hostTime.get(h) ?? 0) < after) page.push(h);
  }
  const live = ctx.dialect === 'live';
  const hits = page.map((h) => hostOut(h, ctx.dialect, true));
  const last = page.length > 0 ? hostCursor(ctx, page[page.length - 1]) : live ? null : [];
  const start = Array.isArray(body.start) && body.start.length > 0 ? body.start : live ? null : [];
  const pagination = { start, last, limit, total: Math.min(total, HOST_TOTAL_CAP) };
  if (live) return ok({ pagination, data: hits.length > 0 ? hits : null });
  return ok({ message: 'Hosts fetched successfully', pagination, data: {}, ' data': hits });
};

export const hostsSummary: Handler = (ctx, _params, body) => {
  const field = optString(body, 'field');
  if (!field) throw new BadRequest('field is required');
  const limit = limitOf(body);
  const pred = queryOf(body, HOST_SCHEMA);
  const matching = ctx.ds.hosts.filter(pred);
  const agg = termsAggregation(matching, HOST_SCHEMA.aliases[field] ?? field, limit);
  return ok({ message: 'Summary fetched successfully', data: agg });
};

/** `POST /v1/hosts/count` (official clients, not in the 17): `{query}` → `{count}`, exact. */
export const hostsCount: Handler = (ctx, _params, body) => {
  const pred = queryOf(body, HOST_SCHEMA);
  let count = 0;
  for (const h of ctx.ds.hosts) if (pred(h)) count++;
  return ok({ message: 'Count fetched successfully', data: { count } });
};

function findHost(ctx: Ctx, rawIp: string): HostRecord | undefined {
  return ctx.ds.hostByIp.get(canonicalIp(rawIp));
}

export const hostsGet: Handler = (ctx, [ip]) => {
  const h = findHost(ctx, ip);
  if (!h) return notFound(ctx, 'Host');
  return ok({
    message: 'Host details fetched successfully',
    pagination: {},
    data: hostOut(h, ctx.dialect, false),
  });
};

function cveMap(
  h: HostRecord,
  dialect: Dialect,
  filter: (id: string, hasExploit: boolean) => boolean,
): Map<string, Record<string, unknown>> {
  // One entry per CVE id; `services` gathers every port it was seen on.
  const map = new Map<string, Record<string, unknown>>();
  for (const s of h.services) {
    for (const c of s.cve) {
      if (!filter(c.id, c.exploit.length > 0)) continue;
      const prev = map.get(c.id);
      if (prev) (prev.services as string[]).push(...c.services);
      else map.set(c.id, cveOut(c, dialect));
    }
  }
  return map;
}

function sortedCves(map: Map<string, Record<string, unknown>>): [string, Record<string, unknown>][] {
  return [...map.entries()].sort(
    (a, b) => (b[1].score as number) - (a[1].score as number) || (a[0] < b[0] ? -1 : 1),
  );
}

export const cvesList: Handler = (ctx, [ip, pageRaw]) => {
  const page = /^\d{1,6}$/.test(pageRaw) ? Number(pageRaw) : NaN;
  if (!Number.isInteger(page) || page < 1)
    throw new BadRequest('page must be an integer >= 1 (pages are 1-based)');
  const h = findHost(ctx, ip);
  if (!h) return notFound(ctx, 'Host');
  const all = sortedCves(cveMap(h, ctx.dialect, () => true));
  const slice = all.slice((page - 1) * CVE_PAGE_SIZE, page * CVE_PAGE_SIZE);
  return ok({
    message: `CVEs fetched successfully (page ${page} of ${Math.max(1, Math.ceil(all.length / CVE_PAGE_SIZE))})`,
    data: Object.fromEntries(slice),
  });
};

/** `GET /v1/hosts/cve/{ip}/` (official clients): every CVE of the host, a map by id. */
export const hostsCveAll: Handler = (ctx, [ip]) => {
  const h = findHost(ctx, ip);
  if (!h) return notFound(ctx, 'Host');
  const all = sortedCves(cveMap(h, ctx.dialect, () => true));
  return ok({ message: 'CVEs fetched successfully', data: Object.fromEntries(all) });
};

export const hostsExploits: Handler = (ctx, [ip]) => {
  const h = findHost(ctx, ip);
  if (!h) return notFound(ctx, 'Host');
  const all = sortedCves(cveMap(h, ctx.dialect, (_id, hasExploit) => hasExploit));
  return ok({ message: 'Exploits fetched successfully', data: Object.fromEntries(all) });
};

export const hostsCve: Handler = (ctx, [ip, cveRaw]) => {
  const cve = cveRaw.toUpperCase();
  if (!/^CVE-\d{4}-\d{4,7}$/.test(cve)) throw new BadRequest(`Invalid CVE id: ${cveRaw.slice(0, 40)}`);
  const h = findHost(ctx, ip);
  if (!h) return notFound(ctx, 'Host');
  const map = cveMap(h, ctx.dialect, (id) => id === cve);
  if (map.size === 0) return notFound(ctx, 'CVE');
  return ok({ message: 'CVE fetched successfully', data: Object.fromEntries(map) });
};

// ---------------------------------------------------------------- domains and whois

interface DomainFilter {
  domain?: string;
  keyword?: string;
  after?: number;
  before?: number;
}

function domainFilter(body: Body, requireDomain: boolean): DomainFilter {
  const domain = optString(body, 'domain')?.trim().toLowerCase().replace(/\.$/, '');
  const keyword = optString(body, 'keyword')?.trim().toLowerCase();
  if (requireDomain && !domain) throw new BadRequest('domain is required');
  if (!domain && !keyword) throw new BadRequest('domain or keyword is required');
  return {
    domain,
    keyword,
    after: dateBound(body, 'publishedAfter'),
    before: dateBound(body, 'publishedBefore'),
  };
}

function domainMatches(r: DomainRecord, f: DomainFilter): boolean {
  if (f.domain && r.domain !== f.domain && !r.subdomain.endsWith(`.${f.domain}`)) return false;
  if (f.keyword && !r.subdomain.toLowerCase().includes(f.keyword)) return false;
  if (f.after !== undefined || f.before !== undefined) {
    const t = Date.parse(r.added_at);
    if (f.after !== undefined && t < f.after) return false;
    if (f.before !== undefined && t > f.before) return false;
  }
  return true;
}

/**
 * Cursors of domain and bucket search. The spec dialect writes one object
 * (`[{added_at, subdomain}]`, `[{<sort_by>: value, name}]`); the live one plain values as
 * Elasticsearch's `search_after` does (`[added_at_ms, position]`, numbers as the Go CLI
 * decodes them; `[value, name]` for buckets, dates as epoch ms). Either form is accepted
 * back in either dialect. `undefined` on page one.
 */
function cursorValues(start: unknown): unknown[] | undefined {
  if (start === undefined || start === null || (Array.isArray(start) && start.length === 0)) return undefined;
  if (!Array.isArray(start))
    throw new BadRequest('start must be the pagination.last array of the previous page');
  return start;
}

const badCursor = (): BadRequest =>
  new BadRequest('start must be the pagination.last array of the previous page');

function pageStart(ctx: Ctx, start: unknown): unknown {
  return Array.isArray(start) && start.length > 0 ? start : ctx.dialect === 'live' ? null : [];
}

/** The index after the cursor in `matching` (sorted by added_at desc, then subdomain asc). */
function domainFrom(matching: DomainRecord[], start: unknown): number {
  const cursor = cursorValues(start);
  if (!cursor) return 0;
  let from: number;
  const [first, second] = cursor;
  if (cursor.length === 1 && typeof first === 'object' && first !== null) {
    const c = first as Record<string, unknown>;
    const at = typeof c.added_at === 'string' ? c.added_at : '';
    const sub = typeof c.subdomain === 'string' ? c.subdomain : '';
    if (!at || !sub) throw badCursor();
    from = matching.findIndex((r) => r.added_at < at || (r.added_at === at && r.subdomain > sub));
  } else if (cursor.length === 2 && typeof first === 'number' && typeof second === 'number') {
    const at = new Date(first).toISOString();
    const rec = matching[second];
    from =
      Number.isInteger(second) && rec && rec.added_at === at
        ? second + 1
        : matching.findIndex((r) => r.added_at < at);
  } else throw badCursor();
  return from < 0 ? matching.length : from;
}

function domainLast(ctx: Ctx, matching: DomainRecord[], from: number, count: number): unknown {
  const index = from + count - 1;
  const rec = matching[index];
  const more = from + count < matching.length;
  if (!rec || (!more && ctx.dialect === 'live')) return ctx.dialect === 'live' ? null : [];
  if (ctx.dialect === 'live') return [Date.parse(rec.added_at), index];
  return [{ added_at: rec.added_at, subdomain: rec.subdomain }];
}

export const domainSearch: Handler = (ctx, _params, body) => {
  const f = domainFilter(body, false);
  const limit = limitOf(body);
  const matching = ctx.ds.domains.filter((r) => domainMatches(r, f));
  const from = domainFrom(matching, body.start);
  const page = matching.slice(from, from + limit);
  return ok({
    message: 'Domains fetched successfully',
    data: page.map((r) => ({ ...r, ext_dns_name: { ...r.ext_dns_name } })),
    pagination: {
      start: pageStart(ctx, body.start),
      last: domainLast(ctx, matching, from, page.length),
      limit,
      total: matching.length,
    },
  });
};

/**
 * `POST /v1/domain/subdomain/search` (Cyble's own subdomain source, not in the 17):
 * `{domain, limit, start}` → `data` the subdomain names as strings, paged like domain search.
 */
export const subdomainSearch: Handler = (ctx, _params, body) => {
  const f = domainFilter(body, true);
  const limit = limitOf(body);
  const matching = ctx.ds.domains.filter((r) => r.subdomain !== r.domain && domainMatches(r, f));
  const from = domainFrom(matching, body.start);
  const page = matching.slice(from, from + limit);
  return ok({
    message: 'Subdomains fetched successfully',
    data: page.map((r) => r.subdomain),
    pagination: {
      start: pageStart(ctx, body.start),
      last: domainLast(ctx, matching, from, page.length),
      limit,
      total: matching.length,
    },
  });
};

export const domainCount: Handler = (ctx, _params, body) => {
  const f = domainFilter(body, false);
  const count = ctx.ds.domains.filter((r) => domainMatches(r, f)).length;
  return ok({ message: 'Count fetched successfully', data: { count }, pagination: {} });
};

export const subdomainCount: Handler = (ctx, _params, body) => {
  const f = domainFilter(body, true);
  const count = ctx.ds.domains.filter((r) => r.subdomain !== r.domain && domainMatches(r, f)).length;
  return ok({ message: 'Count fetched successfully', data: { count }, pagination: {} });
};

function domainParam(raw: string): string {
  const d = raw.trim().toLowerCase().replace(/\.$/, '');
  if (!/^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(d)) {
    throw new BadRequest(`Invalid domain name: ${raw.slice(0, 64)}`);
  }
  return d;
}

export const whoisGet: Handler = (ctx, [raw]) => {
  const rec = ctx.ds.whois.get(domainParam(raw));
  if (!rec) return notFound(ctx, 'Whois record');
  return ok({ message: 'Whois fetched successfully', data: structuredClone(rec), meta: {} });
};

export const whoisHistory: Handler = (ctx, [raw]) => {
  const hist = ctx.ds.whoisHistory.get(domainParam(raw));
  if (!hist) return notFound(ctx, 'Whois history');
  const meta = { limit: 100, pageState: '' };
  const data = structuredClone(hist);
  if (ctx.dialect === 'live') return ok({ message: 'Whois history fetched successfully', data, meta });
  return ok({ message: 'Whois history fetched successfully', data, ' meta': meta });
};

// ---------------------------------------------------------------- exposed storage

export const BUCKET_SORT_FIELDS = [
  'ins_at',
  'scan_at',
  'files',
  'new_files',
  'sensitive_files',
  'last_found_at',
  'age_in_days',
  'name',
];

export const bucketsSearch: Handler = (ctx, _params, body) => {
  const limit = limitOf(body);
  const pred = queryOf(body, BUCKET_SCHEMA);
  const sortBy = optString(body, 'sort_by') ?? 'ins_at';
  if (!BUCKET_SORT_FIELDS.includes(sortBy))
    throw new BadRequest(`sort_by must be one of ${BUCKET_SORT_FIELDS.join(', ')}`);
  const dirRaw = (optString(body, 'sort_dir') ?? 'desc').toLowerCase();
  if (dirRaw !== 'asc' && dirRaw !== 'desc') throw new BadRequest('sort_dir must be asc or desc');
  const dir = dirRaw === 'asc' ? 1 : -1;
  const key = (b: BucketRecord): string | number => b[sortBy as keyof BucketRecord] as string | number;
  const cmp = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0);
  const order = (a: BucketRecord, b: BucketRecord): number =>
    dir * cmp(key(a), key(b)) || cmp(a.name, b.name);
  const matching = ctx.ds.buckets.filter(pred).sort(order);
  const dates = sortBy.endsWith('_at');
  const cursor = cursorValues(body.start);
  let from = 0;
  if (cursor) {
    let v: unknown;
    let name: unknown;
    if (cursor.length === 1 && typeof cursor[0] === 'object' && cursor[0] !== null) {
      v = (cursor[0] as Record<string, unknown>)[sortBy];
      name = (cursor[0] as Record<string, unknown>).name;
    } else if (cursor.length === 2) {
      [v, name] = cursor;
      if (dates && typeof v === 'number' && Number.isFinite(v)) v = new Date(v).toISOString();
    }
    if ((typeof v !== 'string' && typeof v !== 'number') || typeof name !== 'string') {
      throw new BadRequest('start must be the pagination.last array of the previous page (same sort_by)');
    }
    const value = v;
    from = matching.findIndex((b) => dir * cmp(key(b), value) > 0 || (key(b) === value && b.name > name));
    if (from < 0) from = matching.length;
  }
  const page = matching.slice(from, from + limit);
  const more = from + page.length < matching.length;
  const lastRec = page[page.length - 1];
  const lastKey = lastRec ? key(lastRec) : undefined;
  const last =
    lastRec === undefined || (!more && ctx.dialect === 'live')
      ? ctx.dialect === 'live'
        ? null
        : []
      : ctx.dialect === 'live'
        ? [dates ? Date.parse(String(lastKey)) : lastKey, lastRec.name]
        : [{ [sortBy]: lastKey, name: lastRec.name }];
  return ok({
    message: 'Buckets fetched successfully',
    data: page.map((b) => bucketOut(b, ctx.dialect)),
    pagination: { start: pageStart(ctx, body.start), last, limit, total: matching.length },
  });
};

export const filesSummary: Handler = (ctx, _params, body) => {
  const field = optString(body, 'field');
  if (!field) throw new BadRequest('field is required');
  const limit = limitOf(body);
  const pred = queryOf(body, FILE_SCHEMA);
  const agg = termsAggregation(ctx.ds.files.filter(pred), FILE_SCHEMA.aliases[field] ?? field, limit);
  return ok({ message: 'Summary fetched successfully', data: agg, pagination: {} });
};

export const filesCount: Handler = (ctx, _params, body) => {
  const pred = queryOf(body, FILE_SCHEMA);
  return ok({
    message: 'Count fetched successfully',
    data: { count: ctx.ds.files.filter(pred).length },
    pagination: {},
  });
};

// ---------------------------------------------------------------- field catalogues

function catalogue(ctx: Ctx, fields: Dataset['fields']['buckets']): Reply {
  const data = fields.map((f) => ({ ...f }));
  if (ctx.dialect === 'live') return ok({ message: 'Fields fetched successfully', pagination: {}, data });
  return ok({ message: 'Fields fetched successfully', pagination: {}, data: {}, Data: data });
}

export const fieldsBuckets: Handler = (ctx) => catalogue(ctx, ctx.ds.fields.buckets);
export const fieldsFiles: Handler = (ctx) => catalogue(ctx, ctx.ds.fields.files);

export const fieldsHosts: Handler = (ctx, [category]) => {
  const fields = ctx.ds.fields.hosts[category.toLowerCase()];
  if (!fields) {
    throw new BadRequest(
      `Unknown field category '${category.slice(0, 40)}'; use one of ${Object.keys(ctx.ds.fields.hosts).join(', ')}`,
    );
  }
  return ok({ message: 'Fields fetched successfully', data: fields.map((f) => ({ ...f })) });
};

// ---------------------------------------------------------------- extras (not in the 17)

export const ping: Handler = () => ({ status: 200, text: 'pong', contentType: 'text/plain; charset=utf-8' });

/**
 * Credits: the official clients' schema in live (fields at the top level, no envelope,
 * `expires_on` an integer of epoch seconds); the spec dialect keeps the enveloped form
 * with an ISO date (the interface document does not list this endpoint).
 */
export const creditsUsage: Handler = (ctx) => {
  const search = {
    host_cert: { left: ctx.credits.hostLeft, plan: ctx.credits.hostPlan },
    bucket_file: { left: ctx.credits.bucketLeft, plan: ctx.credits.bucketPlan },
  };
  if (ctx.dialect === 'live')
    return {
      status: 200,
      body: { search, expires_on: Math.floor(Date.parse(ctx.credits.expiresOn) / 1000) },
    };
  return ok({ message: 'Credits fetched successfully', data: { search, expires_on: ctx.credits.expiresOn } });
};
