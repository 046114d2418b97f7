/**
 * The emulator's HTTP server: the API over the generated data, with its request log, credit
 * budget and KEV/EPSS feeds. What only the tests use (the admin API, injected faults, changes
 * of the data) is the `Harness` server.ts plugs in, so the demo's bundle (demo.ts, shipped as
 * dist/emulator.js) leaves it out. The choices where the spec is silent: server.ts.
 */
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { CreditBudget, type CreditLimits } from './budget';
import { type Dataset, generateDataset, generateDatasetAsync } from './dataset';
import type { Dialect } from './dialect';
import type { answerWithFault, writeReply } from './faultReplies';
import type { Fault } from './faults';
import { FEED_PATHS, serveFeed, type FeedFault, type FeedKind } from './feeds';
import { DEMO_API_KEY } from './fixtures';
import { BadRequest, type Body, type Credits, type Ctx, fail, type Reply } from './handlers/common';
import { BodyTooLarge, readBody, sendJson, sendReply, type Timers } from './httpIo';
import { QueryError } from './query/parse';
import { matchRoute, type Route } from './routes';

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

/** The emulator's data, generated once (server.ts moves it through dated states). */
export class GeneratedData {
  protected current: Dataset | undefined;

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
}

/**
 * The tests' part of a request's way, which server.ts plugs in: the admin API (admin.ts) and
 * the injected faults (faults.ts, faultReplies.ts). Without it (the demo) there is no
 * `/__admin` and no fault, and a reply is written as the endpoint made it.
 */
export interface Harness {
  admin(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void>;
  /** The fault a /v1 request meets, or why its `X-Emulator-Fault` header is refused. */
  faultFor(req: http.IncomingMessage, path: string, pathname: string): { fault?: Fault; invalid?: string };
  answerWithFault: typeof answerWithFault;
  writeReply: typeof writeReply;
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
export interface Served {
  readonly apiKey: string;
  readonly notFound: '404' | 'null';
  readonly baseLatency: number;
  dialect: Dialect;
  readonly data: GeneratedData;
  readonly log: RequestLogEntry[];
  readonly credits: Credits;
  readonly budget: CreditBudget;
  readonly feedFaults: Record<FeedKind, FeedFault>;
  readonly timers: TimerSet;
  readonly harness?: Harness;
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
  if (s.harness && (path === '/__admin' || path.startsWith('/__admin/')))
    return s.harness.admin(req, res, path);
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

  const { fault, invalid } = s.harness?.faultFor(req, path, url.pathname) ?? {};
  if (invalid !== undefined) {
    entry.status = 400;
    sendJson(res, 400, { success: false, message: invalid });
    return;
  }
  if (fault) entry.fault = fault.kind;

  await s.timers.sleep(s.baseLatency + (fault?.kind === 'latency' ? fault.ms : 0));
  if (s.timers.closing || res.destroyed) return;

  const refuse = (m: string): Record<string, unknown> => errorBody(s, r?.endpoint, m);
  if (s.harness?.answerWithFault(fault, req, res, entry, refuse, s.timers)) return;

  const reply = answer(s, r, params, read.body, bodyError, methodMismatch, hadKey, keyValid);
  if (reply.status >= 400 && reply.text === undefined) {
    reply.body = errorBody(s, r?.endpoint, (reply.body as { message?: string } | undefined)?.message ?? '');
  }
  entry.status = reply.status;
  if (s.harness) s.harness.writeReply(reply, fault, req, res, s.timers);
  else sendReply(reply, req, res);
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

/** A running emulator: what it answers from, and how to stop it. */
export interface Running {
  readonly s: Served;
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `data` on 127.0.0.1 once it is generated; `harness`: the tests' part (server.ts). */
export async function serve(
  opts: EmulatorOptions,
  data: GeneratedData,
  harness?: (s: Served) => Harness,
): Promise<Running> {
  const credits = startingCredits();
  const budget = new CreditBudget(credits);
  if (opts.credits) budget.configure(opts.credits);
  const s: Served = {
    apiKey: opts.apiKey ?? DEMO_API_KEY,
    notFound: opts.notFound ?? '404',
    baseLatency: Math.max(0, opts.latencyMs ?? 0),
    dialect: opts.dialect ?? 'spec',
    data,
    log: [],
    credits,
    budget,
    feedFaults: { kev: 'ok', epss: 'ok' },
    timers: new TimerSet(),
    port: 0,
  };
  // One object: the harness's getters read the dialect the emulator's setters change.
  if (harness) Object.assign(s, { harness: harness(s) });
  const sockets = new Set<Socket>();
  const server = createServer(s, sockets);
  s.port = await listen(server, opts.port ?? 0, opts.host ?? '127.0.0.1');
  await data.prepare();
  return {
    s,
    url: `http://127.0.0.1:${s.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        s.timers.close();
        server.close(() => resolve());
        for (const sock of sockets) sock.destroy();
        sockets.clear();
      }),
  };
}
