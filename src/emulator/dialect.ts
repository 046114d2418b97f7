/**
 * Turns canonical records into the wire shapes of the two dialects:
 * - `spec`: exactly the interface document (software sub-objects as objects, banner text
 *   in the host-level `banner` array (HTTP has none, as live), empty lists as `[]`, unset
 *   timestamps omitted; module contents as live: the document does not show them);
 * - `live`: as the captured answer of the real service shows it (ODIN-FACTS "The real
 *   capture"): module names in the host-level `banner`, banner text under
 *   `services[].modules.<proto>.banner` (none for HTTP), coordinates as strings, empty
 *   `_meta` strings, no service `url`, CPE parts `ANY` and regex-escaped versions,
 *   lower-case severities, empty `cve`/`softwares`/`modules` left out, unset timestamps
 *   `0001-01-01T00:00:00Z`, 0–3 fractional digits, `asn.country_code` often empty; search
 *   hits carry `services[].cve` as `{id, severity}` and no `hostnames`, `domains` or
 *   `whois.raw`, which the lookup adds (`whois.raw` base64, as `_encoding.raw` says).
 * Every function builds new objects: the dataset is shared and never mutated.
 */
import type { BucketRecord, CveRecord, HostRecord, ServiceRecord } from './records';
import { FIXTURE_HOSTS } from './fixtures';
import { hash32 } from './random';

export type Dialect = 'spec' | 'live';

export const ZERO_TIME = '0001-01-01T00:00:00Z';

/** An empty list as the live service sends it: `null` or absent, by a per-record coin. */
function liveList<T>(list: T[], coin: boolean): T[] | null | undefined {
  return list.length > 0 ? list : coin ? null : undefined;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `…:50.020Z` → `…:50.02Z`, `…:50.000Z` → `…:50Z` (the live service drops trailing zeros). */
export function liveTime(t: string): string {
  return t.replace(/\.(\d*?)0+Z$/, (_m, digits: string) => (digits ? `.${digits}Z` : 'Z'));
}

export function cveOut(c: CveRecord, dialect: Dialect): Record<string, unknown> {
  const live = dialect === 'live';
  return {
    id: c.id,
    summary: c.summary,
    severity: live ? c.severity.toLowerCase() : c.severity,
    score: c.score,
    vector_string: c.vector_string,
    weakness: c.weakness,
    references: live ? liveList(c.references, true) : c.references.slice(),
    services: c.services.slice(),
    exploit: live ? liveList(c.exploit, true) : c.exploit.map((e) => ({ ...e })),
  };
}

/**
 * The variations of real answers (ODIN-FACTS "More real answers"), by a coin per host or
 * service so that they are stable for a seed: in the one full capture 28 of 61 services have
 * no `modules` and 5 no `softwares`, two of ten hosts an empty `banner`, and city, postal
 * code and product can be `""`; a certificate's IP list can hold a cut-off IPv6 fragment next
 * to a repeated address; a lookup's timestamps can carry 9 fractional digits. The named
 * fixture hosts keep their full records: the tests and the demo describe them.
 */
const FULL_RECORDS: ReadonlySet<string> = new Set(Object.values(FIXTURE_HOSTS));

/** `…:27.137Z` → `…:27.137961452Z`: nanoseconds, as the lookup of the documentation shows. */
function nanoTime(t: string, coin: number): string {
  const extra = String(coin % 1_000_000).padStart(6, '0');
  return t.replace(
    /(?:\.(\d{1,3}))?Z$/,
    (_m, ms: string | undefined) => `.${(ms ?? '').padEnd(3, '0')}${extra}Z`,
  );
}

/** A TLS module whose certificate lists its first IP twice and a cut-off IPv6 fragment after it. */
function malformedSan(tls: Record<string, unknown>): Record<string, unknown> {
  const cert = tls.certificate as Record<string, unknown> | undefined;
  const ext = cert?.extensions as Record<string, unknown> | undefined;
  const san = ext?.subject_alt_name as Record<string, unknown> | undefined;
  const ips = san?.ip_address;
  if (!cert || !ext || !san || !Array.isArray(ips) || ips.length === 0) return tls;
  const first = ips[0] as string;
  const fragment = first.includes(':') ? first.split(':')[0]! : '2605';
  return {
    ...tls,
    certificate: {
      ...cert,
      extensions: { ...ext, subject_alt_name: { ...san, ip_address: [...ips, first, fragment] } },
    },
  };
}

function liveService(s: ServiceRecord, hit: boolean, ip: string): Record<string, unknown> {
  const coin = FULL_RECORDS.has(ip) ? 99 : hash32(`${ip}:${s.port}`) % 100;
  const out: Record<string, unknown> = {
    port: s.port,
    protocol: s.protocol,
    name: s.name,
    version: s.version,
    product: coin >= 90 && coin < 94 ? '' : s.product,
    extra_info: s.extra_info,
    tunnel: s.tunnel,
  };
  if (s.softwares.length && !(coin >= 45 && coin < 53))
    out.softwares = s.softwares.map((sw) => ({
      ...sw,
      version: sw.version === 'ANY' ? 'ANY' : escapeRegex(sw.version),
    }));
  if (Object.keys(s.modules).length && coin >= 45) {
    const modules: Record<string, unknown> = { ...s.modules };
    if (modules.tls && coin % 3 === 0) modules.tls = malformedSan(modules.tls as Record<string, unknown>);
    out.modules = modules;
  }
  out._meta = { name: '', desc: '', category: '' };
  out.last_updated_at =
    !hit && coin % 4 === 1 ? nanoTime(s.last_updated_at, hash32(ip)) : liveTime(s.last_updated_at);
  if (s.cve.length)
    out.cve = hit
      ? s.cve.map((c) => ({ id: c.id, severity: c.severity.toLowerCase() }))
      : s.cve.map((c) => cveOut(c, 'live'));
  return out;
}

function specService(s: ServiceRecord): Record<string, unknown> {
  const modules: Record<string, Record<string, unknown>> = {};
  for (const [name, mod] of Object.entries(s.modules)) {
    const copy = { ...mod };
    delete copy.banner;
    modules[name] = copy;
  }
  return {
    _meta: { ...s._meta, tags: s._meta.tags.slice() },
    cve: s.cve.map((c) => cveOut(c, 'spec')),
    extra_info: s.extra_info,
    last_updated_at: s.last_updated_at,
    modules,
    name: s.name,
    port: s.port,
    product: s.product,
    protocol: s.protocol,
    softwares: s.softwares.map((sw) => ({
      uri: sw.uri,
      edition: {},
      language: {},
      part: {},
      product: {},
      update: {},
      vendor: {},
      version: {},
    })),
    tunnel: s.tunnel,
    url: s.url,
    version: s.version,
  };
}

/** A host as the lookup (`hit` false) or a search hit (`hit` true) answers it. */
export function hostOut(h: HostRecord, dialect: Dialect, hit: boolean): Record<string, unknown> {
  return dialect === 'live' ? liveHost(h, hit) : specHost(h);
}

function specHost(h: HostRecord): Record<string, unknown> {
  const bannerText: string[] = [];
  for (const s of h.services) {
    for (const mod of Object.values(s.modules))
      if (typeof mod.banner === 'string') bannerText.push(mod.banner);
  }
  const time = (t: string | null): string | undefined => (t === null ? undefined : t);
  return {
    ip: h.ip,
    is_ipv4: h.is_ipv4,
    is_ipv6: h.is_ipv6,
    is_vuln: h.is_vuln,
    scan_id: h.scan_id,
    last_updated_at: h.last_updated_at,
    banner: bannerText,
    services_hash: h.services_hash,
    asn: { ...h.asn },
    asn_updated_at: time(h.asn_updated_at),
    domains: h.domains.map((d) => ({ ...d, dns_servers: d.dns_servers.slice(), emails: d.emails.slice() })),
    hostnames: h.hostnames.map((n) => ({ ...n })),
    location: { ...h.location, coordinates: { ...h.location.coordinates } },
    location_updated_at: time(h.location_updated_at),
    services: h.services.map(specService),
    tags: h.tags.map((t) => ({ ...t })),
    whois: { ...h.whois, _encoding: { ...h.whois._encoding } },
    whois_updated_at: time(h.whois_updated_at),
  };
}

function liveHost(h: HostRecord, hit: boolean): Record<string, unknown> {
  const coin = hash32(h.ip);
  const full = FULL_RECORDS.has(h.ip);
  const vary = (n: number): boolean => !full && Math.floor(coin / 1000) % n === 0;
  const time = (t: string | null): string => (t === null ? ZERO_TIME : liveTime(t));
  const { coordinates, ...place } = h.location;
  const out: Record<string, unknown> = {
    scan_id: h.scan_id,
    ip: h.ip,
    is_ipv4: h.is_ipv4,
    is_ipv6: h.is_ipv6,
    location: {
      ...place,
      ...(vary(7) ? { city: '' } : {}),
      ...(vary(4) ? { postal_code: '' } : {}),
      coordinates: { latitude: String(coordinates.latitude), longitude: String(coordinates.longitude) },
    },
    location_updated_at: time(h.location_updated_at),
    asn: { ...h.asn, country_code: coin % 5 < 2 ? '' : h.asn.country_code },
    asn_updated_at: time(h.asn_updated_at),
    whois: {
      network: h.whois.network,
      organization: h.whois.organization,
      descr: h.whois.descr,
      _encoding: { raw: 'BASE64' },
      // Only the lookup carries the raw text (base64, as `_encoding.raw` says).
      ...(hit ? {} : { raw: Buffer.from(h.whois.raw, 'utf8').toString('base64') }),
    },
    whois_updated_at: time(h.whois_updated_at),
    tags: h.tags.map((t) => ({ ...t })),
    services: h.services.map((s) => liveService(s, hit, h.ip)),
    services_hash: h.services_hash,
    banner: vary(5) ? [] : h.banner.slice(),
    is_vuln: h.is_vuln,
    last_updated_at: !hit && vary(2) ? nanoTime(h.last_updated_at, coin) : liveTime(h.last_updated_at),
  };
  if (!hit) {
    // The lookup adds hostnames and domains (`null` or absent when there are none).
    out.hostnames = liveList(
      h.hostnames.map((n) => ({ ...n, last_updated_at: liveTime(n.last_updated_at) })),
      (coin & 4) === 4,
    );
    out.domains = liveList(
      h.domains.map((d) => ({
        ...d,
        dns_servers: d.dns_servers.slice(),
        emails: d.emails.slice(),
        last_updated_at: liveTime(d.last_updated_at),
      })),
      (coin & 2) === 2,
    );
  }
  return out;
}

export function bucketOut(b: BucketRecord, dialect: Dialect): Record<string, unknown> {
  const live = dialect === 'live';
  return {
    ...b,
    labels: live ? liveList(b.labels.slice(), true) : b.labels.slice(),
    categories: b.categories.slice(),
    file_cat_count: { ...b.file_cat_count },
  };
}
