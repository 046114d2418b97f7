/**
 * The endpoints the client calls: their templates (for errors and logs), which answers get
 * a shape check, and the checked path segments a looked-up value may become.
 */
import { OdinApiError } from './errors';
import type { ShapeKind } from './shape';

/** Endpoint templates, used in errors and logs (they never carry the looked-up value). */
export const ENDPOINTS = {
  countSubdomains: 'POST /v1/domain/subdomain/count',
  searchBuckets: 'POST /v1/exposed/buckets/search',
  searchHosts: 'POST /v1/hosts/search',
  searchDomains: 'POST /v1/domain/search',
  summarizeHosts: 'POST /v1/hosts/summary',
  summarizeFiles: 'POST /v1/exposed/files/summary',
  countFiles: 'POST /v1/exposed/files/count',
  getHost: 'GET /v1/hosts/{ip}',
  getWhoisHistory: 'GET /v1/domain/whois/{domain}/historical',
  getWhois: 'GET /v1/domain/whois/{domain}',
  countDomains: 'POST /v1/domain/count',
  getHostCves: 'GET /v1/cves/all/{ip}/{page}',
  getHostExploits: 'GET /v1/hosts/exploits/{ip}',
  getHostCve: 'GET /v1/hosts/cves/{ip}/{cve}',
  getBucketFields: 'GET /v1/fields/exposed/buckets',
  getFileFields: 'GET /v1/fields/exposed/files',
  getHostFields: 'GET /v1/fields/hosts/{category}',
  ping: 'GET /v1/ping',
  getCreditsUsage: 'GET /v1/credits/usage',
  countHosts: 'POST /v1/hosts/count',
  getAllHostCves: 'GET /v1/hosts/cve/{ip}/',
  searchSubdomains: 'POST /v1/domain/subdomain/search',
} as const;

export type Op = keyof typeof ENDPOINTS;

/** Which shape check each operation's `data` gets (see shape.ts); the rest are checked by their normaliser. */
export const SHAPES: Partial<Record<Op, ShapeKind>> = {
  getHost: 'host',
  searchHosts: 'hostList',
  searchDomains: 'list',
  searchBuckets: 'list',
  getHostCves: 'listOrObject',
  getHostExploits: 'listOrObject',
};

/** First CVE page number (`/v1/cves/all/{ip}/{page}`); the live base is undocumented. */
export const FIRST_CVE_PAGE = 1;

/**
 * One path segment: trimmed, percent-encoded (`/`, `?`, `#`, `%` can never add segments or
 * a query), and never `.`/`..`/empty (which URL parsing would turn into other paths). `:`
 * stays literal so IPv6 addresses read as they do in the official clients.
 */
export function segment(op: Op, what: string, value: unknown): string {
  const v = typeof value === 'string' ? value.trim() : '';
  if (v === '' || v === '.' || v === '..' || v.length > 255 || /[\x00-\x1f\x7f]/.test(v)) {
    throw new OdinApiError({
      kind: 'badRequest',
      endpoint: ENDPOINTS[op],
      message: `That is not a valid ${what} to look up.`,
      detail: `${ENDPOINTS[op]}: refused ${what} path parameter (empty, dot segment, control characters or too long)`,
    });
  }
  return encodeURIComponent(v).replace(/%3A/gi, ':');
}

/**
 * An IP address path segment: address characters only. A zone id (`fe80::1%vpn-name`, file
 * text of up to 64 characters) or any other text never reaches the request path; callers pass
 * the gate's canonical value, and this refuses anything else before a request is made.
 */
export function ipSegment(op: Op, value: unknown): string {
  const v = typeof value === 'string' ? value.trim() : '';
  if (!/^[0-9A-Fa-f:.]{2,45}$/.test(v)) {
    throw new OdinApiError({
      kind: 'badRequest',
      endpoint: ENDPOINTS[op],
      message: 'That is not a valid IP address to look up.',
      detail: `${ENDPOINTS[op]}: refused IP path parameter (only address characters are sent)`,
    });
  }
  return segment(op, 'IP address', v);
}

/** Copies the defined fields only (`undefined` ones are omitted from the JSON body). */
export function defined(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}
