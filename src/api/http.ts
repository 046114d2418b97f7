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
import {
  OdinApiError,
  classifyNetworkError,
  describeCause,
  kindForStatus,
  type NetworkFailure,
  type OdinErrorKind,
} from './errors';
import { envelopeErrorText, parseJson } from './normalize';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
export type Logger = (level: LogLevel, msg: string) => void;

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
const ERROR_BODY_CAP = 64 * 1024;
const RETRY_STATUSES = new Set([408, 429, 502, 503, 504]);

// ---------------------------------------------------------------- base URL

/** `prefix` is origin + base path without a trailing slash: request paths are appended to it. */
export type BaseUrlCheck = { ok: true; url: URL; prefix: string } | { ok: false; reason: string };

/** True for localhost, 127.0.0.0/8 and ::1 (on a hostname already canonicalised by `URL`). */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Validates an API base URL: https, or http to loopback; no credentials, query or fragment. */
export function checkBaseUrl(raw: string): BaseUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'the API URL is not a valid URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: `the API URL must use https (got ${url.protocol})` };
  }
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname)) {
    return { ok: false, reason: 'plain http is only allowed to localhost; use an https:// API URL' };
  }
  if (url.username || url.password) return { ok: false, reason: 'the API URL must not contain credentials' };
  if (url.search || url.hash) return { ok: false, reason: 'the API URL must not have a query or fragment' };
  return { ok: true, url, prefix: url.origin + url.pathname.replace(/\/+$/, '') };
}

// ---------------------------------------------------------------- helpers

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP-date; `undefined` if absent/invalid. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value == null) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!/[a-z]/i.test(v)) return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

const JSON_TYPE = /^\s*application\/(?:[a-z0-9.+-]*\+)?json\s*(?:;|$)/i;
const HTML_TYPE = /^\s*(?:text\/html|application\/xhtml\+xml)\s*(?:;|$)/i;

/** Visible ASCII only: anything else cannot go in a header (and undici would echo it in its error). */
const KEY_SHAPE = /^[\x21-\x7e]{1,512}$/;

class AbortedByDeadline extends Error {}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
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

function shortText(s: string, max = 300): string {
  const clean = s.replace(/[\x00-\x1f\x7f]+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}

/** An error raised inside an attempt, before redaction and attempt counting. */
function fail(
  req: HttpRequest,
  kind: OdinErrorKind,
  detail: string,
  extra: {
    status?: number;
    retryAfterMs?: number;
    network?: NetworkFailure;
    cause?: unknown;
    message?: string;
  } = {},
): OdinApiError {
  return new OdinApiError({ kind, endpoint: req.endpoint, detail: `${req.endpoint}: ${detail}`, ...extra });
}

// ---------------------------------------------------------------- transport

export class HttpTransport {
  private readonly base: BaseUrlCheck;
  private readonly fetchFn: typeof fetch;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly retry: Required<RetryOptions>;
  private readonly userAgent: string;
  /** Keys seen recently, for redaction of every text that leaves the transport. */
  private readonly keys: string[] = [];

  constructor(private readonly opts: TransportOptions) {
    this.base = checkBaseUrl(opts.baseUrl);
    // Resolved per call, so the (patched) global fetch is the one in place at call time.
    this.fetchFn = opts.fetch ?? ((input, init) => fetch(input, init));
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.retry = {
      maxAttempts: Math.max(1, opts.retry?.maxAttempts ?? 3),
      baseDelayMs: opts.retry?.baseDelayMs ?? 300,
      maxDelayMs: opts.retry?.maxDelayMs ?? 5000,
      maxRetryAfterMs: opts.retry?.maxRetryAfterMs ?? 10_000,
      random: opts.retry?.random ?? Math.random,
    };
    this.userAgent = opts.userAgent ?? 'odin-vscode';
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

  async request(req: HttpRequest, signal?: AbortSignal): Promise<HttpResponse> {
    if (!this.base.ok) {
      throw fail(req, 'network', `refused base URL: ${this.base.reason}`, {
        network: 'insecure',
        message: `The ODIN API URL was refused: ${this.base.reason}.`,
      });
    }
    if (signal?.aborted) throw fail(req, 'cancelled', 'cancelled before the request was sent');

    let key: string | undefined;
    if (req.key !== 'none') {
      try {
        key = (await this.opts.apiKey())?.trim() || undefined;
      } catch (e) {
        throw fail(req, 'auth', `reading the API key failed: ${describeCause(e)}`, {
          message: "The ODIN API key could not be read. Run 'ODIN: Set API Key'.",
        });
      }
      if (key !== undefined) this.remember(key);
      if (key !== undefined && !KEY_SHAPE.test(key)) {
        throw this.finish(
          fail(req, 'auth', 'the stored API key has characters a header cannot carry', {
            message: "The ODIN API key contains invalid characters. Run 'ODIN: Set API Key' again.",
          }),
          0,
        );
      }
      if (key === undefined && req.key === 'required') {
        throw fail(req, 'auth', 'no API key set; request not sent', {
          message: "No ODIN API key is set. Run 'ODIN: Set API Key'.",
        });
      }
    }
    if (signal?.aborted) throw fail(req, 'cancelled', 'cancelled before the request was sent');

    const url = new URL(this.base.prefix + req.path);
    if (url.href !== this.base.prefix + req.path) {
      throw fail(req, 'badRequest', 'the request path does not stay below the API URL', {
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
        ? fail(req, 'timeout', `no complete answer within ${this.timeoutMs} ms (${phase})`)
        : fail(req, 'cancelled', `cancelled (${phase})`);

    let attempts = 0;
    try {
      for (;;) {
        attempts++;
        const started = Date.now();
        this.log('debug', `→ ${req.method} ${url.pathname}${attempts > 1 ? ` (attempt ${attempts})` : ''}`);
        let err: OdinApiError;
        try {
          const res = await this.attempt(req, url, key, call.signal, aborted);
          this.log('debug', `← ${res.status} ${req.method} ${url.pathname} in ${Date.now() - started} ms`);
          return { ...res, attempts };
        } catch (e) {
          err = e instanceof OdinApiError ? e : fail(req, 'badResponse', describeCause(e), { cause: e });
        }
        this.log(
          err.kind === 'cancelled' ? 'debug' : 'info',
          `✗ ${req.method} ${url.pathname} after ${Date.now() - started} ms: ${err.detail}`,
        );
        if (!this.isRetryable(err) || attempts >= this.retry.maxAttempts) throw this.finish(err, attempts);

        const cap = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempts - 1));
        let delay = this.retry.random() * cap;
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

  private isRetryable(err: OdinApiError): boolean {
    if (err.status !== undefined) return RETRY_STATUSES.has(err.status);
    return err.kind === 'network' && err.network === 'reset';
  }

  /** One HTTP exchange; its own controller tears the connection down if the body is not read to the end. */
  private async attempt(
    req: HttpRequest,
    url: URL,
    key: string | undefined,
    callSignal: AbortSignal,
    aborted: (phase: string) => OdinApiError,
  ): Promise<{ status: number; body: unknown }> {
    const ctl = new AbortController();
    const onAbort = (): void => ctl.abort(callSignal.reason);
    if (callSignal.aborted) throw aborted('before sending');
    callSignal.addEventListener('abort', onAbort, { once: true });
    let complete = false;
    try {
      const headers: Record<string, string> = {
        Accept: req.expect === 'text' ? 'text/plain, application/json' : 'application/json',
        'User-Agent': this.userAgent,
      };
      if (key !== undefined && req.key !== 'none') headers['X-API-Key'] = key;
      let body: string | undefined;
      if (req.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(req.body);
      }

      let res: Response;
      try {
        res = await this.fetchFn(url.href, {
          method: req.method,
          headers,
          body,
          signal: ctl.signal,
          redirect: 'manual',
          credentials: 'omit',
        });
      } catch (e) {
        if (callSignal.aborted) throw aborted('waiting for the response headers');
        const network = classifyNetworkError(e);
        throw fail(req, 'network', `${network}: ${describeCause(e)}`, { network, cause: e });
      }

      const status = res.status;
      const contentType = res.headers.get('content-type') ?? '';
      const length = Number(res.headers.get('content-length') ?? NaN);

      if (res.type === 'opaqueredirect' || (status >= 300 && status < 400)) {
        const location = res.headers.get('location');
        throw fail(
          req,
          'badResponse',
          `HTTP ${status} redirect${location ? ` to ${shortText(this.redact(location), 200)}` : ''} not followed`,
          { status, message: 'ODIN answered with a redirect, which is not followed. Check the API URL.' },
        );
      }

      if (status < 200 || status > 299) {
        const kind = kindForStatus(status);
        const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
        let serverText = '';
        try {
          const bytes = await this.readBody(res, ERROR_BODY_CAP, callSignal, true);
          const text = bytes === 'tooLarge' ? '' : new TextDecoder().decode(bytes);
          if (JSON_TYPE.test(contentType)) serverText = envelopeErrorText(parseJson(text)) ?? '';
          else if (HTML_TYPE.test(contentType)) serverText = 'HTML error page (from a proxy or CDN?)';
          else serverText = text;
        } catch {
          if (callSignal.aborted) throw aborted('reading an error body');
          // The status is what matters; an unreadable error body only loses its message.
        }
        complete = true;
        // Redacted before it is cut: a cut through the key would leave a prefix no redaction finds.
        serverText = this.redact(serverText);
        const base = fail(
          req,
          kind,
          `HTTP ${status}${serverText ? `: ${shortText(serverText)}` : ''}${retryAfterMs !== undefined ? ` (Retry-After ${retryAfterMs} ms)` : ''}`,
          { status, retryAfterMs, network: status === 407 ? 'proxyAuth' : undefined },
        );
        // A 400 carries the server's reason, which is what the user needs to fix the query.
        throw kind === 'badRequest' && serverText && JSON_TYPE.test(contentType)
          ? base.with({ message: `ODIN rejected the request: ${shortText(serverText, 160)}` })
          : base;
      }

      if (Number.isFinite(length) && length > this.maxBytes) {
        throw fail(req, 'tooLarge', `Content-Length ${length} exceeds the cap of ${this.maxBytes} bytes`, {
          status,
        });
      }
      const isJson = JSON_TYPE.test(contentType);
      if (req.expect !== 'text' && !isJson) {
        throw fail(
          req,
          'badResponse',
          `expected JSON, got ${HTML_TYPE.test(contentType) ? 'an HTML page' : `content-type "${shortText(contentType, 80)}"`} with HTTP ${status}`,
          { status },
        );
      }

      const bytes = await this.readBody(res, this.maxBytes, callSignal, false).catch((e: unknown) => {
        if (callSignal.aborted) throw aborted('reading the body');
        if (e instanceof OdinApiError) throw e;
        throw fail(req, 'badResponse', `the body was cut off: ${describeCause(e)}`, { status, cause: e });
      });
      if (bytes === 'tooLarge') {
        throw fail(req, 'tooLarge', `body passed the cap of ${this.maxBytes} bytes while streaming`, {
          status,
        });
      }
      complete = true;
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
      } catch (e) {
        throw fail(req, 'badResponse', 'the body is not valid UTF-8', { status, cause: e });
      }
      if (req.expect === 'text' && !isJson) return { status, body: text };
      try {
        return { status, body: parseJson(text) };
      } catch (e) {
        throw fail(
          req,
          'badResponse',
          `invalid or truncated JSON (${bytes.byteLength} bytes): ${describeCause(e)}`,
          { status, cause: e },
        );
      }
    } finally {
      callSignal.removeEventListener('abort', onAbort);
      // Closes the connection of a body we did not read to the end (cap passed, wrong type, error).
      if (!complete) ctl.abort(new Error('response abandoned'));
    }
  }

  /**
   * Reads a body through a reader, counting bytes. Returns `'tooLarge'` (after cancelling
   * the stream) once more than `cap` bytes arrive, or, with `truncate`, what arrived so far.
   */
  private async readBody(
    res: Response,
    cap: number,
    signal: AbortSignal,
    truncate: boolean,
  ): Promise<Uint8Array | 'tooLarge'> {
    if (!res.body) return new Uint8Array(0);
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    // A fetch that does not tie its body to the signal still stops when the deadline fires.
    const onAbort = (): void => void reader.cancel(signal.reason).catch(() => undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (signal.aborted) throw signal.reason;
        if (done) break;
        if (size + value.byteLength > cap) {
          await reader.cancel('size cap passed').catch(() => undefined);
          if (!truncate) return 'tooLarge';
          chunks.push(value.subarray(0, cap - size));
          size = cap;
          break;
        }
        size += value.byteLength;
        chunks.push(value);
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    return concat(chunks, size);
  }
}
