/**
 * The emulator's canonical records (the spec's wire shape with the live service's content;
 * `dialect.ts` turns them into either dialect) and the dataset that holds them.
 */
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
