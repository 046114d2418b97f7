/** The named hosts the tests and the demo rely on (FIXTURE_HOSTS), and the 1,000-service host. */
import { ASNS, type AsnSpec, CITIES, PRODUCTS } from './catalog';
import { DAY } from './clock';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from './fixtures';
import { scripted } from './hostile';
import { type HostPlan, buildHost, product } from './hosts';
import { Rng } from './random';
import type { HostRecord } from './records';
import type { ServicePlan } from './services';

const asnByNumber = new Map(ASNS.map((a) => [a.number, a]));

function plan(key: string, version: string, port: number, cves?: readonly string[]): ServicePlan {
  return { product: product(key), version, port, ...(cves ? { cves } : {}) };
}

/** A service of a catalogue product sold under another name (a CDN's or a cloud front end), no version. */
function branded(key: string, name: string, port: number): ServicePlan {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return { product: { ...product(key), product: name, key: slug }, version: '', port };
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
    org: scripted('Bulletproof Hosting Ltd'),
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
      services: [plan('bind', '9.18.12', 53), branded('nginx-tls', 'Google Frontend', 443)],
      scanId: scanId + 2,
    },
    {
      ip: FIXTURE_HOSTS.cdn,
      asn: asn('AS13335'),
      city: CITIES.sfo,
      ts: recent(40),
      hostnames: ['cdn.acme-logistics.com'],
      services: [
        branded('nginx', 'cloudflare', 80),
        branded('nginx-tls', 'cloudflare', 443),
        branded('nginx', 'cloudflare', 8080),
        branded('nginx-tls', 'cloudflare', 8443),
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
      services: [plan('bind', '9.18.12', 53), branded('nginx-tls', 'cloudflare', 443)],
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
    {
      // Exploited first: one known exploited CVE at CVSS 7.5 (EMULATOR_KEV lists it).
      ip: FIXTURE_HOSTS.kevOne,
      asn: asn('AS24940'),
      city: CITIES.hel,
      ts: recent(130),
      hostnames: ['files.acme-logistics.com'],
      services: [plan('apache', '2.4.49', 443, ['CVE-2021-41773'])],
      scanId: scanId + 9,
    },
    {
      // ... and ten CVEs at CVSS 9.8, none in KEV: the rule (KEV, EPSS, CVSS) puts it second.
      ip: FIXTURE_HOSTS.tenCritical,
      asn: asn('AS16276'),
      city: CITIES.rbx,
      ts: recent(145),
      hostnames: ['legacy.acme-logistics.com'],
      services: [
        plan('proftpd', '1.3.5e', 21, ['CVE-2019-12815']),
        plan('exim', '4.94.2', 25, ['CVE-2023-42115']),
        plan('dnsmasq', '2.80', 53, ['CVE-2017-14491']),
        plan('apache', '2.4.41', 80, ['CVE-2023-25690', 'CVE-2022-22720', 'CVE-2021-44790']),
        plan('dovecot-imap', '2.3.16', 143, ['CVE-2019-11500']),
        plan('samba', '3.6.25', 445, ['CVE-2008-4250']),
        plan('mariadb', '10.5.15', 3306, ['CVE-2022-27376']),
        plan('memcached', '1.4.25', 11211, ['CVE-2016-8704']),
      ],
      scanId: scanId + 10,
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
