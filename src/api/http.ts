/**
 * HTTP transport of the ODIN client: deadline, cancellation, retries, size cap, content
 * checks, key handling. Built only on the standard `fetch` API.
 *
 * Why no undici Agent / dispatcher here: inside VS Code the extension host patches the
 * global `fetch` so that requests honour the user's proxy settings (`http.proxy`, PAC,
 * Kerberos/NTLM) and the system certificate store, and it replaces any `dispatcher` passed
 * in. A bundled undici Agent would bypass all of that: the extension would fail behind
 * corporate proxies and TLS-inspecting gateways. So the client calls the host-provided
 * global `fetch` (or the `fetch` it is given), never passes a `dispatcher`, and implements
 * everything it needs on top of the standard API, which works identically through the
 * patched fetch:
 *  - a total deadline per call (headers AND body, retries and backoff included): one
 *    AbortController aborted by our own timer or by the caller's signal; the timer is
 *    cleared and the listener removed when the call settles, so nothing keeps running.
 *    (Rather than `AbortSignal.any([signal, AbortSignal.timeout(ms)])`: that leaves a
 *    timer pending for the full deadline after every call, and on Node 20 `any()` keeps
 *    its dependants alive as long as a long-lived parent signal lives. Linking by hand
 *    also tells us which of the two fired: `timeout` versus `cancelled`.)
 *  - cancellation: the same controller, checked between attempts and during backoff;
 *  - the response-size cap: Content-Length checked up front, then counted while reading
 *    `res.body` through a reader, which is cancelled (and the attempt aborted, closing the
 *    socket) as soon as the cap is passed; bodies are counted after decompression;
 *  - `redirect: 'manual'`: a 3xx is an error and is never followed, so the key cannot be
 *    forwarded to another origin (undici forwards custom headers across origins);
 *  - `http:` is refused unless the host is loopback (127.0.0.0/8, ::1, localhost).
 * test/unit/api/proxy.test.ts proves it through a real HTTP proxy with a `fetch` built the
 * way VS Code's patched fetch is (undici fetch + a ProxyAgent dispatcher).
 *
 * Retries: all 17 endpoints (and ping / credits) are read-only queries, including the POST
 * searches, counts and summaries, so every call is an idempotent read and may be retried.
 * Retried: 408, 429, 502, 503, 504 and a connection reset before the response, at most
 * `maxAttempts` in total, with capped full-jitter exponential backoff; `Retry-After`
 * (seconds or HTTP-date) is honoured, and one longer than `maxRetryAfterMs` is not slept:
 * the error is thrown at once with `retryAfterMs` so the caller can pause automatic
 * lookups. Never retried: 400, 401, 402, 403, 404, 500, other network failures, bad bodies.
 */
import { OdinApiError, describeCause, requestError } from './errors';
import { exchange, type Exchange } from './response';
import { backoff, isRetryable, retryPolicy, sleep, type RetryOptions } from './retry';

export { parseRetryAfter, type RetryOptions } from './retry';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
/**
 * Receives the transport's lines. `writes`, when given, says whether a level is written at all:
 * a line of a level it does not write is never formatted (two lines a request).
 */
export type Logger = ((level: LogLevel, msg: string) => void) & { writes?: (level: LogLevel) => boolean };

export interface TransportOptions {
  /** `https://api.odin.io`; `http:` only for loopback. */
  baseUrl: string;
  /** Read on every call (so a changed key is picked up); never stored. */
  apiKey: () => string | undefined | Promise<string | undefined>;
  /** Defaults to the global (in VS Code: the host-patched, proxy-aware) `fetch`. */
  fetch?: typeof fetch;
  /** Total deadline of one call, retries included (default 30 000 ms). */
  timeoutMs?: number;
  /** Response-size cap, after decompression (default 16 MiB). */
  maxResponseBytes?: number;
  retry?: RetryOptions;
  log?: Logger;
  userAgent?: string;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Path below the base URL, built from encoded segments: `/v1/hosts/1.2.3.4`. */
  path: string;
  /** Template for errors and logs: `GET /v1/hosts/{ip}`. */
  endpoint: string;
  body?: unknown;
  /** `required`: no key → `auth` error without a request; `optional`: sent when set; `none`: never sent. */
  key: 'required' | 'optional' | 'none';
  /** `json` (default) or `text` (ping). */
  expect?: 'json' | 'text';
}

export interface HttpResponse {
  status: number;
  /** Parsed JSON (forbidden keys dropped), or the text for `expect: 'text'`. */
  body: unknown;
  attempts: number;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

// ---------------------------------------------------------------- base URL

/** `prefix` is origin + base path without a trailing slash: request paths are appended to it. */
export type BaseUrlCheck = { ok: true; url: URL; prefix: string } | { ok: false; reason: string };

/** True for localhost, 127.0.0.0/8 and ::1 (on a hostname already canonicalised by `URL`). */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Validates an API base URL: https, or http to loopback; no credentials, query or fragment.
 * The one rule for every URL the extension fetches from (the exploitation feeds pass `what`).
 */
export function checkBaseUrl(raw: string, what = 'the API URL'): BaseUrlCheck {
  const noun = what.replace(/^the /, '');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `${what} is not a valid URL` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: `${what} must use https (got ${url.protocol})` };
  }
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname)) {
    return { ok: false, reason: `plain http is only allowed to localhost; use an https:// ${noun}` };
  }
  if (url.username || url.password) return { ok: false, reason: `${what} must not contain credentials` };
  if (url.search || url.hash) return { ok: false, reason: `${what} must not have a query or fragment` };
  return { ok: true, url, prefix: url.origin + url.pathname.replace(/\/+$/, '') };
}

/** Visible ASCII only: anything else cannot go in a header (and undici would echo it in its error). */
const KEY_SHAPE = /^[\x21-\x7e]{1,512}$/;

class AbortedByDeadline extends Error {}

// ---------------------------------------------------------------- transport

export class HttpTransport {
  private readonly base: BaseUrlCheck;
  private readonly timeoutMs: number;
  private readonly retry: Required<RetryOptions>;
  private readonly exchangeWith: Exchange;
  /** Keys seen recently, for redaction of every text that leaves the transport. */
  private readonly keys: string[] = [];

  constructor(private readonly opts: TransportOptions) {
    this.base = checkBaseUrl(opts.baseUrl);
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = retryPolicy(opts.retry);
    this.exchangeWith = {
      // Resolved per call, so the (patched) global fetch is the one in place at call time.
      fetch: opts.fetch ?? ((input, init) => fetch(input, init)),
      userAgent: opts.userAgent ?? 'odin-vscode',
      maxBytes: opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      redact: (text) => this.redact(text),
    };
  }

  /** The validated base URL (without trailing slash), or the reason it was refused. */
  get baseUrl(): BaseUrlCheck {
    return this.base;
  }

  /** Replaces every known key (and its URL-encoded form) in a text. */
  redact(text: string): string {
    let out = text;
    for (const k of this.keys) {
      out = out.split(k).join('[redacted]');
      const enc = encodeURIComponent(k);
      if (enc !== k) out = out.split(enc).join('[redacted]');
    }
    return out;
  }

  /** Whether a line of `level` reaches a logger (checked before a line is formatted). */
  logs(level: LogLevel): boolean {
    const log = this.opts.log;
    return !!log && (log.writes?.(level) ?? true);
  }

  log(level: LogLevel, msg: string): void {
    try {
      this.opts.log?.(level, this.redact(msg));
    } catch {
      // A failing logger must not fail the call.
    }
  }

  private remember(key: string): void {
    if (key.length < 4 || this.keys.includes(key)) return;
    this.keys.unshift(key);
    this.keys.length = Math.min(this.keys.length, 4);
  }

  /** An error made outside the transport (by the client), redacted like the transport's own. */
  scrub(e: OdinApiError): OdinApiError {
    return this.finish(e, e.attempts);
  }

  /** The error as callers see it: texts redacted, attempts counted, cause scrubbed of the key. */
  private finish(e: OdinApiError, attempts: number): OdinApiError {
    let cause: unknown = e.cause;
    if (cause !== undefined) {
      const text = describeCause(cause);
      if (this.redact(text) !== text) cause = new Error(this.redact(text));
    }
    return e.with({ message: this.redact(e.message), detail: this.redact(e.detail), attempts, cause });
  }

  /** The key a request sends (read now, so a new key holds at once); refused when unusable or missing but required. */
  private async keyFor(req: HttpRequest): Promise<string | undefined> {
    let key: string | undefined;
    try {
      key = (await this.opts.apiKey())?.trim() || undefined;
    } catch (e) {
      throw requestError(req, 'auth', `reading the API key failed: ${describeCause(e)}`, {
        message: "The ODIN API key could not be read. Run 'ODIN: Set API Key'.",
      });
    }
    if (key !== undefined) this.remember(key);
    if (key !== undefined && !KEY_SHAPE.test(key)) {
      throw this.finish(
        requestError(req, 'auth', 'the stored API key has characters a header cannot carry', {
          message: "The ODIN API key contains invalid characters. Run 'ODIN: Set API Key' again.",
        }),
        0,
      );
    }
    if (key === undefined && req.key === 'required') {
      throw requestError(req, 'auth', 'no API key set; request not sent', {
        message: "No ODIN API key is set. Run 'ODIN: Set API Key'.",
      });
    }
    return key;
  }

  async request(req: HttpRequest, signal?: AbortSignal): Promise<HttpResponse> {
    if (!this.base.ok) {
      throw requestError(req, 'network', `refused base URL: ${this.base.reason}`, {
        network: 'insecure',
        message: `The ODIN API URL was refused: ${this.base.reason}.`,
      });
    }
    if (signal?.aborted) throw requestError(req, 'cancelled', 'cancelled before the request was sent');

    const key = req.key === 'none' ? undefined : await this.keyFor(req);
    if (signal?.aborted) throw requestError(req, 'cancelled', 'cancelled before the request was sent');

    const url = new URL(this.base.prefix + req.path);
    if (url.href !== this.base.prefix + req.path) {
      throw requestError(req, 'badRequest', 'the request path does not stay below the API URL', {
        message: 'The lookup value is not valid for ODIN.',
      });
    }

    // One controller for the whole call: aborted by the deadline timer or by the caller.
    const call = new AbortController();
    let abortedBy: 'deadline' | 'caller' | undefined;
    const onCallerAbort = (): void => {
      abortedBy ??= 'caller';
      call.abort(signal?.reason);
    };
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    const deadline = Date.now() + this.timeoutMs;
    const timer = setTimeout(() => {
      abortedBy ??= 'deadline';
      call.abort(new AbortedByDeadline(`deadline of ${this.timeoutMs} ms passed`));
    }, this.timeoutMs);

    const aborted = (phase: string): OdinApiError =>
      abortedBy === 'deadline'
        ? requestError(req, 'timeout', `no complete answer within ${this.timeoutMs} ms (${phase})`)
        : requestError(req, 'cancelled', `cancelled (${phase})`);

    let attempts = 0;
    try {
      for (;;) {
        attempts++;
        const started = Date.now();
        if (this.logs('debug'))
          this.log('debug', `→ ${req.method} ${url.pathname}${attempts > 1 ? ` (attempt ${attempts})` : ''}`);
        let err: OdinApiError;
        try {
          const res = await exchange(this.exchangeWith, req, url, key, call.signal, aborted);
          if (this.logs('debug'))
            this.log('debug', `← ${res.status} ${req.method} ${url.pathname} in ${Date.now() - started} ms`);
          return { ...res, attempts };
        } catch (e) {
          err =
            e instanceof OdinApiError ? e : requestError(req, 'badResponse', describeCause(e), { cause: e });
        }
        this.log(
          err.kind === 'cancelled' ? 'debug' : 'info',
          `✗ ${req.method} ${url.pathname} after ${Date.now() - started} ms: ${err.detail}`,
        );
        if (!isRetryable(err) || attempts >= this.retry.maxAttempts) throw this.finish(err, attempts);

        let delay = backoff(this.retry, attempts);
        if (err.retryAfterMs !== undefined) {
          if (err.retryAfterMs > this.retry.maxRetryAfterMs) {
            this.log('warn', `${req.endpoint}: Retry-After ${err.retryAfterMs} ms is too long; not waiting`);
            throw this.finish(err, attempts);
          }
          delay = Math.max(delay, err.retryAfterMs);
        }
        if (Date.now() + delay >= deadline) {
          // Sleeping would only end in a timeout: report the real cause now.
          throw this.finish(err, attempts);
        }
        this.log('info', `${req.endpoint}: retrying in ${Math.round(delay)} ms (attempt ${attempts + 1})`);
        try {
          await sleep(delay, call.signal);
        } catch {
          throw this.finish(aborted('waiting to retry'), attempts);
        }
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }
}
