/**
 * Never a false all-clear: an answer whose CVE or exploit data cannot be read says
 * so ("CVE data in an unexpected shape"), never "no known CVEs" or "0 exploits". Each case of
 * an unreadable shape against a loopback server answering exactly that, through the real client, the
 * hover card, the triage verdict and the agent's lines; then a property (fast-check): no host
 * record with a CVE-looking token anywhere reads as clean. And a refresh answered `{data:{}}`
 * does not silently replace a cached "vulnerable" verdict.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { hostLines, hostSummaryLine } from '../../../src/agent/answerLines';
import { normalizeHost } from '../../../src/api/normalize';
import { shapeProblems } from '../../../src/api/shape';
import type { Host } from '../../../src/api/types';
import { ResultCache } from '../../../src/core/requests/cache';
import { hostCard } from '../../../src/core/cards/hoverCard';
import { Limiter } from '../../../src/core/requests/limiter';
import { RequestLayer } from '../../../src/core/requests/layer';
import { hostVerdict, verdictLine } from '../../../src/core/triage/verdict';
import { expectKind, makeClient } from './support';

const KEY = 'odin-test-key-0123456789abcdef';
const NOW = Date.parse('2026-11-26T00:00:00Z');

async function startServer(): Promise<{ url: string; set(body: unknown): void; close(): Promise<void> }> {
  let body: unknown = {};
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    set: (b) => (body = b),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** Every reader of a host answer: none may say "no known CVEs" (or read clean) of `h`. */
function cleanReadings(h: Host): string[] {
  const out: string[] = [];
  if (hostCard(h.ip, h, { now: NOW }).includes('no known CVEs')) out.push('hover card');
  const v = hostVerdict(h);
  if (!v.vulnerable && v.cvesUnknown === undefined) out.push('triage verdict');
  if (verdictLine(v) === '' || !/CVE|vulnerable|\?/.test(verdictLine(v))) out.push('verdict line');
  if (hostLines(h).some((l) => l.includes('no known CVEs'))) out.push('agent host lines');
  if (hostSummaryLine(h).includes('no known CVEs')) out.push('agent summary line');
  return out;
}

const service = (extra: Record<string, unknown>): Record<string, unknown> => ({
  port: 443,
  protocol: 'tcp',
  ...extra,
});

void describe('never a false all-clear', () => {
  let srv: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    srv = await startServer();
  });
  after(() => srv.close());

  void it('CVE entries shaped ["CVE-…"] or [{id: 44228}] never read as "no known CVEs"', async () => {
    const { client } = makeClient(srv.url, KEY);
    for (const cve of [
      ['CVE-2021-44228'],
      [{ id: 44228 }],
      [{ cve_id: 'CVE-2021-44228', severity: 'critical' }],
      [{ id: 'CVE-2021-44228', exploit: ['EDB-50592'] }],
      { 'CVE-2021-44228': 'critical' },
    ]) {
      srv.set({ success: true, data: { ip: '8.8.8.8', is_vuln: false, services: [service({ cve })] } });
      const h = await client.getHost('8.8.8.8');
      assert.deepEqual(cleanReadings(h), [], JSON.stringify(cve));
    }
    // Unreadable entries say so, in those words.
    srv.set({
      success: true,
      data: { ip: '8.8.8.8', is_vuln: false, services: [service({ cve: [{ id: 44228 }] })] },
    });
    const h = await client.getHost('8.8.8.8');
    assert.match(
      hostCard(h.ip, h, { now: NOW }),
      /\*\*Vulnerable:\*\* unknown, CVE data in an unexpected shape/,
    );
    assert.equal(hostVerdict(h).cvesUnknown, 'CVE data in an unexpected shape');
  });

  void it('a host lookup without services and is_vuln says so, not "no known CVEs"', async () => {
    const { client } = makeClient(srv.url, KEY);
    srv.set({ success: true, data: { ip: '8.8.8.8', asn: { number: 'AS15169' } } });
    const h = await client.getHost('8.8.8.8');
    assert.deepEqual(cleanReadings(h), []);
    assert.match(hostCard(h.ip, h, { now: NOW }), /unknown, no vulnerability data in the answer/);
    // With is_vuln: false the service has said it: clean.
    srv.set({ success: true, data: { ip: '8.8.8.8', is_vuln: false } });
    const clean = await client.getHost('8.8.8.8');
    assert.match(hostCard(clean.ip, clean, { now: NOW }), /no known CVEs/);
  });

  void it('string lists on the CVE and exploit endpoints are "CVE data in an unexpected shape", never 0', async () => {
    const { client } = makeClient(srv.url, KEY);
    // A list of CVE ids is read as the CVEs it names.
    srv.set({ success: true, data: ['CVE-2021-44228', 'CVE-2023-44487'] });
    assert.deepEqual(
      (await client.getHostCves('8.8.8.8')).items.map((c) => c.id),
      ['CVE-2021-44228', 'CVE-2023-44487'],
    );
    assert.equal((await client.getAllHostCves('8.8.8.8')).length, 2);
    // What cannot be read is an error that says so.
    for (const data of [
      [44228],
      ['log4shell'],
      [{ id: 44228 }],
      { 'CVE-2021-44228': { exploit: ['EDB-1'] } },
    ]) {
      srv.set({ success: true, data });
      const e = await expectKind(client.getHostCves('8.8.8.8'), 'badResponse');
      assert.match(e.message, /CVE data in an unexpected shape/);
      await expectKind(client.getAllHostCves('8.8.8.8'), 'badResponse');
    }
    for (const data of [['EDB-50592', 'EDB-50590'], { 'CVE-2021-44228': ['EDB-50592'] }, [42]]) {
      srv.set({ success: true, data });
      const e = await expectKind(client.getHostExploits('8.8.8.8'), 'badResponse');
      assert.match(e.message, /CVE data in an unexpected shape/, JSON.stringify(data));
    }
    // Real shapes still read.
    srv.set({
      success: true,
      data: { 'CVE-2021-44228': { id: 'CVE-2021-44228', score: 10, exploit: [{ id: 'EDB-50592' }] } },
    });
    assert.equal((await client.getHostExploits('8.8.8.8')).length, 1);
    assert.equal((await client.getHostCves('8.8.8.8')).items.length, 1);
  });

  void it('no host record containing a CVE-looking token anywhere reads as clean (property)', () => {
    const token = fc
      .tuple(fc.integer({ min: 1999, max: 2030 }), fc.integer({ min: 1000, max: 9_999_999 }), fc.boolean())
      .map(([y, n, lower]) => (lower ? `cve-${y}-${n}` : `CVE-${y}-${n}`));
    const text = fc.string({ maxLength: 12 });
    const key = fc.stringMatching(/^[a-z_]{1,10}$/).filter((k) => !['ip', '__proto__'].includes(k));
    /** Where a token goes: the shapes CVE data takes, and anywhere else in the record. */
    const placed = fc.oneof(
      fc.tuple(token, text).map(([t]) => ({ cve: [t] })),
      token.map((t) => ({ cve: [{ id: t }] })),
      token.map((t) => ({ cve: [{ cve_id: t, severity: 'high' }] })),
      token.map((t) => ({ cve: { [t]: 'critical' } })),
      token.map((t) => ({ cve: { [t]: { severity: 'x' } } })),
      token.map((t) => ({ cve: [{ id: t, exploit: [t] }] })),
      fc.tuple(token, text, text).map(([t, a, b]) => ({ banner: `${a}${t}${b}` })),
      fc
        .tuple(token, text)
        .map(([t, a]) => ({ modules: { http: { title: `${a} ${t}`, status_code: 200 } } })),
      fc.tuple(token, key).map(([t, k]) => ({ [k]: { vulns: [t] } })),
    );
    const hostLevel = fc.oneof(
      fc.tuple(token, key).map(([t, k]) => ({ [k]: [t] })),
      fc.tuple(token, key).map(([t, k]) => ({ [k]: { [t]: true } })),
      token.map((t) => ({ tags: [{ name: t, value: true }] })),
      token.map((t) => ({ hostnames: [`${t.toLowerCase()}.example`] })),
    );
    const record = fc
      .record({
        isVuln: fc.constantFrom(false, undefined),
        where: fc.oneof(
          placed.map((p) => ({ service: p })),
          hostLevel.map((p) => ({ host: p })),
        ),
        others: fc.integer({ min: 0, max: 3 }),
      })
      .map(({ isVuln, where, others }) => {
        const services: Record<string, unknown>[] = Array.from({ length: others }, (_, i) =>
          service({ port: 80 + i }),
        );
        if ('service' in where) services.push(service({ port: 8443, ...where.service }));
        return {
          ip: '8.8.8.8',
          ...(isVuln === undefined ? {} : { is_vuln: isVuln }),
          services,
          ...('host' in where ? where.host : {}),
        };
      });
    fc.assert(
      fc.property(record, (raw) => {
        // The client refuses a record of the wrong shape: an error, never an all-clear.
        if (shapeProblems('host', raw).length > 0) return true;
        const h = normalizeHost(raw);
        assert.ok(h);
        assert.deepEqual(cleanReadings(h), [], JSON.stringify(raw));
        return true;
      }),
      { numRuns: 500 },
    );
    // Not vacuous: the same records without the token read clean.
    const h = normalizeHost({ ip: '8.8.8.8', is_vuln: false, services: [service({ banner: 'nginx' })] })!;
    assert.deepEqual(cleanReadings(h), [
      'hover card',
      'triage verdict',
      'verdict line',
      'agent host lines',
      'agent summary line',
    ]);
  });

  void it('a refresh answered {data:{}} does not replace a cached "vulnerable" verdict with "not found" without saying so', async () => {
    const { client } = makeClient(srv.url, KEY);
    const layer = new RequestLayer({
      cache: new ResultCache({
        ttlMs: { host: 60_000, whois: 60_000, count: 60_000, notFound: 60_000 },
        maxEntries: 10,
      }),
      limiter: new Limiter({ perMinute: 1000, maxConcurrent: 4 }),
      origin: () => srv.url,
    });
    const fetch = (s: AbortSignal): Promise<Host> => client.getHost('8.8.8.8', { signal: s });
    srv.set({
      success: true,
      data: {
        ip: '8.8.8.8',
        is_vuln: true,
        services: [service({ cve: [{ id: 'CVE-2021-44228', severity: 'critical' }] })],
      },
    });
    const first = await layer.get('host', '8.8.8.8', fetch, { automatic: false });
    assert.equal(first.status, 'ok');
    srv.set({ success: true, data: {} });
    const again = await layer.get('host', '8.8.8.8', fetch, { automatic: false, refresh: true });
    assert.equal(again.status, 'notFound');
    assert.ok(
      again.status === 'notFound' && again.contradicts,
      'the caller is told an earlier answer exists',
    );
    const kept = layer.peek<Host>('host', '8.8.8.8');
    assert.equal(kept?.status, 'ok');
    assert.equal(kept?.status === 'ok' && hostVerdict(kept.value).vulnerable, true);
  });
});
