/**
 * The ODIN API emulator: a real loopback HTTP server (node:http, no dependencies) serving
 * the 17 endpoints of the interface spec over a generated dataset, in two dialects, with
 * injectable faults and a request log. Used by the client's tests, the VS Code integration
 * tests, the benchmarks and the extension's "try with demo data" mode.
 *
 * Choices where the spec and ODIN-FACTS are silent (all deliberate, tests rely on them):
 * - Auth: `X-API-Key` (any header case). Missing or wrong key on a keyed endpoint → 401
 *   `{success:false,message}`. Endpoints 4, 11, 15, 16, 17, ping and /__admin work without
 *   a key, but a WRONG key is still 401 there. The key is never logged or echoed.
 * - Unknown IP / domain / CVE-on-host: 404 `{success:false,message}` by default, or 200
 *   `{success:true,data:null}` with `notFound: 'null'`. Malformed IP, domain or CVE id: 400.
 * - `limit`: default 10, maximum 100 (larger values are clamped, negative/non-integer → 400).
 * - Host search: sorted by `last_updated_at` desc (unique per host). `pagination.last` is
 *   `[epoch_ms, scan_id]` (spec, integers) or `[epoch_ms, score]` (live, float score);
 *   send it back as `start`; only `start[0]` is used. `start` is `[]` (spec) / `null` (live)
 *   on page one, `total` is capped at 10000. After the last hit the next page is empty
 *   (`last` `[]` / `null`; live answers `data: null` for an empty page).
 * - Domain search: sorted by `added_at` desc then name; cursor `[{added_at, subdomain}]`
 *   (spec) or plain values `[added_at_ms, position]` (live, numbers as the Go CLI decodes
 *   them). Bucket search: sorted by `sort_by` (ins_at default; also scan_at, files,
 *   new_files, sensitive_files, last_found_at, age_in_days, name) and `sort_dir` (desc
 *   default), ties by name; cursor `[{<sort_by>: value, name}]` (spec) or `[value, name]`
 *   (live, dates as epoch ms). Either form is accepted back. On the last page `last` is
 *   `null` in live; in spec it is still the last item's cursor (the next page is then
 *   empty, `last: []`).
 * - Beyond the 17, as the official clients call them: `GET /v1/ping`, `GET /v1/credits/usage`
 *   (live: top-level `{search, expires_on}` with epoch seconds; spec: enveloped, ISO date),
 *   `POST /v1/hosts/count` (`{query}` → `{count}`), `GET /v1/hosts/cve/{ip}/` (every CVE,
 *   a map by id) and `POST /v1/domain/subdomain/search` (`{domain, limit, start}` → names).
 * - Domain search/count need `domain` or `keyword`; subdomain count needs `domain`;
 *   `publishedAfter`/`publishedBefore` are YYYY-MM-DD or ISO 8601 (else 400). `domain`
 *   matches the registered domain and its subdomains; `keyword` is a substring of the name.
 * - CVE endpoints 12/13/14: `data` is a map CVE id → details in both dialects (the spec
 *   only says "object"; the live shape fills the gap). 12: pages are 1-based, 10 per page,
 *   highest score first; a page past the end is `{}`. 13: only CVEs with exploits.
 * - Whois history: all snapshots newest first, meta `{limit: 100, pageState: ""}`; the
 *   current record is the first snapshot. Whois of a subdomain is "not found".
 * - Field catalogue categories: all, general, asn, location, services, tags, hostnames,
 *   domains, whois; unknown category → 400.
 * - Bodies: at most 1 MB (413); invalid JSON or a non-object body → 400; an empty body is
 *   `{}`. Unknown path → 404 JSON; known path with the wrong method → 405.
 * - Query language: see query/parse.ts. Queries over 8 KB, nested deeper than 32 or with more
 *   than 512 clauses → 400. Unknown fields match nothing (like Elasticsearch).
 * - Spec dialect: host `banner` carries the banner texts; software sub-objects are `{}`
 *   (the spec types them as objects without fields); file-summary buckets carry
 *   `{key, doc_count}` (the spec shows them as objects without fields).
 * - Paths are served with and without a trailing slash in both dialects.
 * - Faults apply to /v1 paths only (never to /__admin), header before rules; a rule's
 *   `path` is a regex source tested against the path without query.
 * - The request log keeps the newest 10,000 entries; /__admin requests are not logged.
 * The admin API (`/__admin/...`, no key) is in `admin.ts`.
 * One-off fault: request header `X-Emulator-Fault: <JSON Fault>` (invalid → 400).
 */
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { type AdminState, handleAdmin } from './admin';
import { CreditBudget, type CreditLimits } from './budget';
import { changeDataset, type ChangeSummary } from './change';
import { type Dataset, DAY, generateDataset, generateDatasetAsync } from './dataset';
import type { Dialect } from './dialect';
import { answerWithFault, FaultRules, writeReply } from './faultReplies';
import { type Fault, type FaultRule, parseFault } from './faults';
import { FEED_FAULTS, FEED_PATHS, serveFeed, type FeedFault, type FeedKind } from './feeds';
import { DEMO_API_KEY } from './fixtures';
import { BadRequest, type Body, type Credits, type Ctx, fail, type Reply } from './handlers/common';
import { BodyTooLarge, readBody, sendJson, type Timers } from './httpIo';
import { QueryError } from './query/parse';
import { matchRoute, type Route } from './routes';

export type { Dataset } from './dataset';
export type { Dialect } from './dialect';
export type { Fault, FaultRule } from './faults';
export { DEMO_API_KEY } from './fixtures';

export interface EmulatorOptions {
  /** 0 = random free port (default). */
  port?: number;
  host?: '127.0.0.1';
  /** PRNG seed; default 1. */
  seed?: number;
  /** Number of hosts; default 5000 (the named fixtures are always included). */
  hosts?: number;
  /** Default 'spec'. */
  dialect?: Dialect;
  /** Default DEMO_API_KEY. */
  apiKey?: string;
  /** How unknown ip/domain/cve answer; default '404'. */
  notFound?: '404' | 'null';
  /** Added to every /v1 response; default 0. */
  latencyMs?: number;
  /** A credit budget requests spend; 402 once spent (default: counted, never refused). */
  credits?: CreditLimits;
}

export interface RequestLogEntry {
  time: number;
  method: string;
  /** Path without query. */
  path: string;
  /** e.g. 'hosts.get', 'hosts.search', ... or 'unknown'. */
  endpoint: string;
  ip?: string;
  domain?: string;
  /** Parsed JSON body of POSTs. */
  body?: unknown;
  /** Whether an X-API-Key header was sent (never the key itself). */
  hadKey: boolean;
  keyValid: boolean;
  status: number;
  fault?: string;
}

export interface Emulator {
  /** http://127.0.0.1:PORT */
  url: string;
  apiKey: string;
  dialect: Dialect;
  requests: RequestLogEntry[];
  injectFault(rule: FaultRule): void;
  clearFaults(): void;
  clearLog(): void;
  setDialect(d: Dialect): void;
  /** Sets the credits left and enforces them (402 when spent). */
  setCredits(limits: CreditLimits): void;
  /** Closes the server and every socket, hanging ones included. */
  close(): Promise<void>;
  /** Read-only access to the generated data. */
  dataset: Dataset;
  /** Serves a feed (`/feeds/kev.json`, `/feeds/epss.csv.gz`) faulty until set back to 'ok' (feeds.ts). */
  setFeedFault(kind: FeedKind, fault: FeedFault): void;
  /** Applies a seeded change of the data (change.ts); changes add up until `resetChange`. */
  applyChange(seed: number): ChangeSummary;
  resetChange(): void;
  /** Moves the data to dated state `n` (0: the generated data; n: after the changes of seeds 1..n). */
  setState(n: number): DatasetState & { changes: ChangeSummary[] };
  /** The dated state the data is in. */
  state(): DatasetState;
}

/** A dated state of the emulator's data. */
export interface DatasetState {
  state: number;
  /** YYYY-MM-DD: the base data's day plus `state` days. */
  date: string;
}

const MAX_STATE = 30;

const MAX_LOG = 10_000;

/**
 * Datasets are read-only, so emulators started with the same seed and size on the same day
 * share one (test suites start many emulators). Only the two most recent are kept.
 */
const datasetCache = new Map<string, Promise<Dataset>>();

function sharedDataset(seed: number, hosts: number): Promise<Dataset> {
  const key = `${seed}:${hosts}:${Math.floor(Date.now() / 86_400_000)}`;
  let ds = datasetCache.get(key);
  if (!ds) {
    ds = generateDatasetAsync({ seed, hosts });
    datasetCache.set(key, ds);
    ds.catch(() => datasetCache.delete(key));
    while (datasetCache.size > 2) datasetCache.delete(datasetCache.keys().next().value as string);
  }
  return ds;
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const apiKey = opts.apiKey ?? DEMO_API_KEY;
  const notFoundMode = opts.notFound ?? '404';
  const baseLatency = Math.max(0, opts.latencyMs ?? 0);
  let dialect: Dialect = opts.dialect ?? 'spec';
  let dataset: Dataset | undefined;
  const getDataset = (): Dataset =>
    (dataset ??= generateDataset({ seed: opts.seed ?? 1, hosts: opts.hosts ?? 5000 }));
  let baseDataset: Dataset | undefined;
  const applyChange = (seed: number): ChangeSummary => {
    baseDataset ??= getDataset();
    const changed = changeDataset(getDataset(), seed);
    dataset = changed.dataset;
    return changed.summary;
  };
  const resetChange = (): void => {
    if (baseDataset) dataset = baseDataset;
    stateNow = 0;
  };
  // Dated states of the data: state n is the base data after the changes of seeds 1..n, dated
  // n days after the base (a snapshot, a change, a snapshot, a diff; the demo's timeline).
  let stateNow = 0;
  const stateInfo = (): DatasetState => ({
    state: stateNow,
    date: new Date((baseDataset ?? getDataset()).anchor + stateNow * DAY).toISOString().slice(0, 10),
  });
  const setState = (n: number): DatasetState & { changes: ChangeSummary[] } => {
    if (!Number.isInteger(n) || n < 0 || n > MAX_STATE)
      throw new Error(`state must be an integer 0..${MAX_STATE}`);
    resetChange();
    const changes: ChangeSummary[] = [];
    for (let i = 1; i <= n; i++) changes.push(applyChange(i));
    stateNow = n;
    return { ...stateInfo(), changes };
  };
  const log: RequestLogEntry[] = [];
  const rules = new FaultRules();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closing = false;
  const credits: Credits = {
    hostLeft: 4870,
    hostPlan: 5000,
    bucketLeft: 960,
    bucketPlan: 1000,
    expiresOn: new Date(Math.floor(Date.now() / 86_400_000 + 200) * 86_400_000).toISOString(),
  };
  const budget = new CreditBudget(credits);
  if (opts.credits) budget.configure(opts.credits);
  const feedFaults: Record<FeedKind, FeedFault> = { kev: 'ok', epss: 'ok' };
  const setFeedFault = (kind: FeedKind, fault: FeedFault): void => {
    if (!(kind in feedFaults)) throw new Error("feed must be 'kev' or 'epss'");
    if (!FEED_FAULTS.includes(fault)) throw new Error(`feed fault must be one of ${FEED_FAULTS.join(', ')}`);
    feedFaults[kind] = fault;
  };

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => (ms > 0 ? later(ms, resolve) : resolve()));
  const io: Timers = {
    later,
    get closing() {
      return closing;
    },
  };
  const admin: AdminState = {
    health: () => ({
      ok: true,
      dialect,
      seed: opts.seed ?? 1,
      hosts: opts.hosts ?? 5000,
      notFound: notFoundMode,
    }),
    log,
    rules,
    get dialect() {
      return dialect;
    },
    set dialect(d: Dialect) {
      dialect = d;
    },
    budget,
    applyChange,
    resetChange,
    setState,
    state: stateInfo,
    setFeedFault,
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let path = url.pathname;
    while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    if (path === '/__admin' || path.startsWith('/__admin/')) return handleAdmin(admin, req, res, path, port);

    const keyHeader = req.headers['x-api-key'];
    const key = Array.isArray(keyHeader) ? keyHeader[0] : keyHeader;
    const hadKey = typeof key === 'string' && key !== '';
    const keyValid = hadKey && key === apiKey;
    const feed = (Object.keys(FEED_PATHS) as FeedKind[]).find((k) => FEED_PATHS[k] === path);
    if (feed && (method === 'GET' || method === 'HEAD')) {
      const feedEntry: RequestLogEntry = {
        time: Date.now(),
        method,
        path: url.pathname,
        endpoint: `feeds.${feed}`,
        hadKey,
        keyValid,
        status: 0,
      };
      if (feedFaults[feed] !== 'ok') feedEntry.fault = `feed:${feedFaults[feed]}`;
      log.push(feedEntry);
      if (log.length > MAX_LOG) log.splice(0, log.length - MAX_LOG);
      feedEntry.status = serveFeed(feed, feedFaults[feed], req, res);
      return;
    }
    const { route: r, params: rawParams, methodMismatch } = matchRoute(method, path);
    const entry: RequestLogEntry = {
      time: Date.now(),
      method,
      path: url.pathname,
      endpoint: r?.endpoint ?? 'unknown',
      hadKey,
      keyValid,
      status: 0,
    };
    log.push(entry);
    if (log.length > MAX_LOG) log.splice(0, log.length - MAX_LOG);

    // Body first (so the log shows what was sent), then fault, then the answer.
    let body: Body = {};
    let bodyError: Reply | undefined;
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
      try {
        const raw = (await readBody(req)).toString('utf8');
        if (raw.trim() !== '') {
          const parsed: unknown = JSON.parse(raw);
          entry.body = parsed;
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
            bodyError = fail(400, 'Request body must be a JSON object');
          } else body = parsed as Body;
        }
      } catch (e) {
        bodyError =
          e instanceof BodyTooLarge ? fail(413, 'Request body too large') : fail(400, 'Invalid JSON body');
      }
    }
    let params: string[] = [];
    try {
      params = rawParams.map((p) => decodeURIComponent(p));
    } catch {
      bodyError ??= fail(400, 'Invalid percent-encoding in path');
      params = rawParams;
    }
    if (r?.ipParam !== undefined) entry.ip = params[r.ipParam];
    if (r?.domainParam !== undefined) entry.domain = params[r.domainParam];

    let fault: Fault | undefined;
    const faultHeader = req.headers['x-emulator-fault'];
    if (path.startsWith('/v1/') || path === '/v1') {
      if (typeof faultHeader === 'string' && faultHeader !== '') {
        try {
          fault = parseFault(JSON.parse(faultHeader));
        } catch (e) {
          entry.status = 400;
          sendJson(res, 400, {
            success: false,
            message: `Invalid X-Emulator-Fault: ${e instanceof Error ? e.message : ''}`,
          });
          return;
        }
      } else fault = rules.take(url.pathname);
    }
    if (fault) entry.fault = fault.kind;

    await sleep(baseLatency + (fault?.kind === 'latency' ? fault.ms : 0));
    if (closing || res.destroyed) return;

    if (answerWithFault(fault, req, res, entry, (m) => errorBody(r?.endpoint, m), io)) return;

    const reply = answer(r, params, body, bodyError, methodMismatch, hadKey, keyValid);
    if (reply.status >= 400 && reply.text === undefined) {
      reply.body = errorBody(r?.endpoint, (reply.body as { message?: string } | undefined)?.message ?? '');
    }
    entry.status = reply.status;
    writeReply(reply, fault, req, res, io);
  }

  /** The error body: `{success, message}`, plus ` error` on host search in the spec dialect. */
  function errorBody(endpoint: string | undefined, message: string): Record<string, unknown> {
    if (endpoint === 'hosts.search' && dialect === 'spec')
      return { success: false, message, ' error': message };
    return { success: false, message };
  }

  function answer(
    r: Route | undefined,
    params: string[],
    body: Body,
    bodyError: Reply | undefined,
    methodMismatch: boolean,
    hadKey: boolean,
    keyValid: boolean,
  ): Reply {
    if (!r) return methodMismatch ? fail(405, 'Method not allowed') : fail(404, 'Not found');
    if (r.key !== 'none' && hadKey && !keyValid) return fail(401, 'Invalid API key');
    if (r.key === 'required' && !hadKey) return fail(401, 'API key is required (X-API-Key header)');
    if (bodyError) return bodyError;
    const ctx: Ctx = { ds: getDataset(), dialect, notFound: notFoundMode, credits };
    const refused = budget.refuse(r.endpoint);
    if (refused) return refused;
    try {
      const reply = r.handler(ctx, params, body);
      if (reply.status === 200) budget.spend(r.endpoint);
      return reply;
    } catch (e) {
      if (e instanceof BadRequest || e instanceof QueryError) return fail(400, e.message);
      return fail(500, 'Internal server error');
    }
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent && !res.destroyed)
        sendJson(res, 500, { success: false, message: 'Internal server error' });
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  // Generated before the first request, in slices so an in-process host (the extension)
  // keeps answering meanwhile.
  dataset ??= await sharedDataset(opts.seed ?? 1, opts.hosts ?? 5000);

  const emulator: Emulator = {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    get dialect() {
      return dialect;
    },
    set dialect(d: Dialect) {
      dialect = d;
    },
    requests: log,
    injectFault: (rule) => rules.inject(rule),
    clearFaults: () => rules.clear(),
    clearLog: () => {
      log.length = 0;
    },
    setDialect: (d) => {
      if (d !== 'spec' && d !== 'live') throw new Error("dialect must be 'spec' or 'live'");
      dialect = d;
    },
    setCredits: (limits) => budget.configure(limits),
    setFeedFault,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        sockets.clear();
      }),
    get dataset() {
      return getDataset();
    },
    applyChange,
    resetChange,
    setState,
    state: stateInfo,
  };
  return emulator;
}
