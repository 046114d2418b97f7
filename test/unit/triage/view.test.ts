// The triage view's pure parts: the row view models (verdict class, capped strings, the
// first location with its line), the page's messages (only ids, validated), and the sort and
// filter the page runs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  filterRows,
  haystack,
  parseFromTriageView,
  parseRows,
  sortRows,
  type TriageRowView,
} from '../../../src/common/triage/protocol';
import { PrivacyPolicy } from '../../../src/core/privacy';
import { buildTriage, rowViews, type SendCheck } from '../../../src/core/triage';

const policy = new PrivacyPolicy();
const check: SendCheck = (kind, value) => policy.check({ kind, value });

void describe('triage view', () => {
  void it('builds one row per indicator with its verdict class and first location (file:line)', async () => {
    const text =
      'start\nconn from 45.33.32.156 ok\nto 10.0.0.4\nagain 45.33.32.156\nbad.example-shop.com and 8.8.8.8\n';
    const t = await buildTriage([{ uri: 'file:///w/logs/a.log', text }], check);
    const scanner = t.rows.find((r) => r.value === '45.33.32.156')!;
    assert.equal(scanner.first.line, 1);
    assert.equal(t.rows.find((r) => r.value === '8.8.8.8')!.first.line, 4);
    scanner.status = 'enriched';
    scanner.verdict = {
      kind: 'host',
      vulnerable: true,
      cves: 3,
      maxScore: 9.8,
      maxSeverity: 'critical',
      exploits: 1,
      tags: ['x'.repeat(500)],
      ports: [22, 80],
      org: 'Linode',
      asn: 'AS63949',
      country: 'US',
      cveIds: [],
    };
    const dns = t.rows.find((r) => r.value === '8.8.8.8')!;
    dns.status = 'enriched';
    dns.verdict = {
      kind: 'host',
      vulnerable: false,
      cves: 0,
      exploits: 0,
      tags: [],
      ports: [53],
      cveIds: [],
    };
    const rows = rowViews(t, (u) => u.replace('file:///w/', ''));
    const v = rows.find((r) => r.value === '45.33.32.156')!;
    assert.equal(v.verdict, 'vulnerable');
    assert.equal(v.count, 2);
    assert.equal(v.first, 'logs/a.log:2');
    assert.equal(v.maxScore, 9.8);
    assert.equal(v.severity, 'critical');
    assert.ok(v.tags[0]!.length <= 60, 'strings are capped');
    assert.equal(v.details, true);
    assert.equal(rows.find((r) => r.value === '8.8.8.8')!.verdict, 'known');
    const priv = rows.find((r) => r.value === '10.0.0.4')!;
    assert.equal(priv.verdict, 'local');
    assert.ok(priv.reason, 'a local row says why');
    assert.equal(rows.find((r) => r.value === 'bad.example-shop.com')!.verdict, 'pending');
    assert.deepEqual(parseRows(JSON.stringify(rows)), rows, 'the rows cross as one JSON text');
    for (const bad of ['{', '{"index":0}', '[{"value":1}]', '[null]'])
      assert.equal(parseRows(bad), undefined, bad);
    assert.deepEqual(
      rows.map((r) => r.index),
      rows.map((_, i) => i),
      'the index is the position in the extension rows',
    );
  });

  void it('accepts only known messages with ids and counts', () => {
    assert.deepEqual(parseFromTriageView({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseFromTriageView({ type: 'open', generation: 2, index: 5 }), {
      type: 'open',
      generation: 2,
      index: 5,
    });
    assert.deepEqual(parseFromTriageView({ type: 'reveal', generation: 1, index: 0 }), {
      type: 'reveal',
      generation: 1,
      index: 0,
    });
    assert.deepEqual(
      parseFromTriageView({ type: 'rendered', generation: 1, rows: 10, shown: 10, dom: 10, ms: 3.5 }),
      { type: 'rendered', generation: 1, rows: 10, shown: 10, dom: 10, ms: 3.5 },
    );
    assert.deepEqual(parseFromTriageView({ type: 'action', action: 'openReport' }), {
      type: 'action',
      action: 'openReport',
    });
    for (const bad of [
      null,
      'ready',
      { type: 'action', action: 'runCommand' },
      { type: 'action', action: 'saveReport', format: 'md' },
      { type: 'ready', extra: 1 },
      { type: 'open', generation: 1, index: -1 },
      { type: 'open', generation: 1, index: 1.5 },
      { type: 'open', generation: 1, index: '3' },
      { type: 'open', generation: 1, index: 3, value: '8.8.8.8' },
      { type: 'reveal', generation: 1 },
      { type: 'command', command: 'workbench.action.terminal.new' },
      { type: 'rendered', generation: 1, rows: 1, shown: 1, dom: 1, ms: -1 },
      { type: 'rendered', generation: 1, rows: 1, shown: 1, dom: 1, ms: 1, pad: 'x'.repeat(5000) },
    ]) {
      assert.equal(parseFromTriageView(bad), undefined, JSON.stringify(bad)?.slice(0, 80));
    }
  });

  void it('filters by verdict, kind and text, and sorts by any column', () => {
    const base = {
      exploits: 0,
      tags: [] as string[],
      ports: [] as number[],
      count: 1,
      first: 'a.log:1',
      details: true,
    };
    const rows: TriageRowView[] = [
      {
        ...base,
        index: 0,
        value: '1.1.1.1',
        kind: 'ipv4',
        verdict: 'known',
        cves: 0,
        org: 'Cloudflare',
        asn: 'AS13335',
        count: 9,
      },
      {
        ...base,
        index: 1,
        value: '45.33.32.156',
        kind: 'ipv4',
        verdict: 'vulnerable',
        cves: 3,
        maxScore: 9.8,
        severity: 'critical',
        org: 'Linode',
      },
      {
        ...base,
        index: 2,
        value: 'evil.example.com',
        kind: 'domain',
        verdict: 'known',
        cves: 0,
        registrar: 'NameCheap',
        tags: [],
      },
      { ...base, index: 3, value: '2001:db8::1', kind: 'ipv6', verdict: 'local', cves: 0, details: true },
      {
        ...base,
        index: 4,
        value: '203.0.113.9',
        kind: 'ipv4',
        verdict: 'vulnerable',
        cves: 1,
        maxScore: 5.3,
        severity: 'medium',
        tags: ['self-signed'],
      },
    ];
    const hay = rows.map(haystack);
    const values = (order: number[]): string[] => order.map((i) => rows[i]!.value);
    assert.deepEqual(values(filterRows(rows, hay, { verdict: 'vulnerable' })), [
      '45.33.32.156',
      '203.0.113.9',
    ]);
    assert.deepEqual(values(filterRows(rows, hay, { kind: 'domain' })), ['evil.example.com']);
    assert.deepEqual(values(filterRows(rows, hay, { text: 'CLOUDFLARE' })), ['1.1.1.1']);
    assert.deepEqual(values(filterRows(rows, hay, { text: 'namecheap' })), ['evil.example.com']);
    assert.deepEqual(values(filterRows(rows, hay, { text: 'self-signed', verdict: 'vulnerable' })), [
      '203.0.113.9',
    ]);
    assert.deepEqual(values(filterRows(rows, hay, { verdict: 'failed' })), []);
    const all = (): number[] => rows.map((_, i) => i);
    assert.deepEqual(
      values(sortRows(rows, all(), 'verdict', true)).slice(0, 2),
      ['45.33.32.156', '203.0.113.9'],
      'worst first, by score',
    );
    assert.deepEqual(values(sortRows(rows, all(), 'count', true))[0], '1.1.1.1');
    assert.deepEqual(values(sortRows(rows, all(), 'value', false)), [
      '1.1.1.1',
      '2001:db8::1',
      '203.0.113.9',
      '45.33.32.156',
      'evil.example.com',
    ]);
    assert.deepEqual(values(sortRows(rows, all(), 'score', false)).slice(-1), ['45.33.32.156']);
  });
});
