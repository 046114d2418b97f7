// The data of one triage: the unique indicators of one or more texts, what may be sent, what
// the cache already knows, and the verdict per indicator. Pure: no `vscode` import.
import type { HostFacts } from './rowView';
import type { DetectionKind } from '../detect';

/** Where an indicator first occurs: a document (by URI string) and an offset in its text. */
export interface Location {
  uri: string;
  offset: number;
  length: number;
  /** Line of `offset` (0-based), counted by the scan. */
  line?: number;
}

/** Why a row was not enriched (or not sent at all). */
export type RowStatus =
  /** Enriched now or from the cache. */
  | 'enriched'
  /** ODIN does not know it (a definite answer, cached like any other). */
  | 'unknown'
  /** Never sent: private, internal, denied, or a kind that has no lookup (CIDR). */
  | 'local'
  /** May be sent, not sent yet (preview, lookups off, cancelled before its turn). */
  | 'pending'
  /** Sent and failed; `reason` says why. */
  | 'failed';

export interface HostVerdict extends HostFacts {
  kind: 'host';
  vulnerable: boolean;
  cves: number;
  /** Highest CVSS score of its CVEs, when the answer carried scores (host lookups do, search hits not). */
  maxScore?: number;
  /** Highest severity, lower case (`critical`), when any CVE has one. */
  maxSeverity?: string;
  /** The CVE ids, highest score first (capped). */
  cveIds: string[];
  /** Not vulnerable as far as read, but the answer's CVE data could not be read: why (never "no known CVEs"). */
  cvesUnknown?: string;
  /** CVEs listed in CISA KEV (when the feed was read). */
  kev?: number;
  /** One of them is used by ransomware campaigns. */
  ransomware?: boolean;
  /** The highest EPSS probability of its CVEs (0–1). */
  epss?: number;
  /** The worst exploitation signal in words: "Known exploited (KEV, added …)" or "EPSS …". */
  exploited?: string;
  /** What the feeds say of the CVEs in `cveIds` that they list (reports carry it per CVE). */
  signals?: CveSignal[];
  /** The feeds' dates or why they could not be used: "KEV from 2026-11-19 · EPSS from 2026-11-19". */
  feeds?: string;
}

export interface CveSignal {
  id: string;
  /** KEV `dateAdded`, when listed. */
  kevAdded?: string;
  ransomware?: boolean;
  epss?: number;
  percentile?: number;
}

export interface DomainVerdict {
  kind: 'domain';
  registrar?: string;
  created?: string;
  expires?: string;
  /** Whole days since `created`, at the time of the verdict. */
  ageDays?: number;
  subdomains?: number;
}

export type Verdict = HostVerdict | DomainVerdict;

export interface TriageRow {
  value: string;
  kind: DetectionKind;
  count: number;
  first: Location;
  defanged: boolean;
  /** Not globally reachable, internal name, or denied by a list: never sent. */
  private: boolean;
  /** Why it stays local (privacy reason), when it does. */
  localReason?: string;
  status: RowStatus;
  /** Sent by this run (not served from the cache). */
  sent: boolean;
  fromCache: boolean;
  verdict?: Verdict;
  /** For `failed` (and `pending` after a stop): why. */
  reason?: string;
}

export interface Triage {
  rows: TriageRow[];
  /** Occurrences in all files. */
  occurrences: number;
  /** More unique values than the cap: the rest were counted, not listed. */
  truncated: boolean;
  files: string[];
}

/** Can this row be looked up at all (has an endpoint), privacy aside? */
export function lookupKind(row: Pick<TriageRow, 'kind'>): 'host' | 'domain' | undefined {
  if (row.kind === 'ipv4' || row.kind === 'ipv6') return 'host';
  if (row.kind === 'domain') return 'domain';
  return undefined;
}
