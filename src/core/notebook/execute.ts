/**
 * Running one query cell, the same function for the editor's controller and the headless
 * runner: placeholders, the `.odinq` header, the gate, the count (cached, through the
 * request layer), the estimate shown before anything is spent, the budget question, then the
 * pages through the search catalogue (`searchPages`) under a RequestBudget of exactly the
 * pages the estimate promised. Rows are hashed and handed to a sink as they arrive, so a
 * 10,000-host cell never holds more than what is shown. Pure: no VS Code.
 */
import type { AggregationBucket, Host } from '../../api/types';
import { mapHosts } from '../map/mapModel';
import type { MapHost } from '../map/types';
import { parseHuntFile, parseLucene, optionValue, pageSizeOf } from '../hunts';
import { RequestBudget } from '../requests/budget';
import {
  decideCall,
  PageBlockedError,
  searchPages,
  searchVia,
  type CurrentGate,
  type SearchEnv,
} from '../search';
import type { CatalogueSpec, PageFetcher, PageResult } from '../search/catalogue';
import { l10n } from '../text/l10n';
import { substitute, MAX_PLACEHOLDER_VALUES, type CellFacts } from './placeholders';
import { FACET_COLUMNS, HOST_COLUMNS, ResultHash, facetRow, hostRow, type TableRow } from './rows';

/** At most this many rows are rendered in a cell (the full result goes to the sidecar). */
export const MAX_SHOWN_ROWS = 1000;
/** At most this many rows go into the case record per cell. */
export const RECORD_FIRST_ROWS = 20;
/** A hosts cell fetches at most this many rows (the service's own cap on host search). */
export const MAX_CELL_ROWS = 10_000;
/** Page size of a hosts cell without `size=`. */
export const DEFAULT_PAGE_SIZE = 100;

/** What the session gives a run: the request parts of the extension or of the headless runner. */
export interface NotebookSession {
  env: SearchEnv;
  gate: CurrentGate;
  /** The service's base URL (origin), for the record: never a key. */
  baseUrl(): string;
  /** Host credits left (`/v1/credits/usage`); undefined when they cannot be read. */
  credits?(signal?: AbortSignal): Promise<number | undefined>;
}

/** The count before spend: shown before any page is asked. */
export interface CellEstimate {
  /** Hosts the query matches (the count endpoint). */
  hosts: number;
  /** Requests (one credit each) the cell will spend at most. */
  credits: number;
}

export type CellStatus = 'ok' | 'error' | 'cancelled' | 'declined';

/** What a table, chart and map output draw (bounded: MAX_SHOWN_ROWS rows). */
export interface CellDisplay {
  view: 'hosts' | 'summary';
  columns: readonly string[];
  rows: TableRow[];
  /** The shown hosts that have a place, as the map draws them (hosts cells). */
  mapHosts: MapHost[];
  /** Shown hosts without a usable place. */
  unplaced: number;
  /** The summary's buckets (summary cells; at most MAX_PLACEHOLDER_VALUES). */
  buckets: AggregationBucket[];
  /** A summary's count of documents in values not listed. */
  sumOther?: number;
  /** The summary's field (summary cells). */
  field?: string;
}

export interface CellRun {
  status: CellStatus;
  /** Why it did not run to the end (error, declined, cancelled). */
  message?: string;
  /** The query after substitution (what was checked and sent). */
  query?: string;
  spec?: CatalogueSpec;
  estimate?: CellEstimate;
  /** Requests this cell sent under its budget (pages; the count is counted apart). */
  spent: number;
  ranAt: string;
  baseUrl: string;
  creditsBefore?: number;
  creditsAfter?: number;
  rowCount: number;
  /** The total the service reported (may be capped at 10,000). */
  total?: number;
  /** More rows existed than the estimate paid for (the count was older than the data). */
  truncated?: boolean;
  sha256?: string;
  firstRows: TableRow[];
  display?: CellDisplay;
  facts?: CellFacts;
}

/** Where the full rows go (the sidecar file), one canonical line at a time. */
export interface RowSink {
  write(lines: string): void;
  close(): void;
}

export interface CellInput {
  /** 1-based cell number (placeholders and messages use it). */
  index: number;
  source: string;
  params: Readonly<Record<string, string>>;
  facts: ReadonlyMap<number, CellFacts>;
  signal?: AbortSignal;
  /** Credits the notebook may still spend without asking (undefined: no limit). */
  budgetLeft?: number;
  /** Asked when the estimate is over `budgetLeft`; no answer means no. */
  confirm?(estimate: CellEstimate): Promise<boolean>;
  /** Called with the estimate before anything but the count is sent. */
  onEstimate?(estimate: CellEstimate): void;
  /** The full rows' destination (opened only when rows are fetched). */
  sink?(): RowSink;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const isAbort = (e: unknown, signal?: AbortSignal): boolean =>
  signal?.aborted === true ||
  (e instanceof Error && (e.name === 'AbortError' || (e as { kind?: string }).kind === 'cancelled'));

/** A cell's query after substitution, its spec and its page size. */
interface CellPlan {
  query: string;
  spec: CatalogueSpec;
  pageSize: number;
}

/** A cell's query and spec after substitution, or why there is none. */
export function planCell(
  source: string,
  params: Readonly<Record<string, string>>,
  facts: ReadonlyMap<number, CellFacts>,
): ({ ok: true } & CellPlan) | { ok: false; message: string } {
  const sub = substitute(source, params, facts);
  if (!sub.ok) return sub;
  const file = parseHuntFile(sub.text);
  if (file.problems.length) return { ok: false, message: file.problems[0].message };
  if (file.queries.length !== 1)
    return {
      ok: false,
      message: l10n.t('A query cell holds one query: a "@hosts <name>" line, then the query.'),
    };
  const q = file.queries[0];
  if (q.kind !== 'hosts')
    return {
      ok: false,
      message: l10n.t(
        'Notebook query cells run @hosts queries; "@{0}" is not supported here yet.',
        q.kindText,
      ),
    };
  const query = q.query.trim() || '*';
  const parsed = parseLucene(query);
  if (parsed.error) return { ok: false, message: l10n.t('Query syntax: {0}', parsed.error.message) };
  const by = optionValue(q, 'by');
  const spec: CatalogueSpec = by
    ? { kind: 'hostSummary', query, field: by, limit: MAX_PLACEHOLDER_VALUES }
    : { kind: 'hosts', query };
  return { ok: true, query, spec, pageSize: pageSizeOf(q) ?? DEFAULT_PAGE_SIZE };
}

/** Pages a hosts cell of `count` matches costs at `pageSize`. */
export function pagesFor(count: number, pageSize: number): number {
  return Math.ceil(Math.min(Math.max(count, 0), MAX_CELL_ROWS) / pageSize);
}

/** Runs one query cell (see the file comment). Never throws: the outcome says what happened. */
export async function executeCell(session: NotebookSession, input: CellInput): Promise<CellRun> {
  const run: CellRun = {
    status: 'error',
    spent: 0,
    ranAt: new Date().toISOString(),
    baseUrl: session.baseUrl(),
    rowCount: 0,
    firstRows: [],
  };
  const plan = planCell(input.source, input.params, input.facts);
  if (!plan.ok) return { ...run, message: plan.message };
  run.query = plan.query;
  run.spec = plan.spec;
  // The cell's one gate decision before anything is sent (credits and count included); each
  // page is decided again as it is fetched (`searchPages`), as every result set's pages are.
  try {
    await decideCall(plan.spec, session.gate);
  } catch (e) {
    if (e instanceof PageBlockedError) return { ...run, message: e.message };
    throw e;
  }
  const signal = input.signal;
  let budget: RequestBudget | undefined;
  let sink: RowSink | undefined;
  try {
    run.creditsBefore = await readCredits(session, signal);
    const estimate = await estimateCell(session, plan, signal);
    run.estimate = estimate;
    input.onEstimate?.(estimate);
    if (input.budgetLeft !== undefined && estimate.credits > input.budgetLeft) {
      const yes = input.confirm ? await input.confirm(estimate) : false;
      if (!yes)
        return {
          ...run,
          status: 'declined',
          message: l10n.t(
            "Not run: ≈ {0} credits is over what the notebook's budget has left ({1}).",
            estimate.credits,
            input.budgetLeft,
          ),
        };
    }
    budget = new RequestBudget(estimate.credits);
    const pages = searchPages(session.env, plan.spec, session.gate, { budget: () => budget });
    // The sink opens with the first rows and is closed below whatever happens.
    const open = input.sink;
    const write = open
      ? (lines: string): void => {
          sink ??= open();
          sink.write(lines);
        }
      : undefined;
    const { hash, display, facts } = await fetchRows(pages, plan, budget, run, write, signal);
    run.status = 'ok';
    run.rowCount = hash.count;
    run.sha256 = hash.digest();
    run.firstRows = display.rows.slice(0, RECORD_FIRST_ROWS);
    run.display = display;
    run.facts = facts;
  } catch (e) {
    run.status = isAbort(e, signal) ? 'cancelled' : 'error';
    run.message = run.status === 'cancelled' ? l10n.t('Cancelled.') : errorText(e);
  } finally {
    sink?.close();
    run.spent = budget?.spent ?? 0;
  }
  if (run.creditsBefore !== undefined) run.creditsAfter = await readCredits(session);
  return run;
}

/** The count before spend: hosts matched (cached, through the request layer) and pages it costs. */
async function estimateCell(
  session: NotebookSession,
  plan: CellPlan,
  signal: AbortSignal | undefined,
): Promise<CellEstimate> {
  const counted = await searchVia(
    session.env,
    { kind: 'hostCount', query: plan.query },
    { signal, automatic: false },
  );
  const hosts = counted.status === 'ok' ? counted.value : 0;
  return { hosts, credits: plan.spec.kind === 'hostSummary' ? 1 : pagesFor(hosts, plan.pageSize) };
}

interface CellRows {
  hash: ResultHash;
  display: CellDisplay;
  facts: CellFacts;
}

/**
 * Fetches the pages the budget paid for, hashing every row, writing it to the sink and keeping
 * what is shown and what later cells may use. Sets the run's `total` and `truncated` as it goes.
 */
async function fetchRows(
  pages: PageFetcher,
  plan: CellPlan,
  budget: RequestBudget,
  run: CellRun,
  write: ((lines: string) => void) | undefined,
  signal: AbortSignal | undefined,
): Promise<CellRows> {
  const rows = emptyRows(plan.spec);
  let cursor: unknown;
  while (budget.left > 0) {
    const page = await pages(cursor, plan.pageSize, signal ?? new AbortController().signal);
    run.total = page.total;
    if (page.sumOther !== undefined) rows.display.sumOther = page.sumOther;
    let lines = '';
    for (const item of page.items) lines += addItem(rows, item);
    if (lines && write) write(lines);
    if (page.next === undefined || rows.hash.count >= MAX_CELL_ROWS) break;
    if (budget.left === 0) run.truncated = true;
    cursor = page.next;
  }
  rows.facts.count = rows.hash.count;
  return rows;
}

/** The display and facts of a cell before its first page: a hosts table or a summary's buckets. */
function emptyRows(spec: CatalogueSpec): CellRows {
  const display: CellDisplay =
    spec.kind === 'hostSummary'
      ? {
          view: 'summary',
          columns: FACET_COLUMNS,
          rows: [],
          mapHosts: [],
          unplaced: 0,
          buckets: [],
          field: spec.field,
        }
      : { view: 'hosts', columns: HOST_COLUMNS, rows: [], mapHosts: [], unplaced: 0, buckets: [] };
  const facts: CellFacts = {
    count: 0,
    ...(spec.kind === 'hostSummary' ? { values: [] } : { hosts: [] }),
  };
  return { hash: new ResultHash(), display, facts };
}

/** Takes one result item (a host or a summary bucket); returns its canonical line for the sink. */
function addItem({ hash, display, facts }: CellRows, item: PageResult['items'][number]): string {
  let line: string;
  let row: TableRow;
  if (item.t === 'host') {
    line = hash.add(item.v satisfies Host);
    row = hostRow(item.v);
    if (facts.hosts && facts.hosts.length < MAX_PLACEHOLDER_VALUES) facts.hosts.push(item.v.ip);
    if (display.rows.length < MAX_SHOWN_ROWS) {
      const placed = mapHosts([item.v], undefined);
      display.mapHosts.push(...placed.hosts);
      display.unplaced += placed.skipped;
    }
  } else if (item.t === 'facet') {
    line = hash.add(item.v);
    row = facetRow(item.v);
    if (display.buckets.length < MAX_SHOWN_ROWS) display.buckets.push(item.v);
    if (facts.values && facts.values.length < MAX_PLACEHOLDER_VALUES) facts.values.push(String(item.v.key));
  } else return '';
  if (display.rows.length < MAX_SHOWN_ROWS) display.rows.push(row);
  return line;
}

async function readCredits(session: NotebookSession, signal?: AbortSignal): Promise<number | undefined> {
  try {
    return await session.credits?.(signal);
  } catch {
    return undefined;
  }
}
