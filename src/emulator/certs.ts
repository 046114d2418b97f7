/**
 * TLS certificates as the live service records them: zcrypto x509 JSON (the layout of
 * `modules.tls.certificate` in the captured answer, ODIN-FACTS "The real capture").
 * Names are arrays (`subject.common_name: ["…"]`), DNS names sit under
 * `subject_alt_name.dns_names`, IPs under `extensions.subject_alt_name.ip_address`,
 * validity times carry no zone letter, fingerprints of the certificate are upper-case hex
 * and those of the key lower-case.
 */
import { DAY } from './clock';
import type { Rng } from './random';

export interface CaSpec {
  common_name: string;
  organization: string;
  country: string;
  organizational_unit?: string;
  validation: 'DV' | 'OV';
  key: 'rsa' | 'ecdsa';
  aia: { issuer_urls: string[]; ocsp_urls: string[] };
  crl?: string;
  policy: { id: string; cps?: string[] };
  lifetimeDays: number;
}

export const CA_ISSUERS: CaSpec[] = [
  {
    common_name: 'R11',
    organization: "Let's Encrypt",
    country: 'US',
    validation: 'DV',
    key: 'rsa',
    aia: { issuer_urls: ['http://r11.i.lencr.org/'], ocsp_urls: ['http://r11.o.lencr.org'] },
    policy: { id: '2.23.140.1.2.1' },
    lifetimeDays: 90,
  },
  {
    common_name: 'E6',
    organization: "Let's Encrypt",
    country: 'US',
    validation: 'DV',
    key: 'ecdsa',
    aia: { issuer_urls: ['http://e6.i.lencr.org/'], ocsp_urls: ['http://e6.o.lencr.org'] },
    policy: { id: '2.23.140.1.2.1' },
    lifetimeDays: 90,
  },
  {
    common_name: 'Sectigo RSA Domain Validation Secure Server CA',
    organization: 'Sectigo Limited',
    country: 'GB',
    validation: 'DV',
    key: 'rsa',
    aia: {
      issuer_urls: ['http://crt.sectigo.com/SectigoRSADomainValidationSecureServerCA.crt'],
      ocsp_urls: ['http://ocsp.sectigo.com'],
    },
    crl: 'http://crl.sectigo.com/SectigoRSADomainValidationSecureServerCA.crl',
    policy: { id: '2.23.140.1.2.1', cps: ['https://sectigo.com/CPS'] },
    lifetimeDays: 365,
  },
  {
    common_name: 'DigiCert Global G2 TLS RSA SHA256 2020 CA1',
    organization: 'DigiCert Inc',
    country: 'US',
    organizational_unit: 'www.digicert.com',
    validation: 'OV',
    key: 'rsa',
    aia: {
      issuer_urls: ['http://cacerts.digicert.com/DigiCertGlobalG2TLSRSASHA2562020CA1-1.crt'],
      ocsp_urls: ['http://ocsp.digicert.com'],
    },
    crl: 'http://crl3.digicert.com/DigiCertGlobalG2TLSRSASHA2562020CA1-1.crl',
    policy: { id: '2.23.140.1.2.2', cps: ['http://www.digicert.com/CPS'] },
    lifetimeDays: 395,
  },
  {
    common_name: 'WE1',
    organization: 'Google Trust Services',
    country: 'US',
    validation: 'DV',
    key: 'ecdsa',
    aia: { issuer_urls: ['http://i.pki.goog/we1.crt'], ocsp_urls: ['http://o.pki.goog/we1'] },
    crl: 'http://c.pki.goog/we1/yK5nPhtHKQs.crl',
    policy: { id: '2.23.140.1.2.1' },
    lifetimeDays: 90,
  },
];

/** Every extended-key-usage flag zcrypto writes (all present, most false). */
const EKU_FLAGS = [
  'any',
  'apple_code_signing',
  'apple_code_signing_development',
  'apple_code_signing_third_party',
  'apple_crypto_development_env',
  'apple_crypto_env',
  'apple_crypto_maintenance_env',
  'apple_crypto_production_env',
  'apple_crypto_qos',
  'apple_crypto_test_env',
  'apple_crypto_tier0_qos',
  'apple_crypto_tier1_qos',
  'apple_crypto_tier2_qos',
  'apple_crypto_tier3_qos',
  'apple_ichat_encryption',
  'apple_ichat_signing',
  'apple_resource_signing',
  'apple_software_update_signing',
  'apple_system_identity',
  'client_auth',
  'code_signing',
  'dvcs',
  'eap_over_lan',
  'eap_over_ppp',
  'email_protection',
  'ipsec_end_system',
  'ipsec_intermediate_system_usage',
  'ipsec_tunnel',
  'ipsec_user',
  'microsoft_ca_exchange',
  'microsoft_cert_trust_list_signing',
  'microsoft_csp_signature',
  'microsoft_document_signing',
  'microsoft_drm',
  'microsoft_drm_individualization',
  'microsoft_efs_recovery',
  'microsoft_embedded_nt_crypto',
  'microsoft_encrypted_file_system',
  'microsoft_enrollment_agent',
  'microsoft_kernel_mode_code_signing',
  'microsoft_key_recovery_21',
  'microsoft_key_recovery_3',
  'microsoft_license_server',
  'microsoft_licenses',
  'microsoft_lifetime_signing',
  'microsoft_mobile_device_software',
  'microsoft_nt5_crypto',
  'microsoft_oem_whql_crypto',
  'microsoft_qualified_subordinate',
  'microsoft_root_list_signer',
  'microsoft_server_gated_crypto',
  'microsoft_sgc_serialized',
  'microsoft_smart_display',
  'microsoft_smartcard_logon',
  'microsoft_system_health',
  'microsoft_system_health_loophole',
  'microsoft_timestamp_signing',
  'microsoft_whql_crypto',
  'netscape_server_gated_crypto',
  'ocsp_signing',
  'sbgp_cert_aa_service_auth',
  'server_auth',
  'time_stamping',
];
const KEY_USAGE_FLAGS = [
  'certificate_sign',
  'content_commitment',
  'crl_sign',
  'data_encipherment',
  'decipher_only',
  'digital_signature',
  'encipher_only',
  'key_agreement',
  'key_encipherment',
];

const flags = (all: string[], on: string[]): Record<string, boolean> =>
  Object.fromEntries(all.map((f) => [f, on.includes(f)]));

/** `2026-12-08T10:25:12` (zcrypto writes validity without a zone letter). */
const plainTime = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19);

/** A decimal serial number (zcrypto writes big integers as decimal strings). */
function serial(rng: Rng): string {
  let s = String(rng.int(1, 9));
  for (let i = 0; i < 37; i++) s += String(rng.int(0, 9));
  return s;
}

/** `{domain, fld, subdomain?, tld}` of a DNS name (the last label is the TLD). */
function extendedName(name: string): Record<string, string> {
  const labels = name.split('.');
  if (labels.length < 2) return { domain: name, fld: name, tld: '' };
  const tld = labels[labels.length - 1];
  const domain = labels[labels.length - 2];
  const sub = labels.slice(0, -2).join('.');
  return sub
    ? { domain, fld: `${domain}.${tld}`, subdomain: sub, tld }
    : { domain, fld: `${domain}.${tld}`, tld };
}

const ECDSA_P256 = {
  b: '5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b',
  curve: 'P-256',
  gx: '6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296',
  gy: '4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5',
  length: 256,
  p: 'ffffffff00000001000000000000000000000000ffffffffffffffffffffffff',
};

export interface CertPlan {
  /** DNS names (the first is the subject's common name); may be empty. */
  names: string[];
  /** The host's address (in `extensions.subject_alt_name.ip_address` when there are no names). */
  ip: string;
  /** Issuing CA, or `undefined` for a self-signed certificate. */
  issuer?: CaSpec;
  notBefore: number;
  /** Applied to attacker-controlled text (names, subject). */
  h: (s: string) => string;
}

/** The certificate's subject: its name, and an organisation for OV and some self-signed ones. */
function certSubject(rng: Rng, plan: CertPlan, cn: string): Record<string, string[]> {
  const { issuer: ca, h } = plan;
  const selfSigned = ca === undefined;
  const subject: Record<string, string[]> = { common_name: [h(cn)] };
  if (ca?.validation === 'OV' || (selfSigned && rng.chance(0.3))) {
    subject.country = ['US'];
    subject.organization = [h(`${cn.split('.').slice(-2, -1)[0] ?? cn} Operations`)];
    subject.locality = ['Seattle'];
    subject.province = ['Washington'];
    if (selfSigned) {
      subject.organizational_unit = ['IT'];
      subject.email_address = [h(`admin@${cn}`)];
    }
  }
  return subject;
}

function subjectKeyInfo(rng: Rng, keyKind: 'rsa' | 'ecdsa'): Record<string, unknown> {
  return {
    _key: keyKind,
    dh: {},
    dsa: {},
    ecdsa: keyKind === 'ecdsa' ? { ...ECDSA_P256, x: rng.hex(64), y: rng.hex(64) } : {},
    fingerprint_sha256: rng.hex(64),
    key_algorithm: keyKind === 'ecdsa' ? 'ECDSA' : 'RSA',
    rsa: keyKind === 'rsa' ? { exponent: 65537, length: rng.pick([2048, 2048, 4096]) } : {},
  };
}

/** The X.509 extensions; undefined for the self-signed device certificates that carry none. */
function certExtensions(
  rng: Rng,
  plan: CertPlan,
  dnsNames: string[],
  keyKind: 'rsa' | 'ecdsa',
): Record<string, unknown> | undefined {
  const ca = plan.issuer;
  const selfSigned = ca === undefined;
  if (!(!selfSigned || rng.chance(0.8))) return undefined;
  const keyId = rng.hex(40);
  const extensions: Record<string, unknown> = {
    authority_key_id: selfSigned ? keyId : rng.hex(40),
    subject_key_id: keyId,
  };
  if (!selfSigned || rng.chance(0.5)) extensions.basic_constraints = { is_ca: selfSigned };
  if (ca) {
    extensions.authority_info_access = structuredClone(ca.aia);
    extensions.certificate_policies = [structuredClone(ca.policy)];
    if (ca.crl) extensions.crl_distribution_points = [ca.crl];
  }
  if (!selfSigned || rng.chance(0.5)) {
    extensions.extended_key_usage = flags(EKU_FLAGS, ca ? ['server_auth', 'client_auth'] : ['server_auth']);
    extensions.key_usage = flags(
      KEY_USAGE_FLAGS,
      keyKind === 'rsa' ? ['digital_signature', 'key_encipherment'] : ['digital_signature'],
    );
    const san: Record<string, string[]> = {};
    if (dnsNames.length) san.dns_names = dnsNames.slice();
    if (!dnsNames.length || rng.chance(0.3)) san.ip_address = [plan.ip];
    extensions.subject_alt_name = san;
  }
  return extensions;
}

/** What a CA-issued certificate adds: OCSP and CRL next updates, and two precertificate SCTs. */
function addCaIssuance(rng: Rng, certificate: Record<string, unknown>, ca: CaSpec, notBefore: number): void {
  const next = plainTime(notBefore + 7 * DAY + rng.int(0, DAY));
  (certificate.revocation as Record<string, unknown>).ocsp = {
    next_update: next,
    reason: 'UNKNOWN',
    revoked: false,
  };
  if (ca.crl)
    certificate.revocation = {
      crl: { next_update: next, reason: 'UNKNOWN', revoked: false },
      ...(certificate.revocation as object),
    };
  const sct = (): Record<string, unknown> => ({
    entry_type: 'PRE_CERTIFICATE',
    log_id: rng.hex(64),
    signature: {
      algorithm: 'ECDSA',
      hash_algorithm: 'SHA256',
      value: `3045022100${rng.hex(64)}0220${rng.hex(64)}`,
    },
    timestamp: new Date(notBefore + 3_600_000 + rng.int(0, 999)).toISOString().slice(0, 23) + '000',
    version: 'v1',
  });
  certificate.signed_certificate_timestamps = [sct(), sct()];
  certificate.signed_certificate_timestamps_oid = '1.3.6.1.4.1.11129.2.4.2';
  certificate.tbs_noct_fingerprint = rng.hex(64);
}

/** The `modules.tls` object of a service: certificate, fingerprint, precert flag and tags. */
export function tlsModule(rng: Rng, plan: CertPlan): Record<string, unknown> {
  const { issuer: ca, h } = plan;
  const selfSigned = ca === undefined;
  const cn = plan.names[0] ?? plan.ip;
  const lifetime = (ca?.lifetimeDays ?? rng.pick([365, 3650])) * DAY - 1000;
  const keyKind = ca?.key ?? 'rsa';
  const fingerprint = rng.hex(64).toUpperCase();
  const subject = certSubject(rng, plan, cn);
  const issuer: Record<string, string[]> = selfSigned
    ? structuredClone(subject)
    : {
        common_name: [ca.common_name],
        country: [ca.country],
        organization: [ca.organization],
        ...(ca.organizational_unit ? { organizational_unit: [ca.organizational_unit] } : {}),
      };
  const dnsNames = plan.names.map(h);
  const keyInfo = subjectKeyInfo(rng, keyKind);
  const certificate: Record<string, unknown> = {
    fingerprint_md5: rng.hex(32).toUpperCase(),
    fingerprint_sha1: rng.hex(40).toUpperCase(),
    fingerprint_sha256: fingerprint,
    issuer,
    jarm: rng.hex(62),
    redacted: false,
    revocation: { ocsp: { reason: 'UNKNOWN', revoked: false } },
    serial_number: serial(rng),
    signature: {
      algorithm:
        keyKind === 'ecdsa'
          ? { name: 'ECDSA-SHA256', oid: '1.2.840.10045.4.3.2' }
          : { name: 'SHA256-RSA', oid: '1.2.840.113549.1.1.11' },
      self_signed: selfSigned,
    },
    subject,
    subject_alt_name: { dns_names: dnsNames, extended_dns_names: plan.names.map(extendedName) },
    subject_key_info: keyInfo,
    tbs_fingerprint: rng.hex(64),
    validation_level: ca?.validation ?? 'DV',
    validity: {
      length_seconds: Math.round(lifetime / 1000),
      not_after: plainTime(plan.notBefore + lifetime),
      not_before: plainTime(plan.notBefore),
    },
  };
  const extensions = certExtensions(rng, plan, dnsNames, keyKind);
  if (extensions) {
    certificate.extensions = extensions;
    certificate.version = 2;
  }
  if (ca) addCaIssuance(rng, certificate, ca, plan.notBefore);
  const tags = [ca?.validation === 'OV' ? 'ov' : 'dv'];
  if (ca) tags.push('trusted');
  else tags.push('self_signed', ...(rng.chance(0.5) ? ['root'] : []));
  return { certificate, fingerprint_sha256: fingerprint, precert: false, tags };
}
