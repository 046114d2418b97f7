/** Domain endpoints: domain and subdomain search and count (1, 4, 11), whois (10) and its history (9). */
import type { DomainRecord } from '../records';
import {
  BadRequest,
  badCursor,
  type Body,
  type Ctx,
  cursorValues,
  dateBound,
  type Handler,
  limitOf,
  notFound,
  ok,
  optString,
  pageStart,
} from './common';

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

/** The records a domain search or count matches; the subdomain endpoints need `domain` and skip the apexes. */
function matchingDomains(ctx: Ctx, body: Body, subdomainsOnly: boolean): DomainRecord[] {
  const f = domainFilter(body, subdomainsOnly);
  return ctx.ds.domains.filter((r) => (!subdomainsOnly || r.subdomain !== r.domain) && domainMatches(r, f));
}

function domainPage(subdomainsOnly: boolean, message: string, item: (r: DomainRecord) => unknown): Handler {
  return (ctx, _params, body) => {
    const matching = matchingDomains(ctx, body, subdomainsOnly);
    const limit = limitOf(body);
    const from = domainFrom(matching, body.start);
    const page = matching.slice(from, from + limit);
    return ok({
      message,
      data: page.map(item),
      pagination: {
        start: pageStart(ctx, body.start),
        last: domainLast(ctx, matching, from, page.length),
        limit,
        total: matching.length,
      },
    });
  };
}

function domainCountOf(subdomainsOnly: boolean): Handler {
  return (ctx, _params, body) => {
    const count = matchingDomains(ctx, body, subdomainsOnly).length;
    return ok({ message: 'Count fetched successfully', data: { count }, pagination: {} });
  };
}

export const domainSearch = domainPage(false, 'Domains fetched successfully', (r) => ({
  ...r,
  ext_dns_name: { ...r.ext_dns_name },
}));

/**
 * `POST /v1/domain/subdomain/search` (Cyble's own subdomain source, not in the 17):
 * `{domain, limit, start}` → `data` the subdomain names as strings, paged like domain search.
 */
export const subdomainSearch = domainPage(true, 'Subdomains fetched successfully', (r) => r.subdomain);

export const domainCount = domainCountOf(false);
export const subdomainCount = domainCountOf(true);

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
