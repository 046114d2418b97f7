/* eslint-disable @typescript-eslint/no-explicit-any -- wire shapes are checked field by field */
/** Every endpoint answers the documented shape, in both dialects. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import type { Emulator } from '../../../src/emulator/server';
import { get, post, small } from './helpers';

const isObj = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

function assertHost(h: any, dialect: 'spec' | 'live'): void {
  assert.equal(typeof h.ip, 'string');
  assert.equal(typeof h.is_ipv4, 'boolean');
  assert.equal(typeof h.scan_id, 'number');
  assert.equal(typeof h.last_updated_at, 'string');
  assert.ok(Array.isArray(h.banner));
  assert.ok(isObj(h.asn) && typeof h.asn.number === 'string');
  assert.ok(isObj(h.location) && isObj(h.location.coordinates));
  assert.ok(isObj(h.whois) && isObj(h.whois._encoding));
  if (dialect === 'spec') {
    for (const k of ['services', 'tags', 'hostnames', 'domains']) assert.ok(Array.isArray(h[k]), k);
  }
  for (const s of h.services ?? []) {
    assert.equal(typeof s.port, 'number');
    assert.ok(isObj(s._meta));
    // Live leaves out empty modules and softwares, as the real service does.
    assert.ok(dialect === 'live' ? s.modules === undefined || isObj(s.modules) : isObj(s.modules));
    for (const sw of s.softwares ?? []) {
      assert.equal(typeof sw.uri, 'string');
      if (dialect === 'spec')
        for (const k of ['edition', 'language', 'part', 'product', 'update', 'vendor', 'version'])
          assert.ok(isObj(sw[k]), k);
      else assert.equal(typeof sw.version, 'string');
    }
  }
}

for (const dialect of ['spec', 'live'] as const) {
  void describe(`emulator endpoints (${dialect} dialect)`, () => {
    let emu: Emulator;
    before(async () => {
      emu = await small({ dialect });
    });
    after(() => emu.close());

    void it('1. POST /v1/domain/subdomain/count', async () => {
      const r = await post(emu, '/v1/domain/subdomain/count', {
        domain: FIXTURE_DOMAINS.corp,
        keyword: '',
        publishedAfter: '',
        publishedBefore: '',
      });
      assert.equal(r.status, 200);
      assert.equal(r.json.success, true);
      assert.ok(r.json.data.count > 10);
      assert.deepEqual(r.json.pagination, {});
      const bad = await post(emu, '/v1/domain/subdomain/count', { keyword: 'x' });
      assert.equal(bad.status, 400);
      assert.equal(bad.json.success, false);
      assert.equal(typeof bad.json.message, 'string');
    });

    void it('2. POST /v1/exposed/buckets/search', async () => {
      const r = await post(emu, '/v1/exposed/buckets/search', {
        query: 'provider: aws',
        limit: 5,
        sort_by: 'files',
        sort_dir: 'desc',
      });
      assert.equal(r.status, 200);
      assert.equal(r.json.data.length, 5);
      const p = r.json.pagination;
      assert.equal(p.limit, 5);
      assert.ok(p.total >= 5);
      // Spec: one object; live: plain values (the sort value and the name).
      if (dialect === 'spec') assert.ok(Array.isArray(p.last) && isObj(p.last[0]));
      else assert.ok(Array.isArray(p.last) && typeof p.last[0] === 'number' && typeof p.last[1] === 'string');
      assert.deepEqual(p.start, dialect === 'spec' ? [] : null);
      for (const b of r.json.data) {
        assert.equal(b.provider, 'aws');
        assert.equal(typeof b.name, 'string');
        assert.ok(isObj(b.file_cat_count));
        assert.equal(typeof b.files, 'number');
      }
      const files = r.json.data.map((b: any) => b.files);
      assert.deepEqual(
        files,
        [...files].sort((a, b) => b - a),
      );
    });

    void it('3. POST /v1/hosts/search', async () => {
      const r = await post(emu, '/v1/hosts/search', { query: 'services.port:22', limit: 3 });
      assert.equal(r.status, 200);
      assert.equal(r.json.success, true);
      const p = r.json.pagination;
      assert.equal(p.limit, 3);
      assert.equal(typeof p.total, 'number');
      assert.equal(p.last.length, 2);
      assert.ok(Number.isInteger(p.last[0]));
      let hits: any[];
      if (dialect === 'spec') {
        assert.deepEqual(r.json.data, {});
        assert.equal(typeof r.json.message, 'string');
        hits = r.json[' data'];
        assert.deepEqual(p.start, []);
        assert.ok(Number.isInteger(p.last[1]));
      } else {
        assert.equal(r.json[' data'], undefined);
        hits = r.json.data;
        assert.equal(p.start, null);
        assert.ok(
          Number.isFinite(p.last[1]),
          'live score: a float, or a whole number (`[1721808680130, 2]`)',
        );
      }
      assert.equal(hits.length, 3);
      for (const h of hits) {
        assertHost(h, dialect);
        assert.ok(h.services.some((s: any) => s.port === 22));
      }
      const times = hits.map((h) => Date.parse(h.last_updated_at));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => b - a),
        'newest first',
      );
      const err = await post(emu, '/v1/hosts/search', { query: 'services.port:(22' });
      assert.equal(err.status, 400);
      assert.equal(err.json.success, false);
      if (dialect === 'spec') assert.equal(typeof err.json[' error'], 'string');
      else assert.equal(err.json[' error'], undefined);
    });

    void it('3. host search hits: live CVE stubs, spec full CVEs', async () => {
      const r = await post(emu, '/v1/hosts/search', { query: `ip:"${FIXTURE_HOSTS.webServer}"` });
      const hits = dialect === 'spec' ? r.json[' data'] : r.json.data;
      assert.equal(hits.length, 1);
      const cves = hits[0].services.flatMap((s: any) => s.cve ?? []);
      assert.ok(cves.length > 0);
      if (dialect === 'live')
        for (const c of cves) assert.deepEqual(Object.keys(c).sort(), ['id', 'severity']);
      else for (const c of cves) assert.equal(typeof c.summary, 'string');
    });

    void it('4. POST /v1/domain/search (no key needed)', async () => {
      const r = await post(
        emu,
        '/v1/domain/search',
        { domain: FIXTURE_DOMAINS.corp, limit: 5 },
        { key: null },
      );
      assert.equal(r.status, 200);
      assert.equal(r.json.data.length, 5);
      for (const d of r.json.data) {
        assert.equal(d.domain, FIXTURE_DOMAINS.corp);
        assert.ok(d.subdomain.endsWith(FIXTURE_DOMAINS.corp));
        assert.ok(!Number.isNaN(Date.parse(d.added_at)));
        assert.deepEqual(Object.keys(d.ext_dns_name).sort(), ['domain', 'fld', 'subdomain', 'tld']);
      }
      const last = r.json.pagination.last;
      if (dialect === 'spec') assert.ok(isObj(last[0]));
      else assert.ok(last.length === 2 && last.every((x: unknown) => typeof x === 'number'), 'plain numbers');
      const none = await post(emu, '/v1/domain/search', {}, { key: null });
      assert.equal(none.status, 400);
      const badDate = await post(emu, '/v1/domain/search', { domain: 'x.com', publishedAfter: 'yesterday' });
      assert.equal(badDate.status, 400);
    });

    void it('5. POST /v1/hosts/summary', async () => {
      const r = await post(emu, '/v1/hosts/summary', { field: 'services.port', query: '*', limit: 5 });
      assert.equal(r.status, 200);
      assert.equal(typeof r.json.message, 'string');
      const d = r.json.data;
      assert.equal(d.buckets.length, 5);
      assert.equal(d.doc_count_error_upper_bound, 0);
      assert.equal(typeof d.sum_other_doc_count, 'number');
      for (const b of d.buckets) {
        assert.equal(typeof b.key, 'number');
        assert.equal(typeof b.doc_count, 'number');
      }
      const c = await post(emu, '/v1/hosts/summary', { field: 'location.country_code', query: '' });
      assert.equal(typeof c.json.data.buckets[0].key, 'string');
      assert.equal((await post(emu, '/v1/hosts/summary', { query: '*' })).status, 400);
    });

    void it('6. POST /v1/exposed/files/summary', async () => {
      const r = await post(emu, '/v1/exposed/files/summary', {
        field: 'ext',
        query: 'provider:aws',
        limit: 3,
      });
      assert.equal(r.status, 200);
      assert.deepEqual(r.json.pagination, {});
      assert.equal(r.json.data.buckets.length, 3);
      assert.ok(r.json.data.buckets.every((b: any) => isObj(b)));
    });

    void it('7. POST /v1/exposed/files/count', async () => {
      const all = await post(emu, '/v1/exposed/files/count', { query: '*' });
      const aws = await post(emu, '/v1/exposed/files/count', { query: 'provider:aws' });
      assert.equal(all.status, 200);
      assert.deepEqual(all.json.pagination, {});
      assert.ok(all.json.data.count > aws.json.data.count);
      assert.ok(aws.json.data.count > 0);
      const db = await post(emu, '/v1/exposed/files/count', { query: 'provider: aws AND ext: ".db"' });
      assert.ok(db.json.data.count <= aws.json.data.count);
    });

    void it('8. GET /v1/hosts/{ip}', async () => {
      const r = await get(emu, `/v1/hosts/${FIXTURE_HOSTS.webServer}`);
      assert.equal(r.status, 200);
      assert.equal(typeof r.json.message, 'string');
      assert.deepEqual(r.json.pagination, {});
      const h = r.json.data;
      assertHost(h, dialect);
      assert.equal(h.ip, FIXTURE_HOSTS.webServer);
      const ssh = h.services.find((s: any) => s.port === 22);
      if (dialect === 'live') {
        assert.ok(h.banner.includes('ssh'), 'module names');
        assert.match(ssh.modules.ssh.banner, /^SSH-2\.0-OpenSSH_8\.2p1/);
        assert.equal(ssh.softwares[0].version, '8\\.2p1');
      } else {
        assert.ok(
          h.banner.some((b: string) => b.startsWith('SSH-2.0-OpenSSH_8.2p1')),
          'banner texts',
        );
        assert.equal(ssh.modules.ssh.banner, undefined);
      }
      assert.equal(ssh.product, 'OpenSSH');
      assert.equal(ssh.version, '8.2p1');
      const v6 = await get(emu, `/v1/hosts/${encodeURIComponent('2606:4700:4700:0:0:0:0:1111')}`);
      assert.equal(v6.json.data.ip, FIXTURE_HOSTS.ipv6);
      assert.equal((await get(emu, '/v1/hosts/012.0.0.1')).status, 400);
      assert.equal((await get(emu, '/v1/hosts/151.101.1.69')).status, 404);
    });

    void it('9. GET /v1/domain/whois/{domain}/historical', async () => {
      const r = await get(emu, `/v1/domain/whois/${FIXTURE_DOMAINS.corp}/historical`);
      assert.equal(r.status, 200);
      const meta = dialect === 'spec' ? r.json[' meta'] : r.json.meta;
      assert.equal(typeof meta.limit, 'number');
      assert.equal(typeof meta.pageState, 'string');
      const recs = r.json.data;
      assert.ok(recs.length >= 3);
      const registrars = new Set(recs.map((w: any) => w.registrar.name));
      const ns = new Set(recs.map((w: any) => w.name_servers.join(',')));
      const status = new Set(recs.map((w: any) => w.domain_status.join(',')));
      assert.ok(registrars.size > 1 && ns.size > 1 && status.size > 1, 'changes over time');
      const updated = recs.map((w: any) => w.updated_date);
      assert.deepEqual(updated, [...updated].sort().reverse(), 'newest first');
    });

    void it('10. GET /v1/domain/whois/{domain}', async () => {
      const r = await get(emu, `/v1/domain/whois/${FIXTURE_DOMAINS.corp}`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.json.meta, {});
      const w = r.json.data;
      assert.equal(w.domain_name, FIXTURE_DOMAINS.corp);
      for (const c of [
        'administrative_contact',
        'billing_contact',
        'registrant_contact',
        'technical_contact',
      ]) {
        assert.equal(typeof w[c].email, 'string', c);
        assert.notEqual(w[c].name, 'REDACTED FOR PRIVACY');
      }
      assert.ok(isObj(w.registrar) && isObj(w.audited_fields));
      const exp = await get(emu, `/v1/domain/whois/${FIXTURE_DOMAINS.expiring}`);
      const days = (Date.parse(exp.json.data.expires_date) - Date.now()) / 86_400_000;
      assert.ok(days > 0 && days <= 30, `expires in ${days} days`);
      assert.equal((await get(emu, '/v1/domain/whois/no-such-domain-odin.org')).status, 404);
      assert.equal((await get(emu, '/v1/domain/whois/not a domain')).status, 400);
    });

    void it('11. POST /v1/domain/count (no key needed)', async () => {
      const r = await post(emu, '/v1/domain/count', { domain: FIXTURE_DOMAINS.corp }, { key: null });
      assert.equal(r.status, 200);
      assert.deepEqual(r.json.pagination, {});
      const sub = await post(emu, '/v1/domain/subdomain/count', { domain: FIXTURE_DOMAINS.corp });
      assert.equal(r.json.data.count, sub.json.data.count + 1, 'the apex record plus its subdomains');
    });

    void it('12. GET /v1/cves/all/{ip}/{page}', async () => {
      const p1 = await get(emu, `/v1/cves/all/${FIXTURE_HOSTS.webServer}/1`);
      assert.equal(p1.status, 200);
      assert.equal(typeof p1.json.message, 'string');
      const ids = Object.keys(p1.json.data);
      assert.equal(ids.length, 10);
      for (const id of ids) {
        const c = p1.json.data[id];
        assert.equal(c.id, id);
        for (const k of ['summary', 'severity', 'vector_string', 'weakness'])
          assert.equal(typeof c[k], 'string', k);
        assert.equal(typeof c.score, 'number');
        assert.ok(Array.isArray(c.services));
      }
      const p2 = await get(emu, `/v1/cves/all/${FIXTURE_HOSTS.webServer}/2`);
      assert.ok(Object.keys(p2.json.data).length > 0);
      assert.ok(Object.keys(p2.json.data).every((id) => !ids.includes(id)));
      const p9 = await get(emu, `/v1/cves/all/${FIXTURE_HOSTS.webServer}/9`);
      assert.deepEqual(p9.json.data, {});
      assert.equal((await get(emu, `/v1/cves/all/${FIXTURE_HOSTS.webServer}/0`)).status, 400);
    });

    void it('13. GET /v1/hosts/exploits/{ip}', async () => {
      const r = await get(emu, `/v1/hosts/exploits/${FIXTURE_HOSTS.webServer}`);
      assert.equal(r.status, 200);
      const entries = Object.values(r.json.data) as any[];
      assert.ok(entries.length >= 3);
      const high = entries.filter((c) => /^(high|critical)$/i.test(c.severity));
      for (const c of entries)
        assert.equal(c.severity, dialect === 'live' ? c.severity.toLowerCase() : c.severity.toUpperCase());
      assert.ok(high.length >= 3, 'several high/critical CVEs with exploits');
      for (const c of entries) {
        assert.ok(c.exploit.length > 0);
        for (const e of c.exploit)
          for (const k of ['id', 'description', 'file', 'platform', 'type', 'url'])
            assert.equal(typeof e[k], 'string');
      }
      const none = await get(emu, `/v1/hosts/exploits/${FIXTURE_HOSTS.resolver}`);
      assert.deepEqual(none.json.data, {});
    });

    void it('14. GET /v1/hosts/cves/{ip}/{cve}', async () => {
      const r = await get(emu, `/v1/hosts/cves/${FIXTURE_HOSTS.webServer}/CVE-2021-41773`);
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.json.data), ['CVE-2021-41773']);
      assert.equal(r.json.data['CVE-2021-41773'].severity, dialect === 'live' ? 'high' : 'HIGH');
      assert.equal((await get(emu, `/v1/hosts/cves/${FIXTURE_HOSTS.webServer}/CVE-1999-0001`)).status, 404);
      assert.equal((await get(emu, `/v1/hosts/cves/${FIXTURE_HOSTS.webServer}/not-a-cve`)).status, 400);
    });

    for (const [n, path] of [
      ['15', '/v1/fields/exposed/buckets'],
      ['16', '/v1/fields/exposed/files'],
    ]) {
      void it(`${n}. GET ${path} (no key needed)`, async () => {
        const r = await get(emu, path, { key: null });
        assert.equal(r.status, 200);
        assert.equal(typeof r.json.message, 'string');
        assert.ok(isObj(r.json.pagination));
        const list = dialect === 'spec' ? r.json.Data : r.json.data;
        if (dialect === 'spec') assert.deepEqual(r.json.data, {});
        else assert.equal(r.json.Data, undefined);
        assert.ok(list.length > 5);
        for (const f of list) {
          assert.deepEqual(Object.keys(f).sort(), ['category', 'display_category', 'is_locked', 'name']);
        }
        assert.ok(list.some((f: any) => f.is_locked));
      });
    }

    void it('17. GET /v1/fields/hosts/{category} (no key needed)', async () => {
      const r = await get(emu, '/v1/fields/hosts/all', { key: null });
      assert.equal(r.status, 200);
      assert.ok(r.json.data.length > 20);
      assert.ok(r.json.data.some((f: any) => f.name === 'services.port'));
      assert.ok(r.json.data.some((f: any) => f.is_locked));
      const s = await get(emu, '/v1/fields/hosts/services', { key: null });
      assert.ok(s.json.data.every((f: any) => f.category === 'services'));
      assert.equal((await get(emu, '/v1/fields/hosts/nope')).status, 400);
    });

    void it('trailing-slash variants are served', async () => {
      assert.equal((await get(emu, `/v1/hosts/${FIXTURE_HOSTS.resolver}/`)).status, 200);
      assert.equal((await get(emu, '/v1/fields/hosts/all/')).status, 200);
      assert.equal((await post(emu, '/v1/hosts/search/', { query: '*' })).status, 200);
    });

    void it('ping and credits', async () => {
      const p = await get(emu, '/v1/ping', { key: null });
      assert.equal(p.status, 200);
      assert.equal(p.text, 'pong');
      assert.match(p.headers.get('content-type') ?? '', /^text\/plain/);
      const c = await get(emu, '/v1/credits/usage');
      assert.equal(c.status, 200);
      // Live: the official clients' top-level shape with an integer expiry (epoch seconds).
      const credits = dialect === 'live' ? c.json : c.json.data;
      if (dialect === 'live') assert.equal(c.json.success, undefined);
      assert.equal(typeof credits.search.host_cert.left, 'number');
      assert.equal(typeof credits.search.bucket_file.plan, 'number');
      if (dialect === 'live') {
        assert.ok(Number.isInteger(credits.expires_on));
        assert.ok(credits.expires_on * 1000 > Date.now());
      } else assert.equal(typeof credits.expires_on, 'string');
    });

    void it('POST /v1/hosts/count (not swallowed by /v1/hosts/{ip})', async () => {
      const all = await post(emu, '/v1/hosts/count', { query: '*' });
      assert.equal(all.status, 200);
      assert.equal(all.json.success, true);
      assert.equal(all.json.data.count, emu.dataset.hosts.length);
      const ssh = await post(emu, '/v1/hosts/count', { query: 'services.port:22' });
      const search = await post(emu, '/v1/hosts/search', { query: 'services.port:22', limit: 1 });
      assert.equal(ssh.json.data.count, search.json.pagination.total);
      assert.equal((await post(emu, '/v1/hosts/count', { query: 'port:(22' })).status, 400);
      assert.equal((await post(emu, '/v1/hosts/count', { query: '*' }, { key: null })).status, 401);
      assert.equal(emu.requests.at(-1)?.endpoint, 'hosts.count');
    });

    void it('GET /v1/hosts/cve/{ip}/: every CVE of the host as a map', async () => {
      const r = await get(emu, `/v1/hosts/cve/${FIXTURE_HOSTS.webServer}/`);
      assert.equal(r.status, 200);
      const ids = Object.keys(r.json.data);
      assert.ok(ids.length > 10);
      for (const id of ids) assert.equal(r.json.data[id].id, id);
      assert.deepEqual((await get(emu, `/v1/hosts/cve/${FIXTURE_HOSTS.resolver}`)).json.data, {});
      assert.equal((await get(emu, '/v1/hosts/cve/151.101.1.69/')).status, 404);
    });

    void it('POST /v1/domain/subdomain/search: names as strings, paged to the end', async () => {
      const names: string[] = [];
      let start: unknown;
      for (let i = 0; i < 20; i++) {
        const r = await post(emu, '/v1/domain/subdomain/search', {
          domain: FIXTURE_DOMAINS.corp,
          limit: 7,
          start,
        });
        assert.equal(r.status, 200);
        for (const n of r.json.data) assert.equal(typeof n, 'string');
        names.push(...r.json.data);
        start = r.json.pagination.last;
        if (start === null || (Array.isArray(start) && (start.length === 0 || r.json.data.length === 0)))
          break;
      }
      const count = await post(emu, '/v1/domain/subdomain/count', { domain: FIXTURE_DOMAINS.corp });
      assert.equal(new Set(names).size, count.json.data.count);
      assert.ok(names.every((n) => n.endsWith(`.${FIXTURE_DOMAINS.corp}`)));
      assert.equal((await post(emu, '/v1/domain/subdomain/search', { keyword: 'x' })).status, 400);
    });

    void it('unknown path → 404 JSON, wrong method → 405, bad JSON → 400', async () => {
      const r = await get(emu, '/v1/nope');
      assert.equal(r.status, 404);
      assert.equal(r.json.success, false);
      assert.equal((await get(emu, '/v1/domain/count')).status, 405);
      const bad = await post(emu, '/v1/hosts/summary', undefined, { raw: '{"field":' });
      assert.equal(bad.status, 400);
      assert.equal(bad.json.success, false);
      const arr = await post(emu, '/v1/hosts/summary', [1, 2]);
      assert.equal(arr.status, 400);
    });
  });
}

void describe('live dialect quirks', () => {
  let emu: Emulator;
  before(async () => {
    emu = await small({ dialect: 'live', hosts: 300 });
  });
  after(() => emu.close());

  void it('empty lists left out, unset times 0001-01-01, 0–3 fraction digits, empty country codes', async () => {
    const texts: string[] = [];
    const hosts: any[] = [];
    let start: unknown = null;
    for (let i = 0; i < 3; i++) {
      const r = await post(emu, '/v1/hosts/search', { query: '*', limit: 100, start });
      texts.push(r.text);
      hosts.push(...r.json.data);
      start = r.json.pagination.last;
    }
    const all = texts.join('');
    assert.ok(all.includes('"0001-01-01T00:00:00Z"'));
    const stamps = hosts.flatMap((h) => [
      h.last_updated_at,
      ...h.services.map((s: any) => s.last_updated_at),
    ]);
    assert.ok(
      stamps.every((t) => /T\d\d:\d\d:\d\d(\.\d{1,3})?Z$/.test(t)),
      '0–3 fraction digits',
    );
    for (const digits of [/:\d\dZ$/, /\.\d{1}Z$/, /\.\d{2}Z$/, /\.\d{3}Z$/])
      assert.ok(
        stamps.some((t) => digits.test(t)),
        String(digits),
      );
    assert.ok(hosts.some((h) => h.asn.country_code === ''));
    assert.ok(
      hosts.every((h) => Array.isArray(h.tags) && h.tags.length >= 2),
      'tags always listed',
    );
    const services = hosts.flatMap((h) => h.services);
    assert.ok(
      services.some((s) => s.cve === undefined) && services.every((s) => s.cve !== null),
      'absent lists',
    );
    assert.ok(
      hosts.every((h) => h.hostnames === undefined && h.domains === undefined && h.whois.raw === undefined),
      'hits omit lookup-only fields',
    );
    const lookups = await Promise.all(hosts.slice(0, 40).map((h) => get(emu, `/v1/hosts/${h.ip}`)));
    assert.ok(lookups.every((r) => typeof r.json.data.whois.raw === 'string'));
    assert.ok(
      lookups.some((r) => r.json.data.hostnames === null || r.json.data.domains === null),
      'null lists',
    );
    assert.ok(lookups.some((r) => Array.isArray(r.json.data.hostnames)));
  });

  void it('switching dialect at run time', async () => {
    emu.setDialect('spec');
    const r = await post(emu, '/v1/hosts/search', { query: '*', limit: 1 });
    assert.ok(Array.isArray(r.json[' data']));
    emu.setDialect('live');
    assert.equal(emu.dialect, 'live');
  });
});
