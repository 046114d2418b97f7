/** The generated dataset: determinism, realism constraints, fixtures, speed. */
import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { describe, it } from 'node:test';
import { generateDataset, isSpecialIPv4 } from '../../../src/emulator/dataset';
import {
  FIXTURE_BUCKETS,
  FIXTURE_DOMAINS,
  FIXTURE_HOSTS,
  FIXTURE_UNKNOWN_DOMAIN,
  FIXTURE_UNKNOWN_IP,
} from '../../../src/emulator/fixtures';
import { PAYLOADS } from '../../../src/emulator/hostile';
import { parseArgs, UsageAsked } from '../../../src/emulator/cli';

const NOW = Date.parse('2025-03-15T12:00:00Z');

void describe('dataset', () => {
  const ds = generateDataset({ seed: 1, now: NOW });

  void it('is deterministic for a seed, and differs across seeds', () => {
    const again = generateDataset({ seed: 1, now: NOW });
    assert.equal(JSON.stringify(again.hosts.slice(0, 200)), JSON.stringify(ds.hosts.slice(0, 200)));
    assert.deepEqual(again.domains, ds.domains);
    assert.deepEqual(again.buckets, ds.buckets);
    assert.deepEqual([...again.whois.entries()], [...ds.whois.entries()]);
    const other = generateDataset({ seed: 2, now: NOW, hosts: 200 });
    assert.notDeepEqual(
      other.hosts.slice(10, 20).map((h) => h.ip),
      ds.hosts.slice(10, 20).map((h) => h.ip),
    );
  });

  void it('has >= 5,000 unique public hosts, some IPv6, none in special-purpose ranges', () => {
    assert.equal(ds.hosts.length, 5000);
    const ips = ds.hosts.map((h) => h.ip);
    assert.equal(new Set(ips).size, ips.length);
    const v6 = ips.filter((ip) => isIP(ip) === 6);
    assert.ok(v6.length > 20);
    for (const ip of ips) {
      assert.ok(isIP(ip) !== 0, ip);
      if (isIP(ip) === 4) assert.ok(!isSpecialIPv4(ip), ip);
    }
    for (const bad of [
      '10.1.2.3',
      '127.0.0.1',
      '169.254.1.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '100.127.0.1',
      '192.0.0.8',
      '192.0.2.1',
      '198.18.0.1',
      '198.19.255.1',
      '198.51.100.1',
      '203.0.113.9',
      '224.0.0.1',
      '239.1.1.1',
      '240.0.0.1',
      '255.255.255.255',
      '0.1.2.3',
    ]) {
      assert.ok(isSpecialIPv4(bad), bad);
    }
    for (const good of ['8.8.8.8', '172.15.0.1', '172.32.0.1', '100.63.0.1', '100.128.0.1', '198.20.0.1'])
      assert.ok(!isSpecialIPv4(good), good);
  });

  void it('looks real: 1–20 services, real products and versions, CVEs, tags, whois', () => {
    const regular = ds.hosts.filter((h) => h.ip !== FIXTURE_HOSTS.huge);
    for (const h of regular) {
      assert.ok(h.services.length >= 1 && h.services.length <= 20, `${h.ip} ${h.services.length}`);
      assert.equal(new Set(h.services.map((s) => s.port)).size, h.services.length, 'unique ports');
      assert.match(h.asn.number, /^AS\d+$/);
    }
    const products = new Set(regular.flatMap((h) => h.services.map((s) => `${s.product} ${s.version}`)));
    for (const p of ['nginx 1.18.0', 'OpenSSH 8.2p1', 'MySQL 5.7.33']) assert.ok(products.has(p), p);
    assert.ok(regular.filter((h) => h.is_vuln).length > 500);
    assert.ok(regular.some((h) => h.services.some((s) => s.cve.some((c) => c.exploit.length > 0))));
    assert.ok(ds.domains.length > 2000);
    assert.ok(ds.buckets.length >= 800);
    for (const p of ['aws', 'gcp', 'do', 'linode'])
      assert.ok(
        ds.buckets.some((b) => b.provider === p),
        p,
      );
    const bucketNames = new Set(ds.buckets.map((b) => b.name));
    assert.ok(
      ds.files.every((f) => bucketNames.has(f.bucket)),
      'files join buckets by name',
    );
    assert.ok(ds.fields.hosts.all.some((f) => f.is_locked));
    assert.ok(ds.fields.buckets.some((f) => f.is_locked));
  });

  void it('serves every named fixture and none of the unknown ones', () => {
    for (const ip of Object.values(FIXTURE_HOSTS)) assert.ok(ds.hostByIp.has(ip), ip);
    for (const d of Object.values(FIXTURE_DOMAINS)) assert.ok(ds.whois.has(d), d);
    assert.ok(!ds.hostByIp.has(FIXTURE_UNKNOWN_IP));
    assert.ok(!ds.whois.has(FIXTURE_UNKNOWN_DOMAIN));
    const tiny = generateDataset({ seed: 1, hosts: 3, now: NOW });
    for (const ip of Object.values(FIXTURE_HOSTS)) assert.ok(tiny.hostByIp.has(ip), `tiny ${ip}`);
  });

  void it('fixture details: web server CVEs with exploits, huge host, expiring domain', () => {
    const web = ds.hostByIp.get(FIXTURE_HOSTS.webServer);
    const cves = web?.services.flatMap((s) => s.cve) ?? [];
    assert.ok(cves.filter((c) => c.score >= 7 && c.exploit.length > 0).length >= 3);
    const huge = ds.hostByIp.get(FIXTURE_HOSTS.huge);
    assert.equal(huge?.services.length, 1000);
    const bannerBytes = (huge?.services ?? []).reduce(
      (n, s) => n + Object.values(s.modules).reduce((m, mod) => m + String(mod.banner ?? '').length, 0),
      0,
    );
    assert.ok(bannerBytes > 4_500_000 && bannerBytes < 7_000_000, `${bannerBytes}`);
    const exp = Date.parse(ds.whois.get(FIXTURE_DOMAINS.expiring)?.expires_date ?? '');
    assert.ok(exp > NOW && exp - NOW <= 30 * 86_400_000);
    const corp = ds.whoisHistory.get(FIXTURE_DOMAINS.corp) ?? [];
    assert.ok(corp.length >= 3);
  });

  void it('the hostile fixtures carry every payload in attacker-controlled strings', () => {
    const h = ds.hostByIp.get(FIXTURE_HOSTS.hostile);
    assert.ok(h);
    const strings = [
      ...h.services.flatMap((s) =>
        Object.values(s.modules).map((m) => String(m.banner ?? (m as { title?: string }).title ?? '')),
      ),
      ...h.services.map((s) => String(s.modules.http?.title ?? '')),
      ...h.hostnames.map((n) => n.name),
      ...h.tags.map((t) => t.pretty_name),
      ...h.services.flatMap((s) => s.cve.map((c) => c.summary)),
      h.whois.raw,
      h.whois.descr,
      h.whois.organization,
    ].filter((s) => s !== '');
    assert.ok(strings.length > 15);
    for (const s of strings)
      for (const p of Object.values(PAYLOADS)) assert.ok(s.includes(p), `${p} in ${s.slice(0, 30)}`);
    const file = ds.files.find((f) => f.bucket === FIXTURE_BUCKETS.hostile);
    for (const p of Object.values(PAYLOADS)) assert.ok(file?.name.includes(p), `${p} in file name`);
    assert.ok(ds.buckets.some((x) => x.name === FIXTURE_BUCKETS.corp && x.provider === 'aws'));
    assert.ok(
      ds.domains.some((d) => d.domain === FIXTURE_DOMAINS.hostile && d.subdomain.includes(PAYLOADS.script)),
    );
    const w = ds.whois.get(FIXTURE_DOMAINS.hostile);
    assert.ok(w);
    for (const s of [
      w.raw_data,
      w.registrar.name,
      w.registrant_contact.name,
      w.technical_contact.email,
      w.billing_contact.address,
    ]) {
      for (const p of Object.values(PAYLOADS)) assert.ok(s.includes(p), `${p} in whois`);
    }
  });

  void it('generates 5,000 hosts quickly', () => {
    const t = performance.now();
    generateDataset({ seed: 7 });
    const ms = performance.now() - t;
    // About half a second of CPU on an idle machine; the bound is generous because test
    // runs share two cores with builds and other suites.
    assert.ok(ms < 15_000, `${ms} ms`);
  });
});

void describe('cli arguments', () => {
  void it('parses every flag', () => {
    assert.deepEqual(
      parseArgs([
        '--port',
        '8080',
        '--seed',
        '3',
        '--hosts',
        '50',
        '--dialect',
        'live',
        '--not-found',
        'null',
        '--latency',
        '20',
      ]),
      {
        port: 8080,
        seed: 3,
        hosts: 50,
        dialect: 'live',
        notFound: 'null',
        latencyMs: 20,
      },
    );
    assert.deepEqual(parseArgs(['--port=0']), { port: 0 });
  });

  void it('rejects bad flags', () => {
    for (const a of [
      ['--port'],
      ['--port', 'x'],
      ['--dialect', 'beta'],
      ['--nope'],
      ['--not-found', '500'],
      ['--port', '70000'],
    ]) {
      assert.throws(
        () => parseArgs(a),
        (e) => e instanceof Error && !(e instanceof UsageAsked),
        a.join(' '),
      );
    }
  });

  void it('takes --help as a request for the usage, not as a mistake', () => {
    for (const a of ['--help', '-h']) assert.throws(() => parseArgs([a]), UsageAsked, a);
  });
});
