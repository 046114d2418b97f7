/**
 * A triage row as the triage page shows it: the plain data core/triage/view.ts makes of a
 * row, which the page's protocol (common/triage/protocol.ts) carries. Types only: the core
 * states it, the page protocol and the page read it.
 */

/** The verdict class a row is filtered and sorted by. */
export type TriageVerdictClass = 'vulnerable' | 'known' | 'unknown' | 'local' | 'pending' | 'failed';
export type TriageKind = 'ipv4' | 'ipv6' | 'domain' | 'cidr';

/** What ODIN says of a host besides its CVEs: the same facts in a verdict and in a row. */
export interface HostFacts {
  exploits: number;
  /** Tags whose value is true (a tag with `value: false` is not a fact). */
  tags: string[];
  ports: number[];
  org?: string;
  asn?: string;
  country?: string;
  /** Products (scan data) of the services that carry CVEs, each once. */
  products?: string[];
}

export interface TriageRowView extends HostFacts {
  /** Position in the extension's rows of this generation: the id the page sends back. */
  index: number;
  value: string;
  kind: TriageKind;
  verdict: TriageVerdictClass;
  /** Why it stayed local, failed or is pending. */
  reason?: string;
  cves: number;
  maxScore?: number;
  severity?: string;
  /** CVEs in CISA KEV; one used by ransomware; the highest EPSS (0–1); the worst signal in words. */
  kev?: number;
  ransomware?: boolean;
  epss?: number;
  exploited?: string;
  registrar?: string;
  ageDays?: number;
  expires?: string;
  subdomains?: number;
  /** Occurrences in all files. */
  count: number;
  /** Where it first occurs, as "logs/auth.log:12". */
  first: string;
  /** Has a details page (IPs: host page; domains: whois page). */
  details: boolean;
}
