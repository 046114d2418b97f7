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
 * - Query language: see query.ts. Queries over 8 KB, nested deeper than 32 or with more
 *   than 512 clauses → 400. Unknown fields match nothing (like Elasticsearch).
 * - Spec dialect: host `banner` carries the banner texts; software sub-objects are `{}`
 *   (the spec types them as objects without fields); file-summary buckets carry
 *   `{key, doc_count}` (the spec shows them as objects without fields).
 * - Paths are served with and without a trailing slash in both dialects.
 * - Faults apply to /v1 paths only (never to /__admin), header before rules; a rule's
 *   `path` is a regex source tested against the path without query.
 * - The request log keeps the newest 10,000 entries; /__admin requests are not logged.
 *
 * Admin API (no key; for tests in another process):
 *   GET    /__admin/health   → {ok, dialect, seed, hosts, notFound}
 *   GET    /__admin/log      → RequestLogEntry[] (oldest first)
 *   DELETE /__admin/log      → 204
 *   POST   /__admin/faults   body FaultRule (count -1 = always) → {ok:true}; 400 if invalid
 *   GET    /__admin/faults   → the active rules with `remaining`
 *   DELETE /__admin/faults   → 204
 *   POST   /__admin/dialect  body {dialect:'spec'|'live'} → {ok, dialect}
 *   POST   /__admin/credits  body {host?, bucket?} (credits left) → enforced budget: 402 once spent
 *   GET    /__admin/credits  → {host:{left,enforced}, bucket:{left,enforced}}
 *   POST   /__admin/change   body {seed} → ChangeSummary: a seeded data change (change.ts)
 *   DELETE /__admin/change   → 204: back to the generated data
 * One-off fault: request header `X-Emulator-Fault: <JSON Fault>` (invalid → 400).
 */
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { CreditBudget, type CreditLimits } from './budget';
import { changeDataset, type ChangeSummary } from './change';
import { type Dataset, generateDataset, generateDatasetAsync } from './dataset';
import type { Dialect } from './dialect';
import {
  type Fault,
  type FaultRule,
  HTML_ERROR_PAGE,
  breakTypes,
  parseFault,
  parseFaultRule,
  pollute,
} from './faults';
import { DEMO_API_KEY } from './fixtures';
import * as H from './handlers';
import { QueryError } from './query';

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
  /** Applies a seeded change of the data (change.ts); changes add up until `resetChange`. */
  applyChange(seed: number): ChangeSummary;
  resetChange(): void;
}

type KeyPolicy = 'required' | 'optional' | 'none';

interface Route {
  method: 'GET' | 'POST';
  re: RegExp;
  endpoint: string;
  key: KeyPolicy;
  handler: H.Handler;
  /** Which capture is the ip / domain path parameter, if any. */
  ipParam?: number;
  domainParam?: number;
}

const SEG = '([^/]+)';
const route = (
  method: Route['method'],
  path: string,
  endpoint: string,
  key: KeyPolicy,
  handler: H.Handler,
  extra: Partial<Route> = {},
): Route => ({
  method,
  re: new RegExp(`^${path.replace(/\{[^}]+\}/g, SEG)}$`),
  endpoint,
  key,
  handler,
  ...extra,
});

/** Endpoint names used in the request log. Numbers are the spec's. */
const ROUTES: Route[] = [
  route('POST', '/v1/domain/subdomain/count', 'domain.subdomainCount', 'required', H.subdomainCount), // 1
  route('POST', '/v1/exposed/buckets/search', 'buckets.search', 'required', H.bucketsSearch), // 2
  route('POST', '/v1/hosts/search', 'hosts.search', 'required', H.hostsSearch), // 3
  route('POST', '/v1/domain/search', 'domain.search', 'optional', H.domainSearch), // 4
  route('POST', '/v1/hosts/summary', 'hosts.summary', 'required', H.hostsSummary), // 5
  route('POST', '/v1/exposed/files/summary', 'files.summary', 'required', H.filesSummary), // 6
  route('POST', '/v1/exposed/files/count', 'files.count', 'required', H.filesCount), // 7
  // Not in the 17 but called by every official client; before `/v1/hosts/{ip}`, which
  // would otherwise answer them (POST /v1/hosts/count with 405).
  route('POST', '/v1/hosts/count', 'hosts.count', 'required', H.hostsCount),
  route('GET', '/v1/hosts/cve/{ip}', 'hosts.cveAll', 'required', H.hostsCveAll, { ipParam: 0 }),
  route('POST', '/v1/domain/subdomain/search', 'domain.subdomainSearch', 'required', H.subdomainSearch),
  route('GET', '/v1/hosts/exploits/{ip}', 'hosts.exploits', 'required', H.hostsExploits, { ipParam: 0 }), // 13
  route('GET', '/v1/hosts/cves/{ip}/{cve}', 'hosts.cve', 'required', H.hostsCve, { ipParam: 0 }), // 14
  route('GET', '/v1/hosts/{ip}', 'hosts.get', 'required', H.hostsGet, { ipParam: 0 }), // 8
  route('GET', '/v1/domain/whois/{domain}/historical', 'whois.history', 'required', H.whoisHistory, {
    domainParam: 0,
  }), // 9
  route('GET', '/v1/domain/whois/{domain}', 'whois.get', 'required', H.whoisGet, { domainParam: 0 }), // 10
  route('POST', '/v1/domain/count', 'domain.count', 'optional', H.domainCount), // 11
  route('GET', '/v1/cves/all/{ip}/{page}', 'cves.list', 'required', H.cvesList, { ipParam: 0 }), // 12
  route('GET', '/v1/fields/exposed/buckets', 'fields.buckets', 'optional', H.fieldsBuckets), // 15
  route('GET', '/v1/fields/exposed/files', 'fields.files', 'optional', H.fieldsFiles), // 16
  route('GET', '/v1/fields/hosts/{category}', 'fields.hosts', 'optional', H.fieldsHosts), // 17
  route('GET', '/v1/ping', 'ping', 'none', H.ping),
  route('GET', '/v1/credits/usage', 'credits.usage', 'required', H.creditsUsage),
];

const MAX_BODY = 1024 * 1024;
const MAX_LOG = 10_000;

class BodyTooLarge extends Error {}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new BodyTooLarge());
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function matchRoute(
  method: string,
  path: string,
): { route?: Route; params: string[]; methodMismatch: boolean } {
  let methodMismatch = false;
  for (const r of ROUTES) {
    const m = r.re.exec(path);
    if (!m) continue;
    if (r.method !== method && !(r.method === 'GET' && method === 'HEAD')) {
      methodMismatch = true;
      continue;
    }
    return { route: r, params: m.slice(1), methodMismatch: false };
  }
  return { params: [], methodMismatch };
}

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

interface ActiveRule {
  rule: FaultRule;
  remaining: number;
  re?: RegExp;
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
  };
  const log: RequestLogEntry[] = [];
  let rules: ActiveRule[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closing = false;
  const credits: H.Credits = {
    hostLeft: 4870,
    hostPlan: 5000,
    bucketLeft: 960,
    bucketPlan: 1000,
    expiresOn: new Date(Math.floor(Date.now() / 86_400_000 + 200) * 86_400_000).toISOString(),
  };
  const budget = new CreditBudget(credits);
  if (opts.credits) budget.configure(opts.credits);

  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => (ms > 0 ? later(ms, resolve) : resolve()));

  const sendJson = (
    res: http.ServerResponse,
    status: number,
    body: unknown,
    headers: http.OutgoingHttpHeaders = {},
  ): void => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  };

  const takeRuleFault = (path: string): Fault | undefined => {
    for (const r of rules) {
      if (r.remaining === 0) continue;
      if (r.re && !r.re.test(path)) continue;
      if (r.remaining > 0) r.remaining--;
      return r.rule.fault;
    }
    return undefined;
  };

  const injectFault = (rule: FaultRule): void => {
    const checked = parseFaultRule(rule);
    const count =
      checked.count === undefined
        ? 1
        : checked.count === -1 || checked.count === Infinity
          ? -1
          : checked.count;
    rules.push({
      rule: checked,
      remaining: count,
      re: checked.path !== undefined ? new RegExp(checked.path) : undefined,
    });
  };

  async function handleAdmin(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
  ): Promise<void> {
    const method = req.method ?? 'GET';
    let body: unknown;
    if (method === 'POST') {
      try {
        const raw = (await readBody(req)).toString('utf8');
        body = raw.trim() === '' ? {} : JSON.parse(raw);
      } catch {
        sendJson(res, 400, { success: false, message: 'Invalid JSON body' });
        return;
      }
    }
    const sub = path.slice('/__admin'.length);
    try {
      if (sub === '/health' && method === 'GET') {
        sendJson(res, 200, {
          ok: true,
          dialect,
          seed: opts.seed ?? 1,
          hosts: opts.hosts ?? 5000,
          notFound: notFoundMode,
        });
      } else if (sub === '/log' && method === 'GET') {
        sendJson(res, 200, log);
      } else if (sub === '/log' && method === 'DELETE') {
        log.length = 0;
        res.writeHead(204).end();
      } else if (sub === '/faults' && method === 'POST') {
        injectFault(body as FaultRule);
        sendJson(res, 200, { ok: true });
      } else if (sub === '/faults' && method === 'GET') {
        sendJson(
          res,
          200,
          rules.map((r) => ({ ...r.rule, remaining: r.remaining })),
        );
      } else if (sub === '/faults' && method === 'DELETE') {
        rules = [];
        res.writeHead(204).end();
      } else if (sub === '/dialect' && method === 'POST') {
        const d = (body as { dialect?: unknown } | null)?.dialect;
        if (d !== 'spec' && d !== 'live') throw new Error("dialect must be 'spec' or 'live'");
        dialect = d;
        sendJson(res, 200, { ok: true, dialect });
      } else if (sub === '/credits' && method === 'POST') {
        budget.configure((body ?? {}) as CreditLimits);
        sendJson(res, 200, { ok: true, ...budget.status() });
      } else if (sub === '/credits' && method === 'GET') {
        sendJson(res, 200, budget.status());
      } else if (sub === '/change' && method === 'POST') {
        const seed = (body as { seed?: unknown } | null)?.seed;
        if (typeof seed !== 'number' || !Number.isInteger(seed)) throw new Error('seed must be an integer');
        sendJson(res, 200, applyChange(seed));
      } else if (sub === '/change' && method === 'DELETE') {
        resetChange();
        res.writeHead(204).end();
      } else if (sub === '/dialect' && method === 'GET') {
        sendJson(res, 200, { dialect });
      } else {
        sendJson(res, 404, { success: false, message: `Unknown admin route ${method} ${path}` });
      }
    } catch (e) {
      sendJson(res, 400, { success: false, message: e instanceof Error ? e.message : String(e) });
    }
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let path = url.pathname;
    while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    if (path === '/__admin' || path.startsWith('/__admin/')) return handleAdmin(req, res, path);

    const keyHeader = req.headers['x-api-key'];
    const key = Array.isArray(keyHeader) ? keyHeader[0] : keyHeader;
    const hadKey = typeof key === 'string' && key !== '';
    const keyValid = hadKey && key === apiKey;
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
    let body: H.Body = {};
    let bodyError: H.Reply | undefined;
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
      try {
        const raw = (await readBody(req)).toString('utf8');
        if (raw.trim() !== '') {
          const parsed: unknown = JSON.parse(raw);
          entry.body = parsed;
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
            bodyError = H.fail(400, 'Request body must be a JSON object');
          } else body = parsed as H.Body;
        }
      } catch (e) {
        bodyError =
          e instanceof BodyTooLarge
            ? H.fail(413, 'Request body too large')
            : H.fail(400, 'Invalid JSON body');
      }
    }
    let params: string[] = [];
    try {
      params = rawParams.map((p) => decodeURIComponent(p));
    } catch {
      bodyError ??= H.fail(400, 'Invalid percent-encoding in path');
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
      } else fault = takeRuleFault(url.pathname);
    }
    if (fault) entry.fault = fault.kind;

    await sleep(baseLatency + (fault?.kind === 'latency' ? fault.ms : 0));
    if (closing || res.destroyed) return;

    switch (fault?.kind) {
      case 'reset':
        req.socket.destroy();
        return;
      case 'hang':
        return; // Never answer; close() destroys the socket.
      case 'status': {
        entry.status = fault.status;
        const headers: http.OutgoingHttpHeaders = {};
        if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
        if (fault.html) {
          const html = HTML_ERROR_PAGE(fault.status);
          res.writeHead(fault.status, {
            'content-type': 'text/html; charset=UTF-8',
            'content-length': Buffer.byteLength(html),
            server: 'cloudflare',
            ...headers,
          });
          res.end(html);
        } else {
          const message = `Emulated error ${fault.status}`;
          sendJson(res, fault.status, errorBody(r?.endpoint, message), headers);
        }
        return;
      }
      case 'notJson': {
        entry.status = 200;
        const html =
          '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><p>Checking your browser before accessing api.odin.io.</p></body></html>';
        res.writeHead(200, {
          'content-type': 'text/html; charset=UTF-8',
          'content-length': Buffer.byteLength(html),
        });
        res.end(html);
        return;
      }
      case 'oversized':
        entry.status = 200;
        sendOversized(res, fault.bytes);
        return;
      default:
        break;
    }

    const reply = answer(r, params, body, bodyError, methodMismatch, hadKey, keyValid);
    if (reply.status >= 400 && reply.text === undefined) {
      reply.body = errorBody(r?.endpoint, (reply.body as { message?: string } | undefined)?.message ?? '');
    }
    entry.status = reply.status;
    if (reply.text !== undefined) {
      res.writeHead(reply.status, {
        'content-type': reply.contentType ?? 'text/plain; charset=utf-8',
        'content-length': Buffer.byteLength(reply.text),
      });
      res.end(method === 'HEAD' ? undefined : reply.text);
      return;
    }
    let out = reply.body;
    if (fault?.kind === 'wrongTypes') out = breakTypes(out);
    if (fault?.kind === 'protoPollution') out = pollute(out);
    const text = JSON.stringify(out);
    const contentType =
      fault?.kind === 'badContentType' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
    const length = Buffer.byteLength(text);
    if (fault?.kind === 'truncated') {
      const buf = Buffer.from(text);
      res.writeHead(reply.status, {
        'content-type': contentType,
        'content-length': length,
        connection: 'close',
      });
      res.write(buf.subarray(0, Math.max(1, Math.floor(buf.length / 2))), () => req.socket.destroy());
      return;
    }
    if (fault?.kind === 'trickle') {
      sendTrickle(res, reply.status, contentType, Buffer.from(text), fault.bytesPerChunk, fault.intervalMs);
      return;
    }
    res.writeHead(reply.status, { 'content-type': contentType, 'content-length': length });
    res.end(method === 'HEAD' ? undefined : text);
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
    body: H.Body,
    bodyError: H.Reply | undefined,
    methodMismatch: boolean,
    hadKey: boolean,
    keyValid: boolean,
  ): H.Reply {
    if (!r) return methodMismatch ? H.fail(405, 'Method not allowed') : H.fail(404, 'Not found');
    if (r.key !== 'none' && hadKey && !keyValid) return H.fail(401, 'Invalid API key');
    if (r.key === 'required' && !hadKey) return H.fail(401, 'API key is required (X-API-Key header)');
    if (bodyError) return bodyError;
    const ctx: H.Ctx = { ds: getDataset(), dialect, notFound: notFoundMode, credits };
    const refused = budget.refuse(r.endpoint);
    if (refused) return refused;
    try {
      const reply = r.handler(ctx, params, body);
      if (reply.status === 200) budget.spend(r.endpoint);
      return reply;
    } catch (e) {
      if (e instanceof H.BadRequest || e instanceof QueryError) return H.fail(400, e.message);
      return H.fail(500, 'Internal server error');
    }
  }

  function sendOversized(res: http.ServerResponse, bytes: number): void {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    const head = '{"success":true,"message":"","data":[';
    const item = JSON.stringify('x'.repeat(1000));
    const chunk = Array.from({ length: 64 }, () => item).join(',');
    let sent = 0;
    let first = true;
    const pump = (): void => {
      if (res.destroyed || closing) return;
      if (first) {
        res.write(head);
        sent += head.length;
      }
      while (sent < bytes) {
        const piece = (first ? '' : ',') + chunk;
        first = false;
        sent += piece.length;
        if (!res.write(piece)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end(']}');
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  }

  function sendTrickle(
    res: http.ServerResponse,
    status: number,
    contentType: string,
    buf: Buffer,
    size: number,
    interval: number,
  ): void {
    res.writeHead(status, { 'content-type': contentType, 'content-length': buf.length });
    let off = 0;
    const step = (): void => {
      if (res.destroyed || closing) return;
      const piece = buf.subarray(off, off + size);
      off += piece.length;
      if (off >= buf.length) res.end(piece);
      else {
        res.write(piece);
        later(interval, step);
      }
    };
    step();
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
    injectFault,
    clearFaults: () => {
      rules = [];
    },
    clearLog: () => {
      log.length = 0;
    },
    setDialect: (d) => {
      if (d !== 'spec' && d !== 'live') throw new Error("dialect must be 'spec' or 'live'");
      dialect = d;
    },
    setCredits: (limits) => budget.configure(limits),
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
  };
  return emulator;
}
