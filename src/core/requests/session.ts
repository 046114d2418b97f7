/**
 * A session outside VS Code (the MCP server, a command-line run) in one call: the API client,
 * the cache, the limiter, the request layer, the session's ledger with its budget, and the
 * gate. Whatever it sends goes through the search catalogue (`searchVia`, `searchPages` with
 * `session` as the env and `session.current` as the gate), so the ledger counts all of it.
 *
 * Pure Node: no `vscode` import.
 */
import { OdinClient } from '../../api/client';
import { checkBaseUrl } from '../../api/http';
import { Gate, type GateSettings } from '../gate';
import { ResultCache, type CacheTtls } from './cache';
import { RequestLayer } from './layer';
import { parseBudget, SessionLedger } from './ledger';
import { Limiter } from './limiter';

const HOUR = 3_600_000;
/** The TTLs of a session without settings (the extension's defaults). */
export const SESSION_TTLS: CacheTtls = {
  host: 24 * HOUR,
  whois: 72 * HOUR,
  count: 24 * HOUR,
  notFound: 6 * HOUR,
};

export interface SessionOptions {
  /** The API base URL (https, or http on loopback only); refused otherwise. */
  baseUrl: string;
  /** The key, read per request (never logged). */
  apiKey: () => string | undefined;
  userAgent: string;
  timeoutMs?: number;
  /** The session budget in credits (undefined: none); see `budgetFromEnv`. */
  budget?: number;
  /**
   * The gate's settings (re-read per call when a function). Default: `onCommand`, trusted,
   * no lists: a command-line run is the user's own action.
   */
  gate?: Partial<GateSettings> | (() => Partial<GateSettings>);
  /** The cache's file (kept across runs) and size; memory only without a file. */
  cache?: { file?: string; maxEntries?: number; maxBytes?: number; ttlMs?: CacheTtls };
  limits?: { perMinute?: number; maxConcurrent?: number };
  log?: (level: string, message: string) => void;
}

export interface Session {
  /** The API origin (scheme + host + port). */
  readonly origin: string;
  client(): OdinClient;
  readonly requests: RequestLayer;
  readonly ledger: SessionLedger;
  readonly cache: ResultCache;
  /** The gate now (for `searchPages` and `decideCall`): never a Restricted Mode consent. */
  current(): { gate: Gate; consented: boolean };
  dispose(): void;
}

/** The session budget from the environment (`ODIN_SESSION_BUDGET`), or why it is refused. */
export function budgetFromEnv(env: NodeJS.ProcessEnv): { budget?: number } | { error: string } {
  const r = parseBudget(env.ODIN_SESSION_BUDGET);
  return 'error' in r ? { error: `ODIN_SESSION_BUDGET is ${r.error}` } : r;
}

/** Builds a session; throws `Error` with a short message when the base URL is refused. */
export function createSession(opts: SessionOptions): Session {
  const check = checkBaseUrl(opts.baseUrl);
  // l10n: English, for the command line
  if (!check.ok) throw new Error(`refusing the API base URL: ${check.reason}.`);
  const log = opts.log ?? (() => undefined);
  const client = new OdinClient({
    baseUrl: check.prefix,
    apiKey: opts.apiKey,
    timeoutMs: opts.timeoutMs ?? 30_000,
    userAgent: opts.userAgent,
    log: (level, msg) => log(level, msg),
  });
  const origin = new URL(check.prefix).origin;
  const cache = new ResultCache({
    ttlMs: opts.cache?.ttlMs ?? SESSION_TTLS,
    maxEntries: opts.cache?.maxEntries ?? 2000,
    ...(opts.cache?.maxBytes !== undefined ? { maxBytes: opts.cache.maxBytes } : {}),
    ...(opts.cache?.file ? { file: opts.cache.file } : {}),
    onProblem: (m) => log('warn', m),
  });
  const ledger = new SessionLedger({ budget: opts.budget });
  const requests = new RequestLayer({
    cache,
    limiter: new Limiter({
      perMinute: opts.limits?.perMinute ?? 60,
      maxConcurrent: opts.limits?.maxConcurrent ?? 4,
    }),
    origin: () => origin,
    log: (level, message) => log(level, message),
    ledger,
  });
  let gate: { key: string; gate: Gate } | undefined;
  const current = (): { gate: Gate; consented: boolean } => {
    const s = typeof opts.gate === 'function' ? opts.gate() : (opts.gate ?? {});
    const settings: GateSettings = { mode: 'onCommand', trusted: true, ...s };
    const key = JSON.stringify(settings);
    if (gate?.key !== key) gate = { key, gate: new Gate(settings) };
    return { gate: gate.gate, consented: false };
  };
  return {
    origin,
    client: () => client,
    requests,
    ledger,
    cache,
    current,
    dispose() {
      requests.dispose();
      cache.dispose();
    },
  };
}
