/**
 * The routes of the emulator: method, path template, the name in the request log, the key
 * policy and the handler. Paths are matched without a trailing slash; a known path with
 * another method is a 405, HEAD is served as GET.
 */
import * as H from './handlers';

export type KeyPolicy = 'required' | 'optional' | 'none';

export interface Route {
  method: 'GET' | 'POST';
  re: RegExp;
  endpoint: string;
  key: KeyPolicy;
  handler: H.Handler;
  /** Which capture is the ip / domain path parameter, if any. */
  ipParam?: number;
  domainParam?: number;
}

const SEG = '([^/]+)';
const route = (
  method: Route['method'],
  path: string,
  endpoint: string,
  key: KeyPolicy,
  handler: H.Handler,
  extra: Partial<Route> = {},
): Route => ({
  method,
  re: new RegExp(`^${path.replace(/\{[^}]+\}/g, SEG)}$`),
  endpoint,
  key,
  handler,
  ...extra,
});

/** Endpoint names used in the request log. Numbers are the spec's. */
const ROUTES: Route[] = [
  route('POST', '/v1/domain/subdomain/count', 'domain.subdomainCount', 'required', H.subdomainCount), // 1
  route('POST', '/v1/exposed/buckets/search', 'buckets.search', 'required', H.bucketsSearch), // 2
  route('POST', '/v1/hosts/search', 'hosts.search', 'required', H.hostsSearch), // 3
  route('POST', '/v1/domain/search', 'domain.search', 'optional', H.domainSearch), // 4
  route('POST', '/v1/hosts/summary', 'hosts.summary', 'required', H.hostsSummary), // 5
  route('POST', '/v1/exposed/files/summary', 'files.summary', 'required', H.filesSummary), // 6
  route('POST', '/v1/exposed/files/count', 'files.count', 'required', H.filesCount), // 7
  // Not in the 17 but called by every official client; before `/v1/hosts/{ip}`, which
  // would otherwise answer them (POST /v1/hosts/count with 405).
  route('POST', '/v1/hosts/count', 'hosts.count', 'required', H.hostsCount),
  route('GET', '/v1/hosts/cve/{ip}', 'hosts.cveAll', 'required', H.hostsCveAll, { ipParam: 0 }),
  route('POST', '/v1/domain/subdomain/search', 'domain.subdomainSearch', 'required', H.subdomainSearch),
  route('GET', '/v1/hosts/exploits/{ip}', 'hosts.exploits', 'required', H.hostsExploits, { ipParam: 0 }), // 13
  route('GET', '/v1/hosts/cves/{ip}/{cve}', 'hosts.cve', 'required', H.hostsCve, { ipParam: 0 }), // 14
  route('GET', '/v1/hosts/{ip}', 'hosts.get', 'required', H.hostsGet, { ipParam: 0 }), // 8
  route('GET', '/v1/domain/whois/{domain}/historical', 'whois.history', 'required', H.whoisHistory, {
    domainParam: 0,
  }), // 9
  route('GET', '/v1/domain/whois/{domain}', 'whois.get', 'required', H.whoisGet, { domainParam: 0 }), // 10
  route('POST', '/v1/domain/count', 'domain.count', 'optional', H.domainCount), // 11
  route('GET', '/v1/cves/all/{ip}/{page}', 'cves.list', 'required', H.cvesList, { ipParam: 0 }), // 12
  route('GET', '/v1/fields/exposed/buckets', 'fields.buckets', 'optional', H.fieldsBuckets), // 15
  route('GET', '/v1/fields/exposed/files', 'fields.files', 'optional', H.fieldsFiles), // 16
  route('GET', '/v1/fields/hosts/{category}', 'fields.hosts', 'optional', H.fieldsHosts), // 17
  route('GET', '/v1/ping', 'ping', 'none', H.ping),
  route('GET', '/v1/credits/usage', 'credits.usage', 'required', H.creditsUsage),
];

export function matchRoute(
  method: string,
  path: string,
): { route?: Route; params: string[]; methodMismatch: boolean } {
  let methodMismatch = false;
  for (const r of ROUTES) {
    const m = r.re.exec(path);
    if (!m) continue;
    if (r.method !== method && !(r.method === 'GET' && method === 'HEAD')) {
      methodMismatch = true;
      continue;
    }
    return { route: r, params: m.slice(1), methodMismatch: false };
  }
  return { params: [], methodMismatch };
}
