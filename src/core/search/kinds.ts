/**
 * The kinds of search the extension runs and what each one is to a person: its label, group,
 * parameters, palette title, prompts, icon, how it reads in one line, and which kinds its
 * results summarise into or narrow to. What each kind asks the API and what it answers is in
 * `catalogue.ts`, beside these. Pure: no VS Code.
 */
import type { QueryTarget } from '../query/examples';

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

/**
 * The questions the palette asks for a kind (src/extension/search/searchRunner.ts `prompt`):
 * a query; a query and a sort; a field and a query; an IP; an IP and a CVE; a domain; a
 * domain filter (domain, keyword, dates).
 */
export type PromptForm = 'query' | 'querySort' | 'fieldQuery' | 'ip' | 'ipCve' | 'domain' | 'domainFilter';

export interface KindInfo {
  /** Short label ("Host search"). */
  label: string;
  group: SearchGroup;
  /** Parameters that must be present (non-empty) for the search to run. */
  required: Param[];
  /** Parameters the kind uses at all (others are dropped on normalisation). */
  uses: Array<keyof SearchSpec>;
  /** The palette's title for its prompts ("ODIN: Search Hosts"). */
  title: string;
  /** What its prompts ask. */
  prompt: PromptForm;
  /** The query language its query is written in (completion, recent queries), if it has one. */
  target?: QueryTarget;
  /** Its result set's icon in the Results view (a codicon id). */
  icon: string;
  /** The summary its results can be summarised by again (Summarize Results By…). */
  summary?: SearchKind;
  /** A summary's kind: the search a facet value narrows to (Narrow by facet). */
  narrowsTo?: SearchKind;
  /** The API answers it in pages ("Load more", "Load all"). */
  paged?: true;
  /**
   * It opens a details page (host or whois) when that page exists, rather than a result set
   * (so Re-run All skips it).
   */
  page?: 'host' | 'whois';
  /** Its domain is the registrable domain of what was named (whois is kept per domain). */
  registrable?: true;
  /** One line of what it searches for ("services.port:443", "example.com, after 2024-01-01"). */
  describe(spec: SearchSpec): string;
}

const DOMAIN_FILTER: Array<keyof SearchSpec> = ['domain', 'keyword', 'publishedAfter', 'publishedBefore'];

const queryText = (spec: SearchSpec): string => (spec.query?.trim() ? spec.query : '*');
const overQuery = (spec: SearchSpec): string => `${spec.field ?? ''} over ${queryText(spec)}`;
const ipText = (spec: SearchSpec): string => spec.ip ?? '';
const domainText = (spec: SearchSpec): string => spec.domain ?? '';
function filterText(spec: SearchSpec): string {
  const parts: string[] = [];
  if (spec.domain) parts.push(spec.domain);
  if (spec.keyword) parts.push(`keyword ${spec.keyword}`);
  if (spec.publishedAfter) parts.push(`after ${spec.publishedAfter}`);
  if (spec.publishedBefore) parts.push(`before ${spec.publishedBefore}`);
  return parts.length ? parts.join(', ') : 'all';
}

export const KINDS: Record<SearchKind, KindInfo> = {
  hosts: {
    label: 'Host search',
    group: 'hosts',
    required: [],
    uses: ['query'],
    title: 'ODIN: Search Hosts',
    prompt: 'query',
    target: 'hosts',
    icon: 'server-environment',
    summary: 'hostSummary',
    paged: true,
    describe: queryText,
  },
  hostSummary: {
    label: 'Host summary',
    group: 'hosts',
    required: ['field'],
    uses: ['query', 'field', 'limit'],
    title: 'ODIN: Summarize Hosts',
    prompt: 'fieldQuery',
    target: 'hosts',
    icon: 'graph',
    summary: 'hostSummary',
    narrowsTo: 'hosts',
    describe: overQuery,
  },
  host: {
    label: 'Host',
    group: 'hosts',
    required: ['ip'],
    uses: ['ip'],
    title: 'ODIN: Look Up Host',
    prompt: 'ip',
    icon: 'server',
    page: 'host',
    describe: ipText,
  },
  hostCves: {
    label: 'Host CVEs',
    group: 'hosts',
    required: ['ip'],
    uses: ['ip'],
    title: 'ODIN: CVEs of a Host',
    prompt: 'ip',
    icon: 'bug',
    paged: true,
    describe: ipText,
  },
  hostExploits: {
    label: 'Host exploits',
    group: 'hosts',
    required: ['ip'],
    uses: ['ip'],
    title: 'ODIN: Exploits of a Host',
    prompt: 'ip',
    icon: 'flame',
    describe: ipText,
  },
  hostCve: {
    label: 'CVE on host',
    group: 'hosts',
    required: ['ip', 'cve'],
    uses: ['ip', 'cve'],
    title: 'ODIN: CVE on a Host',
    prompt: 'ipCve',
    icon: 'bug',
    describe: (spec) => `${spec.cve ?? ''} on ${spec.ip ?? ''}`,
  },
  domains: {
    label: 'Domain search',
    group: 'domains',
    required: [],
    uses: DOMAIN_FILTER,
    title: 'ODIN: Search Domains',
    prompt: 'domainFilter',
    icon: 'globe',
    paged: true,
    describe: filterText,
  },
  domainCount: {
    label: 'Domain count',
    group: 'domains',
    required: [],
    uses: DOMAIN_FILTER,
    title: 'ODIN: Count Domains',
    prompt: 'domainFilter',
    icon: 'symbol-number',
    describe: filterText,
  },
  subdomainCount: {
    label: 'Subdomain count',
    group: 'domains',
    required: [],
    uses: DOMAIN_FILTER,
    title: 'ODIN: Count Subdomains',
    prompt: 'domainFilter',
    icon: 'symbol-number',
    describe: filterText,
  },
  whois: {
    label: 'Whois',
    group: 'domains',
    required: ['domain'],
    uses: ['domain'],
    title: 'ODIN: Whois',
    prompt: 'domain',
    icon: 'book',
    page: 'whois',
    registrable: true,
    describe: domainText,
  },
  whoisHistory: {
    label: 'Whois history',
    group: 'domains',
    required: ['domain'],
    uses: ['domain'],
    title: 'ODIN: Whois History',
    prompt: 'domain',
    icon: 'history',
    registrable: true,
    describe: domainText,
  },
  buckets: {
    label: 'Bucket search',
    group: 'storage',
    required: [],
    uses: ['query', 'sortBy', 'sortDir'],
    title: 'ODIN: Search Exposed Buckets',
    prompt: 'querySort',
    target: 'buckets',
    icon: 'database',
    paged: true,
    describe: (spec) =>
      `${queryText(spec)}${spec.sortBy ? ` (by ${spec.sortBy} ${spec.sortDir ?? 'desc'})` : ''}`,
  },
  fileCount: {
    label: 'File count',
    group: 'storage',
    required: [],
    uses: ['query'],
    title: 'ODIN: Count Exposed Files',
    prompt: 'query',
    target: 'files',
    icon: 'symbol-number',
    summary: 'fileSummary',
    describe: queryText,
  },
  fileSummary: {
    label: 'File summary',
    group: 'storage',
    required: ['field'],
    uses: ['query', 'field', 'limit'],
    title: 'ODIN: Summarize Exposed Files',
    prompt: 'fieldQuery',
    target: 'files',
    icon: 'graph',
    summary: 'fileSummary',
    narrowsTo: 'fileCount',
    describe: overQuery,
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

/** A one-line summary of what a spec searches for ("services.port:443", "example.com after 2024-01-01"). */
export function describeSpec(spec: SearchSpec): string {
  return KINDS[spec.kind].describe(spec);
}

/** A summary: its results are facet values (a facet count, narrowing by a value). */
export function isSummary(kind: SearchKind): boolean {
  return KINDS[kind].narrowsTo !== undefined;
}
