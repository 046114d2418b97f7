/** Hosts: the named fixtures, the 1,000-service host and the random population. */
import {
  ASNS,
  type AsnSpec,
  CITIES,
  type CitySpec,
  NAME_SERVER_SETS,
  PRODUCTS,
  type ProductSpec,
  TAGS,
} from './catalog';
import { DAY, iso, isoDay, isoSeconds } from './clock';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from './fixtures';
import { hostile } from './hostile';
import { Rng } from './random';
import type { HostDomainRecord, HostRecord } from './records';
import { type HostCtx, type ServicePlan, makeService } from './services';

// ---------------------------------------------------------------- special-purpose IPv4 ranges

const SPECIAL_V4: [number, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
].map(([a, len]) => [v4ToInt(a as string), len as number]);

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
}

/** True if the IPv4 address is in a special-purpose (not globally routable) range. */
export function isSpecialIPv4(ip: string): boolean {
  const n = v4ToInt(ip);
  return SPECIAL_V4.some(
    ([base, len]) => Math.floor(n / 2 ** (32 - len)) === Math.floor(base / 2 ** (32 - len)),
  );
}

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
export const ASN_WEIGHTS = ASNS.map((a) => a.weight);
const productByKey = new Map(PRODUCTS.map((p) => [p.key, p]));
const asnByNumber = new Map(ASNS.map((a) => [a.number, a]));

function product(key: string): ProductSpec {
  const p = productByKey.get(key);
  if (!p) throw new Error(`unknown product ${key}`);
  return p;
}

export function rdnsName(rng: Rng, asn: AsnSpec, ip: string, city: CitySpec): string {
  const dashed = ip.replace(/[.:]/g, '-');
  const rev = ip.split('.').reverse().join('.');
  switch (asn.rdns) {
    case 'aws':
      return `ec2-${dashed}.${city.cc === 'US' ? 'us-east-2' : 'eu-west-1'}.compute.amazonaws.com`;
    case 'hetzner':
      return `static.${rev}.clients.your-server.de`;
    case 'linode':
      return `li${rng.int(100, 2200)}-${rng.int(1, 254)}.members.linode.com`;
    case 'ovh':
      return `ns${rng.int(3000000, 3299999)}.ip-${ip.split('.').slice(0, 3).join('-')}.eu`;
    case 'google':
      return `${rev}.bc.googleusercontent.com`;
    case 'isp':
      return `${dashed}.static.${asn.org.split(/[\s,.]+/)[0].toLowerCase()}-isp.net`;
    default:
      return '';
  }
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

export function randomIPv4(rng: Rng, asn: AsnSpec): string {
  for (;;) {
    const ip = `${rng.pick(asn.prefixes)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
    if (!isSpecialIPv4(ip)) return ip;
  }
}

const V6_PREFIXES: Record<string, string> = {
  AS13335: '2606:4700',
  AS24940: '2a01:4f8',
  AS16509: '2600:1f18',
  AS14061: '2a03:b0c0',
  AS15169: '2001:4860',
  AS63949: '2600:3c00',
  AS16276: '2001:41d0',
};

export function randomIPv6(rng: Rng): { ip: string; asn: AsnSpec } {
  const number = rng.pick(Object.keys(V6_PREFIXES));
  const asn = asnByNumber.get(number) ?? ASNS[0];
  const seg = (): string => rng.int(1, 0xffff).toString(16);
  return { ip: `${V6_PREFIXES[number]}:${seg()}:${seg()}::${seg()}`, asn };
}

function plan(key: string, version: string, port: number): ServicePlan {
  return { product: product(key), version, port };
}

export function fixtureHosts(anchor: number): HostPlan[] {
  const asn = (n: string): AsnSpec => asnByNumber.get(n) ?? ASNS[0];
  const recent = (minutes: number): number => anchor - minutes * 60_000 - 7;
  const scanId = 1_700_000_000;
  const tor: AsnSpec = {
    number: 'AS208294',
    org: 'CIA TRIAD SECURITY LLC',
    cc: 'DE',
    prefixes: ['185.220'],
    cities: ['fra'],
    weight: 0,
  };
  const wiki: AsnSpec = {
    number: 'AS14907',
    org: 'WIKIMEDIA',
    cc: 'NL',
    prefixes: ['91.198'],
    cities: ['ams'],
    weight: 0,
  };
  const bullet: AsnSpec = {
    number: 'AS204957',
    org: '<script>window.__pwned=1</script> Bulletproof Hosting Ltd',
    cc: 'NL',
    prefixes: ['193.42'],
    cities: ['ams'],
    weight: 0,
  };
  return [
    {
      ip: FIXTURE_HOSTS.webServer,
      asn: asn('AS63949'),
      city: CITIES.fmt,
      ts: recent(12),
      hostnames: ['scanme.acme-logistics.com', 'www.acme-logistics.com'],
      domains: [FIXTURE_DOMAINS.corp],
      services: [
        plan('openssh', '8.2p1', 22),
        plan('nginx', '1.18.0', 80),
        plan('nginx-tls', '1.18.0', 443),
        plan('mysql', '5.7.33', 3306),
        plan('apache', '2.4.49', 8080),
        plan('redis', '5.0.7', 6379),
      ],
      scanId: scanId + 1,
    },
    {
      ip: FIXTURE_HOSTS.resolver,
      asn: asn('AS15169'),
      city: CITIES.mtv,
      ts: recent(25),
      hostnames: ['dns.google'],
      services: [
        plan('bind', '9.18.12', 53),
        {
          product: { ...product('nginx-tls'), product: 'Google Frontend', key: 'gfe' },
          version: '',
          port: 443,
        },
      ],
      scanId: scanId + 2,
    },
    {
      ip: FIXTURE_HOSTS.cdn,
      asn: asn('AS13335'),
      city: CITIES.sfo,
      ts: recent(40),
      hostnames: ['cdn.acme-logistics.com'],
      services: [
        { product: { ...product('nginx'), product: 'cloudflare', key: 'cloudflare' }, version: '', port: 80 },
        {
          product: { ...product('nginx-tls'), product: 'cloudflare', key: 'cloudflare' },
          version: '',
          port: 443,
        },
        {
          product: { ...product('nginx'), product: 'cloudflare', key: 'cloudflare' },
          version: '',
          port: 8080,
        },
        {
          product: { ...product('nginx-tls'), product: 'cloudflare', key: 'cloudflare' },
          version: '',
          port: 8443,
        },
      ],
      scanId: scanId + 3,
    },
    {
      ip: FIXTURE_HOSTS.scanner,
      asn: tor,
      city: CITIES.fra,
      ts: recent(55),
      hostnames: ['tor-exit-34.for-privacy.net'],
      tags: ['tor', 'scanner'],
      services: [
        plan('openssh', '9.6p1', 22),
        plan('nginx', '1.24.0', 80),
        {
          product: { ...product('openssh'), service: 'tor', product: 'Tor', key: 'tor', module: 'telnet' },
          version: '0.4.8.9',
          port: 9001,
        },
      ],
      scanId: scanId + 4,
    },
    {
      ip: FIXTURE_HOSTS.mail,
      asn: wiki,
      city: CITIES.ams,
      ts: recent(70),
      hostnames: ['mail.acme-logistics.com', 'mx1.acme-logistics.com'],
      domains: [FIXTURE_DOMAINS.corp],
      tags: ['starttls'],
      services: [
        plan('postfix', '3.5.6', 25),
        plan('postfix', '3.5.6', 587),
        plan('dovecot-pop3', '2.3.7.2', 110),
        plan('dovecot-imap', '2.3.7.2', 143),
        plan('dovecot-imap', '2.3.7.2', 993),
        plan('dovecot-pop3', '2.3.7.2', 995),
      ],
      scanId: scanId + 5,
    },
    {
      ip: FIXTURE_HOSTS.rdp,
      asn: asn('AS16509'),
      city: CITIES.cmh,
      ts: recent(85),
      hostnames: ['ec2-52-14-88-213.us-east-2.compute.amazonaws.com'],
      services: [plan('rdp', '6.1.7601', 3389), plan('iis', '10.0', 80)],
      scanId: scanId + 6,
    },
    {
      ip: FIXTURE_HOSTS.ipv6,
      asn: asn('AS13335'),
      city: CITIES.sfo,
      ts: recent(100),
      hostnames: ['one.one.one.one'],
      services: [
        plan('bind', '9.18.12', 53),
        {
          product: { ...product('nginx-tls'), product: 'cloudflare', key: 'cloudflare' },
          version: '',
          port: 443,
        },
      ],
      scanId: scanId + 7,
    },
    {
      ip: FIXTURE_HOSTS.hostile,
      asn: bullet,
      city: CITIES.ams,
      ts: recent(115),
      hostnames: ['evil-payload.xyz', 'login.evil-payload.xyz'],
      domains: [FIXTURE_DOMAINS.hostile],
      tags: ['c2', 'honeypot'],
      hostileText: true,
      services: [
        plan('openssh', '7.4', 22),
        plan('apache', '2.4.49', 80),
        plan('nginx-tls', '1.18.0', 443),
        plan('vsftpd', '2.3.4', 21),
        plan('exim', '4.92', 25),
        plan('redis', '5.0.7', 6379),
      ],
      scanId: scanId + 8,
    },
  ];
}

/** The 1,000-service host: built apart because of its size; oldest host so it is never on page one. */
export function buildHugeHost(seed: number, anchor: number, cache: Map<string, unknown>): HostRecord {
  const rng = Rng.derive(seed, 'huge');
  const plans: ServicePlan[] = [];
  for (let i = 0; i < 1000; i++) {
    const p = PRODUCTS[i % PRODUCTS.length];
    plans.push({ product: p, version: p.versions[i % p.versions.length], port: 1000 + i * 7 });
  }
  const host = buildHost(
    rng,
    {
      ip: FIXTURE_HOSTS.huge,
      asn: asnByNumber.get('AS14061') ?? ASNS[0],
      city: CITIES.nyc,
      ts: anchor - 120 * DAY,
      hostnames: ['stress.acme-logistics.com'],
      services: plans,
      tags: ['honeypot'],
      scanId: 1_600_000_000,
    },
    cache,
  );
  // ~5 MB of banner text in total, spread over the services that carry banners (HTTP has none).
  const withBanner = host.services.filter((s) =>
    Object.values(s.modules).some((m) => typeof m.banner === 'string'),
  );
  const sentence = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. ';
  const filler = sentence.repeat(Math.ceil(5_000_000 / Math.max(1, withBanner.length) / sentence.length));
  for (const s of withBanner) {
    for (const mod of Object.values(s.modules)) {
      if (typeof mod.banner === 'string') mod.banner = `${mod.banner}\r\n${filler}`;
    }
  }
  return host;
}
