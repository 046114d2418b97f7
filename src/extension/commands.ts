/**
 * Every command the extension contributes: its id, the feature that registers it, the
 * argument it accepts and what it returns. package.json's `contributes.commands` and its
 * menus agree with this map exactly (test/unit/manifest.test.ts), and each feature's handler
 * object must have exactly its commands (`CommandsOf<'search'>` etc.), so a command cannot
 * be contributed without a handler or registered without a manifest entry.
 *
 * To add a command: add it here and in package.json, then give its feature's handler object
 * the new key (the compiler says where). Arguments come from keybindings, tasks, links in
 * hovers, menus and other extensions: the types say what is accepted, and every handler
 * still checks its argument at run time (anything else is refused or ignored).
 */
import type { Uri } from 'vscode';
import type { HOVER_COMMANDS } from '../core/cards/hoverCard';
import type { IndicatorList } from '../core/detect/indicators';
import type { RequestBudget } from '../core/requests/budget';
import type { SearchSpec, SavedSearch } from '../core/search';
import type { Preview, Verdict } from '../core/triage';
import type { Node } from './search/results/resultNodes';
import type { SavedNode } from './search/saved/savedView';

// ---------------------------------------------------------------- what commands return
// (declared here, beside the map, so the map needs no feature module beyond tree-node types)

/** What a search command returns (for tests and callers; no API data beyond counts). */
export interface RunSummary {
  setId?: string;
  status: 'ready' | 'error' | 'cancelled' | 'dismissed' | 'details' | 'blocked';
  count?: number;
  total?: number;
  error?: string;
  errorKind?: string;
}

/** A saved search written into a workspace `.odinq` file. */
export interface SavedToFile {
  file: string;
  name: string;
  index: number;
}

/** What "Re-run All Saved Searches" did (its one summary). */
export interface RerunAllSummary {
  ran: number;
  failed: number;
  /** Searches whose results changed since their previous run. */
  changed: number;
  added: number;
  removed: number;
  cancelled: boolean;
  message: string;
  results: { name: string; status: string; change?: string }[];
}

/** What `odin.listIndicators` returns (tests read it; the picker stays open for the person). */
export interface ListedIndicators extends IndicatorList {
  uri: string;
  /** Values the privacy policy keeps on this machine. */
  local: string[];
}

/** What `odin.triage` returns (tasks, keybindings, tests). */
export interface TriageResult {
  indicators: {
    value: string;
    kind: string;
    count: number;
    sent: boolean;
    status: string;
    verdict: Verdict | null;
  }[];
  partial: boolean;
  failed: number;
  /** Requests this run sent. */
  requests: number;
  summary: string;
  preview: Preview & { creditsLeft?: number };
  /** Why nothing was sent, when nothing could be (Restricted Mode, lookups off, no key, preview only). */
  local?: string;
}

/** The features, each registering its own commands (search and details through stand-ins). */
export type Feature = 'keys' | 'lookup' | 'search' | 'details' | 'triage' | 'hunts' | 'notebook';

/**
 * What a search command accepts: the inputs of its prompts (for keybindings and tasks),
 * e.g. `{ "query": "services.port:443" }` or `{ "ip": "8.8.8.8" }`; a bare string (the query,
 * IP, domain or CVE the command asks first); or a results-tree node. `pageSize` (1–100)
 * overrides the setting; `view: "results"` keeps Look Up Host and Whois in the tree instead
 * of opening the details page. Without an argument the command prompts.
 */
export type SearchArg = string | Node | (Omit<SearchSpec, 'kind'> & { pageSize?: number; view?: 'results' });
type SearchCommand = (arg?: SearchArg) => Promise<RunSummary>;

/** A result set: a results-tree node, its id (string or `{ setId }`); none = the newest set. */
export type ResultSetArg = Node | string | { setId: string };

/** What "Show Result Set on Map" / "Show on Map" drew. */
export interface MapSummary {
  setId: string;
  mode: 'points' | 'countries';
  /** Points drawn (clusters) or countries shaded. */
  shown: number;
  /** Hosts without coordinates (points), or counts in values not listed or not a country code. */
  skipped: number;
}
/** A saved search: a saved-searches tree node, its id (string or `{ id }`); none = pick one. */
export type SavedSearchArg = SavedNode | string | { id: string };

export interface ExportResultsArg {
  setId?: string;
  format?: 'json' | 'csv';
  scope?: 'loaded' | 'all';
  target?: 'editor' | 'file';
  /** With `target: "file"`: where to write, without asking. */
  path?: string;
}
export interface ExportedResults {
  count: number;
  complete: boolean;
  target: string;
  path?: string;
}
export interface ImportedSearches {
  added: number;
  skipped: number;
  errors: string[];
  fatal?: string;
}

export interface OdinCommands {
  // hunts/: queries in .odinq files and ```odinq fences (uri as a string, query index)
  /** `opts.quiet`: no "+N new" message (Re-run All gives one summary). */
  /** `opts.signal`: the caller's cancel and progress (Re-run All), no notification of its own. */
  /** `opts.budget`: the request count the caller's confirmation showed (Re-run All). */
  'odin.runHunt': (
    uri?: string,
    index?: number,
    opts?: { quiet?: boolean; signal?: AbortSignal; budget?: RequestBudget },
  ) => Promise<unknown>;
  'odin.countHunt': (uri?: string, index?: number) => Promise<unknown>;
  'odin.summarizeHunt': (uri?: string, index?: number, field?: string) => Promise<unknown>;
  'odin.saveHunt': (uri?: string, index?: number) => Promise<unknown>;
  /** A host's changes in the committed snapshots (an IP, or `{ ip, dir }`); none = prompt. */
  'odin.showHostTimeline': (arg?: string | { ip?: string; dir?: string }) => Promise<unknown>;
  /** A finding of the hunt at `index` (or the cursor) into odin-baseline.json; `answers` skip prompts. */
  'odin.addFindingToBaseline': (
    uri?: string,
    index?: number,
    answers?: { subject?: string; reason?: string; expires?: string | number },
  ) => Promise<unknown>;
  // keys/: the API key and the demo data
  'odin.setApiKey': () => Promise<void>;
  'odin.clearApiKey': () => Promise<void>;
  'odin.testApiKey': () => Promise<void>;
  'odin.useDemoData': () => Promise<void>;
  'odin.stopDemoData': () => Promise<void>;
  'odin.showLog': () => void;

  // lookup/: one IP, CIDR block or domain (a string), else the editor's selection or cursor
  'odin.lookup': (arg?: string | Uri) => Promise<void>;
  'odin.listIndicators': () => Promise<ListedIndicators | undefined>;
  'odin.resumeLookups': () => void;

  // search/: searches (argument: see SearchArg)
  'odin.searchHosts': SearchCommand;
  'odin.lookupHost': SearchCommand;
  'odin.summarizeHosts': SearchCommand;
  'odin.hostCves': SearchCommand;
  'odin.hostExploits': SearchCommand;
  'odin.hostCve': SearchCommand;
  'odin.searchDomains': SearchCommand;
  'odin.countDomains': SearchCommand;
  'odin.countSubdomains': SearchCommand;
  'odin.whois': SearchCommand;
  'odin.whoisHistory': SearchCommand;
  'odin.searchBuckets': SearchCommand;
  'odin.countFiles': SearchCommand;
  'odin.summarizeFiles': SearchCommand;
  /** `{ catalogue: "hosts"|"buckets"|"files", list: true }` returns the field names without UI. */
  'odin.browseFields': (arg?: {
    catalogue?: 'hosts' | 'buckets' | 'files';
    list?: boolean;
  }) => Promise<unknown>;

  // search/saved/: saved searches
  /** `target`: "personal", `{ file }` (a workspace .odinq file) or "ask" (see saved/commands.ts). */
  'odin.saveSearch': (
    arg?:
      | ResultSetArg
      | {
          spec?: SearchSpec;
          name?: string;
          target?: 'personal' | 'ask' | { file: string };
          exclude?: string;
        },
  ) => Promise<SavedSearch | SavedToFile | undefined>;
  /** Opens a workspace query's file at the query (a Saved Searches node, or `{ uri, index }`). */
  'odin.openHuntInFile': (arg?: SavedNode | { uri: string; index?: number }) => Promise<boolean>;
  /** Runs every saved search and workspace query again; one summary at the end. */
  /**
   * `arg.requests`: the request count the caller agreed to; with it, the run starts without
   * the confirmation when it needs no more (and is refused when it needs more).
   */
  'odin.rerunAllSavedSearches': (arg?: { quiet?: boolean; requests?: number }) => Promise<RerunAllSummary>;
  'odin.runSavedSearch': (arg?: SavedSearchArg) => Promise<RunSummary | undefined>;
  'odin.renameSavedSearch': (arg?: SavedSearchArg, name?: string) => Promise<SavedSearch | undefined>;
  'odin.editSavedSearch': (
    arg?: SavedSearchArg,
    spec?: Omit<SearchSpec, 'kind'>,
  ) => Promise<SavedSearch | undefined>;
  'odin.deleteSavedSearch': (arg?: SavedSearchArg, opts?: { confirmed?: boolean }) => Promise<boolean>;
  'odin.duplicateSavedSearch': (arg?: SavedSearchArg) => Promise<SavedSearch | undefined>;
  'odin.moveSavedSearchUp': (arg?: SavedSearchArg) => Promise<void>;
  'odin.moveSavedSearchDown': (arg?: SavedSearchArg) => Promise<void>;
  'odin.exportSavedSearches': (
    arg?: Uri | { path?: string },
  ) => Promise<{ path: string; count: number } | undefined>;
  'odin.importSavedSearches': (
    arg?: Uri | { path?: string; quiet?: boolean },
  ) => Promise<ImportedSearches | undefined>;

  // search/results/: result-set commands
  'odin.loadMore': (arg?: ResultSetArg) => Promise<RunSummary | undefined>;
  /** Asks first (how many requests); `{ confirmed: true }` as the second argument skips that. */
  'odin.loadAll': (arg?: ResultSetArg, opts?: { confirmed?: boolean }) => Promise<RunSummary | undefined>;
  'odin.retry': (arg?: ResultSetArg) => Promise<RunSummary | undefined>;
  'odin.refreshResults': (arg?: ResultSetArg) => Promise<RunSummary | undefined>;
  /** A node clears its set; no argument clears all. */
  'odin.clearResults': (arg?: Node) => void;
  'odin.exportResults': (arg?: ResultSetArg | ExportResultsArg) => Promise<ExportedResults | undefined>;
  /** A node copies its value; a string is copied as is. */
  'odin.copyValue': (arg?: Node | string) => Promise<string | undefined>;
  /** A host or service node; an IP (hover, host page: hosts like it) or a CIDR block (the hosts in it). */
  'odin.searchSimilar': (arg?: Node | string) => Promise<RunSummary | undefined>;
  /** A facet node, or (set, field, value). */
  'odin.narrowByFacet': (
    arg?: ResultSetArg,
    field?: string,
    value?: string | number | boolean | null,
  ) => Promise<RunSummary | undefined>;
  /** A summary's node (asks), or `{ setId?, facetCount }`: runs the summary again listing that many values. */
  'odin.changeFacetCount': (
    arg?: ResultSetArg | { setId?: string; facetCount?: number },
  ) => Promise<RunSummary | undefined>;
  /** Summarises a result set's query (on a facet value: narrowed by it) by another field. */
  'odin.summarizeResultsBy': (arg?: ResultSetArg, field?: string) => Promise<RunSummary | undefined>;
  /** Opens a summary (its node, a facet value of it, or its id) as a chart page. */
  'odin.openChart': (arg?: ResultSetArg) => Promise<{ setId: string; bars: number } | undefined>;
  /** Draws a host search's loaded hosts (its node or its id) on a map page. */
  'odin.showOnMap': (arg?: ResultSetArg) => Promise<MapSummary | undefined>;
  /** Draws a host summary by country (its node or its id) as a choropleth map page. */
  'odin.showSummaryOnMap': (arg?: ResultSetArg) => Promise<MapSummary | undefined>;

  // details/: the host and whois pages (an IP or a domain; a tree node that has one)
  'odin.openHostDetails': (arg?: string | Node) => Promise<void>;
  'odin.openWhoisDetails': (arg?: string | Node) => Promise<void>;

  // triage/: bulk triage of a file or folder; reports; the credits status bar item
  'odin.triageFile': () => Promise<TriageResult | undefined>;
  'odin.triageFolder': (folder?: Uri) => Promise<TriageResult | undefined>;
  /** `{ uris?: string[], send?: boolean }`: `send: false` previews, `send: true` skips the confirmation. */
  'odin.triage': (arg?: { uris?: string[]; send?: boolean }) => Promise<TriageResult | undefined>;
  /** `{ format: "md" | "csv" | "json" | "stix" | "misp" }` returns the report; none: a save dialog. */
  'odin.triageReport': (arg?: { format: string }) => Promise<string | undefined>;
  'odin.refreshCredits': () => Promise<void>;
  /** The triage view of the last triage (from what the triage holds: sends nothing). */
  'odin.showTriage': () => Promise<void>;

  // notebook/: investigation notebooks (.odinnb); both read files beside the notebook, send nothing
  /** A query cell (its status bar item, or none: the active notebook's selected cell): opens its full rows. */
  'odin.openAllNotebookRows': (cell?: unknown) => Promise<OpenedNotebookRows | undefined>;
  /** A notebook (its toolbar, a URI, or none: the active one): writes the record, STIX and MISP. */
  'odin.exportNotebookCase': (notebook?: unknown) => Promise<ExportedCase | undefined>;
}

/** What "Open All Rows" opened: the sidecar file and its row count. */
export interface OpenedNotebookRows {
  file: string;
  rows: number;
}

/** What "Export Case" wrote. */
export interface ExportedCase {
  dir: string;
  files: { record: string; markdown?: string; stix: string; misp: string };
  hosts: number;
  cells: number[];
  skipped: { cell: number; why: string }[];
}

export type CommandId = keyof OdinCommands;

/** Which feature registers each command; also the runtime list of ids the manifest test reads. */
export const COMMAND_FEATURES = {
  'odin.setApiKey': 'keys',
  'odin.clearApiKey': 'keys',
  'odin.testApiKey': 'keys',
  'odin.useDemoData': 'keys',
  'odin.stopDemoData': 'keys',
  'odin.showLog': 'keys',
  'odin.lookup': 'lookup',
  'odin.listIndicators': 'lookup',
  'odin.resumeLookups': 'lookup',
  'odin.searchHosts': 'search',
  'odin.lookupHost': 'search',
  'odin.summarizeHosts': 'search',
  'odin.hostCves': 'search',
  'odin.hostExploits': 'search',
  'odin.hostCve': 'search',
  'odin.searchDomains': 'search',
  'odin.countDomains': 'search',
  'odin.countSubdomains': 'search',
  'odin.whois': 'search',
  'odin.whoisHistory': 'search',
  'odin.searchBuckets': 'search',
  'odin.countFiles': 'search',
  'odin.summarizeFiles': 'search',
  'odin.browseFields': 'search',
  'odin.saveSearch': 'search',
  'odin.runSavedSearch': 'search',
  'odin.renameSavedSearch': 'search',
  'odin.editSavedSearch': 'search',
  'odin.deleteSavedSearch': 'search',
  'odin.duplicateSavedSearch': 'search',
  'odin.moveSavedSearchUp': 'search',
  'odin.moveSavedSearchDown': 'search',
  'odin.exportSavedSearches': 'search',
  'odin.importSavedSearches': 'search',
  'odin.loadMore': 'search',
  'odin.loadAll': 'search',
  'odin.retry': 'search',
  'odin.refreshResults': 'search',
  'odin.clearResults': 'search',
  'odin.exportResults': 'search',
  'odin.copyValue': 'search',
  'odin.searchSimilar': 'search',
  'odin.narrowByFacet': 'search',
  'odin.changeFacetCount': 'search',
  'odin.summarizeResultsBy': 'search',
  'odin.openChart': 'search',
  'odin.showOnMap': 'search',
  'odin.showSummaryOnMap': 'search',
  'odin.openHuntInFile': 'search',
  'odin.rerunAllSavedSearches': 'search',
  'odin.openHostDetails': 'details',
  'odin.openWhoisDetails': 'details',
  'odin.triageFile': 'triage',
  'odin.triageFolder': 'triage',
  'odin.triage': 'triage',
  'odin.triageReport': 'triage',
  'odin.refreshCredits': 'triage',
  'odin.showTriage': 'triage',
  'odin.runHunt': 'hunts',
  'odin.countHunt': 'hunts',
  'odin.summarizeHunt': 'hunts',
  'odin.saveHunt': 'hunts',
  'odin.showHostTimeline': 'hunts',
  'odin.addFindingToBaseline': 'hunts',
  'odin.openAllNotebookRows': 'notebook',
  'odin.exportNotebookCase': 'notebook',
} as const satisfies Record<CommandId, Feature>;

/** The ids of one feature's commands. */
export type CommandIdOf<F extends Feature> = {
  [K in CommandId]: (typeof COMMAND_FEATURES)[K] extends F ? K : never;
}[CommandId];

/** A feature's handler object: exactly its commands, each with its signature. */
export type CommandsOf<F extends Feature> = { [K in CommandIdOf<F>]: OdinCommands[K] };

export function commandIdsOf<F extends Feature>(feature: F): CommandIdOf<F>[] {
  return (Object.keys(COMMAND_FEATURES) as CommandId[]).filter(
    (id): id is CommandIdOf<F> => COMMAND_FEATURES[id] === feature,
  );
}

/**
 * A feature's commands as stand-ins generated from this map, for a feature loaded on first
 * use: each loads it (`load` keeps the loaded feature) and forwards its arguments as they came.
 */
export function standIns<F extends Feature>(feature: F, load: () => CommandsOf<F>): CommandsOf<F> {
  const forward =
    (id: CommandIdOf<F>) =>
    (...args: unknown[]) =>
      (load()[id] as (...a: unknown[]) => unknown)(...args);
  return Object.fromEntries(commandIdsOf(feature).map((id) => [id, forward(id)])) as unknown as CommandsOf<F>;
}

/**
 * What a hover card may link to, stated once: the ids of `HOVER_COMMANDS`
 * (core/cards/hoverCard.ts; `commandLink` refuses any other id, and the hover's
 * MarkdownString enables exactly these) are commands of this map, so every window registers
 * them at activation (a lazy feature through its stand-in) and no link can name a missing
 * command. The compiler holds it here; test/unit/manifest.test.ts holds it at run time. Each
 * handler checks its argument itself (a link's argument is as untrusted as any other).
 */
export type HoverLinkCommands = AssertCommandIds<(typeof HOVER_COMMANDS)[keyof typeof HOVER_COMMANDS]>;
type AssertCommandIds<T extends CommandId> = T;
