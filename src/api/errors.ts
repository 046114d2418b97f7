/**
 * Typed errors of the ODIN client. Every failure of an API call, whatever its cause
 * (HTTP status, network, deadline, cancellation, unreadable body), ends as one
 * `OdinApiError` whose `kind` callers switch on. `message` is short user text that says
 * what to do; `detail` is the longer text for the log. Neither ever contains the API key:
 * the transport redacts both (and every log line) before they leave it.
 */

export type OdinErrorKind =
  | 'badRequest'
  | 'auth'
  | 'forbidden'
  | 'quota'
  | 'notFound'
  | 'rateLimited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'tooLarge'
  | 'badResponse'
  | 'cancelled';

/** What kind of network failure a `network` error was (read from the Node error codes). */
export type NetworkFailure =
  'dns' | 'refused' | 'reset' | 'tls' | 'unreachable' | 'proxy' | 'proxyAuth' | 'insecure' | 'other';

export interface OdinApiErrorInit {
  kind: OdinErrorKind;
  /** Operation template, e.g. `GET /v1/hosts/{ip}` (never carries the looked-up value). */
  endpoint: string;
  message?: string;
  detail?: string;
  status?: number;
  retryAfterMs?: number;
  network?: NetworkFailure;
  /** How many HTTP attempts were made (1 when nothing was retried, 0 when none was sent). */
  attempts?: number;
  cause?: unknown;
}

export class OdinApiError extends Error {
  override readonly name = 'OdinApiError';
  readonly kind: OdinErrorKind;
  readonly endpoint: string;
  readonly status?: number;
  /** For `rateLimited` (and 503): how long the server asked us to wait. */
  readonly retryAfterMs?: number;
  /** For `network`: which part of the connection failed. */
  readonly network?: NetworkFailure;
  readonly attempts: number;
  /** Longer, technical text for the log. */
  readonly detail: string;

  constructor(init: OdinApiErrorInit) {
    super(init.message ?? defaultMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.endpoint = init.endpoint;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.network = init.network;
    this.attempts = init.attempts ?? 0;
    this.detail = init.detail ?? this.message;
  }

  /** A copy with other fields (used to add attempts, or to redact text). */
  with(patch: Partial<OdinApiErrorInit>): OdinApiError {
    return new OdinApiError({
      kind: this.kind,
      endpoint: this.endpoint,
      message: this.message,
      detail: this.detail,
      status: this.status,
      retryAfterMs: this.retryAfterMs,
      network: this.network,
      attempts: this.attempts,
      cause: this.cause,
      ...patch,
    });
  }
}

export function isOdinApiError(e: unknown): e is OdinApiError {
  return e instanceof OdinApiError;
}

const NETWORK_TEXT: Record<NetworkFailure, string> = {
  dns: 'the server name could not be resolved',
  refused: 'the connection was refused',
  reset: 'the connection was reset',
  tls: 'the secure connection failed (certificate or TLS problem)',
  unreachable: 'the network is unreachable',
  proxy: 'the proxy refused or failed the connection',
  proxyAuth: 'the proxy asks for authentication (HTTP 407)',
  insecure: 'plain http is only allowed to localhost; use an https:// API URL',
  other: 'the network request failed',
};

function seconds(ms: number): string {
  return `${Math.max(1, Math.ceil(ms / 1000))} s`;
}

/** The short, actionable user text for each kind. */
export function defaultMessage(
  init: Pick<OdinApiErrorInit, 'kind' | 'status' | 'retryAfterMs' | 'network'>,
): string {
  const status = init.status !== undefined ? ` (HTTP ${init.status})` : '';
  switch (init.kind) {
    case 'badRequest':
      return `ODIN rejected the request${status}. Check the query syntax and parameters.`;
    case 'auth':
      return "ODIN rejected the API key. Run 'ODIN: Set API Key'.";
    case 'forbidden':
      return `ODIN refused access${status}. Your plan may not include this data.`;
    case 'quota':
      return 'Your ODIN credits are used up. Check your plan or wait for the credits to renew.';
    case 'notFound':
      return 'ODIN has no data for this lookup.';
    case 'rateLimited':
      return init.retryAfterMs !== undefined
        ? `ODIN is rate-limiting requests. Try again in ${seconds(init.retryAfterMs)}.`
        : 'ODIN is rate-limiting requests. Try again shortly.';
    case 'server':
      return `ODIN had a server problem${status}. Try again later.`;
    case 'network':
      if (init.network === 'proxyAuth') {
        return 'Your proxy asks for authentication (HTTP 407), so ODIN was not reached. Check the proxy settings (http.proxy, http.proxyAuthorization).';
      }
      return `Could not reach ODIN: ${NETWORK_TEXT[init.network ?? 'other']}. Check your network and proxy settings.`;
    case 'timeout':
      return 'ODIN did not answer in time. Try again later.';
    case 'tooLarge':
      return 'The ODIN response was too large and was not loaded.';
    case 'badResponse':
      return 'ODIN sent a response that could not be read.';
    case 'cancelled':
      return 'The request was cancelled.';
  }
}

/** The kind an HTTP status maps to (2xx never reaches here). */
export function kindForStatus(status: number): OdinErrorKind {
  // A proxy between us and ODIN wants credentials: a network problem, not a query problem.
  if (status === 407) return 'network';
  if (status === 400) return 'badRequest';
  if (status === 401) return 'auth';
  if (status === 402) return 'quota';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'notFound';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rateLimited';
  if (status >= 500 && status <= 599) return 'server';
  if (status >= 400 && status <= 499) return 'badRequest';
  return 'badResponse';
}

const NET_CODES: Array<[RegExp, NetworkFailure]> = [
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)$/, 'dns'],
  [/^ECONNREFUSED$/, 'refused'],
  [/^(ECONNRESET|EPIPE|ECONNABORTED|UND_ERR_SOCKET|UND_ERR_CLOSED)$/, 'reset'],
  [
    /^(EHOSTUNREACH|ENETUNREACH|ENETDOWN|EHOSTDOWN|EADDRNOTAVAIL|ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT)$/,
    'unreachable',
  ],
  [/^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_OSSL_|HOSTNAME_MISMATCH)/, 'tls'],
];

/** Walks an error's `cause` chain and returns the Node/undici codes and messages in it. */
export function causeChain(e: unknown): Array<{ code?: string; message: string; name?: string }> {
  const out: Array<{ code?: string; message: string; name?: string }> = [];
  let cur: unknown = e;
  for (let i = 0; i < 8 && cur != null; i++) {
    if (typeof cur === 'object') {
      const o = cur as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown };
      out.push({
        code: typeof o.code === 'string' ? o.code : undefined,
        message: typeof o.message === 'string' ? o.message : String(cur),
        name: typeof o.name === 'string' ? o.name : undefined,
      });
      cur = o.cause;
    } else {
      out.push({ message: String(cur) });
      break;
    }
  }
  return out;
}

/** Classifies a thrown fetch error (not an abort) as one of the network failures. */
export function classifyNetworkError(e: unknown): NetworkFailure {
  const chain = causeChain(e);
  for (const link of chain) {
    const code = link.code ?? '';
    for (const [re, failure] of NET_CODES) if (re.test(code)) return failure;
  }
  const text = chain.map((l) => l.message).join(' | ');
  // undici's ProxyAgent: "Proxy response (407) !== 200 when HTTP Tunneling".
  if (/\b407\b|proxy[- ]auth/i.test(text)) return 'proxyAuth';
  if (/proxy|tunnel/i.test(text)) return 'proxy';
  if (/certificate|tls|ssl/i.test(text)) return 'tls';
  if (/other side closed|socket hang up|reset|terminated/i.test(text)) return 'reset';
  if (/getaddrinfo|ENOTFOUND/i.test(text)) return 'dns';
  if (/refused/i.test(text)) return 'refused';
  return 'other';
}

/** One line describing a cause chain, for `detail`. */
export function describeCause(e: unknown): string {
  return causeChain(e)
    .map((l) => (l.code ? `${l.code}: ${l.message}` : l.message))
    .join(' <- ');
}

/** An error raised inside a request, before the transport redacts it and counts attempts. */
export function requestError(
  req: { endpoint: string },
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
