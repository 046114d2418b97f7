// The triage header at a glance (common/triage/glance.ts): the charts' bars from the rows
// (bounded: top 5 + other), the worst band by the one rule, the filter a bar applies; and
// the exploited-first pair from the emulator (one KEV CVE at 7.5 sorts above ten CVEs at 9.8).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GLANCE_TOP, glanceFilter, glanceKeys, triageGlance } from '../../../src/common/triage/glance';
import {
  filterRows,
  haystack,
  parseFromTriageView,
  sortRows,
  type TriageRowView,
} from '../../../src/common/triage/protocol';
import {
  ExploitationStore,
  parseEpssGzip,
  parseKev,
  riskBand,
  RISK_BANDS,
} from '../../../src/core/exploitation';
import { PrivacyPolicy } from '../../../src/core/privacy';
import { buildTriage, enrich, layerSource, rowViews, type SendCheck } from '../../../src/core/triage';
import { ResultCache } from '../../../src/core/requests/cache';
import { Limiter } from '../../../src/core/requests/limiter';
import { RequestLayer } from '../../../src/core/requests/layer';
import { feedBody } from '../../../src/emulator/feeds';
import { FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { makeClient } from '../api/support';

let n = 0;
function row(p: Partial<TriageRowView>): TriageRowView {
  return {
    index: n++,
    value: `198.18.0.${n}`,
    kind: 'ipv4',
    verdict: 'vulnerable',
    cves: 1,
    exploits: 0,
    tags: [],
    ports: [],
    count: 1,
    first: 'a.log:1',
    details: true,
    ...p,
  };
}

void describe('triage header at a glance', () => {
  void it('counts verdicts in their fixed order and bands by the one rule (KEV, EPSS, CVSS)', () => {
    const rows = [
      row({ kev: 1, ransomware: true, maxScore: 5 }),
      row({ kev: 1, maxScore: 7.5 }),
      row({ epss: 0.5, maxScore: 4 }),
      row({ maxScore: 9.8, epss: 0.02 }),
      row({ maxScore: 9.8 }),
      row({ verdict: 'known', cves: 0 }),
      row({ verdict: 'local', kind: 'domain', cves: 0, details: false }),
    ];
    const g = triageGlance(rows);
    const verdict = g.charts.find((c) => c.id === 'verdict')!;
    assert.deepEqual(
      verdict.bars.map((b) => [b.label, b.count]),
      [
        ['Vulnerable', 5],
        ['Known', 1],
        ['Not sent', 1],
      ],
    );
    const band = g.charts.find((c) => c.id === 'band')!;
    assert.deepEqual(band.keys, ['ransomware', 'kev', 'epss', 'critical', 'clean']);
    assert.deepEqual(
      band.bars.map((b) => b.count),
      [1, 1, 1, 2, 1],
    );
    assert.equal(band.counted, 6, 'hosts only: the domain is not banded');
    // The bands follow the rule: KEV above EPSS above CVSS, whatever the CVSS.
    assert.ok(
      RISK_BANDS.indexOf(riskBand({ kev: true, cvss: 7.5 })) <
        RISK_BANDS.indexOf(riskBand({ kev: false, cvss: 9.8 })),
    );
    assert.equal(riskBand({ kev: false, epss: 0.09, cvss: 6 }), 'medium');
  });

  void it('keeps the top 5 countries, ASNs and products and folds the rest into "other"', () => {
    const rows: TriageRowView[] = [];
    const countries = ['DE', 'US', 'FR', 'NL', 'FI', 'JP', 'BR'];
    countries.forEach((c, i) => {
      for (let k = 0; k <= countries.length - i; k++)
        rows.push(row({ country: c, asn: `AS${i}`, org: `Org ${i}`, products: ['nginx', `p${i}`] }));
    });
    const g = triageGlance(rows);
    for (const id of ['country', 'asn', 'product'] as const) {
      const c = g.charts.find((x) => x.id === id)!;
      const valued = c.bars.filter((b) => !b.other);
      assert.equal(valued.length, GLANCE_TOP, id);
      assert.equal(c.bars.filter((b) => b.other).length, 1, `${id}: one "other" bar`);
      assert.equal(c.keys.length, GLANCE_TOP);
      for (const b of valued) assert.ok(c.keys[b.bucket!] !== undefined);
    }
    const country = g.charts.find((c) => c.id === 'country')!;
    assert.equal(country.bars[0]!.label, 'DE');
    assert.equal(country.bars.at(-1)!.count, 2 + 3, 'JP (3) and BR (2) in "other"');
    const asn = g.charts.find((c) => c.id === 'asn')!;
    assert.equal(asn.bars[0]!.label, 'AS0 Org 0', 'an ASN shows its organisation');
    const product = g.charts.find((c) => c.id === 'product')!;
    assert.equal(product.bars[0]!.label, 'nginx');
    assert.equal(product.bars[0]!.count, rows.length);
  });

  void it('labels from scan data stay plain strings; an empty triage has empty charts', () => {
    const payload = '<img src=x onerror=alert(1)>';
    const g = triageGlance([row({ country: payload, products: [payload] })]);
    assert.equal(g.charts.find((c) => c.id === 'country')!.bars[0]!.label, payload);
    assert.deepEqual(
      triageGlance([]).charts.map((c) => c.bars.length),
      [0, 0, 0, 0, 0],
    );
  });

  void it('a bar filters the rows to those it counts; no selection keeps all', () => {
    const rows = [
      row({ country: 'DE', products: ['Exim'] }),
      row({ country: 'US', products: ['nginx', 'Exim'] }),
      row({ country: 'DE', verdict: 'known', cves: 0, products: ['nginx'] }),
    ];
    const all = rows.map((_, i) => i);
    assert.deepEqual(glanceFilter(rows, all, undefined), all);
    assert.deepEqual(glanceFilter(rows, all, { chart: 'country', key: 'DE' }), [0, 2]);
    assert.deepEqual(glanceFilter(rows, all, { chart: 'product', key: 'Exim' }), [0, 1]);
    assert.deepEqual(glanceKeys(rows[2]!, 'product'), [], 'products count only on a host with CVEs');
    assert.deepEqual(
      glanceFilter(rows, [1, 0], { chart: 'verdict', key: 'vulnerable' }),
      [1, 0],
      'order kept',
    );
  });

  void it('the page reports a bar click with ids and counts only', () => {
    const ok = { type: 'glanceFilter', generation: 2, chart: 'country', bucket: 1, shown: 3, top: [4, 0, 2] };
    assert.deepEqual(parseFromTriageView(ok), ok);
    const { bucket: _b, ...cleared } = ok;
    assert.deepEqual(parseFromTriageView(cleared), cleared);
    assert.equal(parseFromTriageView({ ...ok, chart: 'nope' }), undefined);
    assert.equal(parseFromTriageView({ ...ok, key: 'DE' }), undefined, 'never a value');
    assert.equal(parseFromTriageView({ ...ok, top: Array.from({ length: 21 }, (_, i) => i) }), undefined);
    assert.equal(parseFromTriageView({ ...ok, top: ['45.33.32.156'] }), undefined);
  });
});

void describe('the exploited-first pair in the emulator', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ hosts: 60 });
  });
  after(() => emu.close());

  void it('one KEV CVE at CVSS 7.5 sorts above ten non-KEV CVEs at 9.8 (the triage default order)', async () => {
    const now = Date.now();
    const kev = parseKev(feedBody('kev', 'ok', now).body.toString('utf8'));
    const epss = await parseEpssGzip([feedBody('epss', 'ok', now).body]);
    const store = new ExploitationStore(kev, epss);
    const policy = new PrivacyPolicy();
    const check: SendCheck = (kind, value) => policy.check({ kind, value });
    const text = `${FIXTURE_HOSTS.tenCritical} then ${FIXTURE_HOSTS.kevOne}`;
    const t = await buildTriage([{ uri: 'mem:scan', text }], check);
    const { client } = makeClient(emu.url, emu.apiKey);
    const layer = new RequestLayer({
      cache: new ResultCache({
        ttlMs: { host: 60_000, whois: 60_000, count: 60_000, notFound: 60_000 },
        maxEntries: 100,
      }),
      limiter: new Limiter({ perMinute: 1000, maxConcurrent: 2 }),
      origin: () => emu.url,
    });
    // Full host lookups (batched search hits carry no scores).
    const src = layerSource({ layer, client: () => client, batching: false, exploitation: () => store });
    await enrich(t, src, { batchSize: 50 });
    const views = rowViews(t, (u) => u);
    const one = views.find((r) => r.value === FIXTURE_HOSTS.kevOne)!;
    const ten = views.find((r) => r.value === FIXTURE_HOSTS.tenCritical)!;
    assert.deepEqual([one.cves, one.maxScore, one.kev], [1, 7.5, 1]);
    assert.deepEqual([ten.cves, ten.maxScore, ten.kev], [10, 9.8, undefined]);
    const order = sortRows(views, filterRows(views, views.map(haystack), {}), 'verdict', true);
    assert.deepEqual(
      order.map((i) => views[i]!.value),
      [FIXTURE_HOSTS.kevOne, FIXTURE_HOSTS.tenCritical],
    );
    const band = triageGlance(views).charts.find((c) => c.id === 'band')!;
    assert.equal(band.keys[0], 'kev', 'the KEV host leads the bands');
    assert.equal(band.bars.length, 2);
  });
});
