import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OdinApiError } from '../../../src/api/errors';
import { ResultCache } from '../../../src/core/requests/cache';
import { OverBudgetError, RequestBudget } from '../../../src/core/requests/budget';
import { Limiter, LocalRateLimitError } from '../../../src/core/requests/limiter';
import { LookupsPausedError, RequestLayer, type PauseState } from '../../../src/core/requests/layer';
import { turns } from '../../support/wait';

const TTL = { host: 60_000, whois: 60_000, count: 60_000, notFound: 60_000 };

function layer(origin = 'https://api.odin.io', now?: () => number): RequestLayer {
  return new RequestLayer({
    cache: new ResultCache({ ttlMs: TTL, maxEntries: 100, now }),
    limiter: new Limiter({ perMinute: 10_000, maxConcurrent: 4 }),
    origin: () => origin,
    now,
  });
}

function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** A fetcher that records its calls and settles when told; rejects when its signal aborts. */
function controlled<T>() {
  const calls: AbortSignal[] = [];
  let d = deferred<T>();
  const fetcher = (signal: AbortSignal): Promise<T> => {
    calls.push(signal);
    d = deferred<T>();
    signal.addEventListener('abort', () => d.reject(new OdinApiError({ kind: 'cancelled', endpoint: 'x' })));
    return d.promise;
  };
  return { fetcher, calls, resolve: (v: T) => d.resolve(v), reject: (e: unknown) => d.reject(e) };
}

const tick = () => turns();

void test('single flight: many callers, one request; then served from the cache', async () => {
  const rl = layer();
  const f = controlled<string>();
  const all = Array.from({ length: 20 }, () => rl.get('host', '8.8.8.8', f.fetcher, { automatic: true }));
  await tick();
  assert.equal(f.calls.length, 1);
  f.resolve('data');
  const results = await Promise.all(all);
  for (const r of results) assert.deepEqual(r.status === 'ok' && r.value, 'data');
  const again = await rl.get('host', '8.8.8.8', f.fetcher, { automatic: true });
  assert.equal(again.fromCache, true);
  assert.equal(f.calls.length, 1);
  assert.equal(rl.sent, 1);
});

void test('a caller that cancels detaches; the request is aborted only when the last caller leaves', async () => {
  const rl = layer();
  const f = controlled<string>();
  const a = new AbortController();
  const b = new AbortController();
  const pa = rl.get('host', '1.1.1.1', f.fetcher, { automatic: true, signal: a.signal });
  const pb = rl.get('host', '1.1.1.1', f.fetcher, { automatic: true, signal: b.signal });
  await tick();
  assert.equal(f.calls.length, 1);
  a.abort();
  await assert.rejects(pa, (e: unknown) => e instanceof OdinApiError && e.kind === 'cancelled');
  assert.equal(f.calls[0].aborted, false, 'b still waits');
  b.abort();
  await assert.rejects(pb, (e: unknown) => e instanceof OdinApiError && e.kind === 'cancelled');
  assert.equal(f.calls[0].aborted, true, 'nobody waits any more');
  // The next caller starts a fresh request.
  const pc = rl.get('host', '1.1.1.1', f.fetcher, { automatic: true });
  await tick();
  assert.equal(f.calls.length, 2);
  f.resolve('ok');
  assert.equal((await pc).status, 'ok');
});

void test('a caller that cancels does not spoil the answer for the one that stays', async () => {
  const rl = layer();
  const f = controlled<string>();
  const a = new AbortController();
  const pa = rl.get('host', '2.2.2.2', f.fetcher, { automatic: true, signal: a.signal });
  const pb = rl.get('host', '2.2.2.2', f.fetcher, { automatic: true });
  await tick();
  a.abort();
  await assert.rejects(pa);
  f.resolve('answer');
  const rb = await pb;
  assert.equal(rb.status === 'ok' && rb.value, 'answer');
});

void test('not found is cached negatively and served without a request', async () => {
  const rl = layer();
  let calls = 0;
  const fetcher = async (): Promise<string> => {
    calls++;
    throw new OdinApiError({ kind: 'notFound', endpoint: 'GET /v1/hosts/{ip}', status: 404 });
  };
  assert.equal((await rl.get('host', '9.9.9.9', fetcher, { automatic: true })).status, 'notFound');
  const second = await rl.get('host', '9.9.9.9', fetcher, { automatic: true });
  assert.equal(second.status, 'notFound');
  assert.equal(second.fromCache, true);
  assert.equal(calls, 1);
});

void test('origins do not share answers', async () => {
  const cache = new ResultCache({ ttlMs: TTL, maxEntries: 100 });
  let origin = 'https://api.odin.io';
  const rl = new RequestLayer({
    cache,
    limiter: new Limiter({ perMinute: 100, maxConcurrent: 2 }),
    origin: () => origin,
  });
  await rl.get('host', '8.8.8.8', async () => 'real', { automatic: true });
  origin = 'http://127.0.0.1:1234';
  const r = await rl.get('host', '8.8.8.8', async () => 'demo', { automatic: true });
  assert.equal(r.status === 'ok' && r.value, 'demo');
});

void test('errors other than not-found propagate and are not cached', async () => {
  const rl = layer();
  let calls = 0;
  const failing = async (): Promise<string> => {
    calls++;
    throw new OdinApiError({ kind: 'server', endpoint: 'x', status: 500 });
  };
  await assert.rejects(rl.get('host', '3.3.3.3', failing, { automatic: true }), { kind: 'server' });
  await assert.rejects(rl.get('host', '3.3.3.3', failing, { automatic: true }), { kind: 'server' });
  assert.equal(calls, 2);
  assert.equal(rl.paused, undefined);
});

for (const kind of ['auth', 'quota', 'forbidden'] as const) {
  void test(`${kind} pauses automatic lookups; cached answers still served; explicit calls go through; resume clears`, async () => {
    const rl = layer();
    const states: Array<PauseState | undefined> = [];
    rl.onDidChangeState((s) => states.push(s));
    await rl.get('host', '4.4.4.4', async () => 'cached', { automatic: true });
    await assert.rejects(
      rl.get('host', '5.5.5.5', async () => Promise.reject(new OdinApiError({ kind, endpoint: 'x' })), {
        automatic: true,
      }),
      { kind },
    );
    assert.equal(rl.paused?.reason, kind);
    assert.equal(states.length, 1);
    let sent = 0;
    const fetcher = async (): Promise<string> => (sent++, 'fresh');
    await assert.rejects(rl.get('host', '6.6.6.6', fetcher, { automatic: true }), LookupsPausedError);
    assert.equal(sent, 0);
    const cached = await rl.get('host', '4.4.4.4', fetcher, { automatic: true });
    assert.equal(cached.status === 'ok' && cached.value, 'cached');
    const explicit = await rl.get('host', '6.6.6.6', fetcher, { automatic: false });
    assert.equal(explicit.status === 'ok' && explicit.value, 'fresh');
    assert.equal(sent, 1);
    rl.resume();
    assert.equal(rl.paused, undefined);
    assert.deepEqual(states.at(-1), undefined);
    await rl.get('host', '7.7.7.7', fetcher, { automatic: true });
    assert.equal(sent, 2);
    rl.dispose();
  });
}

void test('a long Retry-After pauses until it has passed; a short one does not pause', async () => {
  const rl = layer();
  const limited = (ms: number) => async (): Promise<string> => {
    throw new OdinApiError({ kind: 'rateLimited', endpoint: 'x', status: 429, retryAfterMs: ms });
  };
  await assert.rejects(rl.get('host', '8.8.4.4', limited(1000), { automatic: true }));
  assert.equal(rl.paused, undefined);
  const resumed = new Promise<void>((r) => rl.onDidChangeState((s) => s === undefined && r()));
  const realLayer = new RequestLayer({
    cache: new ResultCache({ ttlMs: TTL, maxEntries: 10 }),
    limiter: new Limiter({ perMinute: 100, maxConcurrent: 2 }),
    origin: () => 'o',
    pauseAfterRetryMs: 50,
  });
  const resumedReal = new Promise<void>((r) => realLayer.onDidChangeState((s) => s === undefined && r()));
  // The pause timer is unref'd (it must not keep VS Code alive): keep the test's loop alive.
  // eslint-disable-next-line no-restricted-syntax -- a handle that keeps the loop alive, not a wait
  const keepAlive = setTimeout(() => undefined, 5000);
  await assert.rejects(realLayer.get('host', '8.8.4.4', limited(120), { automatic: true }));
  assert.equal(realLayer.paused?.reason, 'rateLimited');
  assert.ok(realLayer.paused?.until);
  await resumedReal;
  clearTimeout(keepAlive);
  assert.equal(realLayer.paused, undefined);
  void resumed;
  rl.dispose();
  realLayer.dispose();
});

void test('stale entries are refreshed when not paused, served stale while paused', async () => {
  let now = 0;
  const rl = layer('o', () => now);
  await rl.get('host', '1.0.0.1', async () => 'v1', { automatic: true });
  now = 120_000; // past the host TTL
  rl.pause({ reason: 'quota', message: 'paused' });
  const stale = await rl.get('host', '1.0.0.1', async () => 'v2', { automatic: true });
  assert.equal(stale.status === 'ok' && stale.value, 'v1');
  assert.equal(stale.stale, true);
  rl.resume();
  const fresh = await rl.get('host', '1.0.0.1', async () => 'v2', { automatic: true });
  assert.equal(fresh.status === 'ok' && fresh.value, 'v2');
  assert.equal(fresh.fromCache, false);
});

void test('an already aborted signal sends nothing', async () => {
  const rl = layer();
  let calls = 0;
  await assert.rejects(
    rl.get('host', '1.2.3.4', async () => (calls++, 'x'), { automatic: true, signal: AbortSignal.abort() }),
    { kind: 'cancelled' },
  );
  assert.equal(calls, 0);
});

void test('a request budget is charged as requests leave and refuses once used up; cache hits and joined flights cost nothing', async () => {
  const rl = layer();
  const budget = new RequestBudget(2);
  let calls = 0;
  const fetcher = async (): Promise<string> => (calls++, 'data');
  await rl.get('host', '1.1.1.1', fetcher, { automatic: false, budget });
  await rl.get('host', '1.1.1.1', fetcher, { automatic: false, budget }); // from the cache
  await rl.send(fetcher, { automatic: false, budget });
  assert.equal(budget.spent, 2);
  await assert.rejects(rl.get('host', '8.8.8.8', fetcher, { automatic: false, budget }), OverBudgetError);
  await assert.rejects(rl.send(fetcher, { automatic: false, budget }), OverBudgetError);
  assert.equal(calls, 2, 'nothing sent past the budget');
  assert.equal(rl.sent, 2);
  budget.extend(1);
  await rl.get('host', '8.8.8.8', fetcher, { automatic: false, budget });
  assert.equal(calls, 3);
});

void test('what the local limiter refuses is never charged to a budget', async () => {
  const rl = new RequestLayer({
    cache: new ResultCache({ ttlMs: TTL, maxEntries: 100 }),
    limiter: new Limiter({ perMinute: 1, burst: 1, maxConcurrent: 4 }),
    origin: () => 'https://api.odin.io',
  });
  const budget = new RequestBudget(10);
  const fetcher = async (): Promise<string> => 'data';
  await rl.get('host', '1.1.1.1', fetcher, { automatic: true, budget });
  await assert.rejects(rl.get('host', '8.8.8.8', fetcher, { automatic: true, budget }), LocalRateLimitError);
  assert.equal(budget.spent, 1);
  assert.equal(rl.sent, 1);
});

void test('a weaker answer never silently replaces a cached one: a refresh answered "not found" keeps the fresh verdict and says so', async () => {
  let now = 1_000_000;
  const rl = layer('https://api.odin.io', () => now);
  const vulnerable = { ip: '1.1.1.1', is_vuln: true };
  await rl.get('host', '1.1.1.1', async () => vulnerable, { automatic: false });
  now += 1000;
  const notFound = async (): Promise<never> => {
    throw new OdinApiError({ kind: 'notFound', endpoint: 'GET /v1/hosts/{ip}' });
  };
  const r = await rl.get('host', '1.1.1.1', notFound, { automatic: false, refresh: true });
  assert.equal(r.status, 'notFound');
  assert.deepEqual(r.status === 'notFound' && r.contradicts, { storedAt: 1_000_000 });
  const kept = rl.peek<typeof vulnerable>('host', '1.1.1.1');
  assert.equal(kept?.status, 'ok');
  assert.deepEqual(kept?.status === 'ok' && kept.value, vulnerable);
  // Once the answer has expired, "not found" takes its place, and the caller still hears of it.
  now += TTL.host + 1;
  const later = await rl.get('host', '1.1.1.1', notFound, { automatic: false });
  assert.deepEqual(later.status === 'notFound' && later.contradicts, { storedAt: 1_000_000 });
  assert.equal(rl.peek('host', '1.1.1.1')?.status, 'notFound');
});
