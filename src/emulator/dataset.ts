/**
 * The emulator's generated dataset: hosts, domains, whois, buckets, files and field
 * catalogues. Records are kept in one canonical form (the spec's wire shape with the live
 * service's content: module names in `banner`, banner text in `modules.<proto>.banner`,
 * full CVE entries, `null` for unset timestamps); `dialect.ts` turns them into either
 * dialect. Generation is deterministic for a given seed and day (dates are relative to
 * the start of the current UTC day so the data looks fresh).
 */
import {
  ASNS,
  AsnSpec,
  BUCKET_WORDS,
  CITIES,
  CitySpec,
  CVES,
  DOMAIN_STATUSES,
  FILE_KINDS,
  FIRST_NAMES,
  LAST_NAMES,
  NAME_SERVER_SETS,
  PRODUCTS,
  PRODUCT_CVES,
  PROVIDER_REGIONS,
  ProductSpec,
  REGISTRARS,
  RegistrarSpec,
  SUBDOMAIN_LABELS,
  TAGS,
  TLDS,
  WORDS_A,
  WORDS_B,
  severityOf,
} from './catalog';
import {
  FIXTURE_BUCKETS,
  FIXTURE_DOMAINS,
  FIXTURE_HOSTS,
  FIXTURE_UNKNOWN_DOMAIN,
  FIXTURE_UNKNOWN_IP,
} from './fixtures';
import { hostile } from './hostile';
import { Rng, hash32 } from './random';

// ---------------------------------------------------------------- record types (wire-like)

export interface ExploitRecord {
  id: string;
  description: string;
  file: string;
  platform: string;
  type: string;
  url: string;
}

export interface CveRecord {
  id: string;
  summary: string;
  severity: string;
  score: number;
  vector_string: string;
  weakness: string;
  references: string[];
  services: string[];
  exploit: ExploitRecord[];
}

export interface SoftwareRecord {
  uri: string;
  vendor: string;
  product: string;
  version: string;
  edition: string;
  language: string;
  part: string;
  update: string;
}

export interface ServiceRecord {
  _meta: { category: string; desc: string; name: string; tags: string[] };
  cve: CveRecord[];
  extra_info: string;
  last_updated_at: string;
  modules: Record<string, Record<string, unknown>>;
  name: string;
  port: number;
  product: string;
  protocol: string;
  softwares: SoftwareRecord[];
  tunnel: string;
  url: string;
  version: string;
}

export interface HostDomainRecord {
  country: string;
  dns_servers: string[];
  emails: string[];
  last_updated_at: string;
  name: string;
  web_server: string;
}

export interface HostRecord {
  ip: string;
  is_ipv4: boolean;
  is_ipv6: boolean;
  is_vuln: boolean;
  scan_id: number;
  last_updated_at: string;
  /** Module names seen on the host (`http`, `tls`, `ssh`, ...). */
  banner: string[];
  services_hash: string;
  asn: { country_code: string; number: string; organization: string };
  asn_updated_at: string | null;
  domains: HostDomainRecord[];
  hostnames: { last_updated_at: string; name: string }[];
  location: {
    city: string;
    continent: string;
    country_code: string;
    country_name: string;
    geo_point: string;
    locale_code: string;
    network: string;
    postal_code: string;
    coordinates: { latitude: number; longitude: number };
  };
  location_updated_at: string | null;
  services: ServiceRecord[];
  tags: { last_updated_at: string; name: string; pretty_name: string; value: boolean }[];
  whois: { _encoding: { raw: string }; descr: string; network: string; organization: string; raw: string };
  whois_updated_at: string | null;
}

export interface DomainRecord {
  added_at: string;
  domain: string;
  subdomain: string;
  ext_dns_name: { domain: string; fld: string; subdomain: string; tld: string };
}

export interface WhoisContact {
  address: string;
  city: string;
  company: string;
  country: string;
  country_code: string;
  email: string;
  email_domain: string;
  fax: string;
  name: string;
  phone: string;
  state: string;
  zip: string;
}

export interface WhoisRecord {
  domain_name: string;
  tld: string;
  created_date: string;
  updated_date: string;
  expires_date: string;
  domain_status: string[];
  name_servers: string[];
  raw_data: string;
  registrar: { id: string; name: string; url: string; whois: string };
  audited_fields: { created_at: string; expires_date: string; is_modified: boolean; updated_at: string };
  administrative_contact: WhoisContact;
  billing_contact: WhoisContact;
  registrant_contact: WhoisContact;
  technical_contact: WhoisContact;
}

export interface BucketRecord {
  name: string;
  provider: string;
  region: string;
  owner_id: string;
  open: boolean;
  deleted: boolean;
  labels: string[];
  categories: string[];
  files: number;
  new_files: number;
  sensitive_files: number;
  file_cat_count: Record<string, number>;
  age_in_days: number;
  ins_at: string;
  scan_at: string;
  prev_scan_at: string;
  last_found_at: string;
  last_open_at: string;
  url: string;
}

export interface FileRecord {
  name: string;
  path: string;
  bucket: string;
  provider: string;
  region: string;
  url: string;
  ext: string;
  category: string;
  label: string;
  size: number;
  ins_at: string;
  last_modified: string;
}

export interface FieldDescriptor {
  name: string;
  category: string;
  display_category: string;
  is_locked: boolean;
}

export interface Dataset {
  seed: number;
  /** Start of the UTC day the dates are relative to (epoch ms). */
  anchor: number;
  /** All hosts, newest `last_updated_at` first (the host search order). */
  hosts: HostRecord[];
  hostByIp: Map<string, HostRecord>;
  /** Epoch ms of each host's `last_updated_at` (unique across hosts: the search cursor). */
  hostTime: Map<HostRecord, number>;
  /** Domain search records, newest `added_at` first. */
  domains: DomainRecord[];
  /** Registered domains the dataset knows (whois is served for these). */
  registeredDomains: string[];
  whois: Map<string, WhoisRecord>;
  /** Whois history per domain, newest first; the first entry is the current record. */
  whoisHistory: Map<string, WhoisRecord[]>;
  buckets: BucketRecord[];
  files: FileRecord[];
  fields: { hosts: Record<string, FieldDescriptor[]>; buckets: FieldDescriptor[]; files: FieldDescriptor[] };
}

export const DAY = 86_400_000;
const dayPrefix = new Map<number, string>();
const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
/** `Date#toISOString`, memoising the date part (generation formats a few hundred thousand stamps). */
function iso(ms: number): string {
  const day = Math.floor(ms / DAY);
  let prefix = dayPrefix.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY).toISOString().slice(0, 11);
    dayPrefix.set(day, prefix);
  }
  let rest = ms - day * DAY;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const sec = rest % 60;
  rest = (rest - sec) / 60;
  const min = rest % 60;
  const hour = (rest - min) / 60;
  return `${prefix}${pad2(hour)}:${pad2(min)}:${pad2(sec)}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
const isoDay = (ms: number): string => `${iso(Math.floor(ms / DAY) * DAY).slice(0, 19)}Z`;

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

// ---------------------------------------------------------------- services

interface ServicePlan {
  product: ProductSpec;
  version: string;
  port: number;
}

interface HostCtx {
  ip: string;
  ts: number;
  name: string;
  hostileText: boolean;
  /** HTTP date of the scan, computed once per host. */
  httpDate: string;
  /** Per-dataset cache of immutable sub-records shared between services (keeps generation fast). */
  cache: Map<string, unknown>;
}

function cached<T>(ctx: HostCtx, key: string, make: () => T): T {
  let v = ctx.cache.get(key) as T | undefined;
  if (v === undefined) {
    v = make();
    ctx.cache.set(key, v);
  }
  return v;
}

const HTTP_TITLES = [
  'Welcome to nginx!',
  'Apache2 Ubuntu Default Page: It works',
  'IIS Windows Server',
  '403 Forbidden',
  '404 Not Found',
  'Login',
  'Grafana',
  'Dashboard [Jenkins]',
  'Index of /',
  'phpMyAdmin',
  'Kibana',
  'Sign in · GitLab',
  'Just a moment...',
  'RouterOS router configuration page',
  'Home',
  'WordPress › Installation',
  'Outlook',
  'Swagger UI',
  'Test Page for the HTTP Server on Rocky Linux',
  'Coming Soon',
];
const SSH_KEX = [
  'curve25519-sha256',
  'curve25519-sha256@libssh.org',
  'ecdh-sha2-nistp256',
  'diffie-hellman-group14-sha256',
  'diffie-hellman-group-exchange-sha256',
];
const SSH_ENC = ['chacha20-poly1305@openssh.com', 'aes128-ctr', 'aes256-gcm@openssh.com', 'aes256-ctr'];

function cveKey(product: ProductSpec): string {
  return product.key.replace(/-tls$/, '');
}

function makeCve(id: string, port: number, protocol: string, summary?: string): CveRecord {
  const spec = CVES[id];
  return {
    id,
    summary: summary ?? spec.summary,
    severity: severityOf(spec.score),
    score: spec.score,
    vector_string: spec.vector,
    weakness: spec.weakness,
    references: [`https://nvd.nist.gov/vuln/detail/${id}`, `https://www.cve.org/CVERecord?id=${id}`],
    services: [`${port}/${protocol}`],
    exploit: (spec.exploits ?? []).map((e) => ({
      id: e.id,
      description: e.description,
      file: `exploits/${e.platform}/${e.type}/${e.id}.${e.ext}`,
      platform: e.platform,
      type: e.type,
      url: `https://www.exploit-db.com/exploits/${e.id}`,
    })),
  };
}

const SSH_ALGORITHMS = [0, 1, 2, 3].map((i) => ({
  kex: [SSH_KEX[i], SSH_KEX[(i + 1) % SSH_KEX.length], SSH_KEX[(i + 3) % SSH_KEX.length]],
  encryption: [SSH_ENC[i], SSH_ENC[(i + 2) % SSH_ENC.length]],
  mac: ['hmac-sha2-256-etm@openssh.com', 'hmac-sha2-256'],
  host_key: ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-ed25519'],
}));
const CA_ISSUERS = [
  { common_name: 'R3', organization: "Let's Encrypt" },
  { common_name: 'E1', organization: "Let's Encrypt" },
  { common_name: 'Sectigo RSA Domain Validation Secure Server CA', organization: 'Sectigo Limited' },
  { common_name: 'GTS CA 1P5', organization: 'Google Trust Services LLC' },
];

function bannerFor(rng: Rng, p: ProductSpec, v: string, ctx: HostCtx, extra: string): string {
  const name = ctx.name;
  switch (p.module) {
    case 'smtp':
      return p.key === 'exim'
        ? `220 ${name} ESMTP Exim ${v} ${ctx.httpDate}\r\n250-${name} Hello scanner\r\n250-SIZE 52428800\r\n250-PIPELINING\r\n250-STARTTLS\r\n250 HELP`
        : p.key === 'exchange'
          ? `220 ${name} Microsoft ESMTP MAIL Service ready at ${ctx.httpDate}\r\n250-${name} Hello\r\n250-SIZE 37748736\r\n250-STARTTLS\r\n250 CHUNKING`
          : `220 ${name} ESMTP Postfix (${extra || 'Debian/GNU'})\r\n250-${name}\r\n250-PIPELINING\r\n250-SIZE 10240000\r\n250-STARTTLS\r\n250-ENHANCEDSTATUSCODES\r\n250 8BITMIME`;
    case 'ftp':
      return p.key === 'vsftpd'
        ? `220 (vsFTPd ${v})\r\n530 Please login with USER and PASS.`
        : p.key === 'proftpd'
          ? `220 ProFTPD ${v} Server (Debian) [::ffff:${ctx.ip}]`
          : `220---------- Welcome to Pure-FTPd [privsep] [TLS] ----------\r\n220-You are user number 1 of 50 allowed.\r\n220 This is a private system - No anonymous login`;
    case 'mysql':
      return p.key === 'mariadb'
        ? `5.5.5-${v}-MariaDB-0+deb10u1\r\nCapabilities flags: 63486\r\nAuth Plugin Name: mysql_native_password`
        : `${v}-0ubuntu0.18.04.1\r\nProtocol: 10\r\nCapabilities flags: 65535\r\nAuth Plugin Name: mysql_native_password`;
    case 'postgres':
      return `FATAL:  no pg_hba.conf entry for host "198.51.100.7", user "postgres", database "postgres", SSL off\r\nserver_version: ${v}`;
    case 'redis':
      return `# Server\r\nredis_version:${v}\r\nredis_mode:standalone\r\nos:Linux 5.4.0-${rng.int(40, 190)}-generic x86_64\r\narch_bits:64\r\nprocess_id:${rng.int(100, 9999)}\r\ntcp_port:6379\r\nuptime_in_days:${rng.int(1, 900)}\r\n# Keyspace\r\ndb0:keys=${rng.int(1, 90000)},expires=0`;
    case 'rdp':
      return `Remote Desktop Protocol\r\n  OS: Windows ${v.startsWith('6.1') ? 'Server 2008 R2' : v.startsWith('10.0.14393') ? 'Server 2016' : 'Server 2019'} (${v})\r\n  NetBIOS Computer Name: WIN-${rng.hex(8).toUpperCase()}\r\n  NLA: ${rng.chance(0.5) ? 'enabled' : 'disabled'}`;
    case 'dns':
      return p.key === 'bind'
        ? `version.bind: "${v}-RedHat-${v}-26.P2.el7"\r\nrecursion: ${rng.chance(0.3) ? 'enabled' : 'disabled'}`
        : `version.bind: "dnsmasq-${v}"`;
    case 'imap':
      return `* OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ STARTTLS AUTH=PLAIN] Dovecot (Ubuntu) ready.`;
    case 'pop3':
      return `+OK Dovecot (Ubuntu) ready.`;
    case 'mongodb':
      return `MongoDB Server Information\r\n{"version": "${v}", "gitVersion": "${rng.hex(40)}", "maxBsonObjectSize": 16777216, "ok": 1.0}`;
    case 'elasticsearch':
      return `{"name":"node-${rng.int(1, 9)}","cluster_name":"elasticsearch","cluster_uuid":"${rng.hex(22)}","version":{"number":"${v}","build_flavor":"default"},"tagline":"You Know, for Search"}`;
    case 'telnet':
      return `\r\n\r\nBusyBox v${v} (2015-03-12 10:23:11 CST) built-in shell (ash)\r\nEnter 'help' for a list of built-in commands.\r\n\r\nlogin: `;
    case 'smb':
      return `SMB Status:\r\n  Authentication: disabled\r\n  SMB Version: 2\r\n  OS: Unix\r\n  Software: Samba ${v}\r\n  Shares: print$, IPC$, public`;
    case 'vnc':
      return `RFB 003.008\r\nAuthentication: ${rng.chance(0.2) ? 'None' : 'VNC Authentication'}`;
    case 'memcached':
      return `STAT pid ${rng.int(100, 9999)}\r\nSTAT uptime ${rng.int(1000, 9999999)}\r\nSTAT version ${v}\r\nSTAT curr_connections 10`;
    case 'mqtt':
      return `MQTT Connection Code: ${rng.chance(0.5) ? 0 : 5}\r\nTopics:\r\n  $SYS/broker/version: mosquitto version ${v}`;
    case 'ntp':
      return `NTP\r\n  Version: 4\r\n  Stratum: ${rng.int(1, 4)}\r\n  System: ntpd ${v}`;
    case 'snmp':
      return `SNMP:\r\n  Versions: 1, 2c\r\n  sysDescr: Linux gw-${rng.hex(4)} 3.10.14 #1 SMP\r\n  Engine: net-snmp ${v}`;
    default:
      return '';
  }
}

function httpServerHeader(p: ProductSpec, v: string, extra: string): string {
  if (p.key.startsWith('nginx')) return `nginx/${v}${extra ? ` (${extra})` : ''}`;
  if (p.key.startsWith('apache')) return `Apache/${v} ${extra || '(Ubuntu)'}`;
  if (p.key === 'iis') return `Microsoft-IIS/${v}`;
  if (p.key === 'lighttpd') return `lighttpd/${v}`;
  return p.product;
}

// Immutable sub-records shared by every service of the same product (and version).
const metaByProduct = new WeakMap<ProductSpec, ServiceRecord['_meta']>();
const softwaresByProduct = new WeakMap<ProductSpec, Map<string, SoftwareRecord[]>>();

function staticMeta(p: ProductSpec): ServiceRecord['_meta'] {
  let m = metaByProduct.get(p);
  if (!m) {
    m = { category: p.category, desc: p.desc, name: p.service, tags: p.tags.slice() };
    metaByProduct.set(p, m);
  }
  return m;
}

function staticSoftwares(p: ProductSpec, v: string): SoftwareRecord[] {
  let byVersion = softwaresByProduct.get(p);
  if (!byVersion) softwaresByProduct.set(p, (byVersion = new Map()));
  let sw = byVersion.get(v);
  if (!sw) {
    sw = [
      {
        uri: `cpe:2.3:a:${p.vendor}:${p.cpeProduct}:${v}:*:*:*:*:*:*:*`,
        vendor: p.vendor,
        product: p.cpeProduct,
        version: v,
        edition: '',
        language: '',
        part: 'a',
        update: '',
      },
    ];
    byVersion.set(v, sw);
  }
  return sw;
}

function makeService(rng: Rng, plan: ServicePlan, ctx: HostCtx): ServiceRecord {
  const { product: p, version: v, port } = plan;
  const ts = iso(ctx.ts - rng.int(0, 6 * 3_600_000));
  const extra = p.extraInfo ? rng.pick(p.extraInfo) : '';
  const modules: Record<string, Record<string, unknown>> = {};
  const h = (s: string): string => (ctx.hostileText ? hostile(s) : s);
  if (p.module === 'http' || p.module === 'elasticsearch') {
    const server = httpServerHeader(p, v, extra);
    const title = p.module === 'elasticsearch' ? '' : rng.pick(HTTP_TITLES);
    const status =
      title === '403 Forbidden' ? 403 : title === '404 Not Found' ? 404 : rng.chance(0.1) ? 301 : 200;
    const body = p.module === 'elasticsearch' ? bannerFor(rng, p, v, ctx, extra) : '';
    modules.http = {
      title: h(title),
      status_code: status,
      headers: {
        server: h(server),
        content_type:
          p.module === 'elasticsearch' ? 'application/json; charset=UTF-8' : 'text/html; charset=utf-8',
        date: ctx.httpDate,
        ...(status === 301 ? { location: `https://${ctx.name}/` } : {}),
      },
      favicon: { hash: (hash32(ctx.ip, port) | 0).toString() },
      banner: h(
        `HTTP/1.1 ${status} ${status === 200 ? 'OK' : status === 301 ? 'Moved Permanently' : status === 403 ? 'Forbidden' : 'Not Found'}\r\nServer: ${server}\r\nDate: ${ctx.httpDate}\r\nContent-Type: text/html; charset=utf-8\r\nConnection: keep-alive${body ? `\r\n\r\n${body}` : ''}`,
      ),
    };
    if (p.tls || port === 443 || port === 8443) {
      const notBefore = ctx.ts - rng.int(10, 80) * DAY;
      const selfSigned = rng.chance(0.12);
      modules.tls = {
        version: rng.pick(['TLSv1.2', 'TLSv1.3', 'TLSv1.3']),
        cipher: rng.pick(['TLS_AES_256_GCM_SHA384', 'TLS_AES_128_GCM_SHA256', 'ECDHE-RSA-AES128-GCM-SHA256']),
        certificate: {
          subject: { common_name: h(ctx.name) },
          issuer: selfSigned ? { common_name: h(ctx.name), organization: '' } : rng.pick(CA_ISSUERS),
          validity: { not_before: iso(notBefore), not_after: iso(notBefore + 90 * DAY) },
          subject_alt_names: [h(ctx.name)],
          fingerprint_sha256: rng.hex(64),
          serial_number: rng.hex(32),
          self_signed: selfSigned,
        },
      };
    }
  } else if (p.module === 'ssh') {
    const ident =
      p.key === 'openssh'
        ? `SSH-2.0-OpenSSH_${v}${extra.startsWith('Ubuntu') ? ' Ubuntu-4ubuntu0.5' : extra.startsWith('Debian') ? ' Debian-10+deb10u2' : ''}`
        : `SSH-2.0-dropbear_${v}`;
    modules.ssh = {
      banner: h(ident),
      hassh: rng.hex(32),
      server_host_key: {
        type: rng.pick(['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ssh-rsa']),
        fingerprint_sha256: rng.hex(64),
      },
      algorithms: rng.pick(SSH_ALGORITHMS),
    };
  } else {
    modules[p.module] = { banner: h(bannerFor(rng, p, v, ctx, extra)) };
  }
  const cves = (PRODUCT_CVES[cveKey(p)]?.[v] ?? []).map((id) =>
    ctx.hostileText
      ? makeCve(id, port, p.protocol, hostile(CVES[id].summary))
      : cached(ctx, `cve:${id}:${port}:${p.protocol}`, () => makeCve(id, port, p.protocol)),
  );
  const scheme =
    p.module === 'http' || p.module === 'elasticsearch' ? (modules.tls ? 'https' : 'http') : p.service;
  return {
    _meta: staticMeta(p),
    cve: cves,
    extra_info: h(extra),
    last_updated_at: ts,
    modules,
    name: p.service,
    port,
    product: h(p.product),
    protocol: p.protocol,
    softwares: staticSoftwares(p, v),
    tunnel: modules.tls ? 'ssl' : '',
    url: `${scheme}://${ctx.ip.includes(':') ? `[${ctx.ip}]` : ctx.ip}:${port}`,
    version: h(v),
  };
}

// ---------------------------------------------------------------- hosts

interface HostPlan {
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

const PRODUCT_WEIGHTS = PRODUCTS.map((p) => p.weight);
const ASN_WEIGHTS = ASNS.map((a) => a.weight);
const productByKey = new Map(PRODUCTS.map((p) => [p.key, p]));
const asnByNumber = new Map(ASNS.map((a) => [a.number, a]));

function product(key: string): ProductSpec {
  const p = productByKey.get(key);
  if (!p) throw new Error(`unknown product ${key}`);
  return p;
}

function rdnsName(rng: Rng, asn: AsnSpec, ip: string, city: CitySpec): string {
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

function buildHost(rng: Rng, plan: HostPlan, cache: Map<string, unknown>): HostRecord {
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
  const tagNames = new Set(plan.tags ?? []);
  if (asn.cloud) tagNames.add('cloud');
  if (asn.number === 'AS13335') tagNames.add('cdn');
  for (const s of services) {
    if (s._meta.category === 'database') tagNames.add('database');
    if (s._meta.category === 'remote_access') tagNames.add('remote_access');
    const cert = (s.modules.tls?.certificate ?? null) as { self_signed?: boolean } | null;
    if (cert?.self_signed) tagNames.add('self_signed');
    if (/^(5\.5|2\.4\.29|7\.4|1\.14|6\.1|2\.3\.4|1\.19)/.test(s.softwares[0].version))
      tagNames.add('eol_product');
  }
  const tags = [...tagNames].map((name) => {
    const t = TAGS.find((x) => x.name === name) ?? { name, pretty: name };
    return { last_updated_at: iso(ts), name: t.name, pretty_name: h(t.pretty), value: true };
  });
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
    asn_updated_at: rng.chance(0.05) ? null : iso(ts - rng.int(1, 20) * DAY),
    domains,
    hostnames: hostnames.map((name) => ({ last_updated_at: iso(ts - rng.int(0, 10) * DAY), name: h(name) })),
    location: {
      city: city.city,
      continent: city.continent,
      country_code: city.cc,
      country_name: city.country,
      geo_point: `${city.lat},${city.lon}`,
      locale_code: city.locale,
      network: prefix,
      postal_code: city.postal,
      coordinates: { latitude: city.lat, longitude: city.lon },
    },
    location_updated_at: iso(ts - rng.int(1, 40) * DAY),
    services,
    tags,
    whois: {
      _encoding: { raw: 'utf-8' },
      descr: h(asn.org),
      network: prefix,
      organization: h(asn.org),
      raw: h(whoisRaw),
    },
    whois_updated_at: unsetWhois ? null : iso(ts - rng.int(1, 60) * DAY),
  };
}

function randomServicePlans(rng: Rng, count: number): ServicePlan[] {
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

function randomIPv4(rng: Rng, asn: AsnSpec): string {
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

function randomIPv6(rng: Rng): { ip: string; asn: AsnSpec } {
  const number = rng.pick(Object.keys(V6_PREFIXES));
  const asn = asnByNumber.get(number) ?? ASNS[0];
  const seg = (): string => rng.int(1, 0xffff).toString(16);
  return { ip: `${V6_PREFIXES[number]}:${seg()}:${seg()}::${seg()}`, asn };
}

function plan(key: string, version: string, port: number): ServicePlan {
  return { product: product(key), version, port };
}

function fixtureHosts(anchor: number): HostPlan[] {
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
function buildHugeHost(seed: number, anchor: number, cache: Map<string, unknown>): HostRecord {
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
  // ~5 KB of banner per service, ~5 MB in total.
  const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(90);
  for (const s of host.services) {
    for (const mod of Object.values(s.modules)) {
      if (typeof mod.banner === 'string') mod.banner = `${mod.banner}\r\n${filler}`;
    }
  }
  return host;
}

// ---------------------------------------------------------------- domains and whois

function splitDomain(domain: string): { label: string; tld: string } {
  const i = domain.indexOf('.');
  return { label: domain.slice(0, i), tld: domain.slice(i + 1) };
}

interface DomainPlan {
  domain: string;
  labels: string[];
  created: number;
  expires: number;
  registrar: RegistrarSpec;
  ns: string[];
  privacy: boolean;
  history: number;
  hostileText?: boolean;
  country?: CitySpec;
  status?: string[];
}

function contact(rng: Rng, domain: string, role: string, plan: DomainPlan): WhoisContact {
  const h = (s: string): string => (plan.hostileText ? hostile(s) : s);
  if (plan.privacy) {
    return {
      address: 'REDACTED FOR PRIVACY',
      city: 'REDACTED FOR PRIVACY',
      company: 'Privacy service provided by Withheld for Privacy ehf',
      country: 'Iceland',
      country_code: 'IS',
      email: `${rng.hex(32)}@withheldforprivacy.com`,
      email_domain: 'withheldforprivacy.com',
      fax: '',
      name: 'REDACTED FOR PRIVACY',
      phone: '+354.4212434',
      state: 'Capital Region',
      zip: '101',
    };
  }
  const city = plan.country ?? CITIES.nyc;
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const company = domain
    .split('.')[0]
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
  return {
    address: h(
      `${rng.int(1, 999)} ${rng.pick(['Market St', 'Harbor Rd', 'Main St', 'Industrial Way', 'Park Ave'])}`,
    ),
    city: h(city.city),
    company: h(`${company} ${rng.pick(['Inc.', 'LLC', 'Ltd', 'GmbH'])}`),
    country: h(city.country),
    country_code: city.cc,
    email: h(`${role}@${domain}`),
    email_domain: domain,
    fax: '',
    name: h(`${first} ${last}`),
    phone: h(`+1.${rng.int(200, 999)}${rng.int(1000000, 9999999)}`),
    state: h(city.cc === 'US' ? 'NY' : ''),
    zip: h(city.postal),
  };
}

function whoisRecords(rng: Rng, plan: DomainPlan, anchor: number): WhoisRecord[] {
  const { domain } = plan;
  const tld = domain.slice(domain.indexOf('.') + 1);
  const h = (s: string): string => (plan.hostileText ? hostile(s) : s);
  const contacts = {
    registrant_contact: contact(rng, domain, 'registrant', plan),
    administrative_contact: contact(rng, domain, 'admin', plan),
    technical_contact: contact(rng, domain, 'tech', plan),
    billing_contact: contact(rng, domain, 'billing', plan),
  };
  // Snapshots from oldest to newest: each changes the registrar, the name servers or the status.
  const n = Math.max(1, plan.history);
  const out: WhoisRecord[] = [];
  let registrar = n > 1 ? rng.pick(REGISTRARS.filter((r) => r.id !== plan.registrar.id)) : plan.registrar;
  let ns = n > 1 ? rng.pick(NAME_SERVER_SETS) : plan.ns;
  let status = n > 1 ? ['clientTransferProhibited'] : (plan.status ?? ['clientTransferProhibited']);
  const span = Math.max(DAY, anchor - 20 * DAY - plan.created);
  for (let i = 0; i < n; i++) {
    const last = i === n - 1;
    if (i > 0) {
      const change = i % 3;
      if (change === 1) registrar = last ? plan.registrar : rng.pick(REGISTRARS);
      else if (change === 2) ns = last ? plan.ns : rng.pick(NAME_SERVER_SETS);
      else
        status = last
          ? (plan.status ?? ['clientTransferProhibited', 'clientUpdateProhibited'])
          : rng.sample(DOMAIN_STATUSES, 2);
    }
    if (last) {
      registrar = plan.registrar;
      ns = plan.ns;
      status = plan.status ?? status;
    }
    const updated =
      n === 1 ? anchor - rng.int(20, 300) * DAY : plan.created + Math.floor((span * (i + 1)) / n);
    const expires = last ? plan.expires : updated + 365 * DAY;
    const raw = [
      `Domain Name: ${domain.toUpperCase()}`,
      `Registry Domain ID: ${hash32(domain)}_DOMAIN_COM-VRSN`,
      `Registrar WHOIS Server: ${registrar.whois}`,
      `Registrar URL: ${registrar.url}`,
      `Updated Date: ${isoDay(updated)}`,
      `Creation Date: ${isoDay(plan.created)}`,
      `Registry Expiry Date: ${isoDay(expires)}`,
      `Registrar: ${registrar.name}`,
      `Registrar IANA ID: ${registrar.id}`,
      ...status.map((s) => `Domain Status: ${s} https://icann.org/epp#${s}`),
      ...ns.map((x) => `Name Server: ${x.toUpperCase()}`),
      `Registrant Organization: ${contacts.registrant_contact.company}`,
      `Registrant Email: ${contacts.registrant_contact.email}`,
      'DNSSEC: unsigned',
      `>>> Last update of whois database: ${iso(updated)} <<<`,
    ].join('\n');
    out.push({
      domain_name: domain,
      tld,
      created_date: isoDay(plan.created),
      updated_date: isoDay(updated),
      expires_date: isoDay(expires),
      domain_status: status.slice(),
      name_servers: ns.slice(),
      raw_data: h(raw),
      registrar: { id: registrar.id, name: h(registrar.name), url: registrar.url, whois: registrar.whois },
      audited_fields: {
        created_at: iso(updated + 3_600_000),
        expires_date: isoDay(expires),
        is_modified: i > 0,
        updated_at: iso(updated + 3_600_000),
      },
      registrant_contact: { ...contacts.registrant_contact },
      administrative_contact: { ...contacts.administrative_contact },
      technical_contact: { ...contacts.technical_contact },
      billing_contact: { ...contacts.billing_contact },
    });
  }
  return out.reverse();
}

function domainRecords(rng: Rng, plan: DomainPlan, anchor: number): DomainRecord[] {
  const { label, tld } = splitDomain(plan.domain);
  const names = ['', ...plan.labels];
  return names.map((sub) => {
    const fqdn = sub ? `${sub}.${plan.domain}` : plan.domain;
    return {
      added_at: iso(Math.max(plan.created, anchor - rng.int(1, 700) * DAY) + rng.int(0, DAY - 1)),
      domain: plan.domain,
      subdomain: fqdn,
      ext_dns_name: { domain: label, fld: plan.domain, subdomain: sub, tld },
    };
  });
}

// ---------------------------------------------------------------- buckets and files

function bucketsAndFiles(
  seed: number,
  count: number,
  anchor: number,
  domains: string[],
): { buckets: BucketRecord[]; files: FileRecord[] } {
  const buckets: BucketRecord[] = [];
  const files: FileRecord[] = [];
  const names = new Set<string>();
  const providers = ['aws', 'aws', 'aws', 'gcp', 'gcp', 'do', 'linode'];
  const addBucket = (i: number, name: string, provider: string, hostileText: boolean): void => {
    const rng = Rng.derive(seed, 'bucket', i);
    const region = rng.pick(PROVIDER_REGIONS[provider]);
    const base = bucketBaseUrl(name, provider, region);
    const sample = rng.int(2, 14);
    const catCount: Record<string, number> = {};
    const labels = new Set<string>();
    let sensitive = 0;
    const insAt = anchor - rng.int(1, 900) * DAY - rng.int(0, DAY - 1);
    for (let f = 0; f < sample; f++) {
      const kind = rng.pick(FILE_KINDS);
      const label = kind.labels.length > 0 && rng.chance(0.7) ? rng.pick(kind.labels) : '';
      if (label) labels.add(label);
      const stem = hostileText && f === 0 ? `${hostile('invoice')}` : rng.pick(kind.names);
      const dir = rng.pick(['', 'backup/', 'exports/2024/', 'uploads/', 'db/', 'www/']);
      const fname = `${stem}${kind.ext === '.env' && stem === '.env' ? '' : kind.ext}`;
      const path = `${dir}${fname}`;
      files.push({
        name: fname,
        path,
        bucket: name,
        provider,
        region,
        url: `${base}/${encodeURI(path)}`,
        ext: kind.ext,
        category: kind.category,
        label,
        size: rng.int(200, 2_000_000_000),
        ins_at: iso(insAt + rng.int(0, 30) * DAY),
        last_modified: iso(insAt - rng.int(0, 400) * DAY),
      });
      catCount[kind.category] = (catCount[kind.category] ?? 0) + rng.int(1, 400);
      if (label) sensitive++;
    }
    const total = Object.values(catCount).reduce((a, b) => a + b, 0);
    const scan = anchor - rng.int(0, 20) * DAY - rng.int(0, DAY - 1);
    buckets.push({
      name,
      provider,
      region,
      owner_id:
        provider === 'aws' ? rng.hex(64) : provider === 'gcp' ? `project-${rng.int(100000, 999999)}` : '',
      open: true,
      deleted: rng.chance(0.05),
      labels: [...labels].sort(),
      categories: Object.keys(catCount).sort(),
      files: total,
      new_files: rng.int(0, Math.min(50, total)),
      sensitive_files: sensitive * rng.int(1, 20),
      file_cat_count: catCount,
      age_in_days: Math.floor((anchor - insAt) / DAY),
      ins_at: iso(insAt),
      scan_at: iso(scan),
      prev_scan_at: iso(scan - rng.int(5, 30) * DAY),
      last_found_at: iso(scan),
      last_open_at: iso(scan),
      url: base,
    });
  };
  addBucket(-1, FIXTURE_BUCKETS.corp, 'aws', false);
  addBucket(-2, FIXTURE_BUCKETS.hostile, 'do', true);
  names.add(FIXTURE_BUCKETS.corp);
  names.add(FIXTURE_BUCKETS.hostile);
  for (let i = 0; buckets.length < count + 2; i++) {
    const rng = Rng.derive(seed, 'bucket-name', i);
    const owner = rng.chance(0.6)
      ? domains[rng.int(0, domains.length - 1)].split('.')[0]
      : `${rng.pick(WORDS_A)}${rng.pick(WORDS_B)}`;
    const name = `${owner}-${rng.pick(BUCKET_WORDS)}${rng.chance(0.3) ? `-${rng.int(1, 99)}` : ''}`;
    if (names.has(name)) continue;
    names.add(name);
    addBucket(i, name, rng.pick(providers), false);
  }
  return { buckets, files };
}

function bucketBaseUrl(name: string, provider: string, region: string): string {
  switch (provider) {
    case 'aws':
      return `https://${name}.s3.${region}.amazonaws.com`;
    case 'gcp':
      return `https://storage.googleapis.com/${name}`;
    case 'do':
      return `https://${name}.${region}.digitaloceanspaces.com`;
    default:
      return `https://${name}.${region}.linodeobjects.com`;
  }
}

// ---------------------------------------------------------------- field catalogues

const HOST_FIELDS: [string, string, boolean][] = [
  ['ip', 'general', false],
  ['is_ipv4', 'general', false],
  ['is_ipv6', 'general', false],
  ['is_vuln', 'general', false],
  ['last_updated_at', 'general', false],
  ['banner', 'general', false],
  ['scan_id', 'general', true],
  ['services_hash', 'general', true],
  ['asn.number', 'asn', false],
  ['asn.organization', 'asn', false],
  ['asn.country_code', 'asn', false],
  ['location.city', 'location', false],
  ['location.country_code', 'location', false],
  ['location.country_name', 'location', false],
  ['location.continent', 'location', false],
  ['location.postal_code', 'location', false],
  ['location.network', 'location', false],
  ['location.geo_point', 'location', true],
  ['services.port', 'services', false],
  ['services.name', 'services', false],
  ['services.product', 'services', false],
  ['services.version', 'services', false],
  ['services.protocol', 'services', false],
  ['services.tunnel', 'services', false],
  ['services.extra_info', 'services', false],
  ['services._meta.category', 'services', false],
  ['services.cve.id', 'services', false],
  ['services.cve.severity', 'services', false],
  ['services.cve.score', 'services', true],
  ['services.softwares.vendor', 'services', false],
  ['services.softwares.product', 'services', false],
  ['services.softwares.version', 'services', false],
  ['services.modules.http.title', 'services', false],
  ['services.modules.http.status_code', 'services', false],
  ['services.modules.http.headers.server', 'services', false],
  ['services.modules.http.favicon.hash', 'services', true],
  ['services.modules.http.banner', 'services', true],
  ['services.modules.tls.certificate.subject.common_name', 'services', true],
  ['services.modules.tls.certificate.issuer.organization', 'services', true],
  ['services.modules.tls.certificate.fingerprint_sha256', 'services', true],
  ['services.modules.ssh.banner', 'services', false],
  ['services.modules.ssh.hassh', 'services', true],
  ['tags.name', 'tags', false],
  ['tags.pretty_name', 'tags', false],
  ['hostnames.name', 'hostnames', false],
  ['domains.name', 'domains', false],
  ['domains.web_server', 'domains', false],
  ['whois.organization', 'whois', false],
  ['whois.descr', 'whois', false],
  ['whois.network', 'whois', false],
  ['whois.raw', 'whois', true],
];

const DISPLAY: Record<string, string> = {
  general: 'General',
  asn: 'ASN',
  location: 'Location',
  services: 'Services',
  tags: 'Tags',
  hostnames: 'Hostnames',
  domains: 'Domains',
  whois: 'Whois',
  bucket: 'Bucket',
  file: 'File',
  file_cat_count: 'File Categories',
};

function fd(name: string, category: string, locked: boolean): FieldDescriptor {
  return { name, category, display_category: DISPLAY[category] ?? category, is_locked: locked };
}

function fieldCatalogues(): Dataset['fields'] {
  const all = HOST_FIELDS.map(([n, c, l]) => fd(n, c, l));
  const hosts: Record<string, FieldDescriptor[]> = { all };
  for (const f of all) (hosts[f.category] ??= []).push(f);
  const buckets = [
    fd('name', 'bucket', false),
    fd('provider', 'bucket', false),
    fd('region', 'bucket', false),
    fd('labels', 'bucket', false),
    fd('categories', 'bucket', false),
    fd('files', 'bucket', false),
    fd('new_files', 'bucket', false),
    fd('sensitive_files', 'bucket', true),
    fd('owner_id', 'bucket', true),
    fd('ins_at', 'bucket', false),
    fd('scan_at', 'bucket', false),
    fd('last_found_at', 'bucket', false),
    fd('age_in_days', 'bucket', false),
    ...['img', 'aud', 'vid', 'font', 'doc', 'src', 'web', 'bkup', 'dbdump'].map((c) =>
      fd(`file_cat_count.${c}`, 'file_cat_count', c === 'dbdump'),
    ),
  ];
  const files = [
    fd('name', 'file', false),
    fd('path', 'file', false),
    fd('ext', 'file', false),
    fd('bucket', 'file', false),
    fd('provider', 'file', false),
    fd('category', 'file', false),
    fd('label', 'file', false),
    fd('size', 'file', false),
    fd('url', 'file', true),
    fd('ins_at', 'file', false),
  ];
  return { hosts, buckets, files };
}

// ---------------------------------------------------------------- the dataset

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

function* generationSteps(opts: DatasetOptions): Generator<void, Dataset, void> {
  const seed = opts.seed ?? 1;
  const now = opts.now ?? Date.now();
  const anchor = Math.floor(now / DAY) * DAY;
  const hostCount = Math.max(opts.hosts ?? 5000, 0);

  // Domains first: hosts refer to them.
  const domainCount = Math.max(40, Math.ceil(hostCount / 12));
  const plans: DomainPlan[] = [];
  const usedDomains = new Set<string>([FIXTURE_UNKNOWN_DOMAIN, ...Object.values(FIXTURE_DOMAINS)]);
  const regular = (domain: string, r: Rng): DomainPlan => ({
    domain,
    labels: r.sample(SUBDOMAIN_LABELS, r.int(1, 18)),
    created: anchor - r.int(200, 9000) * DAY,
    expires: anchor + r.int(31, 1800) * DAY,
    registrar: r.pick(REGISTRARS),
    ns: r.pick(NAME_SERVER_SETS),
    privacy: r.chance(0.55),
    history: r.chance(0.4) ? r.int(2, 6) : 1,
    country: CITIES[r.pick(Object.keys(CITIES))],
  });
  plans.push({
    domain: FIXTURE_DOMAINS.corp,
    labels: SUBDOMAIN_LABELS.slice(),
    created: anchor - 6400 * DAY,
    expires: anchor + 400 * DAY,
    registrar: REGISTRARS[3],
    ns: NAME_SERVER_SETS[2],
    privacy: false,
    history: 6,
    country: CITIES.sea,
  });
  plans.push({
    domain: FIXTURE_DOMAINS.expiring,
    labels: ['www', 'mail', 'shop'],
    created: anchor - 3000 * DAY,
    expires: anchor + 12 * DAY,
    registrar: REGISTRARS[0],
    ns: NAME_SERVER_SETS[4],
    privacy: false,
    history: 3,
    country: CITIES.chi,
  });
  plans.push({
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
  });
  plans.push({
    domain: FIXTURE_DOMAINS.phishing,
    labels: ['www', 'account', 'verify'],
    created: anchor - 9 * DAY,
    expires: anchor + 356 * DAY,
    registrar: REGISTRARS[1],
    ns: NAME_SERVER_SETS[0],
    privacy: true,
    history: 1,
    status: ['clientTransferProhibited', 'serverHold'],
  });
  for (let i = 0; plans.length < domainCount; i++) {
    const r = Rng.derive(seed, 'domain', i);
    const name = `${r.pick(WORDS_A)}-${r.pick(WORDS_B)}${r.chance(0.2) ? r.int(1, 99) : ''}.${r.pick(TLDS)}`;
    if (usedDomains.has(name)) continue;
    usedDomains.add(name);
    plans.push(regular(name, r));
  }
  const registeredDomains = plans.map((p) => p.domain);
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

  // Hosts.
  const cache = new Map<string, unknown>();
  const hosts: HostRecord[] = [];
  const usedIps = new Set<string>([FIXTURE_UNKNOWN_IP, ...Object.values(FIXTURE_HOSTS)]);
  const usedTimes = new Set<number>();
  const uniqueTime = (t: number): number => {
    while (usedTimes.has(t)) t--;
    usedTimes.add(t);
    return t;
  };
  const fixtures = fixtureHosts(anchor);
  for (const f of fixtures) {
    f.ts = uniqueTime(f.ts);
    hosts.push(buildHost(Rng.derive(seed, 'fixture', f.ip), f, cache));
  }
  const huge = buildHugeHost(seed, anchor, cache);
  usedTimes.add(Date.parse(huge.last_updated_at));
  hosts.push(huge);
  for (let i = 0; hosts.length < hostCount; i++) {
    if (i % 250 === 249) yield;
    const rng = Rng.derive(seed, 'host', i);
    let ip: string;
    let asn: AsnSpec;
    if (rng.chance(0.02)) ({ ip, asn } = randomIPv6(rng));
    else {
      asn = rng.weighted(ASNS, ASN_WEIGHTS);
      ip = randomIPv4(rng, asn);
    }
    if (usedIps.has(ip)) continue;
    usedIps.add(ip);
    const city = CITIES[rng.pick(asn.cities)];
    const ts = uniqueTime(anchor - 60_000 * 120 - rng.int(0, 90 * DAY));
    // Most hosts expose a handful of services; a few expose many (mean about 4).
    const nServices = 1 + Math.floor(rng.next() ** 4 * 20);
    const services = randomServicePlans(rng, Math.min(nServices, 20));
    const hostDomains: string[] = [];
    const hostnames: string[] = [];
    const rdns = rdnsName(rng, asn, ip, city);
    if (rdns && !ip.includes(':')) hostnames.push(rdns);
    if (rng.chance(0.3)) {
      const d = registeredDomains[4 + rng.int(0, registeredDomains.length - 5)];
      hostDomains.push(d);
      hostnames.push(`${rng.pick(['www', 'mail', 'api', 'vpn', 'app', 'portal'])}.${d}`);
    }
    const tags: string[] = [];
    if (rng.chance(0.03)) tags.push('vpn');
    if (rng.chance(0.01)) tags.push('scanner');
    if (rng.chance(0.005)) tags.push('honeypot');
    if (services.some((s) => s.product.tags.includes('iot'))) tags.push('iot');
    hosts.push(
      buildHost(
        rng,
        { ip, asn, city, ts, services, hostnames, domains: hostDomains, tags, scanId: 1_700_100_000 + i },
        cache,
      ),
    );
  }
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
