/**
 * The emulator's admin API (no key; for tests in another process; only for requests whose
 * `Host` is the emulator's loopback address and port, POSTs as `application/json`):
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
 *   POST   /__admin/state    body {state} → {state, date, changes}: the dated state n of the data
 *   GET    /__admin/state    → {state, date}
 *   POST   /__admin/feeds    body {kev?, epss?}: 'ok'|'malformed'|'truncated'|'stale'|'fail' (feeds.ts)
 */
import type * as http from 'node:http';
import type { CreditBudget, CreditLimits } from './budget';
import type { ChangeSummary } from './change';
import type { Dialect } from './dialect';
import type { FaultRule } from './faults';
import type { FeedFault, FeedKind } from './feeds';
import type { FaultRules } from './faultReplies';
import { readBody, sendJson } from './httpIo';

/** What the admin API reads and changes of a running emulator. */
export interface AdminState {
  health(): Record<string, unknown>;
  log: unknown[];
  rules: FaultRules;
  dialect: Dialect;
  budget: CreditBudget;
  applyChange(seed: number): ChangeSummary;
  resetChange(): void;
  setState(n: number): { state: number; date: string; changes: ChangeSummary[] };
  state(): { state: number; date: string };
  setFeedFault(kind: FeedKind, fault: FeedFault): void;
}

/**
 * Why a request may not reach the admin API, or undefined. A web page can reach a loopback
 * port: by DNS rebinding (its own name resolving to 127.0.0.1, so the browser sends that name
 * as `Host` and lets the page read the answer) or by a cross-site form POST (`text/plain`,
 * no preflight). So the `Host` must be the emulator's own loopback address and port, and a
 * POST must say `application/json`, which a page can send cross-site only after a CORS
 * preflight the emulator never grants.
 */
export function adminRefusal(req: http.IncomingMessage, port: number): string | undefined {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!['127.0.0.1', 'localhost', '[::1]'].some((h) => host === `${h}:${port}`))
    return "The admin API answers only Host 127.0.0.1, localhost or [::1] with the emulator's port";
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (req.method === 'POST' && type !== 'application/json')
    return 'Admin POSTs must be Content-Type: application/json';
  return undefined;
}

export async function handleAdmin(
  state: AdminState,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  path: string,
  port: number,
): Promise<void> {
  const method = req.method ?? 'GET';
  const refused = adminRefusal(req, port);
  if (refused) {
    req.resume();
    sendJson(res, 403, { success: false, message: refused });
    return;
  }
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
      sendJson(res, 200, state.health());
    } else if (sub === '/log' && method === 'GET') {
      sendJson(res, 200, state.log);
    } else if (sub === '/log' && method === 'DELETE') {
      state.log.length = 0;
      res.writeHead(204).end();
    } else if (sub === '/faults' && method === 'POST') {
      state.rules.inject(body as FaultRule);
      sendJson(res, 200, { ok: true });
    } else if (sub === '/faults' && method === 'GET') {
      sendJson(res, 200, state.rules.list());
    } else if (sub === '/faults' && method === 'DELETE') {
      state.rules.clear();
      res.writeHead(204).end();
    } else if (sub === '/dialect' && method === 'POST') {
      const d = (body as { dialect?: unknown } | null)?.dialect;
      if (d !== 'spec' && d !== 'live') throw new Error("dialect must be 'spec' or 'live'");
      state.dialect = d;
      sendJson(res, 200, { ok: true, dialect: state.dialect });
    } else if (sub === '/credits' && method === 'POST') {
      state.budget.configure((body ?? {}) as CreditLimits);
      sendJson(res, 200, { ok: true, ...state.budget.status() });
    } else if (sub === '/credits' && method === 'GET') {
      sendJson(res, 200, state.budget.status());
    } else if (sub === '/change' && method === 'POST') {
      const seed = (body as { seed?: unknown } | null)?.seed;
      if (typeof seed !== 'number' || !Number.isInteger(seed)) throw new Error('seed must be an integer');
      sendJson(res, 200, state.applyChange(seed));
    } else if (sub === '/state' && method === 'POST') {
      const n = (body as { state?: unknown } | null)?.state;
      if (typeof n !== 'number') throw new Error('state must be an integer');
      sendJson(res, 200, state.setState(n));
    } else if (sub === '/state' && method === 'GET') {
      sendJson(res, 200, state.state());
    } else if (sub === '/change' && method === 'DELETE') {
      state.resetChange();
      res.writeHead(204).end();
    } else if (sub === '/feeds' && method === 'POST') {
      const b = (body ?? {}) as Partial<Record<FeedKind, FeedFault>>;
      for (const kind of ['kev', 'epss'] as const)
        if (b[kind] !== undefined) state.setFeedFault(kind, b[kind]);
      sendJson(res, 200, { ok: true });
    } else if (sub === '/dialect' && method === 'GET') {
      sendJson(res, 200, { dialect: state.dialect });
    } else {
      sendJson(res, 404, { success: false, message: `Unknown admin route ${method} ${path}` });
    }
  } catch (e) {
    sendJson(res, 400, { success: false, message: e instanceof Error ? e.message : String(e) });
  }
}
