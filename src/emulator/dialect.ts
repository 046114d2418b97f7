/**
 * Turns canonical records into the wire shapes of the two dialects:
 * - `spec`: exactly the interface document (software sub-objects as objects, banner text
 *   in the host-level `banner` array, empty lists as `[]`, unset timestamps omitted);
 * - `live`: as ODIN-FACTS says the real service answers (banner text under
 *   `services[].modules.<proto>.banner` and module names in `banner`, empty lists `null`
 *   or absent, unset timestamps `0001-01-01T00:00:00Z`, regex-escaped software versions,
 *   `asn.country_code` often empty, some timestamps with nanoseconds, and search hits
 *   with `services[].cve` reduced to `{id, severity}` and without `hostnames`, `domains`
 *   and `whois.raw`, which only the lookup carries).
 * Every function builds new objects: the dataset is shared and never mutated.
 */
import type { BucketRecord, CveRecord, HostRecord, ServiceRecord } from './dataset';
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

export function cveOut(c: CveRecord, dialect: Dialect): Record<string, unknown> {
  const live = dialect === 'live';
  return {
    id: c.id,
    summary: c.summary,
    severity: c.severity,
    score: c.score,
    vector_string: c.vector_string,
    weakness: c.weakness,
    references: live ? liveList(c.references, true) : c.references.slice(),
    services: c.services.slice(),
    exploit: live ? liveList(c.exploit, true) : c.exploit.map((e) => ({ ...e })),
  };
}

function serviceOut(s: ServiceRecord, dialect: Dialect, hit: boolean, coin: number): Record<string, unknown> {
  const live = dialect === 'live';
  const modules: Record<string, Record<string, unknown>> = {};
  for (const [name, mod] of Object.entries(s.modules)) {
    const copy = { ...mod };
    if (!live) delete copy.banner;
    modules[name] = copy;
  }
  const cve =
    hit && live
      ? s.cve.map((c) => ({ id: c.id, severity: c.severity }))
      : s.cve.map((c) => cveOut(c, dialect));
  return {
    _meta: { ...s._meta, tags: s._meta.tags.slice() },
    cve: live ? liveList(cve, (coin & 1) === 1) : cve,
    extra_info: s.extra_info,
    last_updated_at: s.last_updated_at,
    modules,
    name: s.name,
    port: s.port,
    product: s.product,
    protocol: s.protocol,
    softwares: s.softwares.map((sw) =>
      live
        ? { ...sw, version: escapeRegex(sw.version) }
        : {
            uri: sw.uri,
            edition: {},
            language: {},
            part: {},
            product: {},
            update: {},
            vendor: {},
            version: {},
          },
    ),
    tunnel: s.tunnel,
    url: s.url,
    version: s.version,
  };
}

/** A host as the lookup (`hit` false) or a search hit (`hit` true) answers it. */
export function hostOut(h: HostRecord, dialect: Dialect, hit: boolean): Record<string, unknown> {
  const live = dialect === 'live';
  const coin = hash32(h.ip);
  const time = (t: string | null): string | undefined => (t === null ? (live ? ZERO_TIME : undefined) : t);
  let lastUpdated = h.last_updated_at;
  if (live && coin % 3 === 0)
    lastUpdated = lastUpdated.replace(/Z$/, `${String(coin % 1_000_000).padStart(6, '0')}Z`);
  const services = h.services.map((s, i) => serviceOut(s, dialect, hit, coin >>> (i % 16)));
  const bannerText: string[] = [];
  if (!live) {
    for (const s of h.services) {
      for (const mod of Object.values(s.modules))
        if (typeof mod.banner === 'string') bannerText.push(mod.banner);
    }
  }
  const domains = h.domains.map((d) => ({
    ...d,
    dns_servers: d.dns_servers.slice(),
    emails: d.emails.slice(),
  }));
  const hostnames = h.hostnames.map((n) => ({ ...n }));
  const tags = h.tags.map((t) => ({ ...t }));
  return {
    ip: h.ip,
    is_ipv4: h.is_ipv4,
    is_ipv6: h.is_ipv6,
    is_vuln: h.is_vuln,
    scan_id: h.scan_id,
    last_updated_at: lastUpdated,
    banner: live ? h.banner.slice() : bannerText,
    services_hash: h.services_hash,
    asn: { ...h.asn, country_code: live && coin % 5 < 2 ? '' : h.asn.country_code },
    asn_updated_at: time(h.asn_updated_at),
    // Live search hits leave out hostnames, domains and whois.raw (the lookup adds them).
    domains: live ? (hit ? undefined : liveList(domains, (coin & 2) === 2)) : domains,
    hostnames: live ? (hit ? undefined : liveList(hostnames, (coin & 4) === 4)) : hostnames,
    location: { ...h.location, coordinates: { ...h.location.coordinates } },
    location_updated_at: time(h.location_updated_at),
    services: live ? liveList(services, true) : services,
    tags: live ? liveList(tags, (coin & 8) === 8) : tags,
    whois:
      live && hit
        ? { ...h.whois, raw: undefined, _encoding: { ...h.whois._encoding } }
        : { ...h.whois, _encoding: { ...h.whois._encoding } },
    whois_updated_at: time(h.whois_updated_at),
  };
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
