/**
 * What a node of the Results and Saved Searches trees offers, as its `contextValue`: the
 * node's kind (`odin.host`), then one word per capability (`odin.host hostLookups copyable`).
 * Each menu of package.json (`view/item/context`) tests one capability,
 * `viewItem =~ /\bmappable\b/`, so a node gets a menu by saying what it can do here, in one
 * table, not by being named in a list of kinds in every `when` clause. No VS Code here: the
 * menus are checked against this table in plain Node (test/unit/search/nodeMenus.test.ts).
 */

/** What a node can do; each word is the one thing some menu entries test. */
export const CAPABILITIES = {
  /** A host: Open Host Details, Search Similar, its CVEs and exploits. */
  hostLookups: true,
  /** A domain or whois record: Open Whois Details, Whois History. */
  whoisDetails: true,
  /** A domain: Whois. */
  whoisLookup: true,
  /** A CVE: its details. */
  cveLookup: true,
  /** A facet of a summary: narrow by it, summarise or chart the set by it. */
  facetActions: true,
  /** A set the API can summarise: Summarize Results By…. */
  summarizeBy: true,
  /** The "Load more" row: Load More, and Load All inline. */
  pager: true,
  /** A set with more pages, or its "Load more" row: Load All. */
  pageable: true,
  /** An error row: Retry. */
  retryable: true,
  /** A result set: refresh, save, export, clear. */
  setActions: true,
  /** A summary: Change Facet Count…. */
  facetCount: true,
  /** A summary: Open Summary as Chart. */
  chartable: true,
  /** A host search: Show Result Set on Map. */
  mappable: true,
  /** A summary by country: Show on Map. */
  countryMappable: true,
  /** A row with a value to copy. */
  copyable: true,
  /** A saved search: run, rename, edit, duplicate, move, delete. */
  savedQuery: true,
  /** A query of a workspace hunt file: run it, open it inline. */
  huntQuery: true,
  /** A hunt file or one of its queries: Open in File. */
  inHuntFile: true,
} as const;
export type Capability = keyof typeof CAPABILITIES;

/** Every kind of node the two trees give, and what each offers. */
export const NODE_CAPABILITIES = {
  // The Results view.
  'odin.host': ['hostLookups', 'copyable'],
  'odin.service': ['copyable'],
  'odin.domain': ['whoisDetails', 'whoisLookup', 'copyable'],
  'odin.bucket': ['copyable'],
  'odin.cve': ['cveLookup', 'copyable'],
  'odin.exploit': ['copyable'],
  'odin.whois': ['whoisDetails', 'copyable'],
  'odin.facet': ['facetActions', 'copyable'],
  'odin.count': ['copyable'],
  'odin.value': ['copyable'],
  'odin.error': ['retryable', 'copyable'],
  'odin.note': ['copyable'],
  'odin.loadMore': ['pager', 'pageable'],
  'odin.loading': [],
  'odin.empty': [],
  'odin.resultSet': ['pageable', 'setActions', 'copyable'],
  'odin.resultSet.summarisable': ['summarizeBy', 'pageable', 'setActions', 'copyable'],
  'odin.resultSet.hosts': ['summarizeBy', 'pageable', 'setActions', 'mappable', 'copyable'],
  'odin.summarySet': ['summarizeBy', 'setActions', 'facetCount', 'chartable', 'copyable'],
  'odin.summarySet.countries': [
    'summarizeBy',
    'setActions',
    'facetCount',
    'chartable',
    'countryMappable',
    'copyable',
  ],
  // The Saved Searches view.
  'odin.savedGroup': [],
  'odin.savedSearch': ['savedQuery'],
  'odin.workspaceHunts': [],
  'odin.huntFile': ['inHuntFile'],
  'odin.hunt': ['huntQuery', 'inHuntFile'],
  'odin.news': [],
  'odin.newResult': [],
} as const satisfies Record<string, readonly Capability[]>;
export type NodeKind = keyof typeof NODE_CAPABILITIES;

/** A node's `contextValue`: its kind, then its capabilities. */
export function nodeContext(kind: NodeKind): string {
  return [kind, ...NODE_CAPABILITIES[kind]].join(' ');
}

/** The kind a `contextValue` names (its first word). */
export function kindOf(contextValue: string | undefined): string | undefined {
  return contextValue?.split(' ')[0];
}
