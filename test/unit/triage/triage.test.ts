import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OdinApiError } from '../../../src/api/errors';
import { RequestBudget } from '../../../src/core/requests/budget';
import { PrivacyPolicy } from '../../../src/core/privacy';
import {
  batchQuery,
  buildTriage,
  carryOver,
  enrich,
  planRequests,
  preview,
  type Answer,
  type EnrichmentSource,
  type HostVerdict,
  type SendCheck,
} from '../../../src/core/triage';
import { domainVerdict, hostVerdict, verdictLine } from '../../../src/core/triage/verdict';

const policy = new PrivacyPolicy();
const check: SendCheck = (kind, value) => policy.check({ kind, value });

const LOG = [
  '2026-11-20T10:00:01Z accept 185.220.101[.]34 -> 10.0.0.5:22',
  '2026-11-20T10:00:02Z accept 185.220.101.34 -> 10.0.0.5:22',
  '2026-11-20T10:00:03Z dns query evil-update.com from 192.168.1.20',
  '2026-11-20T10:00:04Z accept 8.8.8.8 -> 172.16.0.1 printer.corp 2001:db8::1 2606:4700::1111',
  '2026-11-20T10:00:05Z accept 1.1.1.1 block 203.0.113.0/24 and 45.33.32.156',
].join('\n');

function verdict(ip: string, cves = 0): HostVerdict {
  return {
    kind: 'host',
    vulnerable: cves > 0,
    cves,
    exploits: 0,
    tags: [],
    ports: [22],
    cveIds: [],
    asn: 'AS1',
    org: `org of ${ip}`,
  };
}

/** A fake source that records what it was asked; `fail(value)` may throw for one value. */
function source(
  opts: {
    cached?: Map<string, Answer>;
    known?: Set<string>;
    fail?: (v: string, n: number) => unknown;
    batch?: boolean;
    refuseBatch?: boolean;
  } = {},
) {
  const asked: string[] = [];
  const batches: string[][] = [];
  let n = 0;
  const answer = (v: string): Answer =>
    opts.known && !opts.known.has(v) ? { found: false } : { found: true, verdict: verdict(v, 1) };
  const maybeFail = (v: string): void => {
    const e = opts.fail?.(v, n++);
    if (e) throw e;
  };
  const s: EnrichmentSource = {
    cached: (_k, v) => opts.cached?.get(v),
    // Each lookup is charged to the budget as the request layer does when it sends one.
    lookupHost: async (ip, _signal, budget) => {
      budget.charge();
      asked.push(ip);
      maybeFail(ip);
      const a = answer(ip);
      opts.cached?.set(ip, a);
      return a;
    },
    lookupDomain: async (d, _signal, budget) => {
      budget.charge();
      asked.push(d);
      maybeFail(d);
      const a: Answer = {
        found: true,
        verdict: domainVerdict(
          {
            domain_name: d,
            domain_status: [],
            name_servers: [],
            registrar: { name: 'R' },
            created_date: '2026-11-01T00:00:00Z',
          },
          Date.parse('2026-11-21T00:00:00Z'),
        ),
      };
      opts.cached?.set(d, a);
      return a;
    },
  };
  if (opts.batch !== false) {
    s.lookupHostsBatch = async (ips, _signal, budget) => {
      budget.charge();
      batches.push([...ips]);
      if (opts.refuseBatch)
        throw new OdinApiError({ kind: 'badRequest', endpoint: 'POST /v1/hosts/search', status: 400 });
      for (const ip of ips) maybeFail(ip);
      const m = new Map<string, HostVerdict>();
      for (const ip of ips) {
        const a = answer(ip);
        opts.cached?.set(ip, a);
        if (a.found && a.verdict.kind === 'host') m.set(ip, a.verdict);
      }
      return m;
    };
  }
  return { s, asked, batches };
}

void describe('triage core', () => {
  void it('scans to unique indicators by kind, with counts and the first location, merging files', async () => {
    const t = await buildTriage(
      [
        { uri: 'file:///a.log', text: LOG },
        { uri: 'file:///b.log', text: 'again 185.220.101.34 and 9.9.9.9' },
      ],
      check,
    );
    const by = new Map(t.rows.map((r) => [r.value, r]));
    const tor = by.get('185.220.101.34')!;
    assert.equal(tor.count, 3);
    assert.equal(tor.defanged, true);
    assert.deepEqual(tor.first, {
      uri: 'file:///a.log',
      offset: LOG.indexOf('185.220.101[.]34'),
      length: '185.220.101[.]34'.length,
      line: 0,
    });
    assert.equal(by.get('9.9.9.9')?.first.uri, 'file:///b.log');
    assert.equal(t.rows[0]!.value, '185.220.101.34', 'most frequent first');
    for (const v of ['10.0.0.5', '192.168.1.20', '172.16.0.1', '2001:db8::1']) {
      assert.equal(by.get(v)?.private, true, v);
      assert.equal(by.get(v)?.status, 'local', v);
    }
    assert.equal(by.get('203.0.113.0/24')?.status, 'local');
    assert.equal(by.has('printer.corp'), false, 'internal names are not detected at all');
    assert.equal(by.get('evil-update.com')?.status, 'pending');
  });

  void it('previews without sending: private never sent, cached counted, requests in each mode', async () => {
    const t = await buildTriage([{ uri: 'u', text: LOG }], check);
    const cached = new Map<string, Answer>([['8.8.8.8', { found: true, verdict: verdict('8.8.8.8') }]]);
    const { s, asked } = source({ cached });
    const p = preview(t, s, { batchSize: 2 });
    // public IPs: 185.220.101.34, 8.8.8.8 (cached), 2606:4700::1111, 1.1.1.1, 45.33.32.156; domain evil-update.com
    assert.equal(p.cached, 1);
    assert.equal(p.toSend, 5);
    assert.equal(p.mode, 'batched');
    assert.equal(p.requests, 2 + 1, 'four IPs in chunks of two, one domain');
    assert.equal(p.private, 5, 'four private addresses and a documentation block');
    assert.equal(p.notLookedUp, 0);
    const single = preview(t, s, { batching: false });
    assert.equal(single.mode, 'single');
    assert.equal(single.requests, 5);
    assert.deepEqual(asked, [], 'a preview sends nothing');
  });

  void it('enriches in batches: requests never exceed unique public uncached indicators; none private sent', async () => {
    const t = await buildTriage([{ uri: 'u', text: LOG }], check);
    const { s, asked, batches } = source({ known: new Set(['185.220.101.34', '1.1.1.1', '8.8.8.8']) });
    const r = await enrich(t, s, { batchSize: 3 });
    assert.equal(r.requests, 2 + 1);
    assert.ok(r.requests <= preview(t, s).toSend + 5);
    assert.deepEqual(
      batches.map((b) => b.length),
      [3, 2],
    );
    assert.deepEqual(asked, ['evil-update.com']);
    const sentValues = new Set([...batches.flat(), ...asked]);
    for (const row of t.rows) if (row.private) assert.equal(sentValues.has(row.value), false, row.value);
    assert.equal(r.partial, false);
    assert.equal(r.summary, '6 of 6 enriched; 3 requests sent');
    const by = new Map(t.rows.map((x) => [x.value, x]));
    assert.equal(by.get('45.33.32.156')?.status, 'unknown');
    assert.equal(by.get('1.1.1.1')?.status, 'enriched');
    assert.equal(by.get('evil-update.com')?.verdict?.kind, 'domain');
  });

  void it('a refused batch falls back to one lookup per IP only after a new yes that names the count', async () => {
    const t = await buildTriage([{ uri: 'u', text: LOG }], check);
    const { s, asked, batches } = source({ refuseBatch: true });
    const askedFor: number[] = [];
    const r = await enrich(t, s, {
      batchSize: 10,
      concurrency: 1,
      confirmFallback: async (n) => {
        askedFor.push(n);
        return true;
      },
    });
    assert.deepEqual(askedFor, [5], 'asked once, for the five IPs left');
    assert.equal(r.batchRefused, true);
    assert.equal(batches.length, 1);
    assert.equal(asked.filter((v) => v !== 'evil-update.com').length, 5);
    assert.equal(r.requests, 1 + 5 + 1);
    assert.equal(r.partial, false);
  });

  void it('a refused batch without a new yes sends no single lookup: "over budget", and the summary says what was sent', async () => {
    // Fifty IPs in one batch of 50: the preview said 1 request (+1 for the domain).
    const ips = Array.from({ length: 50 }, (_, i) => `45.3.${i}.9`);
    const t = await buildTriage([{ uri: 'u', text: `${ips.join(' ')} evil-update.com` }], check);
    const { s, asked, batches } = source({ refuseBatch: true });
    const shown = preview(t, s).requests;
    assert.equal(shown, 2);
    const r = await enrich(t, s, { concurrency: 1 });
    assert.equal(batches.length, 1);
    assert.deepEqual(asked, ['evil-update.com'], 'no single host lookup');
    assert.equal(r.requests, shown);
    assert.equal(r.stoppedBecause, 'over budget');
    assert.equal(
      r.summary,
      '1 of 51 enriched; 50 not: over budget (batched search refused); 2 requests sent',
    );
    // Declined in the modal: the same, said as such.
    const t2 = await buildTriage([{ uri: 'u', text: ips.join(' ') }], check);
    const declined = await enrich(t2, s, { confirmFallback: async () => false });
    assert.equal(declined.requests, 1);
    assert.match(
      declined.summary,
      /50 not: single lookups not confirmed \(batched search refused\); 1 request sent$/,
    );
    // Within what is left of a larger budget (an agent's maxRequests), no new yes is needed.
    const t3 = await buildTriage([{ uri: 'u', text: ips.slice(0, 3).join(' ') }], check);
    asked.length = 0;
    const roomy = await enrich(t3, s, { budget: new RequestBudget(4) });
    assert.equal(roomy.requests, 4);
    assert.equal(asked.length, 3);
    assert.equal(roomy.partial, false);
  });

  void it('batches after a refused one are not sent (they would be refused too)', async () => {
    const ips = Array.from({ length: 30 }, (_, i) => `45.4.${i}.9`);
    const t = await buildTriage([{ uri: 'u', text: ips.join(' ') }], check);
    const { s, batches } = source({ refuseBatch: true });
    const r = await enrich(t, s, { batchSize: 10, concurrency: 1 });
    assert.equal(batches.length, 1);
    assert.equal(r.requests, 1);
    assert.equal(r.pending, 30);
  });

  void it('with batching off, plans one request per target', async () => {
    const t = await buildTriage([{ uri: 'u', text: LOG }], check);
    const { s } = source();
    const plan = planRequests(t, s, { batching: false });
    assert.ok(plan.every((p) => p.kind !== 'batch'));
    assert.equal(plan.length, 6);
  });

  void it('stops on 402, keeps the partial rows, says why; a re-run sends only what is missing', async () => {
    const ips = Array.from({ length: 530 }, (_, i) => `45.${Math.floor(i / 250)}.${i % 250}.7`);
    const t = await buildTriage([{ uri: 'u', text: ips.join('\n') }], check);
    const cached = new Map<string, Answer>();
    let credits = 412;
    const { s, asked } = source({
      cached,
      batch: false,
      fail: () =>
        credits-- > 0
          ? undefined
          : new OdinApiError({ kind: 'quota', endpoint: 'GET /v1/hosts/{ip}', status: 402 }),
    });
    const r = await enrich(t, s, { concurrency: 1 });
    assert.equal(r.answered, 412);
    assert.equal(r.partial, true);
    assert.equal(r.stoppedBecause, 'credits used up');
    assert.equal(r.summary, '412 of 530 enriched; 118 not: credits used up; 413 requests sent');
    assert.equal(asked.length, 413, 'stops at the first 402');
    credits = 1000;
    asked.length = 0;
    const again = await enrich(t, s, { concurrency: 1 });
    assert.equal(again.requests, 118);
    assert.equal(new Set(asked).size, 118);
    assert.equal(again.partial, false);
    // A fresh triage of the same text: everything from the cache, nothing sent.
    const t2 = await buildTriage([{ uri: 'u', text: ips.join('\n') }], check);
    asked.length = 0;
    const third = await enrich(t2, s);
    assert.equal(third.requests, 0);
    assert.equal(asked.length, 0);
    assert.ok(t2.rows.every((x) => x.fromCache && !x.sent));
  });

  void it('carries answers over from the previous triage: a re-run sends only what is missing, cache or not', async () => {
    const ips = Array.from({ length: 20 }, (_, i) => `45.2.${i}.9`);
    const t = await buildTriage([{ uri: 'u', text: ips.join(' ') }], check);
    let left = 12;
    const { s, asked } = source({
      batch: false,
      fail: () => (left-- > 0 ? undefined : new OdinApiError({ kind: 'quota', endpoint: 'x', status: 402 })),
    });
    await enrich(t, s, { concurrency: 1 });
    const t2 = await buildTriage([{ uri: 'u', text: ips.join(' ') }], check);
    assert.equal(carryOver(t2, t), 12);
    left = 100;
    asked.length = 0;
    const r = await enrich(t2, s, { concurrency: 1 });
    assert.equal(r.requests, 8);
    assert.equal(r.partial, false);
  });

  void it('a cancel midway keeps the rows done so far', async () => {
    const ips = Array.from({ length: 100 }, (_, i) => `45.1.${i}.9`);
    const t = await buildTriage([{ uri: 'u', text: ips.join(' ') }], check);
    const ac = new AbortController();
    const { s } = source({
      batch: false,
      fail: (_v, n) => {
        if (n === 40) ac.abort();
        return ac.signal.aborted ? new OdinApiError({ kind: 'cancelled', endpoint: 'x' }) : undefined;
      },
    });
    const r = await enrich(t, s, { signal: ac.signal, concurrency: 2 });
    assert.equal(r.stoppedBecause, 'cancelled');
    assert.ok(r.answered >= 39 && r.answered <= 41, String(r.answered));
    assert.equal(r.partial, true);
    assert.match(r.summary, /not: cancelled; \d+ requests sent$/);
  });

  void it('a per-item failure (reset, 5xx) fails that row only and the run goes on', async () => {
    const t = await buildTriage([{ uri: 'u', text: LOG }], check);
    const { s } = source({
      batch: false,
      fail: (v) =>
        v === '1.1.1.1'
          ? new OdinApiError({ kind: 'network', network: 'reset', endpoint: 'GET /v1/hosts/{ip}' })
          : undefined,
    });
    const r = await enrich(t, s);
    assert.equal(r.failed, 1);
    assert.equal(r.summary, '5 of 6 enriched; 1 not: connection reset; 6 requests sent');
    assert.equal(t.rows.find((x) => x.value === '1.1.1.1')?.status, 'failed');
  });

  void it('stops on 429 that outlasts the retries', async () => {
    const t = await buildTriage([{ uri: 'u', text: LOG }], check);
    const { s } = source({
      batch: false,
      fail: (_v, n) =>
        n >= 2 ? new OdinApiError({ kind: 'rateLimited', endpoint: 'x', status: 429 }) : undefined,
    });
    const r = await enrich(t, s, { concurrency: 1 });
    assert.equal(r.stoppedBecause, 'rate limited');
    assert.equal(r.answered, 2);
  });

  void it('writes the batched query with ip: terms joined by OR (IPv6 quoted)', () => {
    assert.equal(batchQuery(['1.2.3.4', '2606:4700::1111']), 'ip:1.2.3.4 OR ip:"2606:4700::1111"');
  });

  void it('derives verdicts from a host: true tags only, highest score and severity, ports, ASN', () => {
    const v = hostVerdict({
      ip: '1.2.3.4',
      banner: [],
      domains: [],
      hostnames: [],
      asn: { number: '14061', organization: 'DigitalOcean', country_code: 'US' },
      services: [
        {
          port: 443,
          cve: [
            {
              id: 'CVE-1',
              severity: 'HIGH',
              score: 7.5,
              references: [],
              services: [],
              exploit: [{ id: 'E1' }],
            },
          ],
          softwares: [],
          modules: {},
        },
        {
          port: 22,
          cve: [
            { id: 'CVE-2', severity: 'CRITICAL', score: 9.8, references: [], services: [], exploit: [] },
            { id: 'CVE-1', severity: 'HIGH', references: [], services: [], exploit: [] },
          ],
          softwares: [],
          modules: {},
        },
      ],
      tags: [
        { name: 'is_anonymous_proxy', pretty_name: 'Anonymous Proxy', value: false },
        { name: 'c2', pretty_name: 'C2', value: true },
      ],
    });
    assert.equal(v.cves, 2);
    assert.equal(v.maxScore, 9.8);
    assert.equal(v.maxSeverity, 'critical');
    assert.equal(v.exploits, 1);
    assert.deepEqual(v.tags, ['C2']);
    assert.deepEqual(v.ports, [22, 443]);
    assert.equal(v.asn, 'AS14061');
    assert.deepEqual(v.cveIds, ['CVE-2', 'CVE-1']);
    assert.equal(verdictLine(v), '⚠ 2 CVEs (max 9.8) · 1 exploit · AS14061 · US');
  });
});
