/**
 * One service of a host: its modules (protocol data in the live service's layouts: `http`
 * without banner and with header values as arrays, `tls` as zcrypto x509 JSON, `ssh` with
 * its algorithm lists and key, `<proto>.banner` for the others), software as CPE 2.2 with
 * `ANY` for unknown parts, CVEs and metadata.
 */
import { CVES, PRODUCT_CVES, type ProductSpec, severityOf } from './catalog';
import { bannerFor } from './banners';
import { CA_ISSUERS, tlsModule } from './certs';
import { DAY, iso } from './clock';
import { hostile } from './hostile';
import { type Rng, hash32 } from './random';
import type { CveRecord, ServiceRecord, SoftwareRecord } from './records';

// ---------------------------------------------------------------- services

export interface ServicePlan {
  product: ProductSpec;
  version: string;
  port: number;
  /** The service's CVEs when a fixture fixes them (catalogue ids); default: the product version's. */
  cves?: readonly string[];
}

export interface HostCtx {
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
  'sntrup761x25519-sha512@openssh.com',
  'curve25519-sha256',
  'curve25519-sha256@libssh.org',
  'ecdh-sha2-nistp256',
  'diffie-hellman-group14-sha256',
  'diffie-hellman-group-exchange-sha256',
];
const SSH_ENC = ['chacha20-poly1305@openssh.com', 'aes128-ctr', 'aes256-gcm@openssh.com', 'aes256-ctr'];
const SSH_MAC = ['hmac-sha2-256-etm@openssh.com', 'umac-128-etm@openssh.com', 'hmac-sha2-256', 'hmac-sha1'];

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

const SSH_ALGORITHMS = [0, 1, 2, 3].map((i) => {
  const enc = [SSH_ENC[i], SSH_ENC[(i + 2) % SSH_ENC.length]];
  const mac = [SSH_MAC[i], SSH_MAC[(i + 1) % SSH_MAC.length]];
  return {
    kex_algorithms: [SSH_KEX[i], SSH_KEX[(i + 1) % SSH_KEX.length], SSH_KEX[(i + 3) % SSH_KEX.length]],
    host_key_algorithms: ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-ed25519'],
    client_to_server_ciphers: enc,
    server_to_client_ciphers: enc,
    client_to_server_macs: mac,
    server_to_client_macs: mac,
    client_to_server_compression: ['none', 'zlib@openssh.com'],
    server_to_client_compression: ['none', 'zlib@openssh.com'],
  };
});

function httpServerHeader(p: ProductSpec, v: string, extra: string): string {
  if (p.key.startsWith('nginx')) return `nginx/${v}${extra ? ` (${extra})` : ''}`;
  if (p.key.startsWith('apache')) return `Apache/${v} ${extra || '(Ubuntu)'}`;
  if (p.key === 'iis') return `Microsoft-IIS/${v}`;
  if (p.key === 'lighttpd') return `lighttpd/${v}`;
  return p.product;
}

/** What `modules.http.component` names for a product (Wappalyzer-style names). */
function httpComponents(p: ProductSpec): string[] {
  if (p.key.startsWith('nginx')) return ['Nginx'];
  if (p.key.startsWith('apache')) return ['Apache HTTP Server'];
  if (p.key === 'iis') return ['IIS', 'Windows Server'];
  if (p.module === 'elasticsearch') return ['Elasticsearch'];
  return [];
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  301: 'Moved Permanently',
  302: 'Found',
  403: 'Forbidden',
  404: 'Not Found',
};

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

/** CPE 2.2 (`cpe:/a:vendor:product[:version]`); unknown parts are the string `ANY`. */
function staticSoftwares(p: ProductSpec, v: string): SoftwareRecord[] {
  let byVersion = softwaresByProduct.get(p);
  if (!byVersion) softwaresByProduct.set(p, (byVersion = new Map()));
  let sw = byVersion.get(v);
  if (!sw) {
    const version = /^\d/.test(v) ? v.split(' ')[0] : '';
    sw = [
      {
        uri: `cpe:/a:${p.vendor}:${p.cpeProduct}${version ? `:${version}` : ''}`,
        vendor: p.vendor,
        product: p.cpeProduct,
        version: version || 'ANY',
        edition: 'ANY',
        language: 'ANY',
        part: 'a',
        update: 'ANY',
      },
    ];
    if (p.module === 'ssh' || p.module === 'smtp')
      sw.push({
        uri: 'cpe:/o:linux:linux_kernel',
        vendor: 'linux',
        product: 'linux_kernel',
        version: 'ANY',
        edition: 'ANY',
        language: 'ANY',
        part: 'o',
        update: 'ANY',
      });
    byVersion.set(v, sw);
  }
  return sw;
}

function httpModule(
  rng: Rng,
  p: ProductSpec,
  v: string,
  ctx: HostCtx,
  extra: string,
  port: number,
): Record<string, unknown> {
  const h = (s: string): string => (ctx.hostileText ? hostile(s) : s);
  const server = httpServerHeader(p, v, extra);
  const title = p.module === 'elasticsearch' ? '' : rng.pick(HTTP_TITLES);
  const status = title === '403 Forbidden' ? 403 : title === '404 Not Found' ? 404 : 200;
  const chunked = rng.chance(0.7);
  const length = rng.int(180, 48_000);
  const headers: Record<string, unknown> = {
    connection: ['keep-alive'],
    content_type: [
      p.module === 'elasticsearch' ? 'application/json; charset=UTF-8' : 'text/html; charset=utf-8',
    ],
    date: [ctx.httpDate],
    server: [h(server)],
  };
  if (!chunked) headers.content_length = [String(length)];
  if (p.key.startsWith('apache') && rng.chance(0.4))
    headers.x_powered_by = [rng.pick(['PHP/7.4.3', 'PHP/8.1.2'])];
  if (title === 'Login' || title === 'Grafana')
    headers.set_cookie = ['session=; Path=/; HttpOnly', 'lang=en; Path=/'];
  if (rng.chance(0.15)) headers.strict_transport_security = ['max-age=31536000; includeSubDomains'];
  if (rng.chance(0.1))
    headers.unknown = [{ key: 'referrer_policy', value: ['strict-origin-when-cross-origin'] }];
  const mod: Record<string, unknown> = {
    body_murmur: hash32(ctx.ip, port) | 0,
    body_sha256: rng.hex(64),
    component: httpComponents(p),
    content_length: chunked ? -1 : length,
    headers,
    protocol: 'HTTP/1.1',
    status_code: status,
    title: h(title),
  };
  if (chunked) mod.transfer_encoding = ['chunked'];
  // Some servers first answered with a redirect (to HTTPS or a login page).
  if (rng.chance(0.1)) {
    const code = rng.pick([301, 302]);
    mod.redirects = [
      {
        body_murmur: hash32(ctx.ip, port + 1) | 0,
        body_sha256: rng.hex(64),
        content_length: rng.int(130, 180),
        location: `https://${ctx.name.includes(':') ? `[${ctx.name}]` : ctx.name}/`,
        status_code: code,
        status_line: `${code} ${STATUS_TEXT[code]}`,
      },
    ];
  }
  return mod;
}

export function makeService(rng: Rng, plan: ServicePlan, ctx: HostCtx): ServiceRecord {
  const { product: p, version: v, port } = plan;
  const ts = iso(ctx.ts - rng.int(0, 6 * 3_600_000));
  const extra = p.extraInfo ? rng.pick(p.extraInfo) : '';
  const modules: Record<string, Record<string, unknown>> = {};
  const h = (s: string): string => (ctx.hostileText ? hostile(s) : s);
  if (p.module === 'http' || p.module === 'elasticsearch') {
    modules.http = httpModule(rng, p, v, ctx, extra, port);
    if (p.tls || port === 443 || port === 8443) {
      const selfSigned = rng.chance(0.12);
      modules.tls = tlsModule(rng, {
        names: ctx.name === ctx.ip ? [] : [ctx.name],
        ip: ctx.ip,
        issuer: selfSigned ? undefined : rng.pick(CA_ISSUERS),
        notBefore: ctx.ts - rng.int(10, 80) * DAY,
        h,
      });
    }
  } else if (p.module === 'ssh') {
    const software = p.key === 'openssh' ? `OpenSSH_${v}` : `dropbear_${v}`;
    const ident = `SSH-2.0-${software}${extra.startsWith('Ubuntu') ? ' Ubuntu-4ubuntu0.5' : extra.startsWith('Debian') ? ' Debian-10+deb10u2' : ''}`;
    modules.ssh = {
      banner: h(ident),
      ...rng.pick(SSH_ALGORITHMS),
      key: {
        algorithm: rng.pick(['ssh-ed25519', 'ecdsa-sha2-nistp256', 'rsa-sha2-512']),
        fingerprint_sha256: rng.hex(64),
      },
      software: h(software),
      version: '2.0',
    };
  } else {
    modules[p.module] = { banner: h(bannerFor(rng, p, v, ctx, extra)) };
  }
  const cves = (plan.cves ?? PRODUCT_CVES[cveKey(p)]?.[v] ?? []).map((id) =>
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
