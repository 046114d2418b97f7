/**
 * One result set of the results view: what was searched, the pages loaded so far, the
 * cursor of the next page, and the state of the last load. No VS Code here (the bench
 * and the unit tests run it in plain Node); the fetcher is injected.
 *
 * A failed or cancelled load keeps everything already loaded: the error sits beside the
 * items and "Retry" loads the same page again.
 */
import type { ResultItem } from '../../../core/resultItem';
import type { SearchSpec } from '../../../core/savedSearches';

export interface PageResult {
  items: ResultItem[];
  /** Total matches the service reports (may be capped, e.g. 10,000 on host search). */
  total?: number;
  /** Cursor of the next page; `undefined` when this was the last one. */
  next?: unknown;
  /** Facts about what is not listed (e.g. "5,462 more documents in other values"). */
  notes?: string[];
}

export type PageFetcher = (cursor: unknown, limit: number, signal: AbortSignal) => Promise<PageResult>;

export interface SetError {
  message: string;
  kind?: string;
  status?: number;
}

export type SetStatus = 'idle' | 'loading' | 'ready' | 'error';

let nextId = 1;

export class ResultSet {
  readonly id = `r${nextId++}`;
  readonly createdAt = Date.now();
  items: ResultItem[] = [];
  total: number | undefined;
  notes: string[] = [];
  status: SetStatus = 'idle';
  error: SetError | undefined;
  pages = 0;
  /** True once a page came back without a next cursor. */
  done = false;
  /** The last load was cancelled by the user (what was loaded stays). */
  cancelled = false;
  private cursor: unknown = undefined;
  private controller: AbortController | undefined;
  private inFlight: Promise<boolean> | undefined;

  constructor(
    readonly spec: SearchSpec,
    private readonly fetcher: PageFetcher,
    readonly pageSize: number,
    private readonly onChange: (set: ResultSet) => void = () => undefined,
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
  loadNext(signal?: AbortSignal): Promise<boolean> {
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
        const page = await this.fetcher(this.cursor, this.pageSize, controller.signal);
        if (controller.signal.aborted) throw abortError();
        for (const item of page.items) this.items.push(item);
        if (page.total !== undefined) this.total = page.total;
        if (page.notes) this.notes = page.notes;
        this.pages++;
        this.cursor = page.next;
        this.done = page.next === undefined;
        this.status = 'ready';
        return true;
      } catch (err) {
        if (controller.signal.aborted || isAbort(err)) {
          this.cancelled = true;
          this.status = this.pages === 0 ? 'error' : 'ready';
          if (this.pages === 0)
            this.error = { message: 'Cancelled before the first page arrived.', kind: 'cancelled' };
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
   * Loads pages until the end, `maxItems`, cancellation or an error. `progress` is called
   * after each page. Returns how many items were added.
   */
  async loadAll(
    signal?: AbortSignal,
    progress?: (set: ResultSet) => void,
    maxItems = 100_000,
  ): Promise<number> {
    const before = this.items.length;
    while (!this.done && !signal?.aborted && this.items.length < maxItems) {
      const ok = await this.loadNext(signal);
      progress?.(this);
      if (!ok) break;
    }
    return this.items.length - before;
  }

  /** Cancels the load in flight, if any (items already loaded stay). */
  cancel(): void {
    this.controller?.abort();
  }

  /** "25 of 10,000" (or "25" when the total is unknown). */
  countText(): string {
    const n = this.items.length.toLocaleString('en-US');
    if (this.total === undefined) return this.done ? n : `${n} so far`;
    return `${n} of ${this.total.toLocaleString('en-US')}`;
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
    (err.name === 'AbortError' || (err as { kind?: unknown }).kind === 'cancelled' || err.name === 'Canceled')
  );
}

function toSetError(err: unknown): SetError {
  if (err instanceof Error) {
    const e = err as Error & { kind?: unknown; status?: unknown };
    return {
      message: e.message,
      ...(typeof e.kind === 'string' ? { kind: e.kind } : {}),
      ...(typeof e.status === 'number' ? { status: e.status } : {}),
    };
  }
  return { message: String(err) };
}
