/**
 * One result set of the results view: what was searched, the pages loaded so far, the
 * cursor of the next page, and the state of the last load. No VS Code here (the bench
 * and the unit tests run it in plain Node); the fetcher is injected.
 *
 * A failed or cancelled load keeps everything already loaded: the error sits beside the
 * items and "Retry" loads the same page again.
 */
import { mapInSlices } from '../../../api/slices';
import { CompactPool, compactHost } from '../../../core/hosts/compactHost';
import type { ResultItem } from '../../../core/results/resultItem';
import type { PageFetcher, SearchSpec } from '../../../core/search';
import { l10n } from '../../../core/text/l10n';
import type { NodeView } from './viewTypes';
import { fmt } from '../../../core/text/numbers';

export interface SetError {
  message: string;
  kind?: string;
  /** Why the gate refused a page (`kind` "blocked"): core/gate `BlockCode`. */
  code?: string;
  status?: number;
}

export type SetStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The largest page the API serves (`limit`); "Load All" asks for pages of this size. */
export const MAX_PAGE_SIZE = 100;
/**
 * Most pages one "Load All" requests: 100 pages of 100 are the 10,000 results a host search
 * reports at most. A service that keeps answering with more stops here.
 */
export const LOAD_ALL_MAX_PAGES = 100;

/** Why a "Load All" stopped. */
export type LoadAllStop = 'end' | 'cancelled' | 'error' | 'pageCap' | 'maxItems' | 'cursorCycle';

/** What "Load All" will cost, asked before it starts. */
export interface LoadAllPlan {
  /** Results still to load; undefined when the service gave no total. */
  remaining: number | undefined;
  /** Requests it takes (at most LOAD_ALL_MAX_PAGES). */
  requests: number;
  pageSize: number;
  /** True when the page cap stops it before the end (or may, with no total). */
  capped: boolean;
}

/** "3 requests of up to 100 results each (about 250 results)" — what "Load All" says before it starts. */
export function loadAllText(plan: LoadAllPlan): string {
  const requests =
    plan.requests === 1
      ? l10n.t('1 request of up to {0} results each', fmt(plan.pageSize))
      : l10n.t('{0} requests of up to {1} results each', fmt(plan.requests), fmt(plan.pageSize));
  if (plan.remaining === undefined)
    return l10n.t(
      'Up to {0}; the service gave no total. Each request uses API credits; you can cancel at any time.',
      requests,
    );
  const more =
    plan.remaining === 1
      ? l10n.t('1 more result: {0}.', requests)
      : l10n.t('{0} more results: {1}.', fmt(plan.remaining), requests);
  const capped = plan.capped
    ? l10n.t(
        'It stops after {0} requests ({1} results); run it again to go on.',
        fmt(plan.requests),
        fmt(plan.requests * plan.pageSize),
      )
    : undefined;
  const credits = l10n.t('Each request uses API credits; you can cancel at any time.');
  return [more, capped, credits].filter(Boolean).join(' ');
}

export class ResultSet {
  readonly createdAt = Date.now();
  items: ResultItem[] = [];
  total: number | undefined;
  notes: string[] = [];
  /** A summary's count of documents in values not listed (its chart's "other" bar). */
  sumOther = 0;
  status: SetStatus = 'idle';
  error: SetError | undefined;
  pages = 0;
  /** True once a page came back without a next cursor (or with one already used). */
  done = false;
  /** Paging stopped because the next cursor repeated an earlier one. */
  cursorCycle = false;
  /** The last load was cancelled by the user (what was loaded stays). */
  cancelled = false;
  /** Why the last "Load All" stopped (undefined before the first). */
  lastLoadAllStop: LoadAllStop | undefined;
  private cursor: unknown = undefined;
  /** Every cursor sent so far (JSON): a next cursor among them would page in a circle. */
  private readonly sentCursors = new Set<string>();
  /** What the set's compact hosts share (CVE records, short strings). */
  private readonly pool = new CompactPool();
  /** How each item looks in the tree, computed once (nodeViews.ts). */
  readonly itemViews = new WeakMap<ResultItem, { details: boolean; view: NodeView }>();
  private controller: AbortController | undefined;
  private inFlight: Promise<boolean> | undefined;

  constructor(
    readonly spec: SearchSpec,
    private readonly fetcher: PageFetcher,
    readonly pageSize: number,
    private readonly onChange: (set: ResultSet) => void = () => undefined,
    /** Unique among the window's sets (the results view gives `ctx.nextId('r')`). */
    readonly id: string = `r-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
  ) {}

  get loading(): boolean {
    return this.status === 'loading';
  }

  get hasMore(): boolean {
    return !this.done;
  }

  /**
   * Loads the next page (or the first). Resolves `true` when a page was added, `false`
   * when there was nothing to load, the load failed (see `error`) or it was cancelled.
   * Concurrent calls share one request.
   */
  loadNext(signal?: AbortSignal, limit = this.pageSize): Promise<boolean> {
    if (this.inFlight) return this.inFlight;
    if (this.done) return Promise.resolve(false);
    const controller = new AbortController();
    this.controller = controller;
    const onAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) controller.abort();
    this.status = 'loading';
    this.error = undefined;
    this.cancelled = false;
    this.onChange(this);
    this.inFlight = (async () => {
      try {
        const sent = cursorKey(this.cursor);
        const page = await this.fetcher(this.cursor, limit, controller.signal);
        if (controller.signal.aborted) throw abortError();
        // Hosts are held as compact records (src/core/hosts/compactHost.ts); the details page
        // fetches the full one.
        // In slices between turns of the event loop (a page of big hosts takes a while).
        const items = await mapInSlices(
          page.items,
          (item): ResultItem => (item.t === 'host' ? { t: 'host', v: compactHost(item.v, this.pool) } : item),
          { signal: controller.signal, cancelled: abortError, spend: true },
        );
        for (const item of items) this.items.push(item);
        if (page.total !== undefined) this.total = page.total;
        if (page.notes) this.notes = page.notes;
        if (page.sumOther !== undefined) this.sumOther = page.sumOther;
        this.pages++;
        this.sentCursors.add(sent);
        this.cursor = page.next;
        this.done = page.next === undefined;
        if (!this.done && this.sentCursors.has(cursorKey(page.next))) {
          // The service pointed back at a page it already sent: stop instead of circling.
          this.done = true;
          this.cursorCycle = true;
          this.notes = [
            ...this.notes,
            l10n.t(
              "Stopped after {0} pages: the service's next-page cursor repeats an earlier one, so further pages would repeat results.",
              fmt(this.pages),
            ),
          ];
        }
        this.status = 'ready';
        return true;
      } catch (err) {
        if (controller.signal.aborted || isAbort(err)) {
          this.cancelled = true;
          this.status = this.pages === 0 ? 'error' : 'ready';
          if (this.pages === 0)
            this.error = { message: l10n.t('Cancelled before the first page arrived.'), kind: 'cancelled' };
        } else {
          this.status = 'error';
          this.error = toSetError(err);
        }
        return false;
      } finally {
        signal?.removeEventListener('abort', onAbort);
        this.inFlight = undefined;
        this.controller = undefined;
        this.onChange(this);
      }
    })();
    return this.inFlight;
  }

  /**
   * What loading every remaining page costs: pages of MAX_PAGE_SIZE (or the set's page
   * size if larger), at most LOAD_ALL_MAX_PAGES requests.
   */
  loadAllPlan(maxPages = LOAD_ALL_MAX_PAGES): LoadAllPlan {
    const pageSize = Math.max(this.pageSize, MAX_PAGE_SIZE);
    if (this.done) return { remaining: 0, requests: 0, pageSize, capped: false };
    if (this.total === undefined) return { remaining: undefined, requests: maxPages, pageSize, capped: true };
    const remaining = Math.max(0, this.total - this.items.length);
    // A set with more to load but a reported total already reached still costs a request.
    const needed = Math.max(1, Math.ceil(remaining / pageSize));
    return { remaining, requests: Math.min(needed, maxPages), pageSize, capped: needed > maxPages };
  }

  /**
   * Loads pages of the API's largest size until the end, `maxItems`, `maxPages` requests,
   * a repeated cursor, cancellation or an error. `progress` is called after each page.
   * Returns how many items were added; `lastLoadAllStop` says why it stopped.
   */
  async loadAll(
    signal?: AbortSignal,
    progress?: (set: ResultSet) => void,
    { maxItems = 100_000, maxPages = LOAD_ALL_MAX_PAGES }: { maxItems?: number; maxPages?: number } = {},
  ): Promise<number> {
    const before = this.items.length;
    const limit = Math.max(this.pageSize, MAX_PAGE_SIZE);
    let requests = 0;
    let stop: LoadAllStop = 'end';
    for (;;) {
      if (this.done) {
        stop = this.cursorCycle ? 'cursorCycle' : 'end';
        break;
      }
      if (signal?.aborted) {
        stop = 'cancelled';
        break;
      }
      if (this.items.length >= maxItems) {
        stop = 'maxItems';
        break;
      }
      if (requests >= maxPages) {
        stop = 'pageCap';
        break;
      }
      requests++;
      const ok = await this.loadNext(signal, limit);
      progress?.(this);
      if (!ok) {
        stop = this.cancelled ? 'cancelled' : 'error';
        break;
      }
    }
    this.lastLoadAllStop = stop;
    return this.items.length - before;
  }

  /** Cancels the load in flight, if any (items already loaded stay). */
  cancel(): void {
    this.controller?.abort();
  }

  /** "25 of 10,000" (or "25" when the total is unknown). */
  countText(): string {
    const n = fmt(this.items.length);
    if (this.total === undefined) return this.done ? n : l10n.t('{0} so far', n);
    return l10n.t('{0} of {1}', n, fmt(this.total));
  }
}

/** A cursor as a comparable key (cursors are JSON values: arrays of sort values, numbers). */
function cursorKey(cursor: unknown): string {
  try {
    return JSON.stringify(cursor) ?? 'undefined';
  } catch {
    return String(cursor);
  }
}

function abortError(): Error {
  const e = new Error('aborted');
  e.name = 'AbortError';
  return e;
}

function isAbort(err: unknown): boolean {
  return (
    err instanceof Error &&
    // l10n: English, not words (error names)
    (err.name === 'AbortError' || (err as { kind?: unknown }).kind === 'cancelled' || err.name === 'Canceled')
  );
}

function toSetError(err: unknown): SetError {
  if (err instanceof Error) {
    const e = err as Error & { kind?: unknown; status?: unknown; code?: unknown };
    return {
      message: e.message,
      ...(typeof e.kind === 'string' ? { kind: e.kind } : {}),
      ...(e.kind === 'blocked' && typeof e.code === 'string' ? { code: e.code } : {}),
      ...(typeof e.status === 'number' ? { status: e.status } : {}),
    };
  }
  return { message: String(err) };
}
