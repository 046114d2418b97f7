/**
 * From the API's host record to what the host page shows (pure, no `vscode`): a lean view
 * model without banner text (banners are fetched one at a time when expanded, so a host
 * with megabytes of banners costs nothing until someone looks), CVE merging and lookups
 * of the values the page refers to by id.
 */
import type { Cve, Exploit, Host, Service, TlsCertificate } from '../../api/types';
import type { ExploitationView } from '../../core/exploitation';
import { keyName, softwareName } from '../../core/hosts/names';
import { vulnerability } from '../../core/hosts/vulnerability';
import {
  BANNER_MAX,
  type CertificateView,
  type CveView,
  type ExploitView,
  type HostView,
  type ServiceView,
} from '../../common/protocol';
import { l10n } from '../../core/text/l10n';
import { fmt } from '../../core/text/numbers';

const MAX_FIELD = 10_000;

/** Strings from the API, capped (the page shows text; the raw JSON has it all). */
function cap(s: string | undefined, max = MAX_FIELD): string | undefined {
  if (s === undefined || s === '') return undefined;
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** A version as published (the live service regex-escapes them: `8\.2p1`). */
function unescapeVersion(v: string | undefined): string | undefined {
  return v?.replace(/\\([.+*?()[\]{}|^$\\-])/g, '$1');
}

/** An unset timestamp is `0001-01-01T00:00:00Z` on the live service. */
function date(v: string | undefined): string | undefined {
  if (!v || v.startsWith('0001-01-01')) return undefined;
  return cap(v, 64);
}

export function serviceBanner(s: Service): string {
  if (typeof s.banner === 'string') return s.banner;
  for (const m of Object.values(s.modules ?? {})) if (typeof m.banner === 'string') return m.banner;
  return '';
}

function moduleString(s: Service, module: string, field: string): string | undefined {
  const v = s.modules?.[module]?.[field];
  return typeof v === 'string' ? cap(v, 2000) : undefined;
}

function moduleNumber(s: Service, module: string, field: string): number | undefined {
  const v = s.modules?.[module]?.[field];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/**
 * `cpe:2.3:a:openbsd:openssh:8.2p1:*:…` and `cpe:/a:openbsd:openssh:8.2p1` (CPE 2.2, what
 * the live service sends) → `OpenSSH 8.2p1` (vendor and product named as people write them,
 * `core/hosts/names.ts`); unknown parts (`*`, `-`, `ANY`) left out; other text unchanged.
 */
export function cpeText(uri: string): string {
  const parts = uri.split(':');
  const fields =
    parts[1] === '2.3' ? parts.slice(3, 6) : /^\/[aho]$/.test(parts[1] ?? '') ? parts.slice(2, 5) : undefined;
  if (parts[0] !== 'cpe' || !fields || fields.length < 2) return uri;
  const [vendor, product, version] = fields.map((p) =>
    p === '*' || p === '-' || p === '' || p.toUpperCase() === 'ANY' ? undefined : p.replace(/\\(.)/g, '$1'),
  );
  return [softwareName(vendor, product), version].filter((x) => x).join(' ');
}

function softwareText(s: Service): string[] {
  return (s.softwares ?? [])
    .map(
      (w) =>
        [softwareName(w.vendor, w.product), unescapeVersion(w.version)].filter((x) => x).join(' ') ||
        (w.uri ? cpeText(w.uri) : ''),
    )
    .filter((x) => x !== '')
    .map((x) => cap(x, 500)!)
    .slice(0, 50);
}

/** What the page shows of a certificate: names, validity, fingerprint, self-signed. */
export function certificateView(c: TlsCertificate | undefined): CertificateView | undefined {
  if (!c) return undefined;
  const name = (n: TlsCertificate['subject']): string | undefined =>
    cap([n.commonName, n.organization, n.country].filter((x) => x).join(', '), 1000);
  return {
    subject: name(c.subject),
    issuer: name(c.issuer),
    names: [...c.names, ...c.ips].slice(0, 200).map((n) => cap(n, 300)!),
    notBefore: date(c.notBefore),
    notAfter: date(c.notAfter),
    fingerprint:
      c.fingerprintSha256 && /^[0-9a-fA-F]{64}$/.test(c.fingerprintSha256) ? c.fingerprintSha256 : undefined,
    selfSigned: c.selfSigned,
    validation: cap(c.validationLevel, 16),
    key: cap(keyName(c.keyAlgorithm, c.keyBits, c.keyCurve), 64),
  };
}

/**
 * The host search that finds every host presenting this certificate, or undefined when the
 * service has none (or its fingerprint is not 64 hex digits: nothing else goes into a query).
 */
export function certificateQuery(s: Service | undefined): string | undefined {
  const fp = s?.tls?.fingerprintSha256;
  return fp && /^[0-9a-fA-F]{64}$/.test(fp)
    ? `services.modules.tls.certificate.fingerprint_sha256:"${fp}"`
    : undefined;
}

export function serviceView(s: Service, index: number): ServiceView {
  return {
    index,
    port: s.port,
    protocol: cap(s.protocol, 32),
    name: cap(s.name, 200),
    product: cap(s.product, 500),
    version: cap(unescapeVersion(s.version), 200),
    extraInfo: cap(s.extra_info, 1000),
    tunnel: cap(s.tunnel, 64),
    url: cap(s.url, 2000),
    title: cap(s.http?.title, 2000) ?? moduleString(s, 'http', 'title'),
    statusCode: s.http?.status ?? moduleNumber(s, 'http', 'status_code'),
    server: cap(s.http?.server, 500),
    certificate: certificateView(s.tls),
    software: softwareText(s),
    cves: (s.cve ?? []).map((c) => cap(c.id, 64)!).slice(0, 500),
    lastUpdated: date(s.last_updated_at),
    bannerLength: serviceBanner(s).length,
  };
}

export function exploitView(e: Exploit, cves: string[] = e.cves ?? []): ExploitView {
  return {
    id: cap(e.id, 128)!,
    description: cap(e.description, 2000),
    platform: cap(e.platform, 200),
    type: cap(e.type, 200),
    file: cap(e.file, 1000),
    url: cap(e.url, 2000),
    cves: cves.map((c) => cap(c, 64)!),
  };
}

export function cveView(c: Cve, source: CveView['source'], x?: ExploitationView): CveView {
  const e = x?.lookup(c.id);
  return {
    ...(e?.kev ? { kev: { added: e.kev.added, ransomware: e.kev.ransomware } } : {}),
    ...(e?.epss ? { epss: { epss: e.epss.epss, percentile: e.epss.percentile } } : {}),
    id: cap(c.id, 128)!,
    severity: c.severity,
    score: typeof c.score === 'number' && Number.isFinite(c.score) ? c.score : undefined,
    summary: cap(c.summary, 5000),
    vector: cap(c.vector_string, 500),
    weakness: cap(c.weakness, 500),
    references: (c.references ?? []).map((r) => cap(r, 2000)!).slice(0, 200),
    services: (c.services ?? []).map((r) => cap(r, 200)!).slice(0, 200),
    exploits: (c.exploit ?? []).slice(0, 200).map((e) => exploitView(e, [c.id])),
    source,
  };
}

/** The CVEs listed in the host record, merged across services (first full record wins). */
export function hostCves(host: Host): Cve[] {
  const byId = new Map<string, Cve>();
  for (const s of host.services ?? []) {
    for (const c of s.cve ?? []) {
      const key = c.id.toUpperCase();
      const prev = byId.get(key);
      const services = [...new Set([...(prev?.services ?? []), ...(c.services ?? []), String(s.port)])];
      byId.set(key, { ...(prev && prev.summary ? prev : c), services });
    }
  }
  return [...byId.values()];
}

/**
 * Merges CVE lists: endpoint records replace host-record stubs of the same id (keeping
 * the stub's ports), new ids are appended.
 */
export function mergeCves(current: Cve[], incoming: Cve[]): Cve[] {
  const byId = new Map(current.map((c) => [c.id.toUpperCase(), c]));
  for (const c of incoming) {
    const key = c.id.toUpperCase();
    const prev = byId.get(key);
    const services = [...new Set([...(prev?.services ?? []), ...(c.services ?? [])])];
    byId.set(key, {
      ...c,
      severity: c.severity === 'UNKNOWN' && prev ? prev.severity : c.severity,
      services,
    });
  }
  return [...byId.values()];
}

/** Module names (`http`, `tls`) versus banner text in the host-level `banner` list. */
const MODULE_NAME = /^[a-z0-9_.-]{1,32}$/i;

export function hostView(host: Host, x?: ExploitationView): HostView {
  const loc = host.location;
  const location = [loc?.city, loc?.country_name ?? loc?.country_code, loc?.continent]
    .filter((x) => x)
    .join(', ');
  const dates: HostView['dates'] = [];
  const addDate = (label: string, v: string | undefined): void => {
    const d = date(v);
    if (d) dates.push({ label, value: d });
  };
  addDate(l10n.t('Last updated'), host.last_updated_at);
  addDate(l10n.t('Location updated'), host.location_updated_at);
  addDate(l10n.t('ASN updated'), host.asn_updated_at);
  addDate(l10n.t('Whois updated'), host.whois_updated_at);
  const omitted = host.services_omitted ?? 0;
  const notKept = [
    omitted
      ? l10n.t(
          '{0} of the {1} services the answer listed (those with CVEs are kept first)',
          fmt(omitted),
          fmt(omitted + host.services.length),
        )
      : '',
    host.details_cut ? l10n.t('part of the other lists and protocol details') : '',
  ]
    .filter((x) => x)
    .join('; ');
  return {
    ...(notKept ? { notKept } : {}),
    ip: host.ip,
    // Unknown when the answer's CVE data could not be read: the page then says neither yes nor no.
    isVuln: ((v) => (v === 'vulnerable' ? true : v === 'clean' ? host.is_vuln : undefined))(
      vulnerability(host).state,
    ),
    organization: cap(host.asn?.organization ?? host.whois?.organization, 500),
    asn: cap(host.asn?.number, 64),
    asnCountry: cap(host.asn?.country_code, 16),
    location: cap(location, 500),
    network: cap(loc?.network ?? host.whois?.network, 200),
    tags: (host.tags ?? []).map((t) => cap(t.pretty_name ?? t.name, 200)!).slice(0, 200),
    modules: (host.banner ?? []).filter((b) => MODULE_NAME.test(b)).slice(0, 100),
    hostBanners: hostBanners(host).map((b) => b.length),
    dates,
    services: (host.services ?? []).map(serviceView),
    hostnames: (host.hostnames ?? [])
      .slice(0, 2000)
      .map((h) => ({ name: cap(h.name, 500)!, lastUpdated: date(h.last_updated_at) })),
    domains: (host.domains ?? []).slice(0, 2000).map((d) => ({
      name: cap(d.name, 500),
      webServer: cap(d.web_server, 500),
      country: cap(d.country, 100),
      dnsServers: (d.dns_servers ?? []).map((x) => cap(x, 500)!).slice(0, 50),
      emails: (d.emails ?? []).map((x) => cap(x, 500)!).slice(0, 50),
      lastUpdated: date(d.last_updated_at),
    })),
    whois: host.whois
      ? {
          organization: cap(host.whois.organization, 500),
          network: cap(host.whois.network, 200),
          descr: cap(host.whois.descr, 5000),
          raw: cap(host.whois.raw, 200_000),
        }
      : undefined,
    cves: hostCves(host).map((c) => cveView(c, 'host', x)),
  };
}

/** Banner texts listed at host level (the spec dialect puts them there). */
export function hostBanners(host: Host): string[] {
  return (host.banner ?? []).filter((b) => !MODULE_NAME.test(b));
}

export function hostBannerText(
  host: Host,
  index: number,
  full: boolean,
  preview: number,
): { text: string; length: number } {
  const banner = hostBanners(host)[index];
  if (banner === undefined)
    throw new Error(l10n.t('That banner is no longer in this host record. Refresh the page.'));
  return { text: banner.slice(0, full ? BANNER_MAX : preview), length: banner.length };
}

/** A service's banner text for the page: the preview or all of it (capped at BANNER_MAX). */
export function bannerText(
  host: Host,
  serviceIndex: number,
  full: boolean,
  preview: number,
): { text: string; length: number } {
  const s = host.services?.[serviceIndex];
  if (!s) throw new Error(l10n.t('That service is no longer in this host record. Refresh the page.'));
  const banner = serviceBanner(s);
  return { text: banner.slice(0, full ? BANNER_MAX : preview), length: banner.length };
}

/** The URL a link id refers to, from the extension's own copy of the data. */
export function linkTarget(
  host: Host,
  cves: Cve[],
  exploits: Exploit[],
  link:
    | { kind: 'service'; serviceIndex: number }
    | { kind: 'reference'; cveId: string; refIndex: number }
    | { kind: 'exploit'; exploitId: string },
): string | undefined {
  switch (link.kind) {
    case 'service':
      return host.services?.[link.serviceIndex]?.url;
    case 'reference': {
      const id = link.cveId.toUpperCase();
      const cve = cves.find((c) => c.id.toUpperCase() === id);
      return cve?.references?.[link.refIndex];
    }
    case 'exploit': {
      const all = [...exploits, ...cves.flatMap((c) => c.exploit ?? [])];
      return all.find((e) => e.id === link.exploitId)?.url;
    }
  }
}

/**
 * A URL the extension may offer to open in the browser: http(s) only, parsed with
 * `new URL`, without credentials. Anything else (javascript:, command:, file:, data:,
 * vscode:) is refused.
 */
export function safeExternalUrl(text: string | undefined): URL | undefined {
  if (!text) return undefined;
  let u: URL;
  try {
    u = new URL(text.trim());
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  if (u.username || u.password) return undefined;
  return u;
}
