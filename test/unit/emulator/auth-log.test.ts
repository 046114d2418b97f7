/** Auth rules, the request log (never the key) and the HTTP admin API. */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import type { Emulator, RequestLogEntry } from '../../../src/emulator/server';
import { call, get, post, small } from './helpers';

const JSON_TYPE = { 'content-type': 'application/json' };

const KEYED: [string, string, unknown?][] = [
  ['POST', '/v1/domain/subdomain/count', { domain: FIXTURE_DOMAINS.corp }],
  ['POST', '/v1/exposed/buckets/search', { query: '*' }],
  ['POST', '/v1/hosts/search', { query: '*' }],
  ['POST', '/v1/hosts/summary', { field: 'services.port', query: '*' }],
  ['POST', '/v1/exposed/files/summary', { field: 'ext', query: '*' }],
  ['POST', '/v1/exposed/files/count', { query: '*' }],
  ['GET', `/v1/hosts/${FIXTURE_HOSTS.webServer}`],
  ['GET', `/v1/domain/whois/${FIXTURE_DOMAINS.corp}/historical`],
  ['GET', `/v1/domain/whois/${FIXTURE_DOMAINS.corp}`],
  ['GET', `/v1/cves/all/${FIXTURE_HOSTS.webServer}/1`],
  ['GET', `/v1/hosts/exploits/${FIXTURE_HOSTS.webServer}`],
  ['GET', `/v1/hosts/cves/${FIXTURE_HOSTS.webServer}/CVE-2021-41773`],
  ['GET', '/v1/credits/usage'],
];
const KEYLESS: [string, string, unknown?][] = [
  ['POST', '/v1/domain/search', { domain: FIXTURE_DOMAINS.corp }],
  ['POST', '/v1/domain/count', { domain: FIXTURE_DOMAINS.corp }],
  ['GET', '/v1/fields/exposed/buckets'],
  ['GET', '/v1/fields/exposed/files'],
  ['GET', '/v1/fields/hosts/all'],
];

void describe('auth', () => {
  let emu: Emulator;
  before(async () => {
    emu = await small({ apiKey: 'test-key-123' });
  });
  after(() => emu.close());

  const req = (m: string, p: string, b: unknown, key: string | null) => call(emu, m as 'GET', p, b, { key });

  void it('keyed endpoints: 200 with the key, 401 without or with a wrong one', async () => {
    for (const [m, p, b] of KEYED) {
      assert.equal((await req(m, p, b, 'test-key-123')).status, 200, p);
      const missing = await req(m, p, b, null);
      assert.equal(missing.status, 401, p);
      const keys = p === '/v1/hosts/search' ? [' error', 'message', 'success'] : ['message', 'success'];
      assert.deepEqual(Object.keys(missing.json).sort(), keys);
      assert.equal(missing.json.success, false);
      assert.equal((await req(m, p, b, 'wrong')).status, 401, p);
    }
  });

  void it('endpoints 4, 11, 15, 16, 17 work without a key, but a wrong key is 401', async () => {
    for (const [m, p, b] of KEYLESS) {
      assert.equal((await req(m, p, b, null)).status, 200, p);
      assert.equal((await req(m, p, b, 'test-key-123')).status, 200, p);
      assert.equal((await req(m, p, b, 'wrong')).status, 401, p);
    }
    assert.equal((await req('GET', '/v1/ping', undefined, null)).status, 200);
  });

  void it('the header name is case-insensitive; the key never appears in answers or the log', async () => {
    emu.clearLog();
    const r = await get(emu, `/v1/hosts/${FIXTURE_HOSTS.resolver}`, {
      key: null,
      headers: { 'x-api-key': 'test-key-123' },
    });
    assert.equal(r.status, 200);
    const bad = await get(emu, `/v1/hosts/${FIXTURE_HOSTS.resolver}`, { key: 'wrong-secret-zzz' });
    assert.ok(!bad.text.includes('wrong-secret-zzz'));
    const log = JSON.stringify(emu.requests);
    assert.ok(!log.includes('test-key-123') && !log.includes('wrong-secret-zzz'));
    assert.equal(emu.requests[0].hadKey, true);
    assert.equal(emu.requests[0].keyValid, true);
    assert.equal(emu.requests[1].keyValid, false);
  });
});

void describe('request log and admin API', () => {
  let emu: Emulator;
  before(async () => {
    emu = await small();
  });
  after(() => emu.close());

  void it('records method, path, endpoint, ip/domain params, parsed body, key flags, status', async () => {
    emu.clearLog();
    await post(emu, '/v1/hosts/search?x=1', { query: 'services.port:22', limit: 2 });
    await get(emu, `/v1/hosts/${FIXTURE_HOSTS.webServer}/`);
    await get(emu, `/v1/domain/whois/${FIXTURE_DOMAINS.corp}`, { key: null });
    await get(emu, '/v1/nope');
    const [a, b, c, d] = emu.requests;
    assert.equal(a.method, 'POST');
    assert.equal(a.path, '/v1/hosts/search');
    assert.equal(a.endpoint, 'hosts.search');
    assert.deepEqual(a.body, { query: 'services.port:22', limit: 2 });
    assert.equal(a.status, 200);
    assert.ok(a.time > 0);
    assert.equal(b.endpoint, 'hosts.get');
    assert.equal(b.ip, FIXTURE_HOSTS.webServer);
    assert.equal(c.endpoint, 'whois.get');
    assert.equal(c.domain, FIXTURE_DOMAINS.corp);
    assert.equal(c.hadKey, false);
    assert.equal(c.status, 401);
    assert.equal(d.endpoint, 'unknown');
    assert.equal(d.status, 404);
  });

  void it('GET/DELETE /__admin/log, faults, dialect and health over HTTP', async () => {
    emu.clearLog();
    await get(emu, `/v1/hosts/${FIXTURE_HOSTS.resolver}`);
    const log = (await (await fetch(`${emu.url}/__admin/log`)).json()) as RequestLogEntry[];
    assert.equal(log.length, 1);
    assert.equal(log[0].endpoint, 'hosts.get');
    assert.equal((await fetch(`${emu.url}/__admin/log`, { method: 'DELETE' })).status, 204);
    assert.equal(emu.requests.length, 0);

    const add = await fetch(`${emu.url}/__admin/faults`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ fault: { kind: 'status', status: 503 }, count: 1 }),
    });
    assert.equal(add.status, 200);
    assert.equal((await get(emu, `/v1/hosts/${FIXTURE_HOSTS.resolver}`)).status, 503);
    await fetch(`${emu.url}/__admin/faults`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ fault: { kind: 'status', status: 500 }, count: -1 }),
    });
    assert.equal((await fetch(`${emu.url}/__admin/faults`, { method: 'DELETE' })).status, 204);
    assert.equal((await get(emu, `/v1/hosts/${FIXTURE_HOSTS.resolver}`)).status, 200);
    const badRule = await fetch(`${emu.url}/__admin/faults`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ fault: { kind: 'explode' } }),
    });
    assert.equal(badRule.status, 400);

    const d = await fetch(`${emu.url}/__admin/dialect`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ dialect: 'live' }),
    });
    assert.equal(d.status, 200);
    assert.equal(emu.dialect, 'live');
    const s = await post(emu, '/v1/hosts/search', { query: '*', limit: 1 });
    assert.ok(Array.isArray(s.json.data));
    assert.equal(
      (
        await fetch(`${emu.url}/__admin/dialect`, {
          method: 'POST',
          headers: JSON_TYPE,
          body: '{"dialect":"x"}',
        })
      ).status,
      400,
    );
    await fetch(`${emu.url}/__admin/dialect`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ dialect: 'spec' }),
    });

    const h = (await (await fetch(`${emu.url}/__admin/health`)).json()) as { ok: boolean; dialect: string };
    assert.equal(h.ok, true);
    assert.equal(h.dialect, 'spec');
    assert.equal(
      emu.requests.filter((e) => e.path.startsWith('/__admin')).length,
      0,
      'admin calls are not logged',
    );
  });

  void it('the admin API refuses a foreign Host (DNS rebinding) and POSTs that are not application/json (CSRF)', async () => {
    const port = new URL(emu.url).port;
    const raw = (method: string, path: string, headers: Record<string, string>, body = '') =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method,
            path,
            headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    emu.clearLog();
    await get(emu, `/v1/hosts/${FIXTURE_HOSTS.resolver}`);
    for (const host of [
      'attacker.example',
      `attacker.example:${port}`,
      '127.0.0.1',
      `127.0.0.1:1`,
      `localhost.attacker.example:${port}`,
    ])
      assert.equal(await raw('GET', '/__admin/log', { host }), 403, host);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`])
      assert.equal(await raw('GET', '/__admin/health', { host }), 200, host);
    const fault = JSON.stringify({ fault: { kind: 'status', status: 503 }, count: -1 });
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      '',
    ])
      assert.equal(
        await raw(
          'POST',
          '/__admin/faults',
          type ? { host: `127.0.0.1:${port}`, 'content-type': type } : { host: `127.0.0.1:${port}` },
          fault,
        ),
        403,
        type,
      );
    assert.equal(
      (await get(emu, `/v1/hosts/${FIXTURE_HOSTS.resolver}`)).status,
      200,
      'no fault was injected',
    );
    assert.equal(
      await raw(
        'POST',
        '/__admin/faults',
        { host: `127.0.0.1:${port}`, 'content-type': 'application/json; charset=utf-8' },
        fault,
      ),
      200,
    );
    assert.equal((await get(emu, `/v1/hosts/${FIXTURE_HOSTS.resolver}`)).status, 503);
    emu.clearFaults();
  });

  void it('notFound: "null" answers unknown lookups with 200 and data null', async () => {
    const e2 = await small({ notFound: 'null' });
    try {
      const r = await get(e2, '/v1/hosts/151.101.1.69');
      assert.equal(r.status, 200);
      assert.equal(r.json.data, null);
      assert.equal((await get(e2, '/v1/domain/whois/no-such-domain-odin.org')).json.data, null);
    } finally {
      await e2.close();
    }
  });

  void it('latencyMs delays every /v1 response', async () => {
    const e2 = await small({ latencyMs: 150 });
    try {
      const t = performance.now();
      await get(e2, '/v1/ping');
      assert.ok(performance.now() - t >= 140);
    } finally {
      await e2.close();
    }
  });
});
