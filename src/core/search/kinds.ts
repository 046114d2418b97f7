/**
 * The kinds of search the extension runs and what each one is to a person: its label, group,
 * parameters, palette title, prompts, icon, how it reads in one line, and which kinds its
 * results summarise into or narrow to. What each kind asks the API and what it answers is in
 * `catalogue.ts`, beside these. Pure: no VS Code.
 */
import type { QueryTarget } from '../query/examples';
import { l10n } from '../text/l10n';

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
  /** Short label ("Host search"); a getter in KINDS, so it reads the translator of the moment. */
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
const overQuery = (spec: SearchSpec): string => l10n.t('{0} over {1}', spec.field ?? '', queryText(spec));
const ipText = (spec: SearchSpec): string => spec.ip ?? '';
const domainText = (spec: SearchSpec): string => spec.domain ?? '';
function filterText(spec: SearchSpec): string {
  const parts: string[] = [];
  if (spec.domain) parts.push(spec.domain);
  if (spec.keyword) parts.push(l10n.t('keyword {0}', spec.keyword));
  if (spec.publishedAfter) parts.push(l10n.t('after {0}', spec.publishedAfter));
  if (spec.publishedBefore) parts.push(l10n.t('before {0}', spec.publishedBefore));
  return parts.length ? parts.join(', ') : l10n.t('all');
}

export const KINDS: Record<SearchKind, KindInfo> = {
  hosts: {
    get label() {
      return l10n.t('Host search');
    },
    group: 'hosts',
    required: [],
    uses: ['query'],
    get title() {
      return l10n.t('ODIN: Search Hosts');
    },
    prompt: 'query',
    target: 'hosts',
    icon: 'server-environment',
    summary: 'hostSummary',
    paged: true,
    describe: queryText,
  },
  hostSummary: {
    get label() {
      return l10n.t('Host summary');
    },
    group: 'hosts',
    required: ['field'],
    uses: ['query', 'field', 'limit'],
    get title() {
      return l10n.t('ODIN: Summarize Hosts');
    },
    prompt: 'fieldQuery',
    target: 'hosts',
    icon: 'graph',
    summary: 'hostSummary',
    narrowsTo: 'hosts',
    describe: overQuery,
  },
  host: {
    get label() {
      return l10n.t('Host');
    },
    group: 'hosts',
    required: ['ip'],
    uses: ['ip'],
    get title() {
      return l10n.t('ODIN: Look Up Host');
    },
    prompt: 'ip',
    icon: 'server',
    page: 'host',
    describe: ipText,
  },
  hostCves: {
    get label() {
      return l10n.t('Host CVEs');
    },
    group: 'hosts',
    required: ['ip'],
    uses: ['ip'],
    get title() {
      return l10n.t('ODIN: CVEs of a Host');
    },
    prompt: 'ip',
    icon: 'bug',
    paged: true,
    describe: ipText,
  },
  hostExploits: {
    get label() {
      return l10n.t('Host exploits');
    },
    group: 'hosts',
    required: ['ip'],
    uses: ['ip'],
    get title() {
      return l10n.t('ODIN: Exploits of a Host');
    },
    prompt: 'ip',
    icon: 'flame',
    describe: ipText,
  },
  hostCve: {
    get label() {
      return l10n.t('CVE on host');
    },
    group: 'hosts',
    required: ['ip', 'cve'],
    uses: ['ip', 'cve'],
    get title() {
      return l10n.t('ODIN: CVE on a Host');
    },
    prompt: 'ipCve',
    icon: 'bug',
    describe: (spec) => l10n.t('{0} on {1}', spec.cve ?? '', spec.ip ?? ''),
  },
  domains: {
    get label() {
      return l10n.t('Domain search');
    },
    group: 'domains',
    required: [],
    uses: DOMAIN_FILTER,
    get title() {
      return l10n.t('ODIN: Search Domains');
    },
    prompt: 'domainFilter',
    icon: 'globe',
    paged: true,
    describe: filterText,
  },
  domainCount: {
    get label() {
      return l10n.t('Domain count');
    },
    group: 'domains',
    required: [],
    uses: DOMAIN_FILTER,
    get title() {
      return l10n.t('ODIN: Count Domains');
    },
    prompt: 'domainFilter',
    icon: 'symbol-number',
    describe: filterText,
  },
  subdomainCount: {
    get label() {
      return l10n.t('Subdomain count');
    },
    group: 'domains',
    required: [],
    uses: DOMAIN_FILTER,
    get title() {
      return l10n.t('ODIN: Count Subdomains');
    },
    prompt: 'domainFilter',
    icon: 'symbol-number',
    describe: filterText,
  },
  whois: {
    get label() {
      return l10n.t('Whois');
    },
    group: 'domains',
    required: ['domain'],
    uses: ['domain'],
    get title() {
      return l10n.t('ODIN: Whois');
    },
    prompt: 'domain',
    icon: 'book',
    page: 'whois',
    registrable: true,
    describe: domainText,
  },
  whoisHistory: {
    get label() {
      return l10n.t('Whois history');
    },
    group: 'domains',
    required: ['domain'],
    uses: ['domain'],
    get title() {
      return l10n.t('ODIN: Whois History');
    },
    prompt: 'domain',
    icon: 'history',
    registrable: true,
    describe: domainText,
  },
  buckets: {
    get label() {
      return l10n.t('Bucket search');
    },
    group: 'storage',
    required: [],
    uses: ['query', 'sortBy', 'sortDir'],
    get title() {
      return l10n.t('ODIN: Search Exposed Buckets');
    },
    prompt: 'querySort',
    target: 'buckets',
    icon: 'database',
    paged: true,
    describe: (spec) =>
      spec.sortBy
        ? l10n.t('{0} (by {1} {2})', queryText(spec), spec.sortBy, spec.sortDir ?? 'desc')
        : queryText(spec),
  },
  fileCount: {
    get label() {
      return l10n.t('File count');
    },
    group: 'storage',
    required: [],
    uses: ['query'],
    get title() {
      return l10n.t('ODIN: Count Exposed Files');
    },
    prompt: 'query',
    target: 'files',
    icon: 'symbol-number',
    summary: 'fileSummary',
    describe: queryText,
  },
  fileSummary: {
    get label() {
      return l10n.t('File summary');
    },
    group: 'storage',
    required: ['field'],
    uses: ['query', 'field', 'limit'],
    get title() {
      return l10n.t('ODIN: Summarize Exposed Files');
    },
    prompt: 'fieldQuery',
    target: 'files',
    icon: 'graph',
    summary: 'fileSummary',
    narrowsTo: 'fileCount',
    describe: overQuery,
  },
};

export const GROUP_LABELS: Record<SearchGroup, string> = {
  get hosts() {
    return l10n.t('Hosts');
  },
  get domains() {
    return l10n.t('Domains and whois');
  },
  get storage() {
    return l10n.t('Exposed storage');
  },
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

/**
 * The summary a set of this kind can be summarised into (Summarize Results By…), if any: the
 * API summarises hosts (`/v1/hosts/summary`) and exposed files (`/v1/exposed/files/summary`)
 * only, so host searches and summaries, file counts and file summaries. The one rule the
 * command and the set node's menu (its context value) follow.
 */
export function summaryOf(kind: SearchKind): SearchKind | undefined {
  return KINDS[kind].summary;
}
