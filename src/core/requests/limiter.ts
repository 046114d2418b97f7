/**
 * Client-side limits on API requests: a token bucket for automatic lookups (hovers), so
 * sweeping the mouse over a log file cannot burn through the user's credits, and a cap on
 * requests in flight for every request. Explicit lookups (a command the user ran) skip the
 * bucket but still respect the concurrency cap.
 *
 * Pure Node: no `vscode` import.
 */
import { l10n } from '../text/l10n';

export interface LimiterOptions {
  /** Tokens added per minute (automatic lookups per minute). */
  perMinute: number;
  /** Requests in flight at once. */
  maxConcurrent: number;
  /** Bucket size (burst); default `perMinute`, at most 60. */
  burst?: number;
  /** An automatic request waits at most this long for a token before failing. Default 2000 ms. */
  maxWaitMs?: number;
  now?: () => number;
}

/** Thrown when the client-side rate limit would make an automatic lookup wait too long. */
export class LocalRateLimitError extends Error {
  override readonly name = 'LocalRateLimitError';
  constructor(readonly retryAfterMs: number) {
    super(
      l10n.t(
        'Local limit of automatic lookups reached; next one possible in {0} s.',
        Math.ceil(retryAfterMs / 1000),
      ),
    );
  }
}

export class LimiterAbortError extends Error {
  override readonly name = 'AbortError';
  constructor() {
    super(l10n.t('The request was cancelled.'));
  }
}

interface Waiter {
  resolve: () => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class Limiter {
  private perMinute = 60;
  private maxConcurrent = 4;
  private burst = 60;
  private maxWaitMs: number;
  private tokens: number;
  private refilledAt: number;
  private active = 0;
  private readonly queue: Waiter[] = [];
  private readonly now: () => number;

  constructor(options: LimiterOptions) {
    this.now = options.now ?? (() => performance.now());
    this.maxWaitMs = options.maxWaitMs ?? 2000;
    this.setLimits(options);
    this.tokens = this.burst;
    this.refilledAt = this.now();
  }

  setLimits(options: Pick<LimiterOptions, 'perMinute' | 'maxConcurrent' | 'burst'>): void {
    this.perMinute = Math.max(0.001, options.perMinute);
    this.maxConcurrent = Math.max(1, Math.floor(options.maxConcurrent));
    this.burst = Math.max(1, Math.floor(options.burst ?? Math.min(60, this.perMinute)));
    if (this.tokens > this.burst) this.tokens = this.burst;
    this.pump();
  }

  /** Requests currently holding a slot. */
  get inFlight(): number {
    return this.active;
  }

  /** Tokens available now (fractional). */
  availableTokens(): number {
    this.refill();
    return this.tokens;
  }

  /**
   * Waits for a slot (and, for automatic requests, a token). Returns the release function,
   * to call exactly once when the request has finished. Rejects with `LocalRateLimitError`
   * when an automatic request would wait longer than `maxWaitMs` for a token, and with an
   * AbortError when `signal` aborts first.
   */
  async acquire(opts: { automatic: boolean; signal?: AbortSignal }): Promise<() => void> {
    if (opts.signal?.aborted) throw new LimiterAbortError();
    if (opts.automatic) await this.takeToken(opts.signal);
    await this.takeSlot(opts.signal);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.pump();
    };
  }

  private refill(): void {
    const now = this.now();
    const elapsed = Math.max(0, now - this.refilledAt);
    this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.perMinute) / 60_000);
    this.refilledAt = now;
  }

  private async takeToken(signal?: AbortSignal): Promise<void> {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return;
    }
    const waitMs = ((1 - this.tokens) * 60_000) / this.perMinute;
    if (waitMs > this.maxWaitMs) throw new LocalRateLimitError(waitMs);
    // Reserve the token now (tokens may go negative) so concurrent callers queue up fairly.
    this.tokens -= 1;
    try {
      await sleep(waitMs, signal);
    } catch (e) {
      this.tokens += 1;
      throw e;
    }
  }

  private takeSlot(signal?: AbortSignal): Promise<void> {
    if (this.active < this.maxConcurrent && this.queue.length === 0) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(new LimiterAbortError());
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
    });
  }

  private pump(): void {
    while (this.active < this.maxConcurrent && this.queue.length > 0) {
      const waiter = this.queue.shift() as Waiter;
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
      this.active++;
      waiter.resolve();
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new LimiterAbortError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new LimiterAbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
