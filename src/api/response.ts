/**
 * One HTTP exchange of the transport (`http.ts`): the request sent with `redirect: 'manual'`
 * and no credentials, then the answer checked before it is believed: a 3xx is an error,
 * error statuses become typed errors with the server's text, the size cap is held while
 * the body streams, the content type and UTF-8 are checked, and JSON is parsed without
 * `__proto__` keys.
 */
import { classifyNetworkError, describeCause, kindForStatus, OdinApiError, requestError } from './errors';
import type { HttpRequest } from './http';
import { envelopeErrorText } from './normalize/envelope';
import { parseJson, parseJsonInTurns } from './normalize/json';
import { parseRetryAfter } from './retry';
import { turn } from './slices';

const ERROR_BODY_CAP = 64 * 1024;
/**
 * From this size on, the body is decoded, parsed and searched for forbidden keys each in a task
 * of its own, with a turn of the event loop between (a page of 8 MB takes about 17 ms to
 * decode, 25 ms to parse and 13 ms to search: with the first slice of its hosts, one 60 ms
 * stretch in Load All's bench).
 */
const BIG_BODY = 512 * 1024;
const JSON_TYPE = /^\s*application\/(?:[a-z0-9.+-]*\+)?json\s*(?:;|$)/i;
const HTML_TYPE = /^\s*(?:text\/html|application\/xhtml\+xml)\s*(?:;|$)/i;

/** What an exchange needs from its transport. */
export interface Exchange {
  fetch: typeof fetch;
  userAgent: string;
  /** Response-size cap, after decompression. */
  maxBytes: number;
  /** Replaces every known key in a text. */
  redact(text: string): string;
}

type Aborted = (phase: string) => OdinApiError;

/** The request's headers (the key only where the endpoint takes one) and its JSON body. */
function requestInit(
  x: Exchange,
  req: HttpRequest,
  key: string | undefined,
): { headers: Record<string, string>; body?: string } {
  const headers: Record<string, string> = {
    Accept: req.expect === 'text' ? 'text/plain, application/json' : 'application/json',
    'User-Agent': x.userAgent,
  };
  if (key !== undefined && req.key !== 'none') headers['X-API-Key'] = key;
  if (req.body === undefined) return { headers };
  headers['Content-Type'] = 'application/json';
  return { headers, body: JSON.stringify(req.body) };
}

/** Sends the request; a failure before the headers is the network's (or the caller's abort). */
async function send(
  x: Exchange,
  req: HttpRequest,
  url: URL,
  init: { headers: Record<string, string>; body?: string },
  signal: AbortSignal,
  callSignal: AbortSignal,
  aborted: Aborted,
): Promise<Response> {
  try {
    return await x.fetch(url.href, {
      method: req.method,
      headers: init.headers,
      body: init.body,
      signal,
      redirect: 'manual',
      credentials: 'omit',
    });
  } catch (e) {
    if (callSignal.aborted) throw aborted('waiting for the response headers');
    const network = classifyNetworkError(e);
    throw requestError(req, 'network', `${network}: ${describeCause(e)}`, { network, cause: e });
  }
}

/** The error of a status outside 2xx, with the server's reason read from its (capped) error body. */
async function statusError(
  x: Exchange,
  req: HttpRequest,
  res: Response,
  callSignal: AbortSignal,
  aborted: Aborted,
): Promise<OdinApiError> {
  const status = res.status;
  const contentType = res.headers.get('content-type') ?? '';
  const kind = kindForStatus(status);
  const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
  let serverText = '';
  try {
    const bytes = await readBody(res, ERROR_BODY_CAP, callSignal, true);
    const text = bytes === 'tooLarge' ? '' : new TextDecoder().decode(bytes);
    if (JSON_TYPE.test(contentType)) serverText = envelopeErrorText(parseJson(text)) ?? '';
    else if (HTML_TYPE.test(contentType)) serverText = 'HTML error page (from a proxy or CDN?)';
    else serverText = text;
  } catch {
    if (callSignal.aborted) throw aborted('reading an error body');
    // The status is what matters; an unreadable error body only loses its message.
  }
  // Redacted before it is cut: a cut through the key would leave a prefix no redaction finds.
  serverText = x.redact(serverText);
  const base = requestError(
    req,
    kind,
    `HTTP ${status}${serverText ? `: ${shortText(serverText)}` : ''}${retryAfterMs !== undefined ? ` (Retry-After ${retryAfterMs} ms)` : ''}`,
    { status, retryAfterMs, network: status === 407 ? 'proxyAuth' : undefined },
  );
  // A 400 carries the server's reason, which is what the user needs to fix the query.
  return kind === 'badRequest' && serverText && JSON_TYPE.test(contentType)
    ? base.with({ message: `ODIN rejected the request: ${shortText(serverText, 160)}` })
    : base;
}

/** Refuses a 2xx answer that announces more than the cap, or that is not the type asked for. */
function checkAnswer(x: Exchange, req: HttpRequest, res: Response): void {
  const status = res.status;
  const contentType = res.headers.get('content-type') ?? '';
  const length = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(length) && length > x.maxBytes) {
    throw requestError(req, 'tooLarge', `Content-Length ${length} exceeds the cap of ${x.maxBytes} bytes`, {
      status,
    });
  }
  if (req.expect !== 'text' && !JSON_TYPE.test(contentType)) {
    throw requestError(
      req,
      'badResponse',
      `expected JSON, got ${HTML_TYPE.test(contentType) ? 'an HTML page' : `content-type "${shortText(contentType, 80)}"`} with HTTP ${status}`,
      { status },
    );
  }
}

/** Reads a 2xx body up to the cap. */
async function readAnswer(
  x: Exchange,
  req: HttpRequest,
  res: Response,
  callSignal: AbortSignal,
  aborted: Aborted,
): Promise<Uint8Array> {
  const status = res.status;
  const bytes = await readBody(res, x.maxBytes, callSignal, false).catch((e: unknown) => {
    if (callSignal.aborted) throw aborted('reading the body');
    if (e instanceof OdinApiError) throw e;
    throw requestError(req, 'badResponse', `the body was cut off: ${describeCause(e)}`, {
      status,
      cause: e,
    });
  });
  if (bytes === 'tooLarge') {
    throw requestError(req, 'tooLarge', `body passed the cap of ${x.maxBytes} bytes while streaming`, {
      status,
    });
  }
  return bytes;
}

/**
 * A read body as text (when text was asked for and it is not JSON) or parsed JSON; a big one
 * is decoded and parsed in turns, checking for the caller's abort between them.
 */
async function decodeAnswer(
  req: HttpRequest,
  bytes: Uint8Array,
  status: number,
  isJson: boolean,
  callSignal: AbortSignal,
  aborted: Aborted,
): Promise<unknown> {
  const big = bytes.byteLength >= BIG_BODY;
  const between = async (phase: string): Promise<void> => {
    if (!big) return;
    await turn();
    if (callSignal.aborted) throw aborted(phase);
  };
  await between('reading the body');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (e) {
    throw requestError(req, 'badResponse', 'the body is not valid UTF-8', { status, cause: e });
  }
  if (req.expect === 'text' && !isJson) return text;
  await between('decoding the body');
  let parsed: unknown;
  try {
    parsed = big ? await parseJsonInTurns(text, () => between('parsing the body')) : parseJson(text);
  } catch (e) {
    if (e instanceof OdinApiError) throw e;
    throw requestError(
      req,
      'badResponse',
      `invalid or truncated JSON (${bytes.byteLength} bytes): ${describeCause(e)}`,
      { status, cause: e },
    );
  }
  await between('parsing the body');
  return parsed;
}

/** One HTTP exchange; its own controller tears the connection down if the body is not read to the end. */
export async function exchange(
  x: Exchange,
  req: HttpRequest,
  url: URL,
  key: string | undefined,
  callSignal: AbortSignal,
  aborted: Aborted,
): Promise<{ status: number; body: unknown }> {
  const ctl = new AbortController();
  const onAbort = (): void => ctl.abort(callSignal.reason);
  if (callSignal.aborted) throw aborted('before sending');
  callSignal.addEventListener('abort', onAbort, { once: true });
  let complete = false;
  try {
    const res = await send(x, req, url, requestInit(x, req, key), ctl.signal, callSignal, aborted);
    const status = res.status;
    if (res.type === 'opaqueredirect' || (status >= 300 && status < 400)) {
      const location = res.headers.get('location');
      throw requestError(
        req,
        'badResponse',
        `HTTP ${status} redirect${location ? ` to ${shortText(x.redact(location), 200)}` : ''} not followed`,
        { status, message: 'ODIN answered with a redirect, which is not followed. Check the API URL.' },
      );
    }
    if (status < 200 || status > 299) {
      const error = await statusError(x, req, res, callSignal, aborted);
      complete = true;
      throw error;
    }
    checkAnswer(x, req, res);
    const bytes = await readAnswer(x, req, res, callSignal, aborted);
    complete = true;
    const isJson = JSON_TYPE.test(res.headers.get('content-type') ?? '');
    return { status, body: await decodeAnswer(req, bytes, status, isJson, callSignal, aborted) };
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
async function readBody(
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
