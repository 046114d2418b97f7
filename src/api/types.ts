/**
 * The client-facing model of the ODIN API (see the API interface document and
 * docs/odin-facts.md). These are the *normalised* shapes callers see: the spec's
 * quirks (` data`, ` meta`, ` error`, `Data`, `data: {}` on host search), `null` versus
 * absent lists and the CVE map of the live service are folded away in `normalize/`.
 *
 * Every field that scan data fills is optional: the service omits, nulls or mistypes
 * fields, and normalisation drops what does not have the declared type rather than
 * passing it on.
 */

// ---------------------------------------------------------------- hosts

export interface Asn {
  country_code?: string;
  number?: string;
  organization?: string;
}

export interface HostLocation {
  city?: string;
  continent?: string;
  country_code?: string;
  country_name?: string;
  geo_point?: string;
  locale_code?: string;
  network?: string;
  postal_code?: string;
  /** Numbers; the live service sends them as strings (`"40.7123"`), read as numbers here. */
  coordinates?: { latitude?: number; longitude?: number };
}

export interface HostDomain {
  country?: string;
  dns_servers: string[];
  emails: string[];
  last_updated_at?: string;
  name?: string;
  web_server?: string;
}

export interface HostName {
  last_updated_at?: string;
  name: string;
}

/**
 * A tag that holds for the host. The live service sends every tag it knows with a boolean
 * `value` (`is_anonymous_proxy` with `value: false` on almost every host); a tag is a fact
 * only when its value is true, so normalisation keeps those (and plain-string tags) only.
 */
export interface HostTag {
  last_updated_at?: string;
  name: string;
  pretty_name?: string;
  value?: boolean;
}

export interface HostWhois {
  descr?: string;
  network?: string;
  organization?: string;
  raw?: string;
}

export interface Exploit {
  id: string;
  description?: string;
  file?: string;
  platform?: string;
  type?: string;
  url?: string;
  /** The CVE ids this exploit was listed under (set by `getHostExploits`). */
  cves?: string[];
}

export type Severity = 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW' | 'NONE' | 'UNKNOWN';

/** Orders severities: higher is worse, `UNKNOWN` lowest. */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = {
  CRITICAL: 5,
  HIGH: 4,
  MEDIUM: 3,
  LOW: 2,
  NONE: 1,
  UNKNOWN: 0,
};

/** A CVE, either the `{id, severity}` stub of a search hit or the full record. */
export interface Cve {
  id: string;
  summary?: string;
  /** Upper-cased; `UNKNOWN` when absent or unrecognised. */
  severity: Severity;
  score?: number;
  vector_string?: string;
  weakness?: string;
  references: string[];
  services: string[];
  exploit: Exploit[];
}

export interface Software {
  uri?: string;
  vendor?: string;
  product?: string;
  version?: string;
  edition?: string;
  language?: string;
  part?: string;
  update?: string;
}

export interface ServiceMeta {
  category?: string;
  desc?: string;
  name?: string;
  tags: string[];
}

/** Protocol modules of a service (`modules.http.title`, `modules.ssh`, ...): kept as data. */
export type ServiceModules = Record<string, Record<string, unknown>>;

/** What `modules.http` says (header values are arrays on the wire; joined with `, ` here). */
export interface HttpInfo {
  status?: number;
  title?: string;
  /** The `Server` header(s), joined. */
  server?: string;
  protocol?: string;
  /** Every header by its wire name (`content_type`), values joined; `unknown` ones by their own key. */
  headers: Record<string, string>;
  /** Technologies the scanner recognised (`component`). */
  components: string[];
  /** Earlier answers that redirected here (`redirects[]`). */
  redirects: Array<{ status?: number; location?: string }>;
}

/** One side of a certificate (zcrypto: every attribute is an array; joined with `, ` here). */
export interface CertName {
  commonName?: string;
  organization?: string;
  organizationalUnit?: string;
  country?: string;
  locality?: string;
  province?: string;
  email?: string;
}

/** What `modules.tls` says about the certificate (zcrypto x509 JSON). */
export interface TlsCertificate {
  subject: CertName;
  issuer: CertName;
  /**
   * DNS names (`subject_alt_name.dns_names` and the extension's) and IP addresses of the SAN,
   * each checked (an address parses, a name is a DNS name) and listed once.
   */
  names: string[];
  ips: string[];
  /** ISO 8601 in UTC (the wire writes them without a zone letter). */
  notBefore?: string;
  notAfter?: string;
  /** Upper-case hex, as sent. */
  fingerprintSha256?: string;
  selfSigned?: boolean;
  serialNumber?: string;
  /** `DV`, `OV`, `EV`. */
  validationLevel?: string;
  signatureAlgorithm?: string;
  keyAlgorithm?: string;
  keyBits?: number;
  /** The curve of an EC key as zcrypto names it (`p256`). */
  keyCurve?: string;
  jarm?: string;
  /** Scanner tags of the TLS module (`dv`, `trusted`, `self_signed`, `root`). */
  tags: string[];
}

/** What `modules.ssh` says. */
export interface SshInfo {
  banner?: string;
  software?: string;
  version?: string;
  keyAlgorithm?: string;
  keyFingerprint?: string;
  kexAlgorithms: string[];
  hostKeyAlgorithms: string[];
  ciphers: string[];
  macs: string[];
}

export interface Service {
  port: number;
  protocol?: string;
  name?: string;
  product?: string;
  version?: string;
  extra_info?: string;
  tunnel?: string;
  url?: string;
  last_updated_at?: string;
  _meta?: ServiceMeta;
  cve: Cve[];
  /** Entries of `cve` that were there but could not be read (normalize/cves.ts): CVEs hidden by their shape. */
  cve_unreadable?: number;
  softwares: Software[];
  modules: ServiceModules;
  /**
   * Banner text of the service: `modules.<proto>.banner` (ssh, ftp, smtp, …). HTTP has
   * none on the live service; `http` holds what it says instead.
   */
  banner?: string;
  /** `modules.http`, read (status, title, server, headers). */
  http?: HttpInfo;
  /** `modules.tls.certificate`, read (subject, issuer, names, validity, fingerprint). */
  tls?: TlsCertificate;
  /** `modules.ssh`, read (key, algorithms). */
  ssh?: SshInfo;
}

export interface Host {
  ip: string;
  is_ipv4?: boolean;
  is_ipv6?: boolean;
  is_vuln?: boolean;
  scan_id?: number;
  last_updated_at?: string;
  /**
   * Live: module names seen on the host (`["http","tls"]`); the spec dialect carries the
   * banner texts here. Per-service banner text is `services[].banner` (live).
   */
  banner: string[];
  services_hash?: string;
  asn?: Asn;
  asn_updated_at?: string;
  domains: HostDomain[];
  hostnames: HostName[];
  location?: HostLocation;
  location_updated_at?: string;
  services: Service[];
  tags: HostTag[];
  whois?: HostWhois;
  whois_updated_at?: string;
  /** Services the answer listed beyond the most a host keeps (MAX_LIST_ITEMS): not kept, counted. */
  services_omitted?: number;
  /** Other lists or protocol details were cut to bound the work per answer. */
  details_cut?: boolean;
  /** CVE entries were left unread (MAX_LIST_ITEMS a service, MAX_HOST_CVES a host): the count is a floor. */
  cves_cut?: boolean;
  /**
   * Why this answer cannot say "no known CVEs" although no CVE was read from it: CVE data
   * in an unexpected shape, a CVE id elsewhere in the record, or no vulnerability data at
   * all (neither `services` nor `is_vuln`). Set by `normalizeHost`; read through
   * `core/hosts/vulnerability.ts`.
   */
  cve_unreadable?: string;
}

// ---------------------------------------------------------------- aggregations, counts, fields

export interface AggregationBucket {
  key: string | number | boolean | null;
  doc_count: number;
}

export interface Aggregation {
  buckets: AggregationBucket[];
  doc_count_error_upper_bound: number;
  sum_other_doc_count: number;
}

export interface FieldDescriptor {
  name: string;
  category?: string;
  display_category?: string;
  is_locked: boolean;
}

// ---------------------------------------------------------------- domains and whois

export interface DomainRecord {
  domain: string;
  subdomain?: string;
  added_at?: string;
  ext_dns_name?: { domain?: string; fld?: string; subdomain?: string; tld?: string };
}

export interface WhoisContact {
  address?: string;
  city?: string;
  company?: string;
  country?: string;
  country_code?: string;
  email?: string;
  email_domain?: string;
  fax?: string;
  name?: string;
  phone?: string;
  state?: string;
  zip?: string;
}

export interface WhoisRecord {
  domain_name: string;
  tld?: string;
  created_date?: string;
  updated_date?: string;
  expires_date?: string;
  domain_status: string[];
  name_servers: string[];
  raw_data?: string;
  registrar?: { id?: string; name?: string; url?: string; whois?: string };
  audited_fields?: { created_at?: string; expires_date?: string; is_modified?: boolean; updated_at?: string };
  administrative_contact?: WhoisContact;
  billing_contact?: WhoisContact;
  registrant_contact?: WhoisContact;
  technical_contact?: WhoisContact;
}

export interface WhoisHistory {
  records: WhoisRecord[];
  limit?: number;
  pageState?: string;
}

// ---------------------------------------------------------------- exposed storage

export const BUCKET_CATEGORIES = [
  'img',
  'aud',
  'vid',
  'font',
  'doc',
  'src',
  'web',
  'bkup',
  'dbdump',
] as const;
export const BUCKET_LABELS = [
  'credential',
  'financial',
  'pii',
  'legal',
  'ip',
  'medical',
  'hr',
  'report',
  'confidential',
  'backup',
  'compromised',
  'vulnerable',
] as const;
export const BUCKET_PROVIDERS = ['aws', 'gcp', 'do', 'linode'] as const;

export type BucketCategory = (typeof BUCKET_CATEGORIES)[number];
export type BucketLabel = (typeof BUCKET_LABELS)[number];
export type BucketProvider = (typeof BUCKET_PROVIDERS)[number];

/** An exposed bucket. The spec does not show its fields; these are the live ones (ODIN-FACTS). */
export interface Bucket {
  name: string;
  provider?: string;
  region?: string;
  owner_id?: string;
  open?: boolean;
  deleted?: boolean;
  labels: string[];
  categories: string[];
  files?: number;
  new_files?: number;
  sensitive_files?: number;
  file_cat_count: Record<string, number>;
  age_in_days?: number;
  ins_at?: string;
  scan_at?: string;
  prev_scan_at?: string;
  last_found_at?: string;
  last_open_at?: string;
}

// ---------------------------------------------------------------- paging

/**
 * One page of a search. `next` is the cursor to send as `start` for the following page,
 * or `undefined` when this was the last page (empty page, null cursor, or total reached).
 */
export interface Page<T, C = unknown> {
  items: T[];
  total?: number;
  limit?: number;
  next?: C;
}

/** Host search cursor: integers per the spec, `[epoch_ms, score]` on the live service. */
export type HostCursor = number[];
/**
 * Bucket and domain search cursors are opaque: sent back exactly as received (the live
 * service sends plain values, `[1736905927440, 12]`; the spec one object).
 */
export type OpaqueCursor = unknown[];

// ---------------------------------------------------------------- requests

export interface HostSearchParams {
  query: string;
  limit?: number;
  start?: HostCursor;
}

export interface SummaryParams {
  field: string;
  query: string;
  limit?: number;
}

export interface DomainFilter {
  domain?: string;
  keyword?: string;
  /** ISO date (YYYY-MM-DD) or date-time. */
  publishedAfter?: string;
  publishedBefore?: string;
}

export interface DomainSearchParams extends DomainFilter {
  limit?: number;
  start?: OpaqueCursor;
}

export type BucketSortBy = 'ins_at' | 'files' | 'scan_at' | 'last_found_at' | string;

export interface BucketSearchParams {
  query: string;
  limit?: number;
  start?: OpaqueCursor;
  sort_by?: BucketSortBy;
  sort_dir?: 'asc' | 'desc';
}

/** Remaining credits (`/v1/credits/usage`, not in the 17-endpoint spec). */
export interface CreditsUsage {
  hostCert?: { left?: number; plan?: number };
  bucketFile?: { left?: number; plan?: number };
  /** ISO 8601; the service sends an integer (epoch seconds, or milliseconds) or a date string. */
  expiresOn?: string;
}

/** Options every API call takes. */
export interface CallOptions {
  signal?: AbortSignal;
}
