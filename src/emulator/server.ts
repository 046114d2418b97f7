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

/** The emulator's data: generated once, moved through dated states by seeded changes. */
class DatasetStates {
  private current: Dataset | undefined;
  private base: Dataset | undefined;
  // State n is the base data after the changes of seeds 1..n, dated n days after the base
  // (a snapshot, a change, a snapshot, a diff; the demo's timeline).
  private stateNow = 0;

  constructor(
    private readonly seed: number,
    private readonly hosts: number,
  ) {}

  get dataset(): Dataset {
    return (this.current ??= generateDataset({ seed: this.seed, hosts: this.hosts }));
  }

  /** Generated before the first request, in slices so an in-process host keeps answering meanwhile. */
  async prepare(): Promise<void> {
    this.current ??= await sharedDataset(this.seed, this.hosts);
  }

  readonly applyChange = (seed: number): ChangeSummary => {
    this.base ??= this.dataset;
    const changed = changeDataset(this.dataset, seed);
    this.current = changed.dataset;
    return changed.summary;
  };

  readonly resetChange = (): void => {
    if (this.base) this.current = this.base;
    this.stateNow = 0;
  };

  readonly state = (): DatasetState => ({
    state: this.stateNow,
    date: new Date((this.base ?? this.dataset).anchor + this.stateNow * DAY).toISOString().slice(0, 10),
  });

  readonly setState = (n: number): DatasetState & { changes: ChangeSummary[] } => {
    if (!Number.isInteger(n) || n < 0 || n > MAX_STATE)
      throw new Error(`state must be an integer 0..${MAX_STATE}`);
    this.resetChange();
    const changes: ChangeSummary[] = [];
    for (let i = 1; i <= n; i++) changes.push(this.applyChange(i));
    this.stateNow = n;
    return { ...this.state(), changes };
  };
}

/** The timers of delayed replies, all cleared when the emulator closes. */
class TimerSet implements Timers {
  private readonly timers = new Set<NodeJS.Timeout>();
  closing = false;

  readonly later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  };

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => (ms > 0 ? this.later(ms, resolve) : resolve()));
  }

  close(): void {
    this.closing = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** What a running emulator answers from: its settings and its mutable state. */
interface Served {
  readonly apiKey: string;
  readonly notFound: '404' | 'null';
  readonly baseLatency: number;
  dialect: Dialect;
  readonly data: DatasetStates;
  readonly log: RequestLogEntry[];
  readonly rules: FaultRules;
  readonly credits: Credits;
  readonly budget: CreditBudget;
  readonly feedFaults: Record<FeedKind, FeedFault>;
  readonly timers: TimerSet;
  readonly admin: AdminState;
  port: number;
}

/** The credits the emulator starts with: a paid plan, a little spent, renewed in 200 days. */
function startingCredits(): Credits {
  return {
    hostLeft: 4870,
    hostPlan: 5000,
    bucketLeft: 960,
    bucketPlan: 1000,
    expiresOn: new Date(Math.floor(Date.now() / 86_400_000 + 200) * 86_400_000).toISOString(),
  };
}

function feedFaultSetter(
  feedFaults: Record<FeedKind, FeedFault>,
): (kind: FeedKind, fault: FeedFault) => void {
  return (kind, fault) => {
    if (!(kind in feedFaults)) throw new Error("feed must be 'kev' or 'epss'");
    if (!FEED_FAULTS.includes(fault)) throw new Error(`feed fault must be one of ${FEED_FAULTS.join(', ')}`);
    feedFaults[kind] = fault;
  };
}

/** What the admin API (admin.ts) reads and changes. */
function adminState(opts: EmulatorOptions, s: Omit<Served, 'admin' | 'port'>): AdminState {
  return {
    health: () => ({
      ok: true,
      dialect: s.dialect,
      seed: opts.seed ?? 1,
      hosts: opts.hosts ?? 5000,
      notFound: s.notFound,
    }),
    log: s.log,
    rules: s.rules,
    get dialect() {
      return s.dialect;
    },
    set dialect(d: Dialect) {
      s.dialect = d;
    },
    budget: s.budget,
    applyChange: s.data.applyChange,
    resetChange: s.data.resetChange,
    setState: s.data.setState,
    state: s.data.state,
    setFeedFault: feedFaultSetter(s.feedFaults),
  };
}

function pushLog(log: RequestLogEntry[], entry: RequestLogEntry): void {
  log.push(entry);
  if (log.length > MAX_LOG) log.splice(0, log.length - MAX_LOG);
}

/** The key a request sent: whether it sent one, and whether it is the emulator's. */
function keyOf(req: http.IncomingMessage, apiKey: string): { hadKey: boolean; keyValid: boolean } {
  const keyHeader = req.headers['x-api-key'];
  const key = Array.isArray(keyHeader) ? keyHeader[0] : keyHeader;
  const hadKey = typeof key === 'string' && key !== '';
  return { hadKey, keyValid: hadKey && key === apiKey };
}

/** A request's JSON body (logged on `entry`), or the error reply a bad one gets. */
async function readJsonBody(
  req: http.IncomingMessage,
  method: string,
  entry: RequestLogEntry,
): Promise<{ body: Body; bodyError?: Reply }> {
  if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return { body: {} };
  try {
    const raw = (await readBody(req)).toString('utf8');
    if (raw.trim() === '') return { body: {} };
    const parsed: unknown = JSON.parse(raw);
    entry.body = parsed;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return { body: {}, bodyError: fail(400, 'Request body must be a JSON object') };
    return { body: parsed as Body };
  } catch (e) {
    return {
      body: {},
      bodyError:
        e instanceof BodyTooLarge ? fail(413, 'Request body too large') : fail(400, 'Invalid JSON body'),
    };
  }
}

/** The path's parameters percent-decoded, or as sent with an error when one does not decode. */
function decodeParams(rawParams: string[]): { params: string[]; error?: Reply } {
  try {
    return { params: rawParams.map((p) => decodeURIComponent(p)) };
  } catch {
    return { params: rawParams, error: fail(400, 'Invalid percent-encoding in path') };
  }
}

/**
 * The fault a /v1 request meets: the one its `X-Emulator-Fault` header names, else the next
 * matching rule; `invalid` when the header does not parse.
 */
function faultFor(
  req: http.IncomingMessage,
  path: string,
  pathname: string,
  rules: FaultRules,
): { fault?: Fault; invalid?: string } {
  if (!(path.startsWith('/v1/') || path === '/v1')) return {};
  const faultHeader = req.headers['x-emulator-fault'];
  if (typeof faultHeader !== 'string' || faultHeader === '') return { fault: rules.take(pathname) };
  try {
    return { fault: parseFault(JSON.parse(faultHeader)) };
  } catch (e) {
    return { invalid: `Invalid X-Emulator-Fault: ${e instanceof Error ? e.message : ''}` };
  }
}

/** A KEV or EPSS feed request: logged and served (feeds.ts); false when the path is no feed. */
function handleFeed(
  s: Served,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  method: string,
  path: string,
  url: URL,
): boolean {
  const feed = (Object.keys(FEED_PATHS) as FeedKind[]).find((k) => FEED_PATHS[k] === path);
  if (!feed || (method !== 'GET' && method !== 'HEAD')) return false;
  const feedEntry: RequestLogEntry = {
    time: Date.now(),
    method,
    path: url.pathname,
    endpoint: `feeds.${feed}`,
    ...keyOf(req, s.apiKey),
    status: 0,
  };
  if (s.feedFaults[feed] !== 'ok') feedEntry.fault = `feed:${s.feedFaults[feed]}`;
  pushLog(s.log, feedEntry);
  feedEntry.status = serveFeed(feed, s.feedFaults[feed], req, res);
  return true;
}

async function handle(s: Served, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  let path = url.pathname;
  while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  if (path === '/__admin' || path.startsWith('/__admin/'))
    return handleAdmin(s.admin, req, res, path, s.port);
  if (handleFeed(s, req, res, method, path, url)) return;

  const { hadKey, keyValid } = keyOf(req, s.apiKey);
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
  pushLog(s.log, entry);

  // Body first (so the log shows what was sent), then fault, then the answer.
  const read = await readJsonBody(req, method, entry);
  const decoded = decodeParams(rawParams);
  const params = decoded.params;
  const bodyError = read.bodyError ?? decoded.error;
  if (r?.ipParam !== undefined) entry.ip = params[r.ipParam];
  if (r?.domainParam !== undefined) entry.domain = params[r.domainParam];

  const { fault, invalid } = faultFor(req, path, url.pathname, s.rules);
  if (invalid !== undefined) {
    entry.status = 400;
    sendJson(res, 400, { success: false, message: invalid });
    return;
  }
  if (fault) entry.fault = fault.kind;

  await s.timers.sleep(s.baseLatency + (fault?.kind === 'latency' ? fault.ms : 0));
  if (s.timers.closing || res.destroyed) return;

  if (answerWithFault(fault, req, res, entry, (m) => errorBody(s, r?.endpoint, m), s.timers)) return;

  const reply = answer(s, r, params, read.body, bodyError, methodMismatch, hadKey, keyValid);
  if (reply.status >= 400 && reply.text === undefined) {
    reply.body = errorBody(s, r?.endpoint, (reply.body as { message?: string } | undefined)?.message ?? '');
  }
  entry.status = reply.status;
  writeReply(reply, fault, req, res, s.timers);
}

/** The error body: `{success, message}`, plus ` error` on host search in the spec dialect. */
function errorBody(s: Served, endpoint: string | undefined, message: string): Record<string, unknown> {
  if (endpoint === 'hosts.search' && s.dialect === 'spec')
    return { success: false, message, ' error': message };
  return { success: false, message };
}

function answer(
  s: Served,
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
  const ctx: Ctx = { ds: s.data.dataset, dialect: s.dialect, notFound: s.notFound, credits: s.credits };
  const refused = s.budget.refuse(r.endpoint);
  if (refused) return refused;
  try {
    const reply = r.handler(ctx, params, body);
    if (reply.status === 200) s.budget.spend(r.endpoint);
    return reply;
  } catch (e) {
    if (e instanceof BadRequest || e instanceof QueryError) return fail(400, e.message);
    return fail(500, 'Internal server error');
  }
}

/** The HTTP server over `handle`, its sockets kept so `close` can end hanging ones. */
function createServer(s: Served, sockets: Set<Socket>): http.Server {
  const server = http.createServer((req, res) => {
    handle(s, req, res).catch(() => {
      if (!res.headersSent && !res.destroyed)
        sendJson(res, 500, { success: false, message: 'Internal server error' });
      else res.destroy();
    });
  });
  server.on('connection', (sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  return server;
}

/** Listens on `port` (0: a free one) and answers the port it got. */
async function listen(server: http.Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  return typeof addr === 'object' && addr ? addr.port : 0;
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const credits = startingCredits();
  const budget = new CreditBudget(credits);
  if (opts.credits) budget.configure(opts.credits);
  const base: Omit<Served, 'admin' | 'port'> = {
    apiKey: opts.apiKey ?? DEMO_API_KEY,
    notFound: opts.notFound ?? '404',
    baseLatency: Math.max(0, opts.latencyMs ?? 0),
    dialect: opts.dialect ?? 'spec',
    data: new DatasetStates(opts.seed ?? 1, opts.hosts ?? 5000),
    log: [],
    rules: new FaultRules(),
    credits,
    budget,
    feedFaults: { kev: 'ok', epss: 'ok' },
    timers: new TimerSet(),
  };
  // One object: the admin API's getters read the dialect the emulator's setters change.
  const s: Served = Object.assign(base, { admin: adminState(opts, base), port: 0 });
  const sockets = new Set<Socket>();
  const server = createServer(s, sockets);
  s.port = await listen(server, opts.port ?? 0, opts.host ?? '127.0.0.1');
  await s.data.prepare();
  return emulatorOf(s, server, sockets);
}

/** The emulator's handle for its owner (tests, the demo, the benchmarks). */
function emulatorOf(s: Served, server: http.Server, sockets: Set<Socket>): Emulator {
  return {
    url: `http://127.0.0.1:${s.port}`,
    apiKey: s.apiKey,
    get dialect() {
      return s.dialect;
    },
    set dialect(d: Dialect) {
      s.dialect = d;
    },
    requests: s.log,
    injectFault: (rule) => s.rules.inject(rule),
    clearFaults: () => s.rules.clear(),
    clearLog: () => {
      s.log.length = 0;
    },
    setDialect: (d) => {
      if (d !== 'spec' && d !== 'live') throw new Error("dialect must be 'spec' or 'live'");
      s.dialect = d;
    },
    setCredits: (limits) => s.budget.configure(limits),
    setFeedFault: s.admin.setFeedFault,
    close: () =>
      new Promise<void>((resolve) => {
        s.timers.close();
        server.close(() => resolve());
        for (const sock of sockets) sock.destroy();
        sockets.clear();
      }),
    get dataset() {
      return s.data.dataset;
    },
    applyChange: s.data.applyChange,
    resetChange: s.data.resetChange,
    setState: s.data.setState,
    state: s.data.state,
  };
}
