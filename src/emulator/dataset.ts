/**
 * The emulator's generated dataset: hosts, domains, whois, buckets, files and field
 * catalogues. Records are kept in one canonical form (`records.ts`); `dialect.ts` turns
 * them into either dialect. Generation is deterministic for a given seed and day (dates
 * are relative to the start of the current UTC day so the data looks fresh). The parts
 * live beside this file: `hosts.ts` (with `hostFixtures.ts`, `addresses.ts`), `services.ts` (with `banners.ts`, `certs.ts`),
 * `domains.ts`, `buckets.ts`, `fields.ts`.
 */
import {
  ASNS,
  type AsnSpec,
  CITIES,
  NAME_SERVER_SETS,
  REGISTRARS,
  SUBDOMAIN_LABELS,
  TLDS,
  WORDS_A,
  WORDS_B,
} from './catalog';
import { bucketsAndFiles } from './buckets';
import { DAY, iso } from './clock';
import { type DomainPlan, domainRecords, whoisRecords } from './domains';
import { fieldCatalogues } from './fields';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS, FIXTURE_UNKNOWN_DOMAIN, FIXTURE_UNKNOWN_IP } from './fixtures';
import { hostile } from './hostile';
import { ASN_WEIGHTS, randomIPv4, randomIPv6, rdnsName } from './addresses';
import { buildHugeHost, fixtureHosts } from './hostFixtures';
import { buildHost, randomServicePlans } from './hosts';
import { Rng } from './random';
import type { Dataset, DomainRecord, HostRecord, WhoisRecord } from './records';

export type * from './records';
export { DAY } from './clock';
export { isSpecialIPv4 } from './addresses';

export interface DatasetOptions {
  seed?: number;
  hosts?: number;
  /** Epoch ms "now"; dates are relative to the start of its UTC day. Default Date.now(). */
  now?: number;
}

/** Generates the dataset in one go (blocks for a few hundred ms at 5,000 hosts). */
export function generateDataset(opts: DatasetOptions = {}): Dataset {
  const steps = generationSteps(opts);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** The same dataset, yielding to the event loop between slices (for in-process use). */
export async function generateDatasetAsync(opts: DatasetOptions = {}): Promise<Dataset> {
  const steps = generationSteps(opts);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The named domains the tests use (corporate, expiring, hostile, phishing), as plans. */
function fixtureDomainPlans(anchor: number): DomainPlan[] {
  return [
    {
      domain: FIXTURE_DOMAINS.corp,
      labels: SUBDOMAIN_LABELS.slice(),
      created: anchor - 6400 * DAY,
      expires: anchor + 400 * DAY,
      registrar: REGISTRARS[3],
      ns: NAME_SERVER_SETS[2],
      privacy: false,
      history: 6,
      country: CITIES.sea,
    },
    {
      domain: FIXTURE_DOMAINS.expiring,
      labels: ['www', 'mail', 'shop'],
      created: anchor - 3000 * DAY,
      expires: anchor + 12 * DAY,
      registrar: REGISTRARS[0],
      ns: NAME_SERVER_SETS[4],
      privacy: false,
      history: 3,
      country: CITIES.chi,
    },
    {
      domain: FIXTURE_DOMAINS.hostile,
      labels: ['login', 'cdn', 'api'],
      created: anchor - 30 * DAY,
      expires: anchor + 335 * DAY,
      registrar: { ...REGISTRARS[9], name: hostile(REGISTRARS[9].name) },
      ns: NAME_SERVER_SETS[5],
      privacy: false,
      history: 2,
      hostileText: true,
      country: CITIES.ams,
    },
    {
      domain: FIXTURE_DOMAINS.phishing,
      labels: ['www', 'account', 'verify'],
      created: anchor - 9 * DAY,
      expires: anchor + 356 * DAY,
      registrar: REGISTRARS[1],
      ns: NAME_SERVER_SETS[0],
      privacy: true,
      history: 1,
      status: ['clientTransferProhibited', 'serverHold'],
    },
  ];
}

/** The fixture domains, then random ones up to `domainCount`, each name once. */
function domainPlans(seed: number, anchor: number, domainCount: number): DomainPlan[] {
  const plans = fixtureDomainPlans(anchor);
  const usedDomains = new Set<string>([FIXTURE_UNKNOWN_DOMAIN, ...Object.values(FIXTURE_DOMAINS)]);
  for (let i = 0; plans.length < domainCount; i++) {
    const r = Rng.derive(seed, 'domain', i);
    const name = `${r.pick(WORDS_A)}-${r.pick(WORDS_B)}${r.chance(0.2) ? r.int(1, 99) : ''}.${r.pick(TLDS)}`;
    if (usedDomains.has(name)) continue;
    usedDomains.add(name);
    plans.push({
      domain: name,
      labels: r.sample(SUBDOMAIN_LABELS, r.int(1, 18)),
      created: anchor - r.int(200, 9000) * DAY,
      expires: anchor + r.int(31, 1800) * DAY,
      registrar: r.pick(REGISTRARS),
      ns: r.pick(NAME_SERVER_SETS),
      privacy: r.chance(0.55),
      history: r.chance(0.4) ? r.int(2, 6) : 1,
      country: CITIES[r.pick(Object.keys(CITIES))],
    });
  }
  return plans;
}

/** Each domain's whois history and subdomain records, newest records first. */
function domainData(
  seed: number,
  anchor: number,
  plans: readonly DomainPlan[],
): Pick<Dataset, 'whois' | 'whoisHistory' | 'domains'> {
  const whois = new Map<string, WhoisRecord>();
  const whoisHistory = new Map<string, WhoisRecord[]>();
  const domains: DomainRecord[] = [];
  for (const p of plans) {
    const r = Rng.derive(seed, 'whois', p.domain);
    const hist = whoisRecords(r, p, anchor);
    whoisHistory.set(p.domain, hist);
    whois.set(p.domain, hist[0]);
    domains.push(...domainRecords(r, p, anchor));
  }
  // The hostile domain also has a subdomain record whose name carries payloads.
  domains.push({
    added_at: iso(anchor - 2 * DAY),
    domain: FIXTURE_DOMAINS.hostile,
    subdomain: `${hostile('x')}.${FIXTURE_DOMAINS.hostile}`,
    ext_dns_name: {
      domain: 'evil-payload',
      fld: FIXTURE_DOMAINS.hostile,
      subdomain: hostile('x'),
      tld: 'xyz',
    },
  });
  domains.sort((a, b) =>
    a.added_at < b.added_at ? 1 : a.added_at > b.added_at ? -1 : a.subdomain < b.subdomain ? -1 : 1,
  );
  return { whois, whoisHistory, domains };
}

/** What the random hosts share while they are made: the addresses and times already taken. */
interface HostMaking {
  seed: number;
  anchor: number;
  registeredDomains: readonly string[];
  usedIps: Set<string>;
  uniqueTime: (t: number) => number;
  cache: Map<string, unknown>;
}

/** Random host `i`, or undefined when its address is taken. */
function randomHost(m: HostMaking, i: number): HostRecord | undefined {
  const rng = Rng.derive(m.seed, 'host', i);
  let ip: string;
  let asn: AsnSpec;
  if (rng.chance(0.02)) ({ ip, asn } = randomIPv6(rng));
  else {
    asn = rng.weighted(ASNS, ASN_WEIGHTS);
    ip = randomIPv4(rng, asn);
  }
  if (m.usedIps.has(ip)) return undefined;
  m.usedIps.add(ip);
  const city = CITIES[rng.pick(asn.cities)];
  const ts = m.uniqueTime(m.anchor - 60_000 * 120 - rng.int(0, 90 * DAY));
  // Most hosts expose a handful of services; a few expose many (mean about 4).
  const nServices = 1 + Math.floor(rng.next() ** 4 * 20);
  const services = randomServicePlans(rng, Math.min(nServices, 20));
  const hostDomains: string[] = [];
  const hostnames: string[] = [];
  const rdns = rdnsName(rng, asn, ip, city);
  if (rdns && !ip.includes(':')) hostnames.push(rdns);
  if (rng.chance(0.3)) {
    const d = m.registeredDomains[4 + rng.int(0, m.registeredDomains.length - 5)];
    hostDomains.push(d);
    hostnames.push(`${rng.pick(['www', 'mail', 'api', 'vpn', 'app', 'portal'])}.${d}`);
  }
  const tags: string[] = [];
  if (rng.chance(0.03)) tags.push('vpn');
  if (rng.chance(0.01)) tags.push('scanner');
  if (rng.chance(0.005)) tags.push('honeypot');
  if (rng.chance(0.004)) tags.push('satellite');
  if (services.some((s) => s.product.tags.includes('iot'))) tags.push('iot');
  return buildHost(
    rng,
    { ip, asn, city, ts, services, hostnames, domains: hostDomains, tags, scanId: 1_700_100_000 + i },
    m.cache,
  );
}

/** The fixture hosts, the huge one, then random hosts up to `hostCount`, yielding between slices. */
function* hostSteps(
  seed: number,
  anchor: number,
  hostCount: number,
  registeredDomains: readonly string[],
): Generator<void, HostRecord[], void> {
  const cache = new Map<string, unknown>();
  const hosts: HostRecord[] = [];
  const usedTimes = new Set<number>();
  const uniqueTime = (t: number): number => {
    while (usedTimes.has(t)) t--;
    usedTimes.add(t);
    return t;
  };
  for (const f of fixtureHosts(anchor)) {
    f.ts = uniqueTime(f.ts);
    hosts.push(buildHost(Rng.derive(seed, 'fixture', f.ip), f, cache));
  }
  const huge = buildHugeHost(seed, anchor, cache);
  usedTimes.add(Date.parse(huge.last_updated_at));
  hosts.push(huge);
  const usedIps = new Set<string>([FIXTURE_UNKNOWN_IP, ...Object.values(FIXTURE_HOSTS)]);
  const making: HostMaking = { seed, anchor, registeredDomains, usedIps, uniqueTime, cache };
  for (let i = 0; hosts.length < hostCount; i++) {
    if (i % 250 === 249) yield;
    const host = randomHost(making, i);
    if (host) hosts.push(host);
  }
  return hosts;
}

function* generationSteps(opts: DatasetOptions): Generator<void, Dataset, void> {
  const seed = opts.seed ?? 1;
  const now = opts.now ?? Date.now();
  const anchor = Math.floor(now / DAY) * DAY;
  const hostCount = Math.max(opts.hosts ?? 5000, 0);

  // Domains first: hosts refer to them.
  const plans = domainPlans(seed, anchor, Math.max(40, Math.ceil(hostCount / 12)));
  const registeredDomains = plans.map((p) => p.domain);
  const { whois, whoisHistory, domains } = domainData(seed, anchor, plans);

  const hosts = yield* hostSteps(seed, anchor, hostCount, registeredDomains);
  // The fixtures are always served, even with `hosts` smaller than their number.
  const hostTime = new Map<HostRecord, number>();
  for (const h of hosts) hostTime.set(h, Date.parse(h.last_updated_at));
  hosts.sort((a, b) => (hostTime.get(b) ?? 0) - (hostTime.get(a) ?? 0));
  const hostByIp = new Map(hosts.map((h) => [h.ip, h]));

  const { buckets, files } = bucketsAndFiles(
    seed,
    Math.max(30, Math.ceil(hostCount / 6)),
    anchor,
    registeredDomains,
  );

  return {
    seed,
    anchor,
    hosts,
    hostByIp,
    hostTime,
    domains,
    registeredDomains,
    whois,
    whoisHistory,
    buckets,
    files,
    fields: fieldCatalogues(),
  };
}
