/**
 * Compact host records for result sets. Pure: no VS Code.
 *
 * A host search hit carries the whole record: raw protocol modules, banners, certificate
 * chains, CVE details. A result set of 10,000 hosts held that way is ~300 MB of heap. The
 * set keeps only what its users read: the results tree (rows, services, CVEs, info rows and
 * their tooltips), the CSV export's columns, "Search Similar Hosts" and the hunts' keys.
 * The full record comes from the cache or the API on demand: the details page (and its
 * Copy JSON) asks for the host by its IP.
 *
 * Within a set, what repeats is held once: one record for equal CVE records (the same CVE
 * on 3,000 hosts), one list for equal CVE lists (every host running the same version), one
 * record for equal HTTP summaries, AS numbers and certificate issuers, one copy of each short
 * string that repeats (protocols, products, versions, countries, organisations, issuers) and
 * one empty list or map for all the empty ones (frozen: records are never changed after they
 * are read). Strings that belong to one host (its service URLs, times, fingerprints) are
 * copied, not pooled: a pool entry for each would cost more than the string.
 */
import type { CertName, Cve, Host, HttpInfo, Service, TlsCertificate } from '../../api/types';

/** Longest banner kept (the tree's tooltip shows at most 2,000 characters of it; the CSV its first line). */
export const COMPACT_BANNER_CHARS = 2000;

/** What the hosts of one set share (pass the same pool for every page of the set). */
export class CompactPool {
  readonly cves = new Map<string, Cve>();
  private readonly strings = new Map<string, string>();
  /** Shared records by their content (CVE lists by the numbers of their pooled CVEs). */
  private readonly records = new Map<string, object>();
  private readonly cveNumbers = new Map<Cve, number>();

  /**
   * One copy of each short string (long ones are rarely repeated). Every string kept is a
   * fresh copy: a string cut from a longer one (a banner's first 300 characters, a value
   * trimmed by the normaliser) may otherwise keep the whole original alive.
   */
  str<T>(value: T): T {
    if (typeof value !== 'string') return value;
    if (value.length > 64) return flat(value) as T;
    const known = this.strings.get(value);
    if (known !== undefined) return known as T;
    const copy = flat(value);
    this.strings.set(copy, copy);
    return copy as T;
  }

  /** A string of one host (a URL, a time, a fingerprint): copied as `str` does, not pooled. */
  own<T>(value: T): T {
    return typeof value === 'string' ? (flat(value) as T) : value;
  }

  /** The record held for `key`, or `make()`'s, kept under `key` (records are never changed). */
  shared<T extends object>(key: string, make: () => T): T {
    const known = this.records.get(key);
    if (known) return known as T;
    const made = make();
    this.records.set(key, made);
    return made;
  }

  /** One list for equal lists of CVEs (the same product and version on many hosts). */
  cveList(cves: readonly Cve[]): Cve[] {
    const held = cves.map((c) => this.cve(c));
    let key = 'cves';
    for (const c of held) {
      let n = this.cveNumbers.get(c);
      if (n === undefined) this.cveNumbers.set(c, (n = this.cveNumbers.size));
      key += `,${n}`;
    }
    return this.shared(key, () => held);
  }

  /**
   * One record for equal CVE records (hosts may carry different texts under one id). The
   * ports a CVE was seen on (`services`) are left out: the tree shows it under its service.
   */
  cve(c: Cve): Cve {
    const compact: Cve = { ...c, services: EMPTY_LIST };
    const key = JSON.stringify(compact);
    const known = this.cves.get(key);
    if (known) return known;
    this.cves.set(key, compact);
    return compact;
  }
}

/** A copy of `s` that shares no memory with it (JSON.parse builds a new string). */
const flat = (s: string): string => (s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string));

const EMPTY_LIST: never[] = Object.freeze([]) as unknown as never[];
const EMPTY_MAP = Object.freeze({}) as Record<string, never>;
const list = <T>(xs: T[]): T[] => (xs.length ? xs : EMPTY_LIST);
/** A list that a record should have (the normaliser always sets them; test fakes may not). */
const arr = <T>(xs: T[] | undefined): T[] => xs ?? EMPTY_LIST;

/**
 * Every record is built by one object literal with all its fields (absent ones undefined),
 * so all records of a kind share one hidden class: objects assembled key by key from what
 * each record happens to have cost a hidden class of their own (half the heap, measured).
 */
function compactHttp(pool: CompactPool, h: HttpInfo | undefined): HttpInfo | undefined {
  if (!h) return undefined;
  return pool.shared(JSON.stringify(['http', h.status, h.title, h.server, h.protocol]), () => ({
    status: h.status,
    title: pool.str(h.title),
    server: pool.str(h.server),
    protocol: pool.str(h.protocol),
    headers: EMPTY_MAP,
    components: EMPTY_LIST,
    redirects: EMPTY_LIST,
  }));
}

/** A certificate's name; issuers repeat (one per CA), so they are shared, subjects (one per host) not. */
function certName(pool: CompactPool, n: CertName, shared: boolean): CertName {
  if (n.commonName === undefined && n.organization === undefined) return EMPTY_MAP;
  const make = (): CertName => ({
    commonName: pool.str(n.commonName),
    organization: pool.str(n.organization),
  });
  return shared ? pool.shared(JSON.stringify(['issuer', n.commonName, n.organization]), make) : make();
}

function compactTls(pool: CompactPool, c: TlsCertificate | undefined): TlsCertificate | undefined {
  if (!c) return undefined;
  return {
    subject: certName(pool, c.subject, false),
    issuer: certName(pool, c.issuer, true),
    // certSummary names the certificate by its first name when it has no common name.
    names: c.subject.commonName || !arr(c.names).length ? EMPTY_LIST : [pool.str(c.names[0])],
    ips: EMPTY_LIST,
    notAfter: pool.str(c.notAfter),
    fingerprintSha256: pool.own(c.fingerprintSha256),
    selfSigned: c.selfSigned,
    tags: EMPTY_LIST,
  };
}

function compactService(pool: CompactPool, s: Service): Service {
  return {
    port: s.port,
    protocol: pool.str(s.protocol),
    name: pool.str(s.name),
    product: pool.str(s.product),
    version: pool.str(s.version),
    extra_info: pool.str(s.extra_info),
    tunnel: pool.str(s.tunnel),
    url: pool.own(s.url),
    // Not shown in the tree nor exported (the host's own time is): the host page has it.
    last_updated_at: undefined,
    cve: arr(s.cve).length ? pool.cveList(s.cve) : EMPTY_LIST,
    softwares: EMPTY_LIST,
    modules: EMPTY_MAP,
    banner: pool.str(
      s.banner && s.banner.length > COMPACT_BANNER_CHARS ? s.banner.slice(0, COMPACT_BANNER_CHARS) : s.banner,
    ),
    http: compactHttp(pool, s.http),
    tls: compactTls(pool, s.tls),
  };
}

/**
 * The compact record of `host`: the fields the results tree, the CSV export, "Search Similar
 * Hosts" and the hunts read, nothing else; what repeats is shared through `pool`.
 */
export function compactHost(host: Host, pool: CompactPool = new CompactPool()): Host {
  const domains = arr(host.domains).flatMap((d) =>
    d.name ? [{ name: pool.str(d.name), dns_servers: EMPTY_LIST, emails: EMPTY_LIST }] : [],
  );
  const { asn, location, whois } = host;
  return {
    ip: host.ip,
    is_ipv4: host.is_ipv4,
    is_ipv6: host.is_ipv6,
    is_vuln: host.is_vuln,
    last_updated_at: pool.own(host.last_updated_at),
    banner: EMPTY_LIST,
    asn: asn
      ? pool.shared(JSON.stringify(['asn', asn.number, asn.organization, asn.country_code]), () => ({
          number: pool.str(asn.number),
          organization: pool.str(asn.organization),
          country_code: pool.str(asn.country_code),
        }))
      : undefined,
    domains: list(domains),
    hostnames: list(arr(host.hostnames).map((n) => ({ name: pool.str(n.name) }))),
    location: location
      ? {
          city: pool.str(location.city),
          country_code: pool.str(location.country_code),
          country_name: pool.str(location.country_name),
          network: pool.str(location.network),
          // The map's point (core/map/points.ts): the numbers, or the text when they are absent.
          coordinates: location.coordinates
            ? { latitude: location.coordinates.latitude, longitude: location.coordinates.longitude }
            : undefined,
          geo_point: location.coordinates ? undefined : pool.str(location.geo_point),
        }
      : undefined,
    services: list(arr(host.services).map((s) => compactService(pool, s))),
    tags: list(
      arr(host.tags).map((t) => ({
        name: pool.str(t.name),
        pretty_name: pool.str(t.pretty_name),
        value: t.value,
      })),
    ),
    whois: whois?.network ? { network: pool.str(whois.network) } : undefined,
    cve_unreadable: host.cve_unreadable,
  };
}
