/**
 * Every endpoint round-trips against the API emulator over loopback, in both dialects, and
 * pagination walks whole result sets without duplicates.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OdinClient } from '../../../src/api/client';
import { collect } from '../../../src/api/paging';
import type { Cve, Severity } from '../../../src/api/types';
import {
  FIXTURE_DOMAINS,
  FIXTURE_HOSTS,
  FIXTURE_UNKNOWN_DOMAIN,
  FIXTURE_UNKNOWN_IP,
} from '../../../src/emulator/fixtures';
import { type Emulator, startEmulator } from '../../../src/emulator/server';
import { expectKind, makeClient } from './support';

const SEVERITIES: Severity[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'NONE', 'UNKNOWN'];

function assertCve(c: Cve): void {
  assert.match(c.id, /^CVE-\d{4}-\d+$/);
  assert.ok(SEVERITIES.includes(c.severity), c.severity);
  assert.ok(Array.isArray(c.references) && Array.isArray(c.services) && Array.isArray(c.exploit));
}

for (const dialect of ['spec', 'live'] as const) {
  void describe(`endpoints, ${dialect} dialect`, () => {
    let emu: Emulator;
    let client: OdinClient;

    before(async () => {
      emu = await startEmulator({ dialect, seed: 7, hosts: 60 });
      client = makeClient(emu.url, emu.apiKey).client;
    });
    after(() => emu.close());

    void it('searchHosts: a page of normalised hosts with a numeric cursor', async () => {
      const page = await client.searchHosts({ query: '*', limit: 7 });
      assert.equal(page.items.length, 7);
      assert.equal(page.limit, 7);
      assert.ok(page.total !== undefined && page.total >= 60);
      assert.ok(page.next && page.next.every((n) => typeof n === 'number'));
      // Live cursors carry a relevance score: a float, sometimes a whole number (`[1721808680130, 2]`).
      if (dialect === 'live') assert.ok(Number.isFinite(page.next[1]), 'live cursors carry a score');
      for (const h of page.items) {
        assert.equal(typeof h.ip, 'string');
        assert.ok(Array.isArray(h.services) && Array.isArray(h.tags) && Array.isArray(h.domains));
        assert.notEqual(h.last_updated_at, '0001-01-01T00:00:00Z');
        for (const s of h.services) for (const c of s.cve) assertCve(c);
      }
    });

    void it('searchHosts: walking every page (limit 7) yields each host exactly once', async () => {
      emu.clearLog();
      const first = await client.searchHosts({ query: '*', limit: 7 });
      const all = await collect(client.searchHosts.bind(client), { query: '*', limit: 7 });
      const ips = all.map((h) => h.ip);
      assert.equal(new Set(ips).size, ips.length, 'no duplicates');
      assert.equal(ips.length, first.total);
      assert.equal(ips.length, emu.dataset.hosts.length);
      const searches = emu.requests.filter((r) => r.endpoint === 'hosts.search');
      assert.ok(searches.length <= Math.ceil(ips.length / 7) + 2, `${searches.length} requests`);
    });

    void it('searchHosts: a query narrows the result; a bad query is badRequest', async () => {
      const page = await client.searchHosts({ query: 'services.port:22', limit: 100 });
      assert.ok(page.items.length > 0);
      for (const h of page.items) assert.ok(h.services.some((s) => s.port === 22));
      const e = await expectKind(client.searchHosts({ query: '(((', limit: 5 }), 'badRequest');
      assert.equal(e.status, 400);
      assert.match(e.message, /^ODIN rejected the request: /);
    });

    void it('getHost: the web server fixture, with services, CVEs and location', async () => {
      const h = await client.getHost(FIXTURE_HOSTS.webServer);
      assert.equal(h.ip, FIXTURE_HOSTS.webServer);
      assert.ok(h.services.length >= 3);
      assert.ok(h.services.some((s) => s.cve.length > 0 && s.cve.some((c) => c.score !== undefined)));
      assert.ok(h.location?.country_code);
      for (const s of h.services) assert.ok(Number.isInteger(s.port));
      if (dialect === 'live') assert.ok(h.services.some((s) => typeof s.banner === 'string'));
    });

    void it('getHost: IPv6 and an unknown IP', async () => {
      assert.equal((await client.getHost(FIXTURE_HOSTS.ipv6)).ip, FIXTURE_HOSTS.ipv6);
      const e = await expectKind(client.getHost(FIXTURE_UNKNOWN_IP), 'notFound');
      assert.equal(e.status, 404);
    });

    void it('summarizeHosts: buckets keep their key type', async () => {
      const agg = await client.summarizeHosts({ field: 'services.port', query: '*', limit: 5 });
      assert.ok(agg.buckets.length > 0 && agg.buckets.length <= 5);
      assert.ok(agg.buckets.every((b) => typeof b.key === 'number' && b.doc_count > 0));
      assert.equal(typeof agg.sum_other_doc_count, 'number');
    });

    void it('getHostCves: the CVE map becomes pages of arrays, walked to the end', async () => {
      const page1 = await client.getHostCves(FIXTURE_HOSTS.webServer, 1);
      assert.ok(page1.items.length > 0);
      page1.items.forEach(assertCve);
      const all = await collect(
        (p: { start?: number }, o) => client.getHostCves(FIXTURE_HOSTS.webServer, p.start ?? 1, o),
        {},
      );
      assert.equal(new Set(all.map((c) => c.id)).size, all.length);
      assert.ok(all.length >= page1.items.length);
      const none = await client.getHostCves(FIXTURE_HOSTS.resolver, 1);
      assert.deepEqual(none.items, []);
      assert.equal(none.next, undefined);
    });

    void it('getHostExploits: flat list with the CVEs each exploit belongs to', async () => {
      const ex = await client.getHostExploits(FIXTURE_HOSTS.webServer);
      assert.ok(ex.length > 0);
      for (const e of ex) {
        assert.equal(typeof e.id, 'string');
        assert.ok(e.cves && e.cves.length > 0 && e.cves.every((id) => /^CVE-/.test(id)));
      }
      assert.equal(new Set(ex.map((e) => e.id)).size, ex.length);
    });

    void it('getHostCve: one CVE; an unknown CVE on the host is notFound', async () => {
      const [first] = (await client.getHostCves(FIXTURE_HOSTS.webServer, 1)).items;
      const cve = await client.getHostCve(FIXTURE_HOSTS.webServer, first.id);
      assert.equal(cve.id, first.id);
      assertCve(cve);
      await expectKind(client.getHostCve(FIXTURE_HOSTS.webServer, 'CVE-1999-0001'), 'notFound');
    });

    void it('searchDomains: opaque cursors walk every subdomain once', async () => {
      const first = await client.searchDomains({ domain: FIXTURE_DOMAINS.corp, limit: 7 });
      assert.equal(first.items.length, 7);
      assert.ok(first.next && first.next.length > 0);
      const all = await collect(client.searchDomains.bind(client), {
        domain: FIXTURE_DOMAINS.corp,
        limit: 7,
      });
      const names = all.map((d) => d.subdomain ?? d.domain);
      assert.equal(new Set(names).size, names.length);
      assert.equal(names.length, first.total);
      for (const d of all) assert.ok(d.domain.endsWith(FIXTURE_DOMAINS.corp));
    });

    void it('countDomains and countSubdomains', async () => {
      const n = await client.countDomains({ domain: FIXTURE_DOMAINS.corp });
      const s = await client.countSubdomains({ domain: FIXTURE_DOMAINS.corp });
      assert.ok(Number.isInteger(n) && n > 0);
      assert.ok(Number.isInteger(s) && s > 0);
      await expectKind(client.countSubdomains({}), 'badRequest');
    });

    void it('getWhois and getWhoisHistory', async () => {
      const w = await client.getWhois(FIXTURE_DOMAINS.corp);
      assert.equal(w.domain_name, FIXTURE_DOMAINS.corp);
      assert.ok(w.registrant_contact && w.technical_contact && w.administrative_contact && w.billing_contact);
      assert.ok(w.name_servers.length > 0);
      const h = await client.getWhoisHistory(FIXTURE_DOMAINS.corp);
      assert.ok(h.records.length > 1);
      assert.equal(h.limit, 100);
      await expectKind(client.getWhois(FIXTURE_UNKNOWN_DOMAIN), 'notFound');
    });

    void it('searchBuckets: opaque cursors walk every bucket once', async () => {
      const first = await client.searchBuckets({
        query: 'provider: aws',
        limit: 7,
        sort_by: 'files',
        sort_dir: 'desc',
      });
      assert.ok(first.items.length > 0);
      for (const b of first.items) {
        assert.equal(b.provider, 'aws');
        assert.ok(Array.isArray(b.labels) && typeof b.file_cat_count === 'object');
      }
      const all = await collect(client.searchBuckets.bind(client), {
        query: 'provider: aws',
        limit: 7,
        sort_by: 'files',
        sort_dir: 'desc',
      });
      const names = all.map((b) => b.name);
      assert.equal(new Set(names).size, names.length);
      assert.equal(names.length, first.total);
      const files = all.map((b) => b.files ?? 0);
      assert.deepEqual(
        files,
        [...files].sort((a, b) => b - a),
      );
    });

    void it('countFiles and summarizeFiles', async () => {
      const n = await client.countFiles({ query: '*' });
      assert.ok(Number.isInteger(n) && n > 0);
      const agg = await client.summarizeFiles({ field: 'ext', query: '*', limit: 5 });
      assert.ok(agg.buckets.length > 0);
      assert.ok(agg.buckets.every((b) => typeof b.key === 'string' && b.doc_count > 0));
    });

    void it('field catalogues (Data / data)', async () => {
      for (const fields of [
        await client.getBucketFields(),
        await client.getFileFields(),
        await client.getHostFields(),
        await client.getHostFields('services'),
      ]) {
        assert.ok(fields.length > 0);
        for (const f of fields) assert.ok(typeof f.name === 'string' && typeof f.is_locked === 'boolean');
      }
      await expectKind(client.getHostFields('nope'), 'badRequest');
    });

    void it('keyless endpoints work without a key; keyed ones fail with auth before any request', async () => {
      const { client: anon } = makeClient(emu.url, undefined);
      emu.clearLog();
      assert.ok((await anon.getHostFields()).length > 0);
      assert.ok((await anon.countDomains({ domain: FIXTURE_DOMAINS.corp })) > 0);
      await anon.ping();
      const e = await expectKind(anon.getHost(FIXTURE_HOSTS.resolver), 'auth');
      assert.equal(e.attempts, 0);
      assert.match(e.message, /Set API Key/);
      assert.deepEqual(
        emu.requests.map((r) => [r.endpoint, r.hadKey]),
        [
          ['fields.hosts', false],
          ['domain.count', false],
          ['ping', false],
        ],
      );
    });

    void it('ping and getCreditsUsage', async () => {
      await client.ping();
      const c = await client.getCreditsUsage();
      assert.ok(c.hostCert && typeof c.hostCert.left === 'number' && typeof c.hostCert.plan === 'number');
      assert.ok(c.bucketFile && typeof c.expiresOn === 'string');
      // Live sends an integer (epoch seconds): read as a date, about 200 days ahead.
      const days = (Date.parse(c.expiresOn) - Date.now()) / 86_400_000;
      assert.ok(days > 190 && days < 210, `${c.expiresOn}`);
    });

    void it('countHosts: the same number as a search total, one cheap call', async () => {
      emu.clearLog();
      const n = await client.countHosts({ query: 'services.port:22' });
      const page = await client.searchHosts({ query: 'services.port:22', limit: 1 });
      assert.equal(n, page.total);
      assert.equal(emu.requests[0].endpoint, 'hosts.count');
      assert.equal(await client.countHosts({ query: '*' }), emu.dataset.hosts.length);
    });

    void it("getAllHostCves and searchSubdomains (the official clients' extra endpoints)", async () => {
      const cves = await client.getAllHostCves(FIXTURE_HOSTS.webServer);
      assert.ok(cves.length > 10);
      for (const c of cves) assertCve(c);
      const names = await collect(client.searchSubdomains.bind(client), {
        domain: FIXTURE_DOMAINS.corp,
        limit: 9,
      });
      assert.equal(new Set(names).size, await client.countSubdomains({ domain: FIXTURE_DOMAINS.corp }));
    });

    void it('path parameters are encoded: no extra segments, no dot segments', async () => {
      emu.clearLog();
      await expectKind(client.getHost('8.8.8.8/../../v1/credits/usage'), 'badRequest');
      await expectKind(client.getWhois('a.com?x=1#y'), 'badRequest');
      await expectKind(client.getHost('..'), 'badRequest');
      await expectKind(client.getHost('.'), 'badRequest');
      await expectKind(client.getHost(''), 'badRequest');
      // An IP path parameter holds address characters only, so the first never left the client;
      // the domain left as ONE encoded segment of the intended route.
      assert.deepEqual(
        emu.requests.map((r) => r.endpoint),
        ['whois.get'],
      );
      assert.equal(emu.requests[0].domain, 'a.com?x=1#y');
    });

    void it('an IPv6 zone id never reaches the request path', async () => {
      emu.clearLog();
      for (const ip of ['2606:4700:4700::1111%secret-project-vpn', 'fe80::1%25secret-project-vpn']) {
        await expectKind(client.getHost(ip), 'badRequest');
        await expectKind(client.getHostCves(ip), 'badRequest');
        await expectKind(client.getHostExploits(ip), 'badRequest');
        await expectKind(client.getHostCve(ip, 'CVE-2021-44228'), 'badRequest');
      }
      assert.deepEqual(emu.requests, []);
    });
  });
}

void describe('not-found answered as 200 {data: null}', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ dialect: 'live', hosts: 20, notFound: 'null' });
  });
  after(() => emu.close());

  void it('single-record lookups end in notFound', async () => {
    const { client } = makeClient(emu.url, emu.apiKey);
    await expectKind(client.getHost(FIXTURE_UNKNOWN_IP), 'notFound');
    await expectKind(client.getWhois(FIXTURE_UNKNOWN_DOMAIN), 'notFound');
    await expectKind(client.getHostCve(FIXTURE_HOSTS.webServer, 'CVE-1999-0001'), 'notFound');
  });
  void it('list lookups answer an empty list', async () => {
    const { client } = makeClient(emu.url, emu.apiKey);
    assert.deepEqual((await client.getHostCves(FIXTURE_UNKNOWN_IP, 1)).items, []);
    assert.deepEqual(await client.getHostExploits(FIXTURE_UNKNOWN_IP), []);
  });
});
