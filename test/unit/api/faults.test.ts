/**
 * Every fault the emulator can inject ends in the right typed error (or a clean result),
 * retries happen exactly where they should (counted through the emulator's request log),
 * and neither errors nor log lines ever carry the API key.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { OdinClient } from '../../../src/api/client';
import { OdinApiError, type OdinErrorKind } from '../../../src/api/errors';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import { type Emulator, startEmulator } from '../../../src/emulator/server';
import { expectKind, type LoggedClient, makeClient } from './support';

const KEY = 'odin-SECRET-k3y-0123456789abcdef';
const HOST = FIXTURE_HOSTS.resolver;

/** Every error and log line of the file, checked for the key at the end. */
const texts: string[] = [];
function record(e: OdinApiError): OdinApiError {
  texts.push(e.message, e.detail, e.stack ?? '', String(e.cause), JSON.stringify(e));
  let c: unknown = e.cause;
  while (c instanceof Error) {
    texts.push(c.message, c.stack ?? '');
    c = c.cause;
  }
  return e;
}
async function expectErr(p: Promise<unknown>, kind: OdinErrorKind): Promise<OdinApiError> {
  return record(await expectKind(p, kind));
}

function since(t0: number): number {
  return performance.now() - t0;
}

for (const dialect of ['spec', 'live'] as const) {
  void describe(`faults, ${dialect} dialect`, () => {
    let emu: Emulator;
    let lc: LoggedClient;
    let client: OdinClient;
    /** For the deadline faults only: a 300 ms deadline (the others use 2 s, robust on a busy machine). */
    let quick: LoggedClient;
    const hostRequests = (): number => emu.requests.filter((r) => r.endpoint === 'hosts.get').length;

    before(async () => {
      emu = await startEmulator({ dialect, seed: 3, hosts: 20, apiKey: KEY });
      lc = makeClient(emu.url, KEY);
      client = lc.client;
      quick = makeClient(emu.url, KEY, { timeoutMs: 300 });
      await client.ping(); // warm up the connection pool and the JIT
    });
    after(async () => {
      texts.push(...lc.logs.map((l) => l.msg), ...quick.logs.map((l) => l.msg));
      await emu.close();
    });
    beforeEach(() => {
      emu.clearFaults();
      emu.clearLog();
    });

    const noRetry: Array<[400 | 401 | 402 | 403 | 404 | 500, OdinErrorKind]> = [
      [400, 'badRequest'],
      [401, 'auth'],
      [402, 'quota'],
      [403, 'forbidden'],
      [404, 'notFound'],
      [500, 'server'],
    ];
    for (const [status, kind] of noRetry) {
      void it(`${status} → ${kind}, not retried`, async () => {
        emu.injectFault({ fault: { kind: 'status', status }, count: -1 });
        const e = await expectErr(client.getHost(HOST), kind);
        assert.equal(e.status, status);
        assert.equal(e.attempts, 1);
        assert.equal(hostRequests(), 1);
        assert.ok(e.message.length < 120, e.message);
      });
    }

    void it('401 asks for a new key; 402 talks about credits', async () => {
      emu.injectFault({ fault: { kind: 'status', status: 401 } });
      const a = await expectErr(client.getHost(HOST), 'auth');
      assert.equal(a.message, "ODIN rejected the API key. Run 'ODIN: Set API Key'.");
      emu.injectFault({ fault: { kind: 'status', status: 402 } });
      assert.match((await expectErr(client.getHost(HOST), 'quota')).message, /credits/);
    });

    for (const status of [408, 502, 503, 504] as const) {
      const kind: OdinErrorKind = status === 408 ? 'timeout' : 'server';
      void it(`${status} (HTML page) is retried, then ${kind}`, async () => {
        emu.injectFault({ fault: { kind: 'status', status, html: true }, count: -1 });
        const e = await expectErr(client.getHost(HOST), kind);
        assert.equal(e.status, status);
        assert.equal(e.attempts, 3);
        assert.equal(hostRequests(), 3);
        assert.match(e.detail, /HTML error page/);
        assert.doesNotMatch(e.message, /<|cloudflare/i, 'the page itself is never shown to the user');
      });
    }

    void it('500 HTML from the CDN → server, short message, not retried', async () => {
      emu.injectFault({ fault: { kind: 'status', status: 500, html: true }, count: -1 });
      const e = await expectErr(client.getHost(HOST), 'server');
      assert.equal(hostRequests(), 1);
      assert.equal(e.message, 'ODIN had a server problem (HTTP 500). Try again later.');
    });

    void it('a transient 503 recovers on retry', async () => {
      emu.injectFault({ fault: { kind: 'status', status: 503 }, count: 2 });
      assert.equal((await client.getHost(HOST)).ip, HOST);
      assert.equal(hostRequests(), 3);
    });

    void it('429 without Retry-After: retried with backoff, then rateLimited', async () => {
      emu.injectFault({ fault: { kind: 'status', status: 429 }, count: -1 });
      const e = await expectErr(client.getHost(HOST), 'rateLimited');
      assert.equal(e.retryAfterMs, undefined);
      assert.equal(hostRequests(), 3);
    });

    void it('429 with a long Retry-After (seconds or HTTP-date) is not slept', async () => {
      emu.injectFault({ fault: { kind: 'status', status: 429, retryAfter: '120' }, count: -1 });
      let t0 = performance.now();
      let e = await expectErr(client.getHost(HOST), 'rateLimited');
      assert.equal(e.retryAfterMs, 120_000);
      assert.equal(hostRequests(), 1);
      assert.ok(since(t0) < 10_000, 'not slept');
      assert.match(e.message, /Try again in 120 s/);

      emu.clearLog();
      emu.clearFaults();
      const date = new Date(Date.now() + 3_600_000).toUTCString();
      emu.injectFault({ fault: { kind: 'status', status: 429, retryAfter: date }, count: -1 });
      t0 = performance.now();
      e = await expectErr(client.getHost(HOST), 'rateLimited');
      assert.ok(e.retryAfterMs! > 3_590_000 && e.retryAfterMs! <= 3_600_000, String(e.retryAfterMs));
      assert.equal(hostRequests(), 1);
      assert.ok(since(t0) < 10_000, 'not slept');
    });

    void it('reset: retried, then network (reset); a single reset recovers', async () => {
      emu.injectFault({ fault: { kind: 'reset' }, count: -1 });
      const e = await expectErr(client.getHost(HOST), 'network');
      assert.equal(e.network, 'reset');
      assert.equal(hostRequests(), 3);
      assert.match(e.message, /connection was reset/);
      emu.clearFaults();
      emu.clearLog();
      emu.injectFault({ fault: { kind: 'reset' }, count: 1 });
      assert.equal((await client.getHost(HOST)).ip, HOST);
      assert.equal(hostRequests(), 2);
    });

    void it('truncated body → badResponse, not retried', async () => {
      emu.injectFault({ fault: { kind: 'truncated' }, count: -1 });
      const e = await expectErr(client.getHost(HOST), 'badResponse');
      assert.equal(hostRequests(), 1);
      assert.match(e.detail, /cut off|truncated|invalid/);
    });

    void it('oversized body → tooLarge while streaming (no Content-Length)', async () => {
      const { client: small } = makeClient(emu.url, KEY, { maxResponseBytes: 100_000 });
      emu.injectFault({ fault: { kind: 'oversized', bytes: 5_000_000 } });
      const t0 = performance.now();
      const e = await expectErr(small.getHost(HOST), 'tooLarge');
      assert.match(e.detail, /while streaming/);
      assert.ok(since(t0) < 10_000, 'stopped at the cap, not at the end of 5 MB');
      assert.equal(hostRequests(), 1);
    });

    void it('a declared Content-Length over the cap → tooLarge before reading', async () => {
      const { client: small } = makeClient(emu.url, KEY, { maxResponseBytes: 2_000 });
      const e = await expectErr(small.getHost(FIXTURE_HOSTS.webServer), 'tooLarge');
      assert.match(e.detail, /Content-Length/);
    });

    void it('trickle past the deadline → timeout (the deadline covers the body)', async () => {
      emu.injectFault({ fault: { kind: 'trickle', bytesPerChunk: 8, intervalMs: 40 } });
      const t0 = performance.now();
      const e = await expectErr(quick.client.getHost(HOST), 'timeout');
      const ms = since(t0);
      assert.ok(ms >= 280 && ms < 10_000, `${ms} ms`);
      assert.match(e.detail, /reading the body/);
      assert.equal(hostRequests(), 1);
    });

    void it('hang → timeout at the deadline', async () => {
      emu.injectFault({ fault: { kind: 'hang' } });
      const t0 = performance.now();
      const e = await expectErr(quick.client.getHost(HOST), 'timeout');
      const ms = since(t0);
      assert.ok(ms >= 280 && ms < 10_000, `${ms} ms`);
      assert.match(e.detail, /response headers/);
    });

    void it('latency: within the deadline succeeds, beyond it times out', async () => {
      emu.injectFault({ fault: { kind: 'latency', ms: 100 } });
      assert.equal((await quick.client.getHost(HOST)).ip, HOST);
      emu.injectFault({ fault: { kind: 'latency', ms: 1000 } });
      await expectErr(quick.client.getHost(HOST), 'timeout');
    });

    void it('notJson (HTML challenge page with 200) → badResponse', async () => {
      emu.injectFault({ fault: { kind: 'notJson' } });
      const e = await expectErr(client.getHost(HOST), 'badResponse');
      assert.match(e.detail, /HTML/);
      assert.equal(hostRequests(), 1);
    });

    void it('badContentType (JSON labelled text/plain) → badResponse', async () => {
      emu.injectFault({ fault: { kind: 'badContentType' } });
      const e = await expectErr(client.getHost(HOST), 'badResponse');
      assert.match(e.detail, /text\/plain/);
    });

    void it('wrongTypes: every endpoint normalises or reports badResponse, never crashes', async () => {
      const calls: Array<() => Promise<unknown>> = [
        () => client.getHost(FIXTURE_HOSTS.webServer),
        () => client.searchHosts({ query: '*', limit: 5 }),
        () => client.summarizeHosts({ field: 'services.port', query: '*' }),
        () => client.getHostCves(FIXTURE_HOSTS.webServer, 1),
        () => client.getHostExploits(FIXTURE_HOSTS.webServer),
        () => client.searchDomains({ domain: FIXTURE_DOMAINS.corp, limit: 5 }),
        () => client.countDomains({ domain: FIXTURE_DOMAINS.corp }),
        () => client.countSubdomains({ domain: FIXTURE_DOMAINS.corp }),
        () => client.getWhois(FIXTURE_DOMAINS.corp),
        () => client.getWhoisHistory(FIXTURE_DOMAINS.corp),
        () => client.searchBuckets({ query: '*', limit: 5 }),
        () => client.countFiles({ query: '*' }),
        () => client.summarizeFiles({ field: 'ext', query: '*' }),
        () => client.getBucketFields(),
        () => client.getFileFields(),
        () => client.getHostFields(),
        () => client.getCreditsUsage(),
      ];
      let normalised = 0;
      for (const call of calls) {
        emu.injectFault({ fault: { kind: 'wrongTypes' } });
        try {
          const v = await call();
          normalised++;
          // Whatever survives has the declared types.
          JSON.stringify(v, (_k, x: unknown) => {
            assert.notEqual(typeof x, 'function');
            return x;
          });
        } catch (e) {
          assert.ok(e instanceof OdinApiError, `not a typed error: ${String(e)}`);
          record(e);
          assert.ok(['badResponse', 'notFound'].includes(e.kind), `${e.kind}: ${e.detail}`);
        }
      }
      assert.ok(normalised > 5, `${normalised} calls normalised`);

      emu.injectFault({ fault: { kind: 'wrongTypes' } });
      const h = await client.getHost(FIXTURE_HOSTS.webServer).catch(() => undefined);
      if (h) {
        assert.equal(typeof h.ip, 'string');
        for (const s of h.services) assert.equal(typeof s.port, 'number');
        assert.ok(h.scan_id === undefined || typeof h.scan_id === 'number');
        assert.ok(Array.isArray(h.tags) && Array.isArray(h.hostnames));
      }
    });

    void it('protoPollution: no prototype is polluted and no result carries the keys', async () => {
      const calls: Array<() => Promise<unknown>> = [
        () => client.getHost(FIXTURE_HOSTS.webServer),
        () => client.searchHosts({ query: '*', limit: 3 }),
        () => client.getHostCves(FIXTURE_HOSTS.webServer, 1),
        () => client.getHostExploits(FIXTURE_HOSTS.webServer),
        () => client.getWhois(FIXTURE_DOMAINS.corp),
        () => client.searchBuckets({ query: '*', limit: 3 }),
        () => client.getHostFields(),
        () => client.summarizeHosts({ field: 'services.port', query: '*' }),
      ];
      for (const call of calls) {
        emu.injectFault({ fault: { kind: 'protoPollution' } });
        const v = await call();
        assert.equal(({} as Record<string, unknown>).polluted, undefined);
        assert.equal(({} as Record<string, unknown>).isAdmin, undefined);
        assert.equal(Object.prototype.toString.call({}), '[object Object]');
        const walk = (x: unknown, depth: number): void => {
          if (x === null || typeof x !== 'object' || depth > 40) return;
          const proto: unknown = Object.getPrototypeOf(x);
          assert.ok(proto === Object.prototype || proto === Array.prototype, 'plain objects only');
          for (const k of Object.keys(x)) {
            assert.ok(!['__proto__', 'constructor', 'prototype'].includes(k), `key ${k} survived`);
            walk((x as Record<string, unknown>)[k], depth + 1);
          }
          assert.equal((x as Record<string, unknown>).polluted, undefined);
        };
        walk(v, 0);
      }
    });
  });
}

void describe('Retry-After that is honoured (short)', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ hosts: 20, apiKey: KEY });
  });
  after(() => emu.close());
  beforeEach(() => {
    emu.clearFaults();
    emu.clearLog();
  });

  void it('seconds form: waits, retries, then rateLimited with retryAfterMs', async () => {
    const lc = makeClient(emu.url, KEY, { retry: { maxAttempts: 2, baseDelayMs: 5, maxRetryAfterMs: 1500 } });
    emu.injectFault({ fault: { kind: 'status', status: 429, retryAfter: '1' }, count: -1 });
    const t0 = performance.now();
    const e = await expectErr(lc.client.getHost(HOST), 'rateLimited');
    assert.ok(since(t0) >= 990, `${since(t0)} ms`);
    assert.equal(e.retryAfterMs, 1000);
    assert.equal(e.attempts, 2);
    assert.equal(emu.requests.length, 2);
    assert.ok(lc.logs.some((l) => /retrying in 1000 ms/.test(l.msg)));
    texts.push(...lc.logs.map((l) => l.msg));
  });

  void it('HTTP-date form: waits until the date, then the retry succeeds', async () => {
    emu.clearLog();
    const lc = makeClient(emu.url, KEY);
    const date = new Date(Date.now() + 1000).toUTCString();
    emu.injectFault({ fault: { kind: 'status', status: 429, retryAfter: date }, count: 1 });
    assert.equal((await lc.client.getHost(HOST)).ip, HOST);
    assert.ok(Date.now() >= Date.parse(date) - 20, 'the retry was not sent before the date');
    assert.equal(emu.requests.length, 2);
    assert.deepEqual(
      emu.requests.map((r) => r.status),
      [429, 200],
    );
    texts.push(...lc.logs.map((l) => l.msg));
  });

  void it('a Retry-After beyond the remaining deadline is reported at once', async () => {
    emu.clearLog();
    const lc = makeClient(emu.url, KEY, { timeoutMs: 500 });
    emu.injectFault({ fault: { kind: 'status', status: 503, retryAfter: '5' }, count: -1 });
    const t0 = performance.now();
    const e = await expectErr(lc.client.getHost(HOST), 'server');
    assert.ok(since(t0) < 4000, 'reported, not slept for 5 s');
    assert.equal(e.retryAfterMs, 5000);
    assert.equal(emu.requests.length, 1);
  });
});

void describe('the key never leaks', () => {
  void it('no error message, detail, stack, cause or log line of this file contains the key', () => {
    assert.ok(texts.length > 100, `${texts.length} texts checked`);
    for (const t of texts) assert.ok(!t.includes(KEY), `key found in: ${t.slice(0, 200)}`);
  });
});
