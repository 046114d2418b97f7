/**
 * Reads the protocol modules of a service in the live service's layouts (the captured
 * answer, ODIN-FACTS "The real capture"): `modules.http` with header values as arrays and
 * no banner, `modules.tls.certificate` as zcrypto x509 JSON (every name attribute an
 * array, DNS names under `subject_alt_name.dns_names`, validity without a zone letter),
 * `modules.ssh` with its key and algorithm lists. Each field is read on its own: one of
 * the wrong type is left out, never replaced by a default.
 */
import { isIP } from 'node:net';
import type { CertName, HttpInfo, SshInfo, TlsCertificate } from '../types';
import { bool, compact, FORBIDDEN_KEYS, int, isObj, list, nonEmpty, nonEmptyList, obj } from './json';

/** A value that is a string or an array of strings (zcrypto names, HTTP headers), joined. */
export function joined(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' ? undefined : v;
  const parts = nonEmptyList(v);
  return parts.length ? parts.join(', ') : undefined;
}

/** `2026-12-08T10:25:12` (zcrypto, UTC without a zone letter) → `2026-12-08T10:25:12Z`. */
export function certTime(v: unknown): string | undefined {
  if (typeof v !== 'string' || v === '') return undefined;
  const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/.test(v) ? `${v}Z` : v;
  return Number.isNaN(Date.parse(iso)) ? undefined : iso;
}

export function readHttp(m: unknown): HttpInfo | undefined {
  if (!isObj(m)) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(obj(m.headers))) {
    if (FORBIDDEN_KEYS.has(name)) continue;
    if (name === 'unknown' && Array.isArray(value)) {
      // Headers the scanner has no field for: `[{key, value: [...]}]`.
      for (const u of value) {
        const key = isObj(u) ? nonEmpty(u.key) : undefined;
        const text = isObj(u) ? joined(u.value) : undefined;
        if (key && text !== undefined && !FORBIDDEN_KEYS.has(key)) headers[key] = text;
      }
      continue;
    }
    const text = joined(value);
    if (text !== undefined) headers[name] = text;
  }
  const redirects = (Array.isArray(m.redirects) ? m.redirects : [])
    .filter(isObj)
    .map((r) => compact({ status: int(r.status_code), location: nonEmpty(r.location) }));
  return compact<HttpInfo>({
    status: int(m.status_code),
    title: nonEmpty(m.title),
    server: headers.server,
    protocol: nonEmpty(m.protocol),
    headers,
    components: nonEmptyList(m.component),
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

/** A DNS name as a certificate may hold it: LDH labels (and `_`), a leading `*.` wildcard, ≤ 253 characters. */
const CERT_DNS_NAME = /^(\*\.)?(?!-)[a-z0-9_-]{1,63}(?<!-)(\.(?!-)[a-z0-9_-]{1,63}(?<!-))*$/;

/**
 * A certificate's SAN entries as they can be shown: IP addresses that parse as one (a real
 * answer lists a cut-off IPv6 fragment, `"2605"`), names that are DNS names (lower case),
 * each once; an address written as a DNS name is listed once, as an address.
 */
export function certificateEntries(
  dnsNames: unknown[],
  ipAddresses: unknown[],
): { names: string[]; ips: string[] } {
  const ips = new Set<string>();
  const names = new Set<string>();
  for (const v of ipAddresses) if (typeof v === 'string' && isIP(v.trim())) ips.add(v.trim().toLowerCase());
  for (const v of dnsNames) {
    if (typeof v !== 'string') continue;
    const n = v.trim().toLowerCase().replace(/\.$/, '');
    if (isIP(n)) ips.add(n);
    else if (n.length <= 253 && CERT_DNS_NAME.test(n)) names.add(n);
  }
  return { names: [...names], ips: [...ips] };
}

export function readTls(m: unknown): TlsCertificate | undefined {
  if (!isObj(m) || !isObj(m.certificate)) return undefined;
  const c = m.certificate;
  const san = obj(c.subject_alt_name);
  const extSan = obj(obj(c.extensions).subject_alt_name);
  const { names, ips } = certificateEntries(
    [...list(san.dns_names), ...list(extSan.dns_names)],
    list(extSan.ip_address),
  );
  const validity = obj(c.validity);
  const signature = obj(c.signature);
  const key = obj(c.subject_key_info);
  const bits = int(obj(key.rsa).length) ?? int(obj(key.ecdsa).length);
  return compact<TlsCertificate>({
    subject: certName(c.subject),
    issuer: certName(c.issuer),
    names,
    ips,
    notBefore: certTime(validity.not_before ?? validity.start),
    notAfter: certTime(validity.not_after ?? validity.end),
    fingerprintSha256: nonEmpty(c.fingerprint_sha256) ?? nonEmpty(m.fingerprint_sha256),
    selfSigned: bool(signature.self_signed),
    serialNumber: nonEmpty(c.serial_number),
    validationLevel: nonEmpty(c.validation_level),
    signatureAlgorithm:
      nonEmpty(obj(signature.algorithm).name) ?? nonEmpty(obj(signature.signature_algorithm).name),
    keyAlgorithm: nonEmpty(key.key_algorithm),
    keyBits: bits,
    keyCurve: nonEmpty(obj(key.ecdsa).curve),
    jarm: nonEmpty(c.jarm),
    tags: nonEmptyList(m.tags),
  });
}

export function readSsh(m: unknown): SshInfo | undefined {
  if (!isObj(m)) return undefined;
  const key = obj(m.key);
  return compact<SshInfo>({
    banner: nonEmpty(m.banner),
    software: nonEmpty(m.software),
    version: nonEmpty(m.version),
    keyAlgorithm: nonEmpty(key.algorithm),
    keyFingerprint: nonEmpty(key.fingerprint_sha256),
    kexAlgorithms: nonEmptyList(m.kex_algorithms),
    hostKeyAlgorithms: nonEmptyList(m.host_key_algorithms),
    ciphers: [
      ...new Set([...nonEmptyList(m.server_to_client_ciphers), ...nonEmptyList(m.client_to_server_ciphers)]),
    ],
    macs: [...new Set([...nonEmptyList(m.server_to_client_macs), ...nonEmptyList(m.client_to_server_macs)])],
  });
}
