// The triage against the project's emulator over loopback: batched `ip:` searches, the
// fallback to single lookups, the credit budget (402 midway) and re-runs, with the real
// client, request layer and cache.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ResultCache } from '../../../src/core/requests/cache';
import { Limiter } from '../../../src/core/requests/limiter';
import { PrivacyPolicy } from '../../../src/core/privacy';
import { RequestLayer } from '../../../src/core/requests/layer';
import { buildTriage, enrich, layerSource, preview, type SendCheck } from '../../../src/core/triage';
import { FIXTURE_HOSTS, FIXTURE_UNKNOWN_IP } from '../../../src/emulator/fixtures';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { makeClient } from '../api/support';
import { call } from '../emulator/helpers';

const TTL = { host: 600_000, whois: 600_000, count: 600_000, notFound: 600_000 };
const policy = new PrivacyPolicy();
const check: SendCheck = (kind, value) => policy.check({ kind, value });

function setup(emu: Emulator, limiter = new Limiter({ perMinute: 1_000_000, maxConcurrent: 4 })) {
  const { client } = makeClient(emu.url, emu.apiKey, {
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
  const layer = new RequestLayer({
    cache: new ResultCache({ ttlMs: TTL, maxEntries: 100_000 }),
    limiter,
    origin: () => emu.url,
  });
  return { client, layer };
}

void describe('triage against the emulator', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ dialect: 'live', hosts: 300 });
  });
  after(async () => {
    await emu.close();
  });

  void it('a batched ip: search answers for many IPs in one request (IPv6 quoted)', async () => {
    emu.clearLog();
    const { client, layer } = setup(emu);
    const ips = [
      FIXTURE_HOSTS.webServer,
      FIXTURE_HOSTS.resolver,
      FIXTURE_HOSTS.scanner,
      FIXTURE_HOSTS.ipv6,
      FIXTURE_UNKNOWN_IP,
    ];
    const text = `${ips.join(' and ')} and 10.1.2.3 and 192.168.0.1`;
    const t = await buildTriage([{ uri: 'mem:a', text }], check);
    const src = layerSource({ layer, client: () => client });
    const p = preview(t, src, { batchSize: 50 });
    assert.equal(p.requests, 1);
    assert.equal(emu.requests.length, 0, 'the preview sent nothing');
    const r = await enrich(t, src, { batchSize: 50 });
    assert.equal(r.requests, 1);
    assert.equal(emu.requests.length, 1);
    assert.equal(emu.requests[0]!.endpoint, 'hosts.search');
    const sentText = JSON.stringify(emu.requests.map((q) => q.body));
    assert.ok(!sentText.includes('10.1.2.3') && !sentText.includes('192.168.0.1'), 'no private value sent');
    const by = new Map(t.rows.map((x) => [x.value, x]));
    assert.equal(by.get(FIXTURE_HOSTS.webServer)?.status, 'enriched');
    assert.equal(by.get(FIXTURE_HOSTS.webServer)?.verdict?.kind, 'host');
    assert.equal(by.get(FIXTURE_HOSTS.ipv6)?.status, 'enriched', 'the quoted IPv6 term matched');
    assert.equal(by.get(FIXTURE_UNKNOWN_IP)?.status, 'unknown');
    // A second triage of the same text is answered from the cache: nothing sent.
    const t2 = await buildTriage([{ uri: 'mem:a', text }], check);
    const again = await enrich(t2, src);
    assert.equal(again.requests, 0);
    assert.equal(emu.requests.length, 1);
  });

  void it('falls back to single lookups when the batched query is refused (400), after a new yes', async () => {
    emu.clearLog();
    const { client, layer } = setup(emu);
    emu.injectFault({ path: '^/v1/hosts/search', fault: { kind: 'status', status: 400 }, count: -1 });
    try {
      const t = await buildTriage(
        [{ uri: 'mem:b', text: `${FIXTURE_HOSTS.webServer} ${FIXTURE_HOSTS.resolver} ${FIXTURE_HOSTS.cdn}` }],
        check,
      );
      const r = await enrich(t, layerSource({ layer, client: () => client }), {
        concurrency: 1,
        confirmFallback: async () => true,
      });
      assert.equal(r.batchRefused, true);
      assert.equal(r.requests, 4);
      assert.deepEqual(
        emu.requests.map((q) => q.endpoint),
        ['hosts.search', 'hosts.get', 'hosts.get', 'hosts.get'],
      );
      assert.equal(r.partial, false);
    } finally {
      emu.clearFaults();
    }
  });

  void it('a refused batch (400) stops at the count the preview showed: 3 requests reach the service, not 123', async () => {
    emu.clearLog();
    const { client, layer } = setup(emu);
    emu.injectFault({ path: '^/v1/hosts/search', fault: { kind: 'status', status: 400 }, count: -1 });
    try {
      const hosts = emu.dataset.hosts.slice(100, 220).map((h) => h.ip);
      const t = await buildTriage([{ uri: 'mem:d', text: hosts.join('\n') }], check);
      const src = layerSource({ layer, client: () => client });
      const shown = preview(t, src, { batchSize: 50 }).requests;
      assert.equal(shown, 3, 'the modal says "Enrich (3 requests)"');
      const r = await enrich(t, src, { batchSize: 50 });
      assert.equal(emu.requests.length, 3, 'what reached the emulator');
      assert.deepEqual(new Set(emu.requests.map((q) => q.endpoint)), new Set(['hosts.search']));
      assert.equal(r.requests, 3);
      assert.equal(r.stoppedBecause, 'over budget');
      assert.match(
        r.summary,
        /^0 of 120 enriched; 120 not: over budget \(batched search refused\); 3 requests sent$/,
      );
      // A person who says no in the modal: the same three, nothing more.
      emu.clearLog();
      const t2 = await buildTriage([{ uri: 'mem:d', text: hosts.join('\n') }], check);
      const asked: number[] = [];
      const declined = await enrich(t2, src, {
        batchSize: 50,
        confirmFallback: async (n) => (asked.push(n), false),
      });
      assert.deepEqual(asked, [120]);
      assert.equal(emu.requests.length, 3);
      assert.equal(declined.requests, 3);
    } finally {
      emu.clearFaults();
    }
  });

  void it('what the local limiter refused is not counted as sent: the count is what reached the service', async () => {
    emu.clearLog();
    // An agent's triage is automatic: two tokens, then the limiter refuses (no waiting 30 s).
    const { client, layer } = setup(emu, new Limiter({ perMinute: 2, burst: 2, maxConcurrent: 4 }));
    const hosts = emu.dataset.hosts.slice(0, 6).map((h) => h.ip);
    const t = await buildTriage([{ uri: 'mem:e', text: hosts.join('\n') }], check);
    const src = layerSource({ layer, client: () => client, batching: false, automatic: true });
    const r = await enrich(t, src, { concurrency: 1 });
    assert.equal(emu.requests.length, 2);
    assert.equal(r.requests, 2);
    assert.equal(r.answered, 2);
    assert.equal(r.stoppedBecause, 'local limit of automatic lookups reached');
    assert.match(r.summary, /; 2 requests sent$/);
  });

  void it('a spent credit budget answers 402: the run stops, keeps its rows, and a re-run sends only what is missing', async () => {
    emu.clearLog();
    const { client, layer } = setup(emu);
    const hosts = emu.dataset.hosts.slice(0, 40).map((h) => h.ip);
    const t = await buildTriage([{ uri: 'mem:c', text: hosts.join('\n') }], check);
    const eligible = t.rows.filter((x) => !x.private).length;
    emu.setCredits({ host: 25 });
    const src = layerSource({ layer, client: () => client, batching: false });
    const r = await enrich(t, src, { concurrency: 1 });
    assert.equal(r.answered, 25);
    assert.equal(r.stoppedBecause, 'credits used up');
    assert.equal(
      r.summary,
      `25 of ${eligible} enriched; ${eligible - 25} not: credits used up; 26 requests sent`,
    );
    const credits = await call(emu, 'GET', '/__admin/credits');
    assert.equal((credits.json as { host: { left: number } }).host.left, 0);
    layer.resume();
    emu.setCredits({ host: 1000 });
    emu.clearLog();
    const again = await enrich(t, src, { concurrency: 2 });
    assert.equal(again.requests, eligible - 25);
    assert.equal(new Set(emu.requests.map((q) => q.ip)).size, eligible - 25);
    assert.equal(again.partial, false);
  });
});
