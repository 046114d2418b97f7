/**
 * Retries of the transport. Every call is an idempotent read, so these are retried: 408,
 * 429, 502, 503, 504 and a connection reset before the response, with capped full-jitter
 * exponential backoff; a `Retry-After` (seconds or HTTP-date) is honoured up to
 * `maxRetryAfterMs`, and one longer is not slept (the caller pauses automatic lookups).
 */
import type { OdinApiError } from './errors';

export interface RetryOptions {
  /** Attempts in total, the first included (default 3; 1 disables retries). */
  maxAttempts?: number;
  /** Backoff base: attempt n waits a random time in [0, min(maxDelayMs, base·2^(n-1))] (default 300). */
  baseDelayMs?: number;
  /** Cap of one backoff sleep (default 5000). */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is not slept; the error is thrown at once (default 10000). */
  maxRetryAfterMs?: number;
  /** Source of jitter in [0, 1) (tests pass a fixed one). */
  random?: () => number;
}

const RETRY_STATUSES = new Set([408, 429, 502, 503, 504]);

/** The options with their defaults. */
export function retryPolicy(opts: RetryOptions = {}): Required<RetryOptions> {
  return {
    maxAttempts: Math.max(1, opts.maxAttempts ?? 3),
    baseDelayMs: opts.baseDelayMs ?? 300,
    maxDelayMs: opts.maxDelayMs ?? 5000,
    maxRetryAfterMs: opts.maxRetryAfterMs ?? 10_000,
    random: opts.random ?? Math.random,
  };
}

export function isRetryable(err: OdinApiError): boolean {
  if (err.status !== undefined) return RETRY_STATUSES.has(err.status);
  return err.kind === 'network' && err.network === 'reset';
}

/** The full-jitter backoff before attempt `attempts + 1`, before any `Retry-After`. */
export function backoff(policy: Required<RetryOptions>, attempts: number): number {
  return policy.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempts - 1));
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP-date; `undefined` if absent/invalid. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value == null) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!/[a-z]/i.test(v)) return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
