/**
 * The search catalogue: for every kind of search, the one client call it makes, the request
 * layer's cache kind and TTL class it is kept under, the values the gate decides on before it
 * is sent, and the shape of its answer (the typed answer, and the rows the Results view shows).
 * The palette, saved searches, `.odinq` hunts, Re-run All, narrowing, the hover's host count
 * and the agent's query tools all ask through `searchVia` (run.ts), never the client directly.
 *
 * `hostCount` is a kind of its own that no palette command offers: how many hosts match a
 * query, asked the one way (`POST /v1/hosts/count`, a one-result search's total where that is
 * refused) and kept under one cache key, so the CIDR hover and the agent's count share answers.
 * So are `credits` (the key's balance, free) and `fields` (a field catalogue, `field` naming
 * which): every API call of the extension, the MCP server and the agents is an entry here, so
 * each has one cache key and is charged to the session's ledger (a unit test fails on a client
 * call made anywhere else).
 *
 * Pure: no VS Code.
 */
import type { OdinClient } from '../../api/client';
import { OdinApiError } from '../../api/errors';
import type {
  Aggregation,
  Bucket,
  CreditsUsage,
  Cve,
  DomainFilter,
  DomainRecord,
  Exploit,
  FieldDescriptor,
  Host,
  HostCursor,
  OpaqueCursor,
  Page,
  WhoisHistory,
  WhoisRecord,
} from '../../api/types';
import type { SearchValues } from '../gate';
import type { TtlClass } from '../requests/cache';
import type { ResultItem } from '../results/resultItem';
import { l10n } from '../text/l10n';
import type { SearchKind, SearchSpec } from './kinds';
import { fmt } from '../text/numbers';

/** One page of a result set, as the Results view keeps it. */
export interface PageResult {
  /** A fresh list: the result set takes it over and empties it while it compacts the items. */
  items: ResultItem[];
  /** Total matches the service reports (may be capped, e.g. 10,000 on host search). */
  total?: number;
  /** Cursor of the next page; `undefined` when this was the last one. */
  next?: unknown;
  /** Facts about what is not listed (e.g. "5,462 more documents in other values"). */
  notes?: string[];
  /** A summary's count of documents in values not listed (`sum_other_doc_count`). */
  sumOther?: number;
}

/** Fetches one page of a result set. */
export type PageFetcher = (cursor: unknown, limit: number, signal: AbortSignal) => Promise<PageResult>;

/** Every kind the catalogue can ask: the searches of `KINDS`, the host count, the credits and the field catalogues. */
export type CatalogueKind = SearchKind | 'hostCount' | 'credits' | 'fields';

/** The field catalogues (`fields` kind: `field` says which). */
export type FieldCatalogueName = 'hosts' | 'buckets' | 'files';

/** A request of the catalogue: a search spec, or a host count (`{ kind: 'hostCount', query }`). */
export type CatalogueSpec = Omit<SearchSpec, 'kind'> & { kind: CatalogueKind };

/** Which page of a paged answer (the API's cursor and page size). */
export interface PageRequest {
  cursor?: unknown;
  limit: number;
}

/** What each kind answers (the client's typed answer). */
export interface Answers {
  hosts: Page<Host>;
  hostCount: number;
  hostSummary: Aggregation;
  host: Host;
  hostCves: Page<Cve, number>;
  hostExploits: Exploit[];
  hostCve: Cve;
  domains: Page<DomainRecord>;
  domainCount: number;
  subdomainCount: number;
  whois: WhoisRecord;
  whoisHistory: WhoisHistory;
  buckets: Page<Bucket>;
  fileCount: number;
  fileSummary: Aggregation;
  credits: CreditsUsage;
  fields: FieldDescriptor[];
}

export interface CatalogueEntry<A> {
  /** The request layer's kind: the first part of the cache key. */
  cacheKind: string;
  /** How long an answer is kept (the cache's TTL classes). */
  ttl: TtlClass;
  /** Credits one request costs (the session ledger); default 1. The credits check is free. */
  cost?: number;
  /**
   * The cache key's target, where it is one value the hover and the details pages key on too
   * (an IP, a domain, a count's query); otherwise every parameter and the page (`cacheTarget`).
   */
  target?: (spec: CatalogueSpec) => string;
  /** The one client call (the page asked for, where the endpoint pages). */
  call(client: OdinClient, spec: CatalogueSpec, page: PageRequest, signal: AbortSignal): Promise<A>;
  /** The answer as rows of a result set. */
  rows(answer: A, spec: CatalogueSpec): PageResult;
}

export type Catalogue = { [K in CatalogueKind]: CatalogueEntry<Answers[K]> };

/** Facet count asked for by summaries when the spec gives none. */
export const DEFAULT_FACETS = 50;

/** The query a spec sends: `*` when it has none. */
const queryOf = (spec: CatalogueSpec): string => (spec.query?.trim() ? spec.query : '*');

function domainFilter(spec: CatalogueSpec): DomainFilter {
  return {
    ...(spec.domain ? { domain: spec.domain } : {}),
    ...(spec.keyword ? { keyword: spec.keyword } : {}),
    ...(spec.publishedAfter ? { publishedAfter: spec.publishedAfter } : {}),
    ...(spec.publishedBefore ? { publishedBefore: spec.publishedBefore } : {}),
  };
}

const summaryParams = (spec: CatalogueSpec): { field: string; query: string; limit: number } => ({
  field: spec.field ?? '',
  query: queryOf(spec),
  limit: spec.limit ?? DEFAULT_FACETS,
});

function facets(agg: Aggregation, spec: CatalogueSpec): PageResult {
  const field = spec.field ?? '';
  const notes: string[] = [];
  if (agg.sum_other_doc_count > 0) {
    notes.push(
      l10n.t(
        '{0} more results fall in values not listed (raise the facet count or narrow the query).',
        fmt(agg.sum_other_doc_count),
      ),
    );
  }
  if (agg.doc_count_error_upper_bound > 0) {
    notes.push(
      l10n.t(
        "Counts may be off by up to {0} (the service's estimate).",
        fmt(agg.doc_count_error_upper_bound),
      ),
    );
  }
  return {
    items: agg.buckets.map((v): ResultItem => ({ t: 'facet', v, field })),
    notes,
    sumOther: agg.sum_other_doc_count,
  };
}

/** A count's row; its label is worded when the answer comes (`label` returns it). */
const counted =
  (label: () => string) =>
  (n: number): PageResult => ({ items: [{ t: 'count', v: n, label: label() }], total: 1 });

function paged<T>(page: Page<T>, item: (v: T) => ResultItem): PageResult {
  return { items: page.items.map(item), total: page.total, next: page.next };
}

/**
 * How many hosts match a query: `POST /v1/hosts/count`, the cheap call every official client
 * makes. Where it is refused (an older service answers 404/405, a plan 403, or an answer
 * without a count), a one-result search's total stands in.
 */
async function countHosts(client: OdinClient, query: string, signal: AbortSignal): Promise<number> {
  try {
    return await client.countHosts({ query }, { signal });
  } catch (e) {
    const refused =
      e instanceof OdinApiError && ['notFound', 'badRequest', 'forbidden', 'badResponse'].includes(e.kind);
    if (!refused || signal.aborted) throw e;
    return (await client.searchHosts({ query, limit: 1 }, { signal })).total ?? 0;
  }
}

export const CATALOGUE: Catalogue = {
  hosts: {
    cacheKind: 'search.hosts',
    ttl: 'host',
    call: (c, spec, page, signal) =>
      c.searchHosts(
        {
          query: queryOf(spec),
          limit: page.limit,
          ...(page.cursor ? { start: page.cursor as HostCursor } : {}),
        },
        { signal },
      ),
    rows: (page) => paged(page, (v) => ({ t: 'host', v })),
  },
  hostCount: {
    cacheKind: 'hostCount',
    ttl: 'count',
    target: queryOf,
    call: (c, spec, _page, signal) => countHosts(c, queryOf(spec), signal),
    rows: counted(() => l10n.t('Hosts')),
  },
  hostSummary: {
    cacheKind: 'search.hostSummary',
    ttl: 'count',
    call: (c, spec, _page, signal) => c.summarizeHosts(summaryParams(spec), { signal }),
    rows: facets,
  },
  host: {
    cacheKind: 'host',
    ttl: 'host',
    target: (spec) => spec.ip ?? '',
    call: (c, spec, _page, signal) => c.getHost(spec.ip ?? '', { signal }),
    rows: (v) => ({ items: [{ t: 'host', v }], total: 1 }),
  },
  hostCves: {
    cacheKind: 'search.hostCves',
    ttl: 'host',
    call: (c, spec, page, signal) =>
      c.getHostCves(spec.ip ?? '', typeof page.cursor === 'number' ? page.cursor : undefined, { signal }),
    rows: (page, spec) => paged(page, (v) => ({ t: 'cve', v, ip: spec.ip })),
  },
  hostExploits: {
    cacheKind: 'search.hostExploits',
    ttl: 'host',
    call: (c, spec, _page, signal) => c.getHostExploits(spec.ip ?? '', { signal }),
    rows: (list, spec) => ({
      items: list.map((v): ResultItem => ({ t: 'exploit', v, ip: spec.ip })),
      total: list.length,
    }),
  },
  hostCve: {
    cacheKind: 'search.hostCve',
    ttl: 'host',
    call: (c, spec, _page, signal) => c.getHostCve(spec.ip ?? '', spec.cve ?? '', { signal }),
    rows: (v, spec) => ({ items: [{ t: 'cve', v, ip: spec.ip }], total: 1 }),
  },
  domains: {
    cacheKind: 'search.domains',
    ttl: 'whois',
    call: (c, spec, page, signal) =>
      c.searchDomains(
        {
          ...domainFilter(spec),
          limit: page.limit,
          ...(page.cursor ? { start: page.cursor as OpaqueCursor } : {}),
        },
        { signal },
      ),
    rows: (page) => paged(page, (v) => ({ t: 'domain', v })),
  },
  domainCount: {
    cacheKind: 'search.domainCount',
    ttl: 'count',
    call: (c, spec, _page, signal) => c.countDomains(domainFilter(spec), { signal }),
    rows: counted(() => l10n.t('Domains')),
  },
  subdomainCount: {
    cacheKind: 'search.subdomainCount',
    ttl: 'count',
    call: (c, spec, _page, signal) => c.countSubdomains(domainFilter(spec), { signal }),
    rows: counted(() => l10n.t('Subdomains')),
  },
  whois: {
    cacheKind: 'whois',
    ttl: 'whois',
    target: (spec) => spec.domain ?? '',
    call: (c, spec, _page, signal) => c.getWhois(spec.domain ?? '', { signal }),
    rows: (v) => ({ items: [{ t: 'whois', v }], total: 1 }),
  },
  whoisHistory: {
    cacheKind: 'whoisHistory',
    ttl: 'whois',
    target: (spec) => spec.domain ?? '',
    call: (c, spec, _page, signal) => c.getWhoisHistory(spec.domain ?? '', { signal }),
    rows: (h) => ({
      items: h.records.map((v): ResultItem => ({ t: 'whois', v })),
      total: h.records.length,
      notes: h.pageState
        ? [l10n.t('The service has older whois records than these; it offers no way to fetch them.')]
        : [],
    }),
  },
  buckets: {
    cacheKind: 'search.buckets',
    ttl: 'host',
    call: (c, spec, page, signal) =>
      c.searchBuckets(
        {
          query: queryOf(spec),
          limit: page.limit,
          ...(spec.sortBy ? { sort_by: spec.sortBy, sort_dir: spec.sortDir ?? 'desc' } : {}),
          ...(page.cursor ? { start: page.cursor as OpaqueCursor } : {}),
        },
        { signal },
      ),
    rows: (page) => paged(page, (v) => ({ t: 'bucket', v })),
  },
  fileCount: {
    cacheKind: 'search.fileCount',
    ttl: 'count',
    call: (c, spec, _page, signal) => c.countFiles({ query: queryOf(spec) }, { signal }),
    rows: counted(() => l10n.t('Exposed files')),
  },
  fileSummary: {
    cacheKind: 'search.fileSummary',
    ttl: 'count',
    call: (c, spec, _page, signal) => c.summarizeFiles(summaryParams(spec), { signal }),
    rows: facets,
  },
  credits: {
    cacheKind: 'credits',
    ttl: 'count',
    cost: 0,
    target: () => '',
    call: (c, _spec, _page, signal) => c.getCreditsUsage({ signal }),
    rows: (u) => ({
      items: [{ t: 'count', v: u.hostCert?.left ?? 0, label: l10n.t('Credits left') }],
      total: 1,
    }),
  },
  fields: {
    cacheKind: 'fields',
    ttl: 'whois',
    target: (spec) => spec.field ?? 'hosts',
    call: (c, spec, _page, signal) =>
      spec.field === 'buckets'
        ? c.getBucketFields({ signal })
        : spec.field === 'files'
          ? c.getFileFields({ signal })
          : c.getHostFields('all', { signal }),
    rows: () => ({ items: [], total: 0 }),
  },
};

/**
 * The values of a spec the gate decides on before anything is sent (`Gate.search`): its IP
 * and domain as values, its query, field and keyword as query text. One rule for every kind:
 * whatever of these the spec carries is decided, so a kind cannot send a value unchecked.
 */
export function gateTargets(spec: CatalogueSpec): SearchValues {
  return { ip: spec.ip, domain: spec.domain, query: spec.query, field: spec.field, keyword: spec.keyword };
}

/**
 * The cache key's target of a request: every parameter it sends, and the page. Two callers
 * asking the same thing (the CIDR hover's host count and the agent's) get one key.
 */
export function cacheTarget(spec: CatalogueSpec, page?: PageRequest): string {
  const own = CATALOGUE[spec.kind].target;
  if (own) return own(spec);
  const { kind: _kind, ...params } = spec;
  const sorted = Object.keys(params)
    .sort()
    .filter((k) => params[k as keyof typeof params] !== undefined)
    .map((k) => [k, params[k as keyof typeof params]]);
  return JSON.stringify(page ? [sorted, page.cursor ?? null, page.limit] : sorted);
}
