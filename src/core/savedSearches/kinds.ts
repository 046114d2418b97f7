/** The kinds of search the extension runs, their parameters, and the spec and saved-search model. */

/** Every kind of search the extension can run (one per command that takes inputs). */
export type SearchKind =
  | 'hosts'
  | 'hostSummary'
  | 'host'
  | 'hostCves'
  | 'hostExploits'
  | 'hostCve'
  | 'domains'
  | 'domainCount'
  | 'subdomainCount'
  | 'whois'
  | 'whoisHistory'
  | 'buckets'
  | 'fileCount'
  | 'fileSummary';

export type SearchGroup = 'hosts' | 'domains' | 'storage';

type Param = 'query' | 'field' | 'ip' | 'cve' | 'domain';

export interface KindInfo {
  /** Short label ("Host search"). */
  label: string;
  group: SearchGroup;
  /** Parameters that must be present (non-empty) for the search to run. */
  required: Param[];
  /** Parameters the kind uses at all (others are dropped on normalisation). */
  uses: Array<keyof SearchSpec>;
}

const DOMAIN_FILTER: Array<keyof SearchSpec> = ['domain', 'keyword', 'publishedAfter', 'publishedBefore'];

export const KINDS: Record<SearchKind, KindInfo> = {
  hosts: { label: 'Host search', group: 'hosts', required: [], uses: ['query'] },
  hostSummary: {
    label: 'Host summary',
    group: 'hosts',
    required: ['field'],
    uses: ['query', 'field', 'limit'],
  },
  host: { label: 'Host', group: 'hosts', required: ['ip'], uses: ['ip'] },
  hostCves: { label: 'Host CVEs', group: 'hosts', required: ['ip'], uses: ['ip'] },
  hostExploits: { label: 'Host exploits', group: 'hosts', required: ['ip'], uses: ['ip'] },
  hostCve: { label: 'CVE on host', group: 'hosts', required: ['ip', 'cve'], uses: ['ip', 'cve'] },
  domains: { label: 'Domain search', group: 'domains', required: [], uses: DOMAIN_FILTER },
  domainCount: { label: 'Domain count', group: 'domains', required: [], uses: DOMAIN_FILTER },
  subdomainCount: { label: 'Subdomain count', group: 'domains', required: [], uses: DOMAIN_FILTER },
  whois: { label: 'Whois', group: 'domains', required: ['domain'], uses: ['domain'] },
  whoisHistory: { label: 'Whois history', group: 'domains', required: ['domain'], uses: ['domain'] },
  buckets: { label: 'Bucket search', group: 'storage', required: [], uses: ['query', 'sortBy', 'sortDir'] },
  fileCount: { label: 'File count', group: 'storage', required: [], uses: ['query'] },
  fileSummary: {
    label: 'File summary',
    group: 'storage',
    required: ['field'],
    uses: ['query', 'field', 'limit'],
  },
};

export const GROUP_LABELS: Record<SearchGroup, string> = {
  hosts: 'Hosts',
  domains: 'Domains and whois',
  storage: 'Exposed storage',
};

export const BUCKET_SORT_FIELDS = ['ins_at', 'files', 'scan_at', 'last_found_at'] as const;

/** What to run: the kind and its parameters (flat; `KINDS[kind].uses` says which apply). */
export interface SearchSpec {
  kind: SearchKind;
  query?: string;
  field?: string;
  limit?: number;
  domain?: string;
  keyword?: string;
  /** YYYY-MM-DD */
  publishedAfter?: string;
  publishedBefore?: string;
  sortBy?: string;
  sortDir?: 'asc' | 'desc';
  ip?: string;
  cve?: string;
}

export interface SavedSearch {
  id: string;
  name: string;
  spec: SearchSpec;
}
