/** Host endpoints: search (3), summary (5), count, details (8) and the CVE endpoints (12, 13, 14, all CVEs). */
import type { HostRecord } from '../records';
import { cveOut, type Dialect, hostOut } from '../dialect';
import { hash32 } from '../random';
import { termsAggregation } from '../query/aggregate';
import { QueryError } from '../query/parse';
import {
  BadRequest,
  canonicalIp,
  CVE_PAGE_SIZE,
  type Ctx,
  fail,
  type Handler,
  HOST_TOTAL_CAP,
  limitOf,
  notFound,
  ok,
  optString,
  queryOf,
  type Reply,
} from './common';
import { HOST_SCHEMA } from './schemas';

function hostCursor(ctx: Ctx, h: HostRecord): number[] {
  const ms = ctx.ds.hostTime.get(h) ?? 0;
  // The live relevance score is a float, and sometimes a whole number (`[1721808680130, 2]`).
  if (ctx.dialect === 'live')
    return [
      ms,
      hash32(h.ip) % 3 === 0
        ? 1 + (hash32(h.ip) % 9)
        : Math.round((1 + (hash32(h.ip) % 900) / 100) * 100) / 100 + 0.0017,
    ];
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
