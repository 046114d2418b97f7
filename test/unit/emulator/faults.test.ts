/** Every fault kind is observable with plain fetch / net, at the socket level. */
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import { FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import type { Emulator, Fault } from '../../../src/emulator/server';
import { get, post, small } from './helpers';
import { waitFor } from '../../support/wait';

const HOST = `/v1/hosts/${FIXTURE_HOSTS.resolver}`;

/** Raw HTTP exchange over a socket: what arrived before the server closed (or the timeout). */
function raw(
  emu: Emulator,
  path: string,
  headers: Record<string, string> = {},
  timeoutMs = 3000,
): Promise<{ data: string; closed: 'end' | 'error' | 'timeout' }> {
  const { port } = new URL(emu.url);
  return new Promise((resolve) => {
    const sock = net.connect(Number(port), '127.0.0.1');
    let data = '';
    const finish = (closed: 'end' | 'error' | 'timeout'): void => {
      clearTimeout(timer);
      sock.destroy();
      resolve({ data, closed });
    };
    // The bound of a raw read: for a hang fault, "nothing came within it" is the observation.
    // eslint-disable-next-line no-restricted-syntax -- see above
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    sock.on('data', (d) => (data += d.toString('latin1')));
    sock.on('end', () => finish('end'));
    sock.on('error', () => finish('error'));
    sock.on('close', () => finish('end'));
    const h = Object.entries({ 'X-API-Key': emu.apiKey, ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    sock.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${h}\r\n`);
  });
}

void describe('faults', () => {
  let emu: Emulator;
  before(async () => {
    emu = await small();
  });
  afterEach(() => emu.clearFaults());
  after(() => emu.close());

  const inject = (fault: Fault, count?: number, path?: string): void =>
    emu.injectFault({ fault, count, path });

  void it('latency delays the answer', async () => {
    // Far apart on purpose: the second answer is checked against the delay it must not have,
    // with room for a loaded machine.
    inject({ kind: 'latency', ms: 2000 });
    const t = performance.now();
    const r = await get(emu, HOST);
    assert.equal(r.status, 200);
    assert.ok(performance.now() - t >= 1980);
    const t2 = performance.now();
    await get(emu, HOST);
    assert.ok(performance.now() - t2 < 1500, 'count defaults to 1');
  });

  void it('status with Retry-After (seconds and HTTP-date) and CDN-style HTML', async () => {
    inject({ kind: 'status', status: 429, retryAfter: '7' });
    const a = await get(emu, HOST);
    assert.equal(a.status, 429);
    assert.equal(a.headers.get('retry-after'), '7');
    assert.equal(a.json.success, false);
    const date = new Date(Date.now() + 60_000).toUTCString();
    inject({ kind: 'status', status: 503, retryAfter: date, html: true });
    const b = await get(emu, HOST);
    assert.equal(b.status, 503);
    assert.equal(b.headers.get('retry-after'), date);
    assert.match(b.headers.get('content-type') ?? '', /text\/html/);
    assert.match(b.text, /<html/);
    for (const status of [400, 401, 402, 403, 404, 408, 500, 502, 504] as const) {
      inject({ kind: 'status', status });
      assert.equal((await get(emu, HOST)).status, status);
    }
  });

  void it('reset destroys the socket before any response', async () => {
    inject({ kind: 'reset' });
    await assert.rejects(get(emu, HOST), TypeError);
    const r = await raw(emu, HOST, { 'X-Emulator-Fault': JSON.stringify({ kind: 'reset' }) });
    assert.equal(r.data, '');
  });

  void it('truncated sends half of a valid JSON body, then closes', async () => {
    inject({ kind: 'truncated' });
    await assert.rejects(get(emu, HOST));
    const r = await raw(emu, HOST, { 'X-Emulator-Fault': '{"kind":"truncated"}' });
    const [head, body] = r.data.split('\r\n\r\n');
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
    assert.ok(body.length > 0 && body.length < length, `${body.length} of ${length}`);
    assert.throws(() => JSON.parse(body));
  });

  void it('oversized streams a huge but valid JSON body', async () => {
    inject({ kind: 'oversized', bytes: 3_000_000 });
    const res = await fetch(emu.url + HOST, { headers: { 'X-API-Key': emu.apiKey } });
    assert.equal(res.headers.get('content-length'), null, 'streamed, no length up front');
    const text = await res.text();
    assert.ok(text.length >= 3_000_000);
    const parsed = JSON.parse(text) as { data: string[] };
    assert.ok(parsed.data.length > 1000);
  });

  void it('oversized: a client that gives up early does not hurt the server', async () => {
    inject({ kind: 'oversized', bytes: 500_000_000 });
    const ctrl = new AbortController();
    const res = await fetch(emu.url + HOST, { headers: { 'X-API-Key': emu.apiKey }, signal: ctrl.signal });
    const reader = res.body?.getReader();
    let got = 0;
    while (got < 1_000_000) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      got += chunk.value.length;
    }
    ctrl.abort();
    assert.ok(got >= 1_000_000);
    assert.equal((await get(emu, HOST)).status, 200);
  });

  void it('trickle dribbles the real answer slowly', async () => {
    const normal = await get(emu, HOST);
    inject({ kind: 'trickle', bytesPerChunk: Math.ceil(normal.text.length / 5), intervalMs: 100 });
    const t = performance.now();
    const r = await get(emu, HOST);
    assert.ok(performance.now() - t >= 350, 'took several intervals');
    assert.equal(r.text, normal.text);
  });

  void it('hang never answers; the client times out; close() still ends', async () => {
    inject({ kind: 'hang' });
    await assert.rejects(
      fetch(emu.url + HOST, { headers: { 'X-API-Key': emu.apiKey }, signal: AbortSignal.timeout(300) }),
      { name: 'TimeoutError' },
    );
  });

  void it('wrongTypes breaks field types inside the records', async () => {
    inject({ kind: 'wrongTypes' }, 1, '/v1/hosts/search');
    const r = await post(emu, '/v1/hosts/search', { query: '*', limit: 2 });
    assert.equal(r.status, 200);
    assert.equal(typeof r.json.pagination.total, 'string');
    const hit = r.json[' data'][0];
    assert.equal(typeof hit.scan_id, 'string');
    assert.ok(!Array.isArray(hit.services) && typeof hit.services === 'object');
    assert.ok(Object.values(hit).includes(null), 'null where objects are');
  });

  void it('notJson answers 200 text/html', async () => {
    inject({ kind: 'notJson' });
    const r = await get(emu, HOST);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(r.json, undefined);
  });

  void it('badContentType answers JSON as text/plain', async () => {
    inject({ kind: 'badContentType' });
    const r = await get(emu, HOST);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(r.json.data.ip, FIXTURE_HOSTS.resolver);
  });

  void it('protoPollution injects __proto__ and constructor keys at several levels', async () => {
    inject({ kind: 'protoPollution' });
    const r = await get(emu, HOST);
    assert.ok((r.text.match(/"__proto__"/g) ?? []).length >= 3);
    assert.ok((r.text.match(/"constructor"/g) ?? []).length >= 3);
    assert.ok(Object.prototype.hasOwnProperty.call(r.json, '__proto__'), 'JSON.parse keeps it as an own key');
    assert.ok(Object.prototype.hasOwnProperty.call(r.json.data, '__proto__'));
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
  });

  void it('rules: count, path regex, -1 for always, header overrides, bad header is 400', async () => {
    inject({ kind: 'status', status: 500 }, 2, '^/v1/domain/');
    assert.equal((await get(emu, HOST)).status, 200, 'path does not match');
    assert.equal((await post(emu, '/v1/domain/count', { domain: 'x.com' })).status, 500);
    assert.equal((await post(emu, '/v1/domain/count', { domain: 'x.com' })).status, 500);
    assert.equal((await post(emu, '/v1/domain/count', { domain: 'x.com' })).status, 200);
    inject({ kind: 'status', status: 502 }, -1);
    for (let i = 0; i < 3; i++) assert.equal((await get(emu, HOST)).status, 502);
    const h = await get(emu, HOST, { headers: { 'X-Emulator-Fault': '{"kind":"status","status":504}' } });
    assert.equal(h.status, 504);
    emu.clearFaults();
    assert.equal((await get(emu, HOST, { headers: { 'X-Emulator-Fault': '{"kind":"nope"}' } })).status, 400);
    assert.equal((await get(emu, HOST, { headers: { 'X-Emulator-Fault': 'not json' } })).status, 400);
    assert.throws(() => emu.injectFault({ fault: { kind: 'status', status: 418 as 400 } }));
  });

  void it('the request log records the fault', async () => {
    emu.clearLog();
    inject({ kind: 'status', status: 503 });
    await get(emu, HOST);
    assert.equal(emu.requests[0].fault, 'status');
    assert.equal(emu.requests[0].status, 503);
  });

  void it('admin routes are never faulted', async () => {
    inject({ kind: 'reset' }, -1);
    const r = await fetch(`${emu.url}/__admin/health`);
    assert.equal(r.status, 200);
  });
});

void describe('close() with hanging and trickling sockets', () => {
  void it('ends promptly and lets the clients fail', async () => {
    const emu = await small();
    emu.injectFault({ fault: { kind: 'hang' }, count: -1 });
    const pending = [1, 2, 3].map(() =>
      fetch(emu.url + HOST, { headers: { 'X-API-Key': emu.apiKey } }).then(
        () => 'answered',
        () => 'failed',
      ),
    );
    await waitFor(() => emu.requests.length === 3, 10_000, 'the three requests at the emulator');
    const t = performance.now();
    await emu.close();
    assert.ok(performance.now() - t < 10_000, 'close did not wait on the hung requests');
    assert.deepEqual(await Promise.all(pending), ['failed', 'failed', 'failed']);
  });

  void it('ends while a trickle and a latency fault are pending', async () => {
    const emu = await small();
    emu.injectFault({ fault: { kind: 'trickle', bytesPerChunk: 1, intervalMs: 1000 } });
    emu.injectFault({ fault: { kind: 'latency', ms: 60_000 } });
    const a = fetch(emu.url + HOST, { headers: { 'X-API-Key': emu.apiKey } })
      .then((r) => r.text())
      .then(
        () => 'answered',
        () => 'failed',
      );
    const b = fetch(emu.url + HOST, { headers: { 'X-API-Key': emu.apiKey } }).then(
      () => 'answered',
      () => 'failed',
    );
    // The trickle has written its headers (the status is set then); the latency one has arrived.
    await waitFor(
      () => emu.requests.length === 2 && emu.requests.some((r) => r.status === 200),
      10_000,
      'the trickle started and the delayed request arrived',
    );
    await emu.close();
    assert.deepEqual(await Promise.all([a, b]), ['failed', 'failed']);
  });
});
