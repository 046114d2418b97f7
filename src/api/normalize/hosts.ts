/** Host records: ASN, location, domains, hostnames, tags, whois and services. */
import type { Asn, Host, HostDomain, HostLocation, HostName, HostTag, HostWhois, Service } from '../types';
import {
  isObj,
  str,
  nonEmpty,
  num,
  int,
  bool,
  strList,
  obj,
  time,
  mapList,
  compact,
  list,
  MAX_LIST_ITEMS,
  MAX_MODULE_VALUES,
  type CopyBudget,
  MAX_HOST_CVES,
  type Obj,
} from './json';
import { CVE_TOKEN, UNREADABLE_CVE_DATA } from './cves';
import { normalizeService } from './services';

function normalizeAsn(v: unknown): Asn | undefined {
  if (!isObj(v)) return undefined;
  const number = nonEmpty(v.number) ?? (int(v.number) !== undefined ? `AS${v.number as number}` : undefined);
  return compact<Asn>({
    country_code: nonEmpty(v.country_code),
    number,
    organization: nonEmpty(v.organization),
  });
}

/** A coordinate: a number, or a decimal number written as a string (live: `"40.7123"`). */
function coordinate(v: unknown): number | undefined {
  if (typeof v === 'string' && /^\s*-?\d{1,3}(\.\d+)?\s*$/.test(v)) return Number(v);
  return num(v);
}

function normalizeLocation(v: unknown): HostLocation | undefined {
  if (!isObj(v)) return undefined;
  const c = obj(v.coordinates);
  const latitude = coordinate(c.latitude) ?? coordinate(c.lat);
  const longitude = coordinate(c.longitude) ?? coordinate(c.lon) ?? coordinate(c.lng);
  return compact<HostLocation>({
    city: nonEmpty(v.city),
    continent: nonEmpty(v.continent),
    country_code: nonEmpty(v.country_code),
    country_name: nonEmpty(v.country_name),
    geo_point: nonEmpty(v.geo_point),
    locale_code: nonEmpty(v.locale_code),
    network: nonEmpty(v.network),
    postal_code: nonEmpty(v.postal_code),
    coordinates:
      latitude !== undefined || longitude !== undefined ? compact({ latitude, longitude }) : undefined,
  });
}

function normalizeHostDomain(v: unknown): HostDomain | undefined {
  if (!isObj(v)) return undefined;
  return compact<HostDomain>({
    country: str(v.country),
    dns_servers: strList(v.dns_servers),
    emails: strList(v.emails),
    last_updated_at: time(v.last_updated_at),
    name: str(v.name),
    web_server: str(v.web_server),
  });
}

function normalizeHostName(v: unknown): HostName | undefined {
  if (typeof v === 'string' && v !== '') return { name: v };
  if (!isObj(v) || !nonEmpty(v.name)) return undefined;
  return compact<HostName>({ name: v.name as string, last_updated_at: time(v.last_updated_at) });
}

/**
 * A tag that holds: a plain string, or an object whose `value` is true. The live service
 * lists tags that do not hold with `value: false` (every captured host carries
 * `is_anonymous_proxy: false`); those, and values that are not booleans, are left out.
 * An object without `value` is kept (older answers name only the tags that hold).
 */
function normalizeTag(v: unknown): HostTag | undefined {
  if (typeof v === 'string' && v !== '') return { name: v };
  if (!isObj(v) || !nonEmpty(v.name)) return undefined;
  if (v.value !== undefined && v.value !== true) return undefined;
  return compact<HostTag>({
    name: v.name as string,
    last_updated_at: time(v.last_updated_at),
    pretty_name: str(v.pretty_name),
    value: bool(v.value),
  });
}

/**
 * The raw whois text. `_encoding.raw` names its encoding (live: `"BASE64"`, and search hits
 * carry only that marker, no text); base64 text is decoded, anything else kept as it is.
 */
function whoisRaw(v: Obj): string | undefined {
  const raw = str(v.raw);
  if (raw === undefined) return undefined;
  const encoding = str(obj(v._encoding).raw);
  if (encoding?.toUpperCase() === 'BASE64' && /^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(raw)) {
    return Buffer.from(raw, 'base64').toString('utf8');
  }
  return raw;
}

function normalizeHostWhois(v: unknown): HostWhois | undefined {
  if (!isObj(v)) return undefined;
  const w = compact<HostWhois>({
    descr: str(v.descr),
    network: str(v.network),
    organization: str(v.organization),
    raw: whoisRaw(v),
  });
  return Object.keys(w).length ? w : undefined;
}

/** Most values `mentionsCve` looks at; a record larger than that is taken to mention one. */
const MAX_SCANNED = 2_000_000;

/** Whether a CVE id is written anywhere in `v` (values and keys, any depth). */
function mentionsCve(v: unknown): boolean {
  const stack: unknown[] = [v];
  let seen = 0;
  while (stack.length) {
    if (++seen > MAX_SCANNED) return true;
    const x = stack.pop();
    if (typeof x === 'string') {
      if (CVE_TOKEN.test(x)) return true;
    } else if (Array.isArray(x)) {
      for (const y of x) stack.push(y);
    } else if (isObj(x)) {
      for (const [k, y] of Object.entries(x)) {
        if (CVE_TOKEN.test(k)) return true;
        stack.push(y);
      }
    }
  }
  return false;
}

/**
 * Why this record may not read as "no known CVEs" (see `Host.cve_unreadable`), or undefined.
 * Never a false all-clear: CVE entries that could not be read, or, when nothing read says
 * "vulnerable", a CVE id anywhere in the record or no vulnerability data at all.
 */
function cveUnreadable(raw: Obj, services: readonly Service[]): string | undefined {
  if (services.some((s) => (s.cve_unreadable ?? 0) > 0)) return UNREADABLE_CVE_DATA;
  if (raw.is_vuln === true || services.some((s) => s.cve.length > 0)) return undefined;
  if (mentionsCve(raw)) return UNREADABLE_CVE_DATA;
  if (typeof raw.is_vuln !== 'boolean' && !Array.isArray(raw.services))
    return 'no vulnerability data in the answer';
  return undefined;
}

/** Does a raw service list CVEs? (Such services are kept first when a host lists too many.) */
function listsCves(s: unknown): boolean {
  if (!isObj(s)) return false;
  const c = s.cve;
  return Array.isArray(c) ? c.length > 0 : isObj(c) && Object.keys(c).length > 0;
}

/**
 * The services a host keeps: at most MAX_LIST_ITEMS, those listing CVEs first (so a cut never
 * hides what makes a host vulnerable), then the others, each group in the answer's order.
 */
function keptServices(v: unknown, budget: CopyBudget): { services: Service[]; omitted: number } {
  const raw = list(v);
  if (raw.length <= MAX_LIST_ITEMS)
    return { services: mapList(raw, (x) => normalizeService(x, budget)), omitted: 0 };
  const picked: unknown[] = [];
  for (const s of raw) if (picked.length < MAX_LIST_ITEMS && listsCves(s)) picked.push(s);
  for (const s of raw) if (picked.length < MAX_LIST_ITEMS && !listsCves(s)) picked.push(s);
  const services = mapList(picked, (x) => normalizeService(x, budget));
  return { services, omitted: raw.length - picked.length };
}

/**
 * A host record; `undefined` when it is not an object or carries no IP (and none is known).
 * Bounded work: at most MAX_LIST_ITEMS of each list, MAX_HOST_CVES CVE entries and
 * MAX_MODULE_VALUES values of protocol modules are kept; `services_omitted` and `details_cut` say what was left out.
 */
export function normalizeHost(v: unknown, fallbackIp?: string): Host | undefined {
  if (!isObj(v)) return undefined;
  const ip = nonEmpty(v.ip) ?? fallbackIp;
  if (ip === undefined) return undefined;
  const budget: CopyBudget = { left: MAX_MODULE_VALUES, cves: MAX_HOST_CVES, cut: false };
  const kept = keptServices(v.services, budget);
  const capped = <T>(x: unknown, f: (y: unknown) => T | undefined): T[] => {
    if (list(x).length > MAX_LIST_ITEMS) budget.cut = true;
    return mapList(x, f, MAX_LIST_ITEMS);
  };
  const banner = strList(v.banner);
  if (banner.length > MAX_LIST_ITEMS) budget.cut = true;
  const host = compact<Host>({
    ip,
    is_ipv4: bool(v.is_ipv4),
    is_ipv6: bool(v.is_ipv6),
    is_vuln: bool(v.is_vuln),
    scan_id: int(v.scan_id),
    last_updated_at: time(v.last_updated_at),
    banner: banner.length > MAX_LIST_ITEMS ? banner.slice(0, MAX_LIST_ITEMS) : banner,
    services_hash: str(v.services_hash),
    asn: normalizeAsn(v.asn),
    asn_updated_at: time(v.asn_updated_at),
    domains: capped(v.domains, normalizeHostDomain),
    hostnames: capped(v.hostnames, normalizeHostName),
    location: normalizeLocation(v.location),
    location_updated_at: time(v.location_updated_at),
    services: kept.services,
    tags: capped(v.tags, normalizeTag),
    whois: normalizeHostWhois(v.whois),
    whois_updated_at: time(v.whois_updated_at),
    cve_unreadable: cveUnreadable(v, kept.services),
  });
  if (kept.omitted > 0) host.services_omitted = kept.omitted;
  if (budget.cut) host.details_cut = true;
  if (budget.cvesCut) host.cves_cut = true;
  return host;
}
