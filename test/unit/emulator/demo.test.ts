/**
 * The demo's emulator (src/emulator/demo.ts, shipped as dist/emulator.js) is the tests' emulator
 * without its harness: over the same seed it answers every request as the tests' emulator does
 * with no fault set, byte for byte; it has no admin API and takes no fault header.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmulator as startDemo, type DemoEmulator } from '../../../src/emulator/demo';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import { startEmulator, type Emulator } from '../../../src/emulator/server';

/** Requests of every kind of answer: JSON, text, HEAD, errors, feeds. */
const REQUESTS: Array<[string, string, unknown?]> = [
  ['GET', '/v1/ping'],
  ['HEAD', '/v1/ping'],
  ['POST', '/v1/hosts/search', { query: 'services.port:443', limit: 3 }],
  ['POST', '/v1/hosts/count', { query: 'services.port:22' }],
  ['GET', `/v1/hosts/${FIXTURE_HOSTS.webServer}`],
  ['GET', `/v1/hosts/cve/${FIXTURE_HOSTS.webServer}`],
  ['GET', '/v1/hosts/8.8.8.300'],
  ['GET', `/v1/domain/whois/${FIXTURE_DOMAINS.corp}/historical`],
  ['POST', '/v1/exposed/buckets/search', { query: '', limit: 2 }],
  ['GET', '/v1/fields/hosts/all'],
  ['GET', '/v1/credits/usage'],
  ['POST', '/v1/hosts/search', { query: 'services.port:' }],
  ['GET', '/nowhere'],
  ['GET', '/feeds/kev.json'],
];

void describe('demo emulator', () => {
  let demo: DemoEmulator;
  let full: Emulator;
  before(async () => {
    [demo, full] = await Promise.all([startDemo({ hosts: 60 }), startEmulator({ hosts: 60 })]);
  });
  after(async () => {
    await Promise.all([demo?.close(), full?.close()]);
  });

  const send = async (base: string, [method, path, body]: [string, string, unknown?], key: string) => {
    const r = await fetch(base + path, {
      method,
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const type = r.headers.get('content-type');
    return { status: r.status, type, length: r.headers.get('content-length'), text: await r.text() };
  };

  void it('answers as the tests’ emulator does with no fault set', async () => {
    assert.equal(demo.apiKey, full.apiKey);
    assert.equal(demo.dataset.hosts.length, full.dataset.hosts.length);
    for (const req of REQUESTS) {
      const [a, b] = [await send(demo.url, req, demo.apiKey), await send(full.url, req, full.apiKey)];
      assert.deepEqual(a, b, `${req[0]} ${req[1]}`);
    }
    assert.ok(
      full.requests.some((e) => e.status === 400),
      'an error answer is among them',
    );
  });

  void it('has no admin API and takes no fault header', async () => {
    const admin = await fetch(`${demo.url}/__admin/health`);
    assert.equal(admin.status, 404);
    assert.deepEqual(await admin.json(), { success: false, message: 'Not found' });
    const faulty = await fetch(`${demo.url}/v1/ping`, {
      headers: {
        'x-api-key': demo.apiKey,
        'x-emulator-fault': JSON.stringify({ kind: 'status', status: 500 }),
      },
    });
    assert.equal(faulty.status, 200);
  });
});
