/**
 * The view models of the details pages: plain data the extension builds from API records
 * (`extension/details/*Model.ts`) and the page renders with DOM APIs. Every string in them
 * is API text: the page sets it as text, never as HTML.
 */
export { SEVERITY_RANK, type Severity } from '../api/types';
import type { Severity } from '../api/types';

export interface ServiceView {
  /** Position in the host record: the id the page uses to ask for this service's banner or URL. */
  index: number;
  port: number;
  protocol?: string;
  name?: string;
  product?: string;
  version?: string;
  extraInfo?: string;
  tunnel?: string;
  url?: string;
  title?: string;
  statusCode?: number;
  /** The HTTP `Server` header(s), joined. */
  server?: string;
  /** The TLS certificate the service presented, when ODIN recorded one. */
  certificate?: CertificateView;
  software: string[];
  cves: string[];
  lastUpdated?: string;
  /** Length of the banner in characters (0: none). The text itself is fetched on demand. */
  bannerLength: number;
}

/** A TLS certificate as the host page shows it (every string capped). */
export interface CertificateView {
  subject?: string;
  issuer?: string;
  /** DNS names and IP addresses of the subject alternative name. */
  names: string[];
  notBefore?: string;
  notAfter?: string;
  /** SHA-256 fingerprint (hex); the page pivots on it by service index, never sends it back. */
  fingerprint?: string;
  selfSigned?: boolean;
  validation?: string;
  key?: string;
}

export interface ExploitView {
  id: string;
  description?: string;
  platform?: string;
  type?: string;
  file?: string;
  /** Shown as text; opened only through an `openLink` message and a confirmation. */
  url?: string;
  cves: string[];
}

export interface CveView {
  id: string;
  severity: Severity;
  score?: number;
  summary?: string;
  vector?: string;
  weakness?: string;
  references: string[];
  services: string[];
  exploits: ExploitView[];
  /** Where it came from: the host record only (a stub) or the CVE endpoints (full). */
  source: 'host' | 'endpoint';
  /** CISA KEV: listed (date added, ransomware use), when the feed lists it. */
  kev?: { added: string; ransomware: boolean };
  /** FIRST EPSS: probability of exploitation in 30 days and percentile (0–1). */
  epss?: { epss: number; percentile: number };
}

export interface HostView {
  ip: string;
  isVuln?: boolean;
  organization?: string;
  asn?: string;
  asnCountry?: string;
  location?: string;
  network?: string;
  tags: string[];
  /** Module names seen on the host (`http`, `tls`: the live service's host-level `banner`). */
  modules: string[];
  /**
   * Lengths of host-level banner texts (the spec's host-level `banner` list holds banner
   * text, not module names). Fetched on demand by index, like service banners.
   */
  hostBanners: number[];
  dates: Array<{ label: string; value: string }>;
  services: ServiceView[];
  hostnames: Array<{ name: string; lastUpdated?: string }>;
  domains: Array<{
    name?: string;
    webServer?: string;
    country?: string;
    dnsServers: string[];
    emails: string[];
    lastUpdated?: string;
  }>;
  whois?: { organization?: string; network?: string; descr?: string; raw?: string };
  /** CVEs listed in the host record (services[].cve), before any endpoint page arrives. */
  cves: CveView[];
  /** What a very big answer had that was not kept (bounded work per answer), in words. */
  notKept?: string;
}

export interface WhoisChange {
  field: string;
  kind: 'added' | 'removed' | 'changed';
  before?: string;
  after?: string;
}

export interface WhoisSnapshotView {
  /** Index into the extension's list of snapshots (oldest first). */
  index: number;
  date?: string;
  registrar?: string;
  expires?: string;
  /** Changes from the previous (older) snapshot; empty for the oldest one. */
  changes: WhoisChange[];
}

export interface WhoisContactView {
  role: 'registrant' | 'administrative' | 'technical' | 'billing';
  fields: Array<{ label: string; value: string }>;
}

export interface WhoisView {
  domain: string;
  registrar?: { name?: string; id?: string; url?: string; whois?: string };
  created?: string;
  updated?: string;
  expires?: string;
  /** Days until expiry (negative: expired), when the expiry date is known. */
  daysToExpiry?: number;
  expiryWarningDays: number;
  status: string[];
  nameServers: string[];
  contacts: WhoisContactView[];
  raw?: string;
  history: WhoisSnapshotView[];
  historyError?: string;
}
