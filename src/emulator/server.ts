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
 * The admin API (`/__admin/...`, no key) is in `admin.ts`. The server itself is serve.ts; this
 * module plugs into it what only the tests use (the admin API, faults, changes of the data).
 * One-off fault: request header `X-Emulator-Fault: <JSON Fault>` (invalid → 400).
 */
import type * as http from 'node:http';
import { type AdminState, handleAdmin } from './admin';
import { changeDataset, type ChangeSummary } from './change';
import type { CreditLimits } from './budget';
import { type Dataset, DAY } from './dataset';
import type { Dialect } from './dialect';
import { answerWithFault, FaultRules, writeReply } from './faultReplies';
import { type Fault, type FaultRule, parseFault } from './faults';
import { FEED_FAULTS, type FeedFault, type FeedKind } from './feeds';
import {
  type EmulatorOptions,
  GeneratedData,
  type Harness,
  type RequestLogEntry,
  type Running,
  type Served,
  serve,
} from './serve';

export type { Dataset } from './dataset';
export type { Dialect } from './dialect';
export type { Fault, FaultRule } from './faults';
export { DEMO_API_KEY } from './fixtures';
export type { EmulatorOptions, RequestLogEntry } from './serve';

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

/** The emulator's data, moved through dated states by seeded changes. */
class DatasetStates extends GeneratedData {
  private base: Dataset | undefined;
  // State n is the base data after the changes of seeds 1..n, dated n days after the base
  // (a snapshot, a change, a snapshot, a diff; the demo's timeline).
  private stateNow = 0;

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
function adminState(opts: EmulatorOptions, s: Served, data: DatasetStates, rules: FaultRules): AdminState {
  return {
    health: () => ({
      ok: true,
      dialect: s.dialect,
      seed: opts.seed ?? 1,
      hosts: opts.hosts ?? 5000,
      notFound: s.notFound,
    }),
    log: s.log,
    rules,
    get dialect() {
      return s.dialect;
    },
    set dialect(d: Dialect) {
      s.dialect = d;
    },
    budget: s.budget,
    applyChange: data.applyChange,
    resetChange: data.resetChange,
    setState: data.setState,
    state: data.state,
    setFeedFault: feedFaultSetter(s.feedFaults),
  };
}

/**
 * The fault a /v1 request meets: the one its `X-Emulator-Fault` header names, else the next
 * matching rule; `invalid` when the header does not parse.
 */
function faultFor(
  rules: FaultRules,
  req: http.IncomingMessage,
  path: string,
  pathname: string,
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

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const data = new DatasetStates(opts.seed ?? 1, opts.hosts ?? 5000);
  const rules = new FaultRules();
  let admin!: AdminState; // set by serve(), which calls `harness` before it listens
  const harness = (s: Served): Harness => {
    admin = adminState(opts, s, data, rules);
    return {
      admin: (req, res, path) => handleAdmin(admin, req, res, path, s.port),
      faultFor: (req, path, pathname) => faultFor(rules, req, path, pathname),
      answerWithFault,
      writeReply,
    };
  };
  return emulatorOf(await serve(opts, data, harness), data, rules, admin);
}

/** The emulator's handle for its owner (tests, the demo, the benchmarks). */
function emulatorOf(running: Running, data: DatasetStates, rules: FaultRules, admin: AdminState): Emulator {
  const s = running.s;
  return {
    url: running.url,
    apiKey: s.apiKey,
    get dialect() {
      return s.dialect;
    },
    set dialect(d: Dialect) {
      s.dialect = d;
    },
    requests: s.log,
    injectFault: (rule) => rules.inject(rule),
    clearFaults: () => rules.clear(),
    clearLog: () => {
      s.log.length = 0;
    },
    setDialect: (d) => {
      if (d !== 'spec' && d !== 'live') throw new Error("dialect must be 'spec' or 'live'");
      s.dialect = d;
    },
    setCredits: (limits) => s.budget.configure(limits),
    setFeedFault: admin.setFeedFault,
    close: running.close,
    get dataset() {
      return data.dataset;
    },
    applyChange: data.applyChange,
    resetChange: data.resetChange,
    setState: data.setState,
    state: data.state,
  };
}
