/**
 * How each kind of search fetches one page of results from the API client. Endpoints that
 * are not paged answer in one page (no next cursor). No VS Code here.
 */
import type { OdinClient } from '../../api/client';
import type { Aggregation, HostCursor, OpaqueCursor } from '../../api/types';
import type { Gate } from '../../core/gate';
import type { ResultItem } from '../../core/results/resultItem';
import type { SearchSpec } from '../../core/savedSearches';
import type { PageFetcher, PageResult } from './results/resultSet';

/** Facet count asked for by summaries when the spec gives none. */
export const DEFAULT_FACETS = 50;

function facets(agg: Aggregation, field: string): PageResult {
  const notes: string[] = [];
  if (agg.sum_other_doc_count > 0) {
    notes.push(
      `${agg.sum_other_doc_count.toLocaleString('en-US')} more results fall in values not listed (raise the facet count or narrow the query).`,
    );
  }
  if (agg.doc_count_error_upper_bound > 0) {
    notes.push(
      `Counts may be off by up to ${agg.doc_count_error_upper_bound.toLocaleString('en-US')} (the service's estimate).`,
    );
  }
  return {
    items: agg.buckets.map((v): ResultItem => ({ t: 'facet', v, field })),
    notes,
    sumOther: agg.sum_other_doc_count,
  };
}

const count = (n: number, label: string): PageResult => ({ items: [{ t: 'count', v: n, label }], total: 1 });

function domainFilter(spec: SearchSpec): {
  domain?: string;
  keyword?: string;
  publishedAfter?: string;
  publishedBefore?: string;
} {
  return {
    ...(spec.domain ? { domain: spec.domain } : {}),
    ...(spec.keyword ? { keyword: spec.keyword } : {}),
    ...(spec.publishedAfter ? { publishedAfter: spec.publishedAfter } : {}),
    ...(spec.publishedBefore ? { publishedBefore: spec.publishedBefore } : {}),
  };
}

/** The page fetcher for `spec` against `client()` (read per call: the origin or key may change). */
export function fetcherFor(client: () => OdinClient, spec: SearchSpec): PageFetcher {
  const q = spec.query?.trim() ? spec.query : '*';
  return async (cursor, limit, signal): Promise<PageResult> => {
    const c = client();
    const o = { signal };
    switch (spec.kind) {
      case 'hosts': {
        const page = await c.searchHosts(
          { query: q, limit, ...(cursor ? { start: cursor as HostCursor } : {}) },
          o,
        );
        return {
          items: page.items.map((v): ResultItem => ({ t: 'host', v })),
          total: page.total,
          next: page.next,
        };
      }
      case 'buckets': {
        const page = await c.searchBuckets(
          {
            query: q,
            limit,
            ...(spec.sortBy ? { sort_by: spec.sortBy, sort_dir: spec.sortDir ?? 'desc' } : {}),
            ...(cursor ? { start: cursor as OpaqueCursor } : {}),
          },
          o,
        );
        return {
          items: page.items.map((v): ResultItem => ({ t: 'bucket', v })),
          total: page.total,
          next: page.next,
        };
      }
      case 'domains': {
        const page = await c.searchDomains(
          { ...domainFilter(spec), limit, ...(cursor ? { start: cursor as OpaqueCursor } : {}) },
          o,
        );
        return {
          items: page.items.map((v): ResultItem => ({ t: 'domain', v })),
          total: page.total,
          next: page.next,
        };
      }
      case 'hostCves': {
        const page = await c.getHostCves(spec.ip ?? '', typeof cursor === 'number' ? cursor : undefined, o);
        return {
          items: page.items.map((v): ResultItem => ({ t: 'cve', v, ip: spec.ip })),
          total: page.total,
          next: page.next,
        };
      }
      case 'hostSummary':
        return facets(
          await c.summarizeHosts(
            { field: spec.field ?? '', query: q, limit: spec.limit ?? DEFAULT_FACETS },
            o,
          ),
          spec.field ?? '',
        );
      case 'fileSummary':
        return facets(
          await c.summarizeFiles(
            { field: spec.field ?? '', query: q, limit: spec.limit ?? DEFAULT_FACETS },
            o,
          ),
          spec.field ?? '',
        );
      case 'host':
        return { items: [{ t: 'host', v: await c.getHost(spec.ip ?? '', o) }], total: 1 };
      case 'hostExploits': {
        const list = await c.getHostExploits(spec.ip ?? '', o);
        return { items: list.map((v): ResultItem => ({ t: 'exploit', v, ip: spec.ip })), total: list.length };
      }
      case 'hostCve':
        return {
          items: [{ t: 'cve', v: await c.getHostCve(spec.ip ?? '', spec.cve ?? '', o), ip: spec.ip }],
          total: 1,
        };
      case 'domainCount':
        return count(await c.countDomains(domainFilter(spec), o), 'Domains');
      case 'subdomainCount':
        return count(await c.countSubdomains(domainFilter(spec), o), 'Subdomains');
      case 'fileCount':
        return count(await c.countFiles({ query: q }, o), 'Exposed files');
      case 'whois':
        return { items: [{ t: 'whois', v: await c.getWhois(spec.domain ?? '', o) }], total: 1 };
      case 'whoisHistory': {
        const h = await c.getWhoisHistory(spec.domain ?? '', o);
        const notes = h.pageState
          ? ['The service has older whois records than these; it offers no way to fetch them.']
          : [];
        return {
          items: h.records.map((v): ResultItem => ({ t: 'whois', v })),
          total: h.records.length,
          notes,
        };
      }
    }
  };
}

/** A page load the gate refused (lookups off, Restricted Mode without the confirmation). */
export class PageBlockedError extends Error {
  override readonly name = 'PageBlockedError';
  readonly kind = 'blocked';
}

/** What a gated page load needs: the gate's mode and trust answer, and the shared request layer. */
export interface PageGate {
  /** Asked before every page: `undefined` when it may be sent, else why not (user text). */
  refusal(): string | undefined;
  /** The shared request layer's uncached path (limiter, origin switch, pause). */
  send<T>(
    fetcher: (signal: AbortSignal) => Promise<T>,
    opts: { signal?: AbortSignal; automatic: boolean },
  ): Promise<T>;
}

/**
 * Every page of a result set (the first, "Load more", "Load all", export of all pages, retry)
 * asks the gate when it is fetched, so nothing is sent once lookups are off (or in Restricted
 * Mode without the user's confirmation), and goes through the shared request layer.
 */
export function gatedFetcher(fetch: PageFetcher, g: PageGate): PageFetcher {
  return (cursor, limit, signal) => {
    const why = g.refusal();
    if (why !== undefined) return Promise.reject(new PageBlockedError(why));
    return g.send((s) => fetch(cursor, limit, s), { signal, automatic: false });
  };
}

/**
 * The page gate of one search over the gate of the moment (`current`, read per page): the
 * mode and trust (`mayRun`), then everything the spec sends (`Gate.search`: its IP or domain,
 * and every value in its query text), so a page asked for after the user turned lookups off
 * or added a deny entry sends nothing. Every search (palette, saved, Re-run All, hunts,
 * narrowing, similar hosts) fetches its pages through this one check.
 */
export function searchPageGate(
  spec: SearchSpec,
  current: () => { gate: Gate; consented: boolean },
  send: PageGate['send'],
): PageGate {
  return {
    refusal: () => {
      const { gate, consented } = current();
      const r = gate.mayRun({ trigger: 'explicit', consented });
      return r.ok ? gate.search(spec) : r.reason;
    },
    send,
  };
}
