import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  envelopeData,
  envelopeErrorText,
  envelopeMeta,
  normalizeAggregation,
  normalizeBucket,
  normalizeCount,
  normalizeCredits,
  normalizeCveList,
  normalizeExploits,
  normalizeFields,
  normalizeHost,
  normalizeSeverity,
  normalizeWhois,
  normalizeWhoisHistory,
  parseJson,
} from '../../../src/api/normalize';
import { parseJsonInTurns } from '../../../src/api/normalize/json';

void describe('parseJson', () => {
  void it('drops __proto__, constructor and prototype keys at every depth', () => {
    const text =
      '{"__proto__":{"polluted":1},"a":{"constructor":{"prototype":{"polluted":2}},"b":[{"__proto__":{"x":1},"ok":true}]},"prototype":3}';
    const v = parseJson(text) as Record<string, unknown>;
    assert.deepEqual(Object.keys(v), ['a']);
    const a = v.a as Record<string, unknown>;
    assert.deepEqual(Object.keys(a), ['b']);
    assert.deepEqual((a.b as unknown[])[0], { ok: true });
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    // Merging the parsed value into another object cannot pollute either.
    const merged = Object.assign({}, v, a);
    assert.equal((merged as Record<string, unknown>).polluted, undefined);
  });

  void it('throws on truncated JSON', () => {
    assert.throws(() => parseJson('{"success":true,"data":[{"ip":"1.2'));
  });

  void it('in turns (big bodies), drops the same keys, escaped or not, after a turn', async () => {
    const text = '{"a":{"\\u005f_proto__":{"polluted":1},"b":[{"constructor":1,"ok":true}]},"prototype":3}';
    let between = 0;
    const v = (await parseJsonInTurns(text, async () => {
      between++;
    })) as Record<string, unknown>;
    assert.equal(between, 1);
    assert.deepEqual(v, { a: { b: [{ ok: true }] } });
    assert.deepEqual(v, parseJson(text));
  });
});

void describe('envelope (both dialects)', () => {
  void it('prefers the spec host-search " data" over the empty data object', () => {
    assert.deepEqual(envelopeData({ data: {}, ' data': [{ ip: '1.1.1.1' }] }), [{ ip: '1.1.1.1' }]);
  });
  void it('reads the capital Data of field catalogues', () => {
    assert.deepEqual(envelopeData({ data: {}, Data: [{ name: 'ip' }] }), [{ name: 'ip' }]);
  });
  void it('reads plain data (live) and keeps null / empty when that is all there is', () => {
    assert.deepEqual(envelopeData({ data: [1] }), [1]);
    assert.equal(envelopeData({ data: null }), null);
    assert.deepEqual(envelopeData({ data: {} }), {});
    assert.equal(envelopeData({}), undefined);
  });
  void it('reads meta and " meta", and the " error" text', () => {
    assert.deepEqual(envelopeMeta({ ' meta': { limit: 5 } }), { limit: 5 });
    assert.deepEqual(envelopeMeta({ meta: { pageState: 'x' } }), { pageState: 'x' });
    assert.equal(
      envelopeErrorText({ message: 'bad query', ' error': 'parse error at 3' }),
      'bad query: parse error at 3',
    );
    assert.equal(envelopeErrorText('nope'), undefined);
  });
});

void describe('normalizeHost', () => {
  void it('folds live quirks: null lists, zero timestamps, CVE stubs, banners in modules, escaped versions', () => {
    const host = normalizeHost({
      ip: '45.33.32.156',
      is_ipv4: true,
      scan_id: 7,
      last_updated_at: '2025-01-15T01:12:07.123456789Z',
      asn_updated_at: '0001-01-01T00:00:00Z',
      banner: ['http', 'ssh', 3],
      domains: null,
      hostnames: [{ name: 'a.example.com', last_updated_at: '0001-01-01T00:00:00Z' }, { name: 5 }],
      asn: { country_code: '', number: 'AS63949', organization: 'Akamai' },
      location: { city: 'Fremont', coordinates: { latitude: 37.5, longitude: 'west' } },
      services: [
        {
          port: 22,
          name: 'ssh',
          cve: [{ id: 'CVE-2023-38408', severity: 'critical' }],
          softwares: [{ product: 'openssh', version: '8\\.2p1' }],
          modules: { ssh: { banner: 'SSH-2.0-OpenSSH_8.2p1' } },
        },
        { port: '80', name: 'http' },
        { port: 443, cve: null, softwares: null, modules: null, _meta: { name: 'https', tags: null } },
      ],
      tags: null,
    });
    assert.ok(host);
    assert.equal(host.ip, '45.33.32.156');
    assert.equal(host.last_updated_at, '2025-01-15T01:12:07.123456789Z');
    assert.equal(host.asn_updated_at, undefined);
    assert.deepEqual(host.banner, ['http', 'ssh']);
    assert.deepEqual(host.domains, []);
    assert.deepEqual(host.tags, []);
    assert.deepEqual(host.hostnames, [{ name: 'a.example.com' }]);
    assert.deepEqual(host.asn, { number: 'AS63949', organization: 'Akamai' });
    assert.deepEqual(host.location, { city: 'Fremont', coordinates: { latitude: 37.5 } });
    assert.equal(host.services.length, 2, 'the service with a string port is dropped');
    const [ssh, https] = host.services;
    assert.deepEqual(ssh.cve, [
      { id: 'CVE-2023-38408', severity: 'CRITICAL', references: [], services: [], exploit: [] },
    ]);
    assert.equal(ssh.softwares[0].version, '8.2p1');
    assert.equal(ssh.banner, 'SSH-2.0-OpenSSH_8.2p1');
    assert.deepEqual(https, {
      port: 443,
      _meta: { name: 'https', tags: [] },
      cve: [],
      softwares: [],
      modules: {},
    });
  });

  void it('drops a record without an IP unless one is known, and non-objects', () => {
    assert.equal(normalizeHost({ ip: 12 }), undefined);
    assert.equal(normalizeHost('1.2.3.4'), undefined);
    assert.equal(normalizeHost({}, '8.8.8.8')?.ip, '8.8.8.8');
  });

  void it('copies free-form modules without forbidden keys', () => {
    const raw = parseJson(
      '{"ip":"1.1.1.1","services":[{"port":80,"modules":{"http":{"title":"x","__proto__":{"polluted":1}},"__proto__":{"a":1}}}]}',
    );
    const host = normalizeHost(raw)!;
    assert.deepEqual(host.services[0].modules, { http: { title: 'x' } });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

void describe('CVEs and exploits', () => {
  const details = {
    id: 'CVE-2021-41773',
    score: 7.5,
    severity: 'high',
    summary: 'Path traversal',
    references: ['https://nvd.nist.gov/vuln/detail/CVE-2021-41773', 4],
    services: ['80/http'],
    exploit: [
      {
        id: '50383',
        description: 'Apache 2.4.49 path traversal',
        url: 'https://www.exploit-db.com/exploits/50383',
      },
      { description: 'no id' },
    ],
  };

  void it('turns the live map keyed by CVE id into an array', () => {
    const list = normalizeCveList({ 'CVE-2021-41773': details, 'CVE-2019-0211': { score: 9.8 } });
    assert.deepEqual(
      list.map((c) => [c.id, c.severity]),
      [
        ['CVE-2021-41773', 'HIGH'],
        ['CVE-2019-0211', 'CRITICAL'],
      ],
    );
    assert.deepEqual(list[0].references, ['https://nvd.nist.gov/vuln/detail/CVE-2021-41773']);
    assert.equal(list[0].exploit.length, 1);
  });

  void it('accepts an array, a single CVE object, a {cves} wrapper; null gives []', () => {
    assert.equal(normalizeCveList([details, details]).length, 1, 'deduplicated');
    assert.equal(normalizeCveList(details)[0].id, 'CVE-2021-41773');
    assert.equal(normalizeCveList({ cves: [details], page: 1 })[0].id, 'CVE-2021-41773');
    assert.deepEqual(normalizeCveList(null), []);
    assert.deepEqual(normalizeCveList('CVE-1'), []);
  });

  void it('flattens exploits with the CVEs they were listed under', () => {
    const ex = normalizeExploits({
      'CVE-2021-41773': details,
      'CVE-2021-42013': { id: 'CVE-2021-42013', exploit: [{ id: '50383' }, { id: '50406' }] },
      'CVE-2020-0001': [{ id: '1', url: 'u' }],
    });
    assert.deepEqual(
      ex.map((e) => [e.id, e.cves]),
      [
        ['50383', ['CVE-2021-41773', 'CVE-2021-42013']],
        ['50406', ['CVE-2021-42013']],
        ['1', ['CVE-2020-0001']],
      ],
    );
    assert.deepEqual(normalizeExploits([{ id: '9', platform: 'linux' }]), [
      { id: '9', platform: 'linux', cves: [] },
    ]);
    assert.deepEqual(normalizeExploits(null), []);
  });

  void it('upper-cases severities and derives a missing one from the score', () => {
    assert.equal(normalizeSeverity('Medium'), 'MEDIUM');
    assert.equal(normalizeSeverity('moderate'), 'MEDIUM');
    assert.equal(normalizeSeverity(undefined, 9.1), 'CRITICAL');
    assert.equal(normalizeSeverity(undefined, 3.9), 'LOW');
    assert.equal(normalizeSeverity('weird'), 'UNKNOWN');
    assert.equal(normalizeSeverity(7), 'UNKNOWN');
  });
});

void describe('other records', () => {
  void it('aggregations keep typed keys and drop malformed buckets', () => {
    assert.deepEqual(
      normalizeAggregation({
        buckets: [
          { key: 80, doc_count: 3864 },
          { key: 'nginx', doc_count: 2 },
          { key: {}, doc_count: 1 },
          { key: 1 },
        ],
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: '5',
      }),
      {
        buckets: [
          { key: 80, doc_count: 3864 },
          { key: 'nginx', doc_count: 2 },
        ],
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
      },
    );
    assert.equal(normalizeAggregation(null), undefined);
  });

  void it('counts', () => {
    assert.equal(normalizeCount({ count: 12 }), 12);
    assert.equal(normalizeCount(3), 3);
    assert.equal(normalizeCount({ count: '12' }), undefined);
    assert.equal(normalizeCount({ count: -1 }), undefined);
  });

  void it('field descriptors', () => {
    assert.deepEqual(
      normalizeFields([{ name: 'ip', category: 'host', is_locked: 'no' }, { category: 'x' }, 'asn']),
      [
        { name: 'ip', category: 'host', is_locked: false },
        { name: 'asn', is_locked: false },
      ],
    );
  });

  void it('whois records and history', () => {
    const w = normalizeWhois({
      domain_name: 'acme-logistics.com',
      created_date: '2001-02-03T00:00:00Z',
      updated_date: '0001-01-01T00:00:00Z',
      domain_status: null,
      name_servers: ['ns1.acme', null],
      registrar: { name: 'Gandi', id: 81 },
      registrant_contact: { name: 'A', email: '', zip: 12 },
      billing_contact: {},
    });
    assert.deepEqual(w, {
      domain_name: 'acme-logistics.com',
      created_date: '2001-02-03T00:00:00Z',
      domain_status: [],
      name_servers: ['ns1.acme'],
      registrar: { name: 'Gandi' },
      registrant_contact: { name: 'A' },
    });
    const h = normalizeWhoisHistory(
      [{ domain_name: 'a.com' }, { tld: 'com' }, 7],
      { limit: 10, pageState: '' },
      'a.com',
    );
    assert.deepEqual(h, {
      records: [
        { domain_name: 'a.com', domain_status: [], name_servers: [] },
        { domain_name: 'a.com', tld: 'com', domain_status: [], name_servers: [] },
      ],
      limit: 10,
    });
  });

  void it('buckets', () => {
    const b = normalizeBucket(
      parseJson(
        '{"name":"acme-prod","files":"9","labels":null,"file_cat_count":{"src":12,"img":"x","__proto__":{"a":1}}}',
      ),
    );
    assert.deepEqual(b, { name: 'acme-prod', labels: [], categories: [], file_cat_count: { src: 12 } });
    assert.equal(normalizeBucket({ provider: 'aws' }), undefined);
  });

  void it('credits usage, at the root or under data', () => {
    const live = {
      search: { host_cert: { left: 90, plan: 100 }, bucket_file: { left: 5 } },
      expires_on: '2026-01-01',
    };
    assert.deepEqual(normalizeCredits(live), {
      hostCert: { left: 90, plan: 100 },
      bucketFile: { left: 5 },
      expiresOn: '2026-01-01',
    });
    assert.deepEqual(normalizeCredits({ success: true, data: live }), normalizeCredits(live));
    assert.equal(normalizeCredits({ success: true }), undefined);
  });

  void it('credits expiry as an integer: epoch seconds or milliseconds', () => {
    const at = Date.parse('2027-03-01T00:00:00Z');
    assert.equal(normalizeCredits({ expires_on: at / 1000 })?.expiresOn, '2027-03-01T00:00:00.000Z');
    assert.equal(normalizeCredits({ expires_on: at })?.expiresOn, '2027-03-01T00:00:00.000Z');
    assert.equal(normalizeCredits({ search: {}, expires_on: -5 })?.expiresOn, undefined);
    assert.equal(normalizeCredits({ search: {}, expires_on: 1.5 })?.expiresOn, undefined);
  });
});
