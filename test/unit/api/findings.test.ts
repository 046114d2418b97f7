/**
 * The request-layer findings of the security review, each reproduced against a real loopback server
 * that answers exactly what the finding needs (or against the request layer itself), and
 * each failing without its fix:
 *  - a proxy's 407 is a proxy-authentication error, not a query-syntax problem;
 *  - a 200 with `{"error": …}` is an error, never a "not found" cached for hours;
 *  - a 200 whose fields have the wrong types (`services: "none"`, `is_vuln: "yes"`) is
 *    "ODIN sent data in an unexpected shape", never an all-clear;
 *  - server error text is redacted before it is cut, so no prefix of the key survives;
 *  - a Retry-After of 25 days pauses for 25 days (no `setTimeout` overflow);
 *  - a 503 with a long Retry-After pauses automatic lookups;
 *  - a lookup queued under one origin is neither sent nor cached after a switch, and
 *    requests in flight are aborted on a switch;
 *  - the memory cache is bounded in bytes.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { OdinApiError } from '../../../src/api/errors';
import { shapeProblems, UNEXPECTED_SHAPE_MESSAGE } from '../../../src/api/shape';
import { ResultCache } from '../../../src/core/requests/cache';
import { Limiter } from '../../../src/core/requests/limiter';
import { LookupsPausedError, MAX_TIMER_MS, RequestLayer } from '../../../src/core/requests/layer';
import { expectKind, makeClient } from './support';
import { turns, waitFor } from '../../support/wait';

const KEY = 'odin-SECRET-k3y-0123456789abcdef';
const TTL = { host: 60_000, whois: 60_000, count: 60_000, notFound: 60_000 };

interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** A loopback server that answers every request with `answer` (set per test) and counts them. */
async function startServer(): Promise<{
  url: string;
  set(a: Answer): void;
  count(): number;
  close(): Promise<void>;
}> {
  let answer: Answer = { status: 200, body: '{}' };
  let n = 0;
  const server = http.createServer((req, res) => {
    n++;
    req.resume();
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    set: (a) => (answer = a),
    count: () => n,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const json = (status: number, body: unknown, headers?: Record<string, string>): Answer => ({
  status,
  body: JSON.stringify(body),
  headers,
});

void describe('request-layer findings of the security review', () => {
  let srv: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    srv = await startServer();
  });
  after(() => srv.close());

  void it('a 407 is a proxy-authentication error with its own message', async () => {
    // Node's own fetch turns a 407 into a bare network error; VS Code's proxy-aware fetch can
    // hand the proxy's 407 back as a response, and undici's ProxyAgent fails the tunnel with
    // "Proxy response (407)". All three are the same problem for the user.
    const answered = makeClient(srv.url, KEY, {
      fetch: () =>
        Promise.resolve(
          new Response('<html>auth required</html>', {
            status: 407,
            headers: { 'proxy-authenticate': 'Basic realm="corp"', 'content-type': 'text/html' },
          }),
        ),
    });
    const tunnel = makeClient(srv.url, KEY, {
      fetch: () =>
        Promise.reject(
          new TypeError('fetch failed', {
            cause: new Error('Proxy response (407) !== 200 when HTTP Tunneling'),
          }),
        ),
    });
    for (const { client } of [answered, tunnel]) {
      const e = await expectKind(client.searchHosts({ query: 'port:22' }), 'network');
      assert.equal(e.network, 'proxyAuth');
      assert.match(e.message, /proxy asks for authentication \(HTTP 407\)/);
      assert.doesNotMatch(e.message, /query syntax/);
      assert.equal(e.attempts, 1, 'not retried');
    }
  });

  void it('a 200 with {"error": …} is an error, not a cached "not found"', async () => {
    const { client } = makeClient(srv.url, KEY);
    for (const body of [
      { error: 'backend unavailable' },
      { ' error': 'shard failure', data: null },
      { error: { code: 7 } },
    ]) {
      srv.set(json(200, body));
      const e = await expectKind(client.getHost('8.8.8.8'), 'server');
      assert.match(e.message, /answered with an error instead of data/);
      await expectKind(client.getWhois('example.net'), 'server');
    }
    // Through the request layer: the error is thrown and nothing is cached.
    srv.set(json(200, { error: 'backend unavailable' }));
    const rl = new RequestLayer({
      cache: new ResultCache({ ttlMs: TTL, maxEntries: 10 }),
      limiter: new Limiter({ perMinute: 10_000, maxConcurrent: 4 }),
      origin: () => srv.url,
    });
    await assert.rejects(
      rl.get('host', '8.8.8.8', (signal) => client.getHost('8.8.8.8', { signal }), { automatic: false }),
    );
    assert.equal(rl.peek('host', '8.8.8.8'), undefined);
    rl.dispose();
    // A real "no data" answer is still notFound.
    srv.set(json(200, { success: true, data: null }));
    await expectKind(client.getHost('8.8.8.8'), 'notFound');
  });

  void it('wrong types are "ODIN sent data in an unexpected shape", never an all-clear', async () => {
    const { client, logs } = makeClient(srv.url, KEY);
    const host = { ip: '8.8.8.8', is_vuln: false, services: [{ port: 53, protocol: 'udp' }] };
    for (const bad of [
      { ...host, services: 'none' },
      { ...host, is_vuln: 'yes' },
      { ...host, services: [{ port: '22' }] },
      { ...host, services: [{ port: 443, cve: 'CVE-2021-44228' }] },
      { ...host, services: [null] },
    ]) {
      srv.set(json(200, { success: true, data: bad }));
      const e = await expectKind(client.getHost('8.8.8.8'), 'badResponse');
      assert.equal(e.message, UNEXPECTED_SHAPE_MESSAGE);
      assert.match(e.detail, /unexpected shape: data\.(services|is_vuln)/);
      srv.set(json(200, { success: true, data: [bad] }));
      await expectKind(client.searchHosts({ query: 'port:22' }), 'badResponse');
    }
    srv.set(json(200, { success: true, data: 'none' }));
    await expectKind(client.searchHosts({ query: 'port:22' }), 'badResponse');
    await expectKind(client.searchDomains({ domain: 'example.net' }), 'badResponse');
    await expectKind(client.getHostCves('8.8.8.8'), 'badResponse');
    // The detail reaches the log through the transport's logger (the caller's log gets it too).
    assert.ok(Array.isArray(logs));
    // The right shape still passes.
    srv.set(json(200, { success: true, data: host }));
    const h = await client.getHost('8.8.8.8');
    assert.equal(h.is_vuln, false);
    assert.equal(h.services?.[0]?.port, 53);
  });

  void it('the real capture has the expected shape', async () => {
    const { readFileSync, existsSync } = await import('node:fs');
    const file = `${__dirname}/../../../../../shared/real/hosts-search.capture.json`;
    const alt = `${process.cwd()}/../shared/real/hosts-search.capture.json`;
    const path = existsSync(file) ? file : existsSync(alt) ? alt : undefined;
    if (!path) return; // shared/ is beside every checkout; tolerate running elsewhere
    const capture = JSON.parse(readFileSync(path, 'utf8')) as { data: unknown };
    assert.deepEqual(shapeProblems('hostList', capture.data), []);
  });

  void it('server error text is redacted before it is cut: no prefix of the key survives', async () => {
    const { client, logs } = makeClient(srv.url, KEY);
    const texts: string[] = [];
    const keep = (e: OdinApiError): void => void texts.push(e.message, e.detail, JSON.stringify(e));
    for (const pad of [150, 280, 290, 295]) {
      const message = `${'a'.repeat(pad)} key=${KEY} end`;
      srv.set(json(500, { success: false, message }));
      keep(await expectKind(client.getHost('8.8.8.8'), 'server'));
      srv.set(json(400, { success: false, message }));
      keep(await expectKind(client.searchHosts({ query: 'x' }), 'badRequest'));
      srv.set(json(200, { success: false, message }));
      keep(await expectKind(client.searchHosts({ query: 'x' }), 'badRequest'));
      srv.set({ status: 502, body: message, headers: { 'content-type': 'text/plain' } });
      keep(await expectKind(client.getHost('8.8.8.8'), 'server'));
    }
    texts.push(...logs.map((l) => l.msg));
    const prefix = KEY.slice(0, 8);
    for (const t of texts) assert.ok(!t.includes(prefix), `a key prefix survived: ${t.slice(0, 400)}`);
  });

  void it('a 503 with a long Retry-After pauses automatic lookups', async () => {
    srv.set(json(503, { success: false, message: 'maintenance' }, { 'retry-after': '3600' }));
    const { client } = makeClient(srv.url, KEY);
    const rl = new RequestLayer({
      cache: new ResultCache({ ttlMs: TTL, maxEntries: 10 }),
      limiter: new Limiter({ perMinute: 10_000, maxConcurrent: 4 }),
      origin: () => srv.url,
    });
    const before = srv.count();
    await assert.rejects(
      rl.get('host', '8.8.8.8', (signal) => client.getHost('8.8.8.8', { signal }), { automatic: true }),
    );
    assert.equal(srv.count() - before, 1, 'not retried: the wait is too long');
    assert.equal(rl.paused?.reason, 'unavailable');
    assert.ok((rl.paused?.until ?? 0) - Date.now() > 3_500_000);
    await assert.rejects(
      rl.get('host', '1.1.1.1', (signal) => client.getHost('1.1.1.1', { signal }), { automatic: true }),
      LookupsPausedError,
    );
    assert.equal(srv.count() - before, 1, 'nothing automatic was sent while paused');
    rl.dispose();
  });
});

void describe('request layer: pause timers, origin switches, memory bound', () => {
  const layer = (origin: () => string, cache = new ResultCache({ ttlMs: TTL, maxEntries: 100 })) =>
    new RequestLayer({ cache, limiter: new Limiter({ perMinute: 10_000, maxConcurrent: 1 }), origin });

  void it('a Retry-After of 25 days pauses for 25 days (no setTimeout overflow)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on('warning', onWarning);
    const rl = layer(() => 'https://api.odin.io');
    const days25 = 25 * 24 * 3_600_000;
    assert.ok(days25 > MAX_TIMER_MS);
    rl.noteError(new OdinApiError({ kind: 'rateLimited', endpoint: 'x', status: 429, retryAfterMs: days25 }));
    // A TimeoutOverflowWarning is emitted on a later turn of the loop.
    await turns();
    process.off('warning', onWarning);
    assert.equal(rl.paused?.reason, 'rateLimited');
    assert.ok((rl.paused?.until ?? 0) - Date.now() > days25 - 60_000);
    assert.ok(!warnings.includes('TimeoutOverflowWarning'));
    rl.dispose();
  });

  void it('on an origin switch, requests in flight are aborted and queued ones never run', async () => {
    let origin = 'http://127.0.0.1:1';
    const rl = layer(() => origin);
    const signals: AbortSignal[] = [];
    const calls: string[] = [];
    const fetcher = (target: string) => (signal: AbortSignal) => {
      calls.push(`${origin} ${target}`);
      signals.push(signal);
      return new Promise<string>((_, reject) =>
        signal.addEventListener('abort', () =>
          reject(new OdinApiError({ kind: 'cancelled', endpoint: 'x' })),
        ),
      );
    };
    // One in flight (maxConcurrent 1), one queued behind it.
    const a = rl.get('host', '8.8.8.8', fetcher('8.8.8.8'), { automatic: false });
    const b = rl.get('host', '1.1.1.1', fetcher('1.1.1.1'), { automatic: false });
    await waitFor(() => calls.length > 0, 5_000, 'the first lookup sent');
    await turns();
    assert.deepEqual(calls, ['http://127.0.0.1:1 8.8.8.8']);
    origin = 'https://api.odin.io';
    rl.originChanged();
    await assert.rejects(a);
    await assert.rejects(b);
    assert.equal(signals[0]?.aborted, true);
    assert.deepEqual(calls, ['http://127.0.0.1:1 8.8.8.8'], 'the queued lookup was never sent');
    rl.dispose();
  });

  void it('a lookup that finishes after a switch is not cached under the old origin', async () => {
    let origin = 'http://127.0.0.1:1';
    const cache = new ResultCache({ ttlMs: TTL, maxEntries: 100 });
    const rl = layer(() => origin, cache);
    let release!: (v: string) => void;
    const p = rl.get('host', '8.8.8.8', () => new Promise<string>((r) => (release = r)), {
      automatic: false,
    });
    await waitFor(() => release !== undefined, 5_000, 'the lookup started');
    origin = 'https://api.odin.io';
    release('answer from the old origin');
    await assert.rejects(p);
    assert.equal(cache.size, 0);
    rl.dispose();
  });

  void it('the memory cache is bounded in bytes as well as entries', () => {
    const cache = new ResultCache({ ttlMs: TTL, maxEntries: 5000, maxBytes: 32 * 1024 * 1024 });
    const banner = '\u2603'.repeat(7 * 1024 * 1024); // 14 MiB: two bytes a character
    for (let i = 0; i < 20; i++) cache.set(`k${i}`, { ip: `8.8.8.${i}`, banner: [banner] }, 'host');
    assert.ok(cache.bytes <= 32 * 1024 * 1024, `${cache.bytes} bytes held`);
    assert.equal(cache.size, 2);
    assert.ok(cache.peek('k19'), 'the newest entries stay');
    // An entry larger than the whole bound is not kept; small ones are unaffected.
    const small = new ResultCache({ ttlMs: TTL, maxEntries: 5000, maxBytes: 1024 * 1024 });
    small.set('big', banner, 'host');
    small.set('a', { ip: '1.1.1.1' }, 'host');
    assert.equal(small.peek('big'), undefined);
    assert.ok(small.peek('a'));
    small.setLimits(TTL, 5000, 10);
    assert.equal(small.size, 0);
  });
});
