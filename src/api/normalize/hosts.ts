/** Host records: ASN, location, domains, hostnames, tags, whois and services. */
import type { Asn, Host, HostDomain, HostLocation, HostName, HostTag, HostWhois } from '../types';
import { isObj, str, nonEmpty, num, int, bool, strList, obj, time, mapList, compact, type Obj } from './json';
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

/** A host record; `undefined` when it is not an object or carries no IP (and none is known). */
export function normalizeHost(v: unknown, fallbackIp?: string): Host | undefined {
  if (!isObj(v)) return undefined;
  const ip = nonEmpty(v.ip) ?? fallbackIp;
  if (ip === undefined) return undefined;
  return compact<Host>({
    ip,
    is_ipv4: bool(v.is_ipv4),
    is_ipv6: bool(v.is_ipv6),
    is_vuln: bool(v.is_vuln),
    scan_id: int(v.scan_id),
    last_updated_at: time(v.last_updated_at),
    banner: strList(v.banner),
    services_hash: str(v.services_hash),
    asn: normalizeAsn(v.asn),
    asn_updated_at: time(v.asn_updated_at),
    domains: mapList(v.domains, normalizeHostDomain),
    hostnames: mapList(v.hostnames, normalizeHostName),
    location: normalizeLocation(v.location),
    location_updated_at: time(v.location_updated_at),
    services: mapList(v.services, normalizeService),
    tags: mapList(v.tags, normalizeTag),
    whois: normalizeHostWhois(v.whois),
    whois_updated_at: time(v.whois_updated_at),
  });
}
