import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Limiter, LocalRateLimitError } from '../../../src/core/requests/limiter';
import { turns } from '../../support/wait';

void test('automatic requests spend tokens; an empty bucket beyond maxWait fails fast', async () => {
  let now = 0;
  const limiter = new Limiter({ perMinute: 6, burst: 2, maxConcurrent: 10, maxWaitMs: 1000, now: () => now });
  (await limiter.acquire({ automatic: true }))();
  (await limiter.acquire({ automatic: true }))();
  await assert.rejects(limiter.acquire({ automatic: true }), (e: unknown) => {
    assert.ok(e instanceof LocalRateLimitError);
    assert.ok(e.retryAfterMs > 9000 && e.retryAfterMs <= 10_000, String(e.retryAfterMs));
    return true;
  });
  // Explicit requests do not spend tokens.
  (await limiter.acquire({ automatic: false }))();
  now += 10_000; // one token back
  (await limiter.acquire({ automatic: true }))();
});

void test('a short wait for a token is waited out', async () => {
  const limiter = new Limiter({ perMinute: 60_000, burst: 1, maxConcurrent: 10 });
  (await limiter.acquire({ automatic: true }))();
  const t0 = performance.now();
  (await limiter.acquire({ automatic: true }))();
  assert.ok(performance.now() - t0 < 5000, 'waited about 1 ms, not refused or stuck');
});

void test('the concurrency cap queues requests in order and releases once', async () => {
  const limiter = new Limiter({ perMinute: 1000, maxConcurrent: 2 });
  const r1 = await limiter.acquire({ automatic: false });
  const r2 = await limiter.acquire({ automatic: false });
  const order: number[] = [];
  const p3 = limiter.acquire({ automatic: false }).then((r) => (order.push(3), r));
  const p4 = limiter.acquire({ automatic: false }).then((r) => (order.push(4), r));
  await turns();
  assert.deepEqual(order, []);
  assert.equal(limiter.inFlight, 2);
  r1();
  r1(); // double release is a no-op
  const r3 = await p3;
  assert.deepEqual(order, [3]);
  r2();
  const r4 = await p4;
  assert.deepEqual(order, [3, 4]);
  r3();
  r4();
  assert.equal(limiter.inFlight, 0);
});

void test('an aborted waiter leaves the queue and does not take a slot', async () => {
  const limiter = new Limiter({ perMinute: 1000, maxConcurrent: 1 });
  const r1 = await limiter.acquire({ automatic: false });
  const ac = new AbortController();
  const p = limiter.acquire({ automatic: false, signal: ac.signal });
  ac.abort();
  await assert.rejects(p, { name: 'AbortError' });
  r1();
  assert.equal(limiter.inFlight, 0);
  const r = await limiter.acquire({ automatic: false });
  assert.equal(limiter.inFlight, 1);
  r();
  await assert.rejects(limiter.acquire({ automatic: false, signal: AbortSignal.abort() }), {
    name: 'AbortError',
  });
});
