/** One service of a host: its modules (protocol data), software, CVEs and metadata. */
import { CVES, PRODUCT_CVES, type ProductSpec, severityOf } from './catalog';
import { bannerFor } from './banners';
import { DAY, iso } from './clock';
import { hostile } from './hostile';
import { type Rng, hash32 } from './random';
import type { CveRecord, ServiceRecord, SoftwareRecord } from './records';

// ---------------------------------------------------------------- services

export interface ServicePlan {
  product: ProductSpec;
  version: string;
  port: number;
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

export function makeService(rng: Rng, plan: ServicePlan, ctx: HostCtx): ServiceRecord {
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
