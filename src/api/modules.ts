/**
 * Reads the protocol modules of a service in the live service's layouts (the captured
 * answer, ODIN-FACTS "The real capture"): `modules.http` with header values as arrays and
 * no banner, `modules.tls.certificate` as zcrypto x509 JSON (every name attribute an
 * array, DNS names under `subject_alt_name.dns_names`, validity without a zone letter),
 * `modules.ssh` with its key and algorithm lists. Each field is read on its own: one of
 * the wrong type is left out, never replaced by a default.
 */
import type { CertName, HttpInfo, SshInfo, TlsCertificate } from './types';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const int = (v: unknown): number | undefined => (Number.isSafeInteger(v) ? (v as number) : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const strList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : [];

/** A value that is a string or an array of strings (zcrypto names, HTTP headers), joined. */
export function joined(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' ? undefined : v;
  const parts = strList(v);
  return parts.length ? parts.join(', ') : undefined;
}

function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
  return o;
}

/** `2026-12-08T10:25:12` (zcrypto, UTC without a zone letter) → `2026-12-08T10:25:12Z`. */
export function certTime(v: unknown): string | undefined {
  if (typeof v !== 'string' || v === '') return undefined;
  const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/.test(v) ? `${v}Z` : v;
  return Number.isNaN(Date.parse(iso)) ? undefined : iso;
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

export function readHttp(m: unknown): HttpInfo | undefined {
  if (!isObj(m)) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(obj(m.headers))) {
    if (FORBIDDEN.has(name)) continue;
    if (name === 'unknown' && Array.isArray(value)) {
      // Headers the scanner has no field for: `[{key, value: [...]}]`.
      for (const u of value) {
        const key = isObj(u) ? str(u.key) : undefined;
        const text = isObj(u) ? joined(u.value) : undefined;
        if (key && text !== undefined && !FORBIDDEN.has(key)) headers[key] = text;
      }
      continue;
    }
    const text = joined(value);
    if (text !== undefined) headers[name] = text;
  }
  const redirects = (Array.isArray(m.redirects) ? m.redirects : [])
    .filter(isObj)
    .map((r) => compact({ status: int(r.status_code), location: str(r.location) }));
  return compact<HttpInfo>({
    status: int(m.status_code),
    title: str(m.title),
    server: headers.server,
    protocol: str(m.protocol),
    headers,
    components: strList(m.component),
    redirects,
  });
}

function certName(v: unknown): CertName {
  const n = obj(v);
  return compact<CertName>({
    commonName: joined(n.common_name),
    organization: joined(n.organization),
    organizationalUnit: joined(n.organizational_unit),
    country: joined(n.country),
    locality: joined(n.locality),
    province: joined(n.province),
    email: joined(n.email_address),
  });
}

export function readTls(m: unknown): TlsCertificate | undefined {
  if (!isObj(m) || !isObj(m.certificate)) return undefined;
  const c = m.certificate;
  const san = obj(c.subject_alt_name);
  const extSan = obj(obj(c.extensions).subject_alt_name);
  const names = [...new Set([...strList(san.dns_names), ...strList(extSan.dns_names)])];
  const validity = obj(c.validity);
  const signature = obj(c.signature);
  const key = obj(c.subject_key_info);
  const bits = int(obj(key.rsa).length) ?? int(obj(key.ecdsa).length);
  return compact<TlsCertificate>({
    subject: certName(c.subject),
    issuer: certName(c.issuer),
    names,
    ips: strList(extSan.ip_address),
    notBefore: certTime(validity.not_before ?? validity.start),
    notAfter: certTime(validity.not_after ?? validity.end),
    fingerprintSha256: str(c.fingerprint_sha256) ?? str(m.fingerprint_sha256),
    selfSigned: bool(signature.self_signed),
    serialNumber: str(c.serial_number),
    validationLevel: str(c.validation_level),
    signatureAlgorithm: str(obj(signature.algorithm).name) ?? str(obj(signature.signature_algorithm).name),
    keyAlgorithm: str(key.key_algorithm),
    keyBits: bits,
    jarm: str(c.jarm),
    tags: strList(m.tags),
  });
}

export function readSsh(m: unknown): SshInfo | undefined {
  if (!isObj(m)) return undefined;
  const key = obj(m.key);
  return compact<SshInfo>({
    banner: str(m.banner),
    software: str(m.software),
    version: str(m.version),
    keyAlgorithm: str(key.algorithm),
    keyFingerprint: str(key.fingerprint_sha256),
    kexAlgorithms: strList(m.kex_algorithms),
    hostKeyAlgorithms: strList(m.host_key_algorithms),
    ciphers: [...new Set([...strList(m.server_to_client_ciphers), ...strList(m.client_to_server_ciphers)])],
    macs: [...new Set([...strList(m.server_to_client_macs), ...strList(m.client_to_server_macs)])],
  });
}
