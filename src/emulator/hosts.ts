/** Hosts: a host plan turned into a host record, and the random population's service plans. */
import { NAME_SERVER_SETS, PRODUCTS, type AsnSpec, type CitySpec, type ProductSpec, TAGS } from './catalog';
import { DAY, iso, isoDay, isoSeconds } from './clock';
import { hostile } from './hostile';
import type { Rng } from './random';
import type { HostDomainRecord, HostRecord } from './records';
import { type HostCtx, type ServicePlan, makeService } from './services';

export interface HostPlan {
  ip: string;
  asn: AsnSpec;
  city: CitySpec;
  ts: number;
  services: ServicePlan[];
  hostnames?: string[];
  tags?: string[];
  domains?: string[];
  hostileText?: boolean;
  scanId: number;
}

export const PRODUCT_WEIGHTS = PRODUCTS.map((p) => p.weight);
const productByKey = new Map(PRODUCTS.map((p) => [p.key, p]));

export function product(key: string): ProductSpec {
  const p = productByKey.get(key);
  if (!p) throw new Error(`unknown product ${key}`);
  return p;
}

export function buildHost(rng: Rng, plan: HostPlan, cache: Map<string, unknown>): HostRecord {
  const { ip, asn, city, ts } = plan;
  const v6 = ip.includes(':');
  const hostnames = plan.hostnames ?? [];
  const primaryName = hostnames[0] ?? ip;
  const ctx: HostCtx = {
    ip,
    ts,
    name: primaryName,
    hostileText: plan.hostileText ?? false,
    httpDate: new Date(ts).toUTCString(),
    cache,
  };
  const services = plan.services.map((s) => makeService(rng, s, ctx));
  services.sort((a, b) => a.port - b.port);
  const h = (s: string): string => (ctx.hostileText ? hostile(s) : s);
  const moduleNames = new Set<string>();
  for (const s of services) for (const m of Object.keys(s.modules)) moduleNames.add(m);
  // Tags the plan names (tor, vpn, scanner, honeypot, …), never derived from the data:
  // the real service's tags are a few facts about the address, most of them false.
  const tagNames = new Set(plan.tags ?? []);
  // Every host carries the service's two location tags, almost always false (a tag is a
  // fact only when its value is true); the emulator's own tags follow, all true.
  const tagTime = isoSeconds(ts - 3 * DAY);
  const tags = [
    {
      last_updated_at: tagTime,
      name: 'is_anonymous_proxy',
      pretty_name: h('Anonymous Proxy'),
      value: tagNames.has('tor') || tagNames.has('vpn'),
    },
    {
      last_updated_at: tagTime,
      name: 'is_satellite_provider',
      pretty_name: h('Satellite Provider'),
      value: tagNames.delete('satellite'),
    },
    ...[...tagNames].map((name) => {
      const t = TAGS.find((x) => x.name === name) ?? { name, pretty: name };
      return { last_updated_at: tagTime, name: t.name, pretty_name: h(t.pretty), value: true };
    }),
  ];
  const prefix = v6
    ? ip.split(':').slice(0, 2).join(':') + '::/32'
    : ip.split('.').slice(0, 2).join('.') + '.0.0/16';
  const unsetWhois = rng.chance(0.08);
  const domains: HostDomainRecord[] = (plan.domains ?? []).map((d) => ({
    country: city.country,
    dns_servers: rng.pick(NAME_SERVER_SETS).slice(),
    emails: [h(`admin@${d}`)],
    last_updated_at: iso(ts - rng.int(1, 30) * DAY),
    name: h(d),
    web_server: h(services.find((s) => s.modules.http)?.product ?? ''),
  }));
  const netname = asn.org
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .slice(0, 24);
  const whoisRaw = `inetnum:        ${prefix}\nnetname:        ${netname}\ndescr:          ${asn.org}\ncountry:        ${asn.cc}\norg:            ORG-${netname.slice(0, 6)}1-RIPE\nadmin-c:        ${rng.hex(4).toUpperCase()}-RIPE\nstatus:         ASSIGNED PA\nmnt-by:         MNT-${netname.slice(0, 10)}\ncreated:        ${isoDay(ts - rng.int(800, 6000) * DAY)}\nsource:         RIPE`;
  return {
    ip,
    is_ipv4: !v6,
    is_ipv6: v6,
    is_vuln: services.some((s) => s.cve.length > 0),
    scan_id: plan.scanId,
    last_updated_at: iso(ts),
    banner: [...moduleNames].sort(),
    services_hash: rng.hex(64),
    asn: { country_code: asn.cc, number: asn.number, organization: asn.org },
    asn_updated_at: rng.chance(0.05) ? null : isoSeconds(ts - rng.int(1, 20) * DAY),
    domains,
    hostnames: hostnames.map((name) => ({ last_updated_at: iso(ts - rng.int(0, 10) * DAY), name: h(name) })),
    location: {
      city: city.city,
      continent: city.continent,
      country_code: city.cc,
      country_name: city.country,
      geo_point: `${city.lat}, ${city.lon}`,
      locale_code: city.locale,
      network: prefix,
      postal_code: city.postal,
      coordinates: { latitude: city.lat, longitude: city.lon },
    },
    location_updated_at: isoSeconds(ts - rng.int(1, 40) * DAY),
    services,
    tags,
    whois: {
      _encoding: { raw: 'utf-8' },
      descr: h(asn.org),
      network: prefix,
      organization: h(asn.org),
      raw: h(whoisRaw),
    },
    whois_updated_at: unsetWhois ? null : isoSeconds(ts - rng.int(1, 60) * DAY),
  };
}

export function randomServicePlans(rng: Rng, count: number): ServicePlan[] {
  const used = new Set<number>();
  const out: ServicePlan[] = [];
  for (let tries = 0; out.length < count && tries < count * 5; tries++) {
    const p = rng.weighted(PRODUCTS, PRODUCT_WEIGHTS);
    let port = rng.chance(0.8) ? p.ports[0] : rng.pick(p.ports);
    if (used.has(port)) port = rng.chance(0.5) ? rng.int(1024, 65000) : port;
    if (used.has(port)) continue;
    used.add(port);
    out.push({ product: p, version: rng.pick(p.versions), port });
  }
  return out;
}
