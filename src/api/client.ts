/**
 * The ODIN API client: one typed method per endpoint of the interface (17), plus `ping`
 * and `getCreditsUsage`. Transport concerns live in `http.ts`, wire-format quirks in
 * `normalize/`, path segments in `endpoints.ts`, cursors in `paging.ts`; this file only maps calls to requests and
 * envelopes to the model. It imports nothing from `vscode`.
 *
 * Keys: the spec lists endpoints 4, 11, 15, 16 and 17 as carrying no key; they get the key
 * when one is set (same origin) but do not require it. All others fail with `auth`
 * before any request when no key is set.
 *
 * "Not found": the service may answer an unknown IP / domain / CVE with 404 or with
 * `200 {data: null}`. Both end as a `notFound` error for single-record lookups (`getHost`,
 * `getHostCve`, `getWhois`); list lookups (`getHostCves`, `getHostExploits`,
 * `getWhoisHistory`) answer `null` data with an empty list and a 404 with `notFound`.
 */
import { OdinApiError } from './errors';
import { HttpTransport, type HttpRequest, type TransportOptions } from './http';
import { defined, ENDPOINTS, FIRST_CVE_PAGE, ipSegment, type Op, segment, SHAPES } from './endpoints';
import { normalizeAggregation, normalizeCount, normalizeFields } from './normalize/aggregations';
import { normalizeBucket } from './normalize/buckets';
import { normalizeCredits } from './normalize/credits';
import { readCveList, readExploits, UNREADABLE_CVE_DATA } from './normalize/cves';
import { normalizeDomainRecord, normalizeWhois, normalizeWhoisHistory } from './normalize/domains';
import { envelopeData, envelopeErrorText, envelopeMeta, envelopePagination } from './normalize/envelope';
import { normalizeHost } from './normalize/hosts';
import { mapInSlices } from './slices';
import { isObj } from './normalize/json';
import { cvePage, parseHostCursor, parseOpaqueCursor, toPage } from './paging';
import {
  describeShapeProblems,
  envelopeProblems,
  shapeProblems,
  type ShapeProblem,
  UNEXPECTED_SHAPE_MESSAGE,
} from './shape';
import type {
  Aggregation,
  Bucket,
  BucketSearchParams,
  CallOptions,
  CreditsUsage,
  Cve,
  DomainFilter,
  DomainRecord,
  DomainSearchParams,
  Exploit,
  FieldDescriptor,
  Host,
  HostCursor,
  HostSearchParams,
  OpaqueCursor,
  Page,
  SummaryParams,
  WhoisHistory,
  WhoisRecord,
} from './types';

export { ENDPOINTS, FIRST_CVE_PAGE } from './endpoints';
export type OdinClientOptions = TransportOptions;

type Body = Record<string, unknown>;

/** A raw host that takes long to normalise (1,000 services: about 10 ms, more with collections). */
const manyServices = (h: unknown): boolean =>
  isObj(h) && Array.isArray(h.services) && h.services.length > 100;

export class OdinClient {
  private readonly http: HttpTransport;

  constructor(opts: OdinClientOptions) {
    this.http = new HttpTransport(opts);
  }

  /** The validated base URL, or why it was refused (every call then fails with `network`/`insecure`). */
  get baseUrl(): HttpTransport['baseUrl'] {
    return this.http.baseUrl;
  }

  // ------------------------------------------------------------ plumbing

  private error(op: Op, kind: OdinApiError['kind'], detail: string, message?: string): OdinApiError {
    return this.http.scrub(
      new OdinApiError({
        kind,
        endpoint: ENDPOINTS[op],
        detail: `${ENDPOINTS[op]}: ${detail}`,
        message,
        attempts: 1,
      }),
    );
  }

  /** Sends a request and returns the JSON envelope, checked to be an object without `success: false`. */
  private async call(
    op: Op,
    method: 'GET' | 'POST',
    path: string,
    opts: CallOptions | undefined,
    extra: Partial<HttpRequest> = {},
  ): Promise<Body> {
    const keyless: Op[] = [
      'searchDomains',
      'countDomains',
      'getBucketFields',
      'getFileFields',
      'getHostFields',
    ];
    const res = await this.http.request(
      {
        method,
        path,
        endpoint: ENDPOINTS[op],
        key: keyless.includes(op) ? 'optional' : 'required',
        ...extra,
      },
      opts?.signal,
    );
    if (!isObj(res.body)) throw this.error(op, 'badResponse', 'the body is not a JSON object');
    // Server text is redacted before it is cut, so no prefix of the key survives the cut.
    const serverText = (): string => this.http.redact(envelopeErrorText(res.body) ?? '').slice(0, 300);
    const unexpected = (problems: readonly ShapeProblem[]): OdinApiError =>
      this.error(
        op,
        'badResponse',
        `unexpected shape: ${describeShapeProblems(problems)}`,
        UNEXPECTED_SHAPE_MESSAGE,
      );
    const odd = envelopeProblems(res.body);
    if (odd.length > 0) throw unexpected(odd);
    if (res.body.success === false) {
      const text = serverText();
      const kind = /not\s*found|no\s+(data|record|result)/i.test(text) ? 'notFound' : 'badRequest';
      throw this.error(op, kind, `HTTP ${res.status} with success=false: ${text}`);
    }
    // A 200 that carries an error and no data is an error, never a (cached) "not found".
    const data = envelopeData(res.body);
    const errorField = [res.body.error, res.body[' error']].find(
      (e) => (typeof e === 'string' && e.trim() !== '') || isObj(e),
    );
    if (errorField !== undefined && (data === undefined || data === null)) {
      throw this.error(
        op,
        'server',
        `HTTP ${res.status} with an error body and no data: ${serverText() || this.http.redact(JSON.stringify(errorField)).slice(0, 300)}`,
        'ODIN answered with an error instead of data. Try again later; details are in the ODIN log.',
      );
    }
    const problems = shapeProblems(SHAPES[op] ?? 'none', data);
    if (problems.length > 0) throw unexpected(problems);
    return res.body;
  }

  private post(op: Op, path: string, body: Record<string, unknown>, opts?: CallOptions): Promise<Body> {
    return this.call(op, 'POST', path, opts, { body: defined(body) });
  }

  /** The payload of a single-record lookup: `null`/absent → notFound, not an object → badResponse. */
  private record(op: Op, body: Body): Record<string, unknown> {
    let data = envelopeData(body);
    if (Array.isArray(data) && data.length === 1) data = data[0];
    if (data == null || (isObj(data) && Object.keys(data).length === 0)) {
      throw this.error(op, 'notFound', 'no record in the response (data is null or empty)');
    }
    if (!isObj(data))
      throw this.error(op, 'badResponse', `data is ${Array.isArray(data) ? 'an array' : typeof data}`);
    return data;
  }

  private count(op: Op, body: Body): number {
    const n = normalizeCount(envelopeData(body));
    if (n === undefined) throw this.error(op, 'badResponse', 'no count in the response');
    return n;
  }

  private aggregation(op: Op, body: Body): Aggregation {
    const a = normalizeAggregation(envelopeData(body));
    if (!a) throw this.error(op, 'badResponse', 'no aggregation in the response');
    return a;
  }

  private list(body: Body): unknown[] {
    const data = envelopeData(body);
    return Array.isArray(data) ? data : [];
  }

  /** One page of a cursor-paged search: POST the params, normalise each item, read the cursor. */
  private async searchPage<T, C>(
    op: Op,
    path: string,
    params: { start?: C },
    item: (v: unknown) => T | undefined,
    parseCursor: (v: unknown) => C | undefined,
    opts: CallOptions | undefined,
    heavy?: (v: unknown) => boolean,
  ): Promise<Page<T, C>> {
    const body = await this.post(op, path, { ...params }, opts);
    // A page of hosts can take tens of milliseconds to normalise: in slices, between turns.
    const items = await mapInSlices(this.list(body), item, {
      spend: true,
      heavy,
      signal: opts?.signal,
      cancelled: () => this.error(op, 'cancelled', 'cancelled while reading the page'),
    });
    return toPage({ items, pagination: envelopePagination(body), start: params.start, parseCursor });
  }

  // ------------------------------------------------------------ hosts

  /** 3. Search hosts; send `page.next` back as `start` for the following page. */
  async searchHosts(params: HostSearchParams, opts?: CallOptions): Promise<Page<Host, HostCursor>> {
    const item = (h: unknown): Host | undefined => normalizeHost(h);
    return this.searchPage(
      'searchHosts',
      '/v1/hosts/search',
      params,
      item,
      parseHostCursor,
      opts,
      manyServices,
    );
  }

  /** 8. Latest details of one host. */
  async getHost(ip: string, opts?: CallOptions): Promise<Host> {
    const body = await this.call('getHost', 'GET', `/v1/hosts/${ipSegment('getHost', ip)}`, opts);
    return normalizeHost(this.record('getHost', body), ip.trim())!;
  }

  /** 5. Summarise hosts by a field (top values with counts). */
  async summarizeHosts(params: SummaryParams, opts?: CallOptions): Promise<Aggregation> {
    return this.aggregation(
      'summarizeHosts',
      await this.post('summarizeHosts', '/v1/hosts/summary', { ...params }, opts),
    );
  }

  /**
   * 12. CVEs of a host, one page (`FIRST_CVE_PAGE` = 1 first). `next` is the following page
   * number, set while the server says there are more (`has_more`, `total`, `pages`, or a
   * message "page n of m") or, when it says nothing, while pages are not empty.
   */
  async getHostCves(
    ip: string,
    page: number = FIRST_CVE_PAGE,
    opts?: CallOptions,
  ): Promise<Page<Cve, number>> {
    if (!Number.isSafeInteger(page) || page < 0) {
      throw this.error(
        'getHostCves',
        'badRequest',
        `invalid page ${String(page)}`,
        'Invalid CVE page number.',
      );
    }
    const path = `/v1/cves/all/${ipSegment('getHostCves', ip)}/${page}`;
    const body = await this.call('getHostCves', 'GET', path, opts);
    const data = envelopeData(body);
    const items = this.readable('getHostCves', readCveList(data));
    return cvePage(items, page, { ...envelopePagination(body), ...(isObj(data) ? data : {}) }, body.message);
  }

  /**
   * 13. Exploits of a host, flattened: one entry per exploit (deduplicated by id) with the
   * CVE ids it was listed under in `cves`. A flat list is what a hover or tree shows; the
   * grouping by CVE is kept in `cves` (and `getHostCves` has each CVE's `exploit` list).
   */
  async getHostExploits(ip: string, opts?: CallOptions): Promise<Exploit[]> {
    const path = `/v1/hosts/exploits/${ipSegment('getHostExploits', ip)}`;
    const read = readExploits(envelopeData(await this.call('getHostExploits', 'GET', path, opts)));
    return this.readable('getHostExploits', { cves: read.exploits, unreadable: read.unreadable });
  }

  /** 14. One CVE on a host. */
  async getHostCve(ip: string, cveId: string, opts?: CallOptions): Promise<Cve> {
    const path = `/v1/hosts/cves/${ipSegment('getHostCve', ip)}/${segment('getHostCve', 'CVE id', cveId)}`;
    const body = await this.call('getHostCve', 'GET', path, opts);
    const data = envelopeData(body);
    if (data == null) throw this.error('getHostCve', 'notFound', 'data is null');
    const cves = this.readable('getHostCve', readCveList(data));
    const want = cveId.trim().toUpperCase();
    const cve = cves.find((c) => c.id.toUpperCase() === want) ?? (cves.length === 1 ? cves[0] : undefined);
    if (!cve) throw this.error('getHostCve', 'notFound', `no record of ${want} in the response`);
    return cve;
  }

  // ------------------------------------------------------------ domains

  /** 4. Search domain and subdomain records; `page.next` is the opaque cursor to send back. */
  async searchDomains(
    params: DomainSearchParams,
    opts?: CallOptions,
  ): Promise<Page<DomainRecord, OpaqueCursor>> {
    return this.searchPage(
      'searchDomains',
      '/v1/domain/search',
      params,
      normalizeDomainRecord,
      parseOpaqueCursor,
      opts,
    );
  }

  /** 11. Count domain records. */
  async countDomains(filter: DomainFilter, opts?: CallOptions): Promise<number> {
    return this.count(
      'countDomains',
      await this.post('countDomains', '/v1/domain/count', { ...filter }, opts),
    );
  }

  /** 1. Count subdomain records. */
  async countSubdomains(filter: DomainFilter, opts?: CallOptions): Promise<number> {
    const body = await this.post('countSubdomains', '/v1/domain/subdomain/count', { ...filter }, opts);
    return this.count('countSubdomains', body);
  }

  /** 10. Current whois record of a domain. */
  async getWhois(domain: string, opts?: CallOptions): Promise<WhoisRecord> {
    const path = `/v1/domain/whois/${segment('getWhois', 'domain name', domain)}`;
    const data = this.record('getWhois', await this.call('getWhois', 'GET', path, opts));
    return normalizeWhois(data, domain.trim())!;
  }

  /** 9. Whois history of a domain (newest first as served); `pageState` cannot be sent back. */
  async getWhoisHistory(domain: string, opts?: CallOptions): Promise<WhoisHistory> {
    const path = `/v1/domain/whois/${segment('getWhoisHistory', 'domain name', domain)}/historical`;
    const body = await this.call('getWhoisHistory', 'GET', path, opts);
    return normalizeWhoisHistory(envelopeData(body), envelopeMeta(body), domain.trim());
  }

  // ------------------------------------------------------------ exposed storage

  /** 2. Search exposed buckets; `page.next` is the opaque cursor to send back. */
  async searchBuckets(params: BucketSearchParams, opts?: CallOptions): Promise<Page<Bucket, OpaqueCursor>> {
    const path = '/v1/exposed/buckets/search';
    return this.searchPage('searchBuckets', path, params, normalizeBucket, parseOpaqueCursor, opts);
  }

  /** 7. Count exposed files matching a query. */
  async countFiles(params: { query: string }, opts?: CallOptions): Promise<number> {
    const body = await this.post('countFiles', '/v1/exposed/files/count', { query: params.query }, opts);
    return this.count('countFiles', body);
  }

  /** 6. Summarise exposed files by a field. */
  async summarizeFiles(params: SummaryParams, opts?: CallOptions): Promise<Aggregation> {
    const body = await this.post('summarizeFiles', '/v1/exposed/files/summary', { ...params }, opts);
    return this.aggregation('summarizeFiles', body);
  }

  // ------------------------------------------------------------ field catalogues

  /** 15. Queryable bucket fields. */
  async getBucketFields(opts?: CallOptions): Promise<FieldDescriptor[]> {
    return normalizeFields(
      envelopeData(await this.call('getBucketFields', 'GET', '/v1/fields/exposed/buckets', opts)),
    );
  }

  /** 16. Queryable file fields. */
  async getFileFields(opts?: CallOptions): Promise<FieldDescriptor[]> {
    return normalizeFields(
      envelopeData(await this.call('getFileFields', 'GET', '/v1/fields/exposed/files', opts)),
    );
  }

  /** 17. Queryable host fields of a category (`all` is the only confirmed one). */
  async getHostFields(category = 'all', opts?: CallOptions): Promise<FieldDescriptor[]> {
    const path = `/v1/fields/hosts/${segment('getHostFields', 'field category', category)}`;
    return normalizeFields(envelopeData(await this.call('getHostFields', 'GET', path, opts)));
  }

  // ------------------------------------------------------------ outside the spec (ODIN-FACTS)

  /** `GET /v1/ping` → `pong` (no key sent): resolves when the service answers. */
  async ping(opts?: CallOptions): Promise<void> {
    const res = await this.http.request(
      { method: 'GET', path: '/v1/ping', endpoint: ENDPOINTS.ping, key: 'none', expect: 'text' },
      opts?.signal,
    );
    const b = res.body;
    const text =
      typeof b === 'string' ? b : isObj(b) ? [b.message, b.data].find((x) => typeof x === 'string') : '';
    if (typeof text !== 'string' || !/pong/i.test(text)) {
      throw this.error('ping', 'badResponse', 'the answer to ping is not "pong"');
    }
  }

  /**
   * `POST /v1/hosts/count` (every official client calls it): how many hosts match a query,
   * without paying for a page of records.
   */
  async countHosts(params: { query: string }, opts?: CallOptions): Promise<number> {
    return this.count(
      'countHosts',
      await this.post('countHosts', '/v1/hosts/count', { query: params.query }, opts),
    );
  }

  /** `GET /v1/hosts/cve/{ip}/` (official clients): every CVE of a host in one answer. */
  async getAllHostCves(ip: string, opts?: CallOptions): Promise<Cve[]> {
    const path = `/v1/hosts/cve/${segment('getAllHostCves', 'IP address', ip)}/`;
    return this.readable(
      'getAllHostCves',
      readCveList(envelopeData(await this.call('getAllHostCves', 'GET', path, opts))),
    );
  }

  /**
   * What a CVE or exploit endpoint answered, or a `badResponse` when entries were there but
   * could not be read: never "no known CVEs" or "0 exploits" because of an answer's shape.
   */
  private readable<T>(op: Op, read: { cves: T[]; unreadable: number }): T[] {
    if (read.unreadable > 0) {
      throw this.error(
        op,
        'badResponse',
        `unexpected shape: ${read.unreadable} CVE or exploit entr${read.unreadable === 1 ? 'y' : 'ies'} could not be read`,
        `ODIN sent ${UNREADABLE_CVE_DATA}. Details are in the ODIN log.`,
      );
    }
    return read.cves;
  }

  /**
   * `POST /v1/domain/subdomain/search` (Cyble's subdomain source): the subdomain names of a
   * domain, page by page; `page.next` is the opaque cursor to send back.
   */
  async searchSubdomains(
    params: { domain: string; limit?: number; start?: OpaqueCursor },
    opts?: CallOptions,
  ): Promise<Page<string, OpaqueCursor>> {
    const name = (n: unknown): string | undefined => (typeof n === 'string' && n !== '' ? n : undefined);
    const path = '/v1/domain/subdomain/search';
    return this.searchPage('searchSubdomains', path, params, name, parseOpaqueCursor, opts);
  }

  /** `GET /v1/credits/usage`: remaining credits (a good "test the key" call). */
  async getCreditsUsage(opts?: CallOptions): Promise<CreditsUsage> {
    const body = await this.call('getCreditsUsage', 'GET', '/v1/credits/usage', opts);
    const credits = normalizeCredits(body);
    if (!credits) throw this.error('getCreditsUsage', 'badResponse', 'no credit figures in the response');
    return credits;
  }
}
