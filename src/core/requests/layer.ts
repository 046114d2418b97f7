/**
 * The one request layer every lookup goes through (hovers, the lookup command, trees and
 * detail pages): cache first, then one request in flight per target, within the
 * client-side limits, with automatic lookups paused after an auth/quota/forbidden answer
 * or a long Retry-After.
 *
 * - Single flight: however many callers ask for the same (origin, kind, target) at once,
 *   one request is sent. A caller whose signal aborts detaches at once; the request itself
 *   is aborted only when no caller still waits for it.
 * - Pause (`pause.ts`): after 401/402/403, or a 429 whose Retry-After is longer than
 *   `pauseAfterRetryMs`, automatic lookups stop (cached results, even stale ones, are
 *   still served) until `resume()`, or until the Retry-After time has passed. Explicit
 *   lookups still go through: the user asked.
 *
 * Pure Node: no `vscode` import.
 */
import { OdinApiError } from '../../api/errors';
import type { RequestBudget } from './budget';
import { cacheKey, type ResultCache, type TtlClass } from './cache';
import type { SessionLedger } from './ledger';
import { LimiterAbortError, type Limiter } from './limiter';
import { LookupPause, type PauseState, type StateListener } from './pause';

export { MAX_TIMER_MS, pauseMessage, type PauseReason, type PauseState, type StateListener } from './pause';

export type LookupResult<T> =
  | { status: 'ok'; value: T; fromCache: boolean; storedAt: number; stale: boolean }
  | {
      status: 'notFound';
      fromCache: boolean;
      storedAt: number;
      stale: boolean;
      /**
       * A fresh "not found" did not replace an answer the cache holds (a weaker answer never
       * overwrites a stronger one silently): when that answer was stored. The cache keeps it;
       * the caller says both.
       */
      contradicts?: { storedAt: number };
    };

export interface GetOptions {
  signal?: AbortSignal;
  /** A hover or another lookup the user did not explicitly ask for. */
  automatic: boolean;
  /** Skip the cache (still single-flight) and store the new answer. */
  refresh?: boolean;
  /** Which TTL applies; default from the kind. */
  ttlClass?: TtlClass;
  /**
   * The count a person or an agent agreed to (budget.ts): a request this call sends is
   * charged to it as it leaves, and refused (`OverBudgetError`) once it is used up. A
   * cached answer, or a request already in flight for the same target, costs nothing.
   */
  budget?: RequestBudget;
  /** Credits a request of this call costs (the session ledger); default 1, 0 for a free call. */
  cost?: number;
}

/** Thrown for an automatic lookup while lookups are paused and nothing is cached. */
export class LookupsPausedError extends Error {
  override readonly name = 'LookupsPausedError';
  constructor(readonly pause: PauseState) {
    super(pause.message);
  }
}

export interface RequestLayerOptions {
  cache: ResultCache;
  limiter: Limiter;
  /** The API origin in use now (scheme + host + port). */
  origin: () => string;
  /** TTL class per kind; kinds not listed use 'host'. */
  ttlClassOf?: (kind: string) => TtlClass;
  /** A Retry-After longer than this pauses automatic lookups. Default 5000 ms. */
  pauseAfterRetryMs?: number;
  now?: () => number;
  log?: (level: 'debug' | 'info' | 'warn', message: string) => void;
  /**
   * The session's ledger (ledger.ts): every request this layer sends is charged to it as it
   * leaves, and a request that would pass the session budget is never sent.
   */
  ledger?: SessionLedger;
}

interface Flight {
  promise: Promise<LookupResult<unknown>>;
  controller: AbortController;
  waiters: number;
}

export class RequestLayer {
  private readonly flights = new Map<string, Flight>();
  /** Uncached requests (`send`) in flight, aborted on an origin switch. */
  private readonly sends = new Set<AbortController>();
  private lastOrigin: string | undefined;
  private readonly pauses: LookupPause;
  private readonly now: () => number;
  /** Requests actually sent (for status displays, tests and the bench). */
  sent = 0;

  constructor(private readonly options: RequestLayerOptions) {
    this.now = options.now ?? Date.now;
    this.pauses = new LookupPause(options);
  }

  get cache(): ResultCache {
    return this.options.cache;
  }

  /** The session's ledger, when the session keeps one. */
  get ledger(): SessionLedger | undefined {
    return this.options.ledger;
  }

  get paused(): PauseState | undefined {
    return this.pauses.state;
  }

  /** Subscribes to pause/resume changes. */
  onDidChangeState(listener: StateListener): { dispose(): void } {
    return this.pauses.onDidChange(listener);
  }

  /** Ends a pause (the resume command, a new key, a new origin). */
  resume(): void {
    this.pauses.resume();
  }

  /** Pauses automatic lookups (also used by tests and by callers that saw an API error). */
  pause(state: Omit<PauseState, 'since'>): void {
    this.pauses.pause(state);
  }

  /** Looks at an error any API caller got, and pauses when it calls for it. */
  noteError(err: unknown): void {
    this.pauses.noteError(err);
  }

  /** What the cache holds for a lookup, without sending anything (fresh or stale). */
  peek<T>(kind: string, target: string): LookupResult<T> | undefined {
    return this.peekKey<T>(cacheKey(this.options.origin(), kind, target));
  }

  private peekKey<T>(key: string): LookupResult<T> | undefined {
    const hit = this.options.cache.get<T>(key);
    if (!hit) return undefined;
    return hit.notFound
      ? { status: 'notFound', fromCache: true, storedAt: hit.storedAt, stale: !hit.fresh }
      : { status: 'ok', value: hit.value as T, fromCache: true, storedAt: hit.storedAt, stale: !hit.fresh };
  }

  /**
   * The answer for (kind, target): from the cache when fresh, else from `fetcher` (called
   * at most once per target at a time, with a signal that aborts when every caller left).
   * A `notFound` API error becomes a cached `{status: 'notFound'}`; other errors are thrown.
   */
  async get<T>(
    kind: string,
    target: string,
    fetcher: (signal: AbortSignal) => Promise<T>,
    opts: GetOptions,
  ): Promise<LookupResult<T>> {
    if (opts.signal?.aborted) throw cancelled();
    const origin = this.options.origin();
    if (origin !== this.lastOrigin) this.originChanged(origin);
    const key = cacheKey(origin, kind, target);
    if (!opts.refresh) {
      const cached = this.peekKey<T>(key);
      if (cached && !cached.stale) return cached;
      if (opts.automatic && this.pauses.state) {
        if (cached) return cached;
        throw new LookupsPausedError(this.pauses.state);
      }
    } else if (opts.automatic && this.pauses.state) {
      throw new LookupsPausedError(this.pauses.state);
    }

    let flight = this.flights.get(key);
    if (!flight) {
      const controller = new AbortController();
      const ttlClass = opts.ttlClass ?? this.options.ttlClassOf?.(kind) ?? 'host';
      const started: Flight = {
        controller,
        waiters: 0,
        promise: this.run(origin, key, ttlClass, fetcher, controller.signal, opts),
      };
      flight = started;
      this.flights.set(key, started);
      // Whatever happens, the next caller after this flight starts afresh.
      started.promise.then(
        () => this.flights.get(key) === started && this.flights.delete(key),
        () => this.flights.get(key) === started && this.flights.delete(key),
      );
    }
    return this.wait(key, flight, opts.signal) as Promise<LookupResult<T>>;
  }

  /**
   * One request that is not a cached lookup (a page of a search): within the same limiter,
   * never sent under an origin other than the one it was asked under, aborted when the
   * origin changes, counted in `sent`, and its error may pause automatic lookups like any
   * other answer's.
   */
  async send<T>(
    fetcher: (signal: AbortSignal) => Promise<T>,
    opts: { signal?: AbortSignal; automatic: boolean; budget?: RequestBudget; cost?: number },
  ): Promise<T> {
    if (opts.signal?.aborted) throw cancelled();
    opts.budget?.check();
    this.options.ledger?.check(opts.cost ?? 1);
    const origin = this.options.origin();
    if (origin !== this.lastOrigin) this.originChanged(origin);
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    this.sends.add(controller);
    try {
      const release = await this.options.limiter
        .acquire({ automatic: opts.automatic, signal: controller.signal })
        .catch((e: unknown) => {
          throw e instanceof LimiterAbortError ? cancelled() : e;
        });
      try {
        if (controller.signal.aborted || this.options.origin() !== origin) throw cancelled();
        this.charge(opts.budget, opts.cost);
        const value = await fetcher(controller.signal);
        if (this.options.origin() !== origin) throw cancelled();
        return value;
      } catch (err) {
        if (this.options.origin() === origin) this.noteError(err);
        throw err;
      } finally {
        release();
      }
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      this.sends.delete(controller);
    }
  }

  /**
   * Stores an answer obtained another way (one batched search answering for many targets)
   * under (kind, target) for the current origin: `undefined` stores "not found".
   */
  store(kind: string, target: string, value: unknown, ttlClass: TtlClass = 'host'): void {
    const key = cacheKey(this.options.origin(), kind, target);
    if (value === undefined) this.options.cache.setNotFound(key);
    else this.options.cache.set(key, value, ttlClass);
  }

  /** Drops what the cache holds for (kind, target) at the current origin. */
  forget(kind: string, target: string): void {
    this.options.cache.delete(cacheKey(this.options.origin(), kind, target));
  }

  dispose(): void {
    this.pauses.dispose();
    for (const flight of this.flights.values()) flight.controller.abort();
    this.flights.clear();
    for (const c of this.sends) c.abort();
  }

  /**
   * The API origin changed (demo data started or stopped, another API URL): every request in
   * flight for the old origin is aborted, so none of them goes on to send a key to an origin
   * that is no longer the one in use. Called by `get` when it sees a new origin, and by the
   * extension as soon as the setting or the demo state changes.
   */
  originChanged(origin = this.options.origin()): void {
    const previous = this.lastOrigin;
    this.lastOrigin = origin;
    if (previous === undefined || previous === origin) return;
    for (const flight of this.flights.values()) flight.controller.abort();
    this.flights.clear();
    for (const c of this.sends) c.abort();
    this.options.log?.('info', 'The API origin changed: requests in flight were stopped.');
  }

  private async run<T>(
    origin: string,
    key: string,
    ttlClass: TtlClass,
    fetcher: (signal: AbortSignal) => Promise<T>,
    signal: AbortSignal,
    opts: GetOptions,
  ): Promise<LookupResult<unknown>> {
    opts.budget?.check();
    this.options.ledger?.check(opts.cost ?? 1);
    const release = await this.options.limiter
      .acquire({ automatic: opts.automatic, signal })
      .catch((e: unknown) => {
        throw e instanceof LimiterAbortError ? cancelled() : e;
      });
    try {
      if (signal.aborted) throw cancelled();
      // Queued under one origin, run after a switch: never sent (nor cached) under the old one.
      if (this.options.origin() !== origin) throw cancelled();
      // Charged here, after the limiter let it through: a request it refused was never sent.
      this.charge(opts.budget, opts.cost);
      const value = await fetcher(signal);
      if (this.options.origin() !== origin) throw cancelled();
      this.options.cache.set(key, value, ttlClass);
      return { status: 'ok', value, fromCache: false, storedAt: this.now(), stale: false };
    } catch (err) {
      if (err instanceof OdinApiError && err.kind === 'notFound' && this.options.origin() === origin) {
        // A "not found" (or an empty `{data:{}}`) never silently replaces an answer the cache
        // holds (a "vulnerable" verdict read as "unknown host"): the answer stays, and the
        // caller is told both.
        // A stale answer gives way (it has expired), but the caller still hears of it.
        const held = this.options.cache.get(key);
        const contradicts = held && !held.notFound ? { contradicts: { storedAt: held.storedAt } } : {};
        if (held && !held.notFound && held.fresh) {
          this.options.log?.(
            'warn',
            'ODIN answered "not found" for a target it answered before: the earlier answer is kept.',
          );
        } else {
          this.options.cache.setNotFound(key);
        }
        return { status: 'notFound', fromCache: false, storedAt: this.now(), stale: false, ...contradicts };
      }
      this.noteError(err);
      throw err;
    } finally {
      release();
    }
  }

  /**
   * A request leaves: the confirmation's count and the session's ledger are both checked
   * before either is charged, so a refusal by one leaves the other as it was.
   */
  private charge(budget: RequestBudget | undefined, cost = 1): void {
    budget?.check();
    this.options.ledger?.check(cost);
    budget?.charge();
    this.options.ledger?.charge(cost);
    this.sent++;
  }

  /** One caller's wait on a flight: rejects at once when its own signal aborts. */
  private wait(key: string, flight: Flight, signal: AbortSignal | undefined): Promise<LookupResult<unknown>> {
    flight.waiters++;
    return new Promise((resolve, reject) => {
      let done = false;
      const leave = (): void => {
        if (done) return;
        done = true;
        signal?.removeEventListener('abort', onAbort);
        flight.waiters--;
      };
      const onAbort = (): void => {
        if (done) return;
        leave();
        if (flight.waiters === 0) {
          flight.controller.abort();
          if (this.flights.get(key) === flight) this.flights.delete(key);
        }
        reject(cancelled());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (v) => {
          if (done) return;
          leave();
          resolve(v);
        },
        (e: unknown) => {
          if (done) return;
          leave();
          reject(e);
        },
      );
    });
  }
}

function cancelled(): OdinApiError {
  return new OdinApiError({ kind: 'cancelled', endpoint: 'lookup' });
}
