import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { PrivacyPolicy } from '../../../src/core/privacy';
import {
  buildTriage,
  enrich,
  report,
  REPORT_FORMATS,
  type EnrichmentSource,
  type Triage,
  uuidV5,
  defang,
  hostVerdict,
  rowViews,
  verdictLine,
} from '../../../src/core/triage';
import type { Host } from '../../../src/api/types';
import { filterRows, haystack, sortRows } from '../../../src/common/triage/protocol';
import type { ExploitationStore } from '../../../src/core/exploitation';
import { cveAt, hostWith, storeOf, tenCritical } from '../../support/exploitation';
import { stixValidator } from '../../support/stix';

const policy = new PrivacyPolicy();
const NOW = new Date('2026-11-23T12:00:00.000Z');
let seq = 0;
const uuid = (): string => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

const LOG = [
  'accept 185.220.101.34 -> 10.0.0.5:22 from evil-update.com',
  'accept 45.33.32.156 =cmd|calc 2606:4700::1111 and 192.168.1.20 +1.1.1.1',
].join('\n');

async function triage(
  cveIds: readonly string[] = ['CVE-2024-6387', 'CVE-2023-48795'],
  org = '[click](https://evil.example/) | Digital*Ocean*',
): Promise<Triage> {
  const t = await buildTriage([{ uri: 'file:///logs/a.log', text: LOG }], (kind, value) =>
    policy.check({ kind, value }),
  );
  const src: EnrichmentSource = {
    cached: () => undefined,
    lookupHost: async (ip) =>
      ip === '45.33.32.156'
        ? { found: false }
        : {
            found: true,
            verdict: {
              kind: 'host',
              vulnerable: ip === '185.220.101.34',
              cves: ip === '185.220.101.34' ? 2 : 0,
              maxScore: ip === '185.220.101.34' ? 9.8 : undefined,
              maxSeverity: ip === '185.220.101.34' ? 'critical' : undefined,
              exploits: 1,
              tags: ['=HYPERLINK("http://x")', 'Tor <b>exit</b>'],
              ports: [22, 443],
              asn: 'AS14061',
              org,
              country: 'DE',
              cveIds: ip === '185.220.101.34' ? [...cveIds] : [],
            },
          },
    lookupDomain: async () => ({
      found: true,
      verdict: {
        kind: 'domain',
        registrar: '=1+1',
        created: '2026-11-01',
        ageDays: 22,
        expires: '2027-11-01',
      },
    }),
  };
  await enrich(t, src, { batching: false });
  return t;
}

void describe('triage reports', () => {
  void it('STIX 2.1 bundle is valid against the OASIS STIX 2.1 JSON schemas (Ajv, draft 2020-12)', async () => {
    const t = await triage();
    const text = report(t, 'stix', { now: NOW, uuid });
    const bundle = JSON.parse(text) as { objects: { type: string; value?: string; id: string }[] };
    const validate = stixValidator();
    const ok = validate(bundle);
    assert.ok(ok, JSON.stringify(validate.errors?.slice(0, 5), null, 2));
    const types = bundle.objects.map((o) => o.type);
    for (const ty of [
      'identity',
      'ipv4-addr',
      'ipv6-addr',
      'domain-name',
      'autonomous-system',
      'vulnerability',
      'report',
    ])
      assert.ok(types.includes(ty), ty);
    assert.ok(
      !bundle.objects.some((o) => o.value === '10.0.0.5' || o.value === '192.168.1.20'),
      'private values left out',
    );
    // SCO ids are deterministic (UUIDv5 in the STIX namespace over the canonical value).
    const ip = bundle.objects.find((o) => o.value === '185.220.101.34')!;
    assert.equal(
      ip.id,
      `ipv4-addr--${uuidV5('{"value":"185.220.101.34"}', '00abedb4-aa42-466c-9c01-fed23315a9b7')}`,
    );
    // The validator is real: a broken bundle fails.
    assert.equal(
      validate({ ...bundle, objects: [{ type: 'ipv4-addr', id: 'ipv4-addr--nope', value: '1.2.3.4' }] }),
      false,
    );
    assert.equal(
      validate({
        type: 'bundle',
        id: 'bundle--00000000-0000-4000-8000-000000000001',
        objects: [{ type: 'ipv4-addr', spec_version: '2.1', id: ip.id, value: '1.2.3.999' }],
      }),
      false,
    );
  });

  void it('STIX: ids that are not strict CVE ids (lower case, GHSA, short) still validate; case is normalised', async () => {
    const t = await triage([
      'cve-2024-6387',
      'CVE-2024-6387',
      'GHSA-f9xv-q969-pqx4',
      'CVE-2024-123',
      'MS17-010',
      ' ',
    ]);
    const bundle = JSON.parse(report(t, 'stix', { now: NOW, uuid })) as {
      objects: {
        type: string;
        name?: string;
        external_references?: { source_name: string; external_id: string }[];
      }[];
    };
    const validate = stixValidator();
    assert.ok(validate(bundle), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
    const refs = bundle.objects
      .filter((o) => o.type === 'vulnerability')
      .map((o) => `${o.external_references![0]!.source_name}:${o.external_references![0]!.external_id}`);
    assert.deepEqual(refs, [
      'cve:CVE-2024-6387',
      'ghsa:GHSA-f9xv-q969-pqx4',
      'odin:CVE-2024-123',
      'odin:MS17-010',
    ]);
  });

  void it('the STIX spec example of a deterministic id matches (UUIDv5)', () => {
    // RFC 4122 appendix: uuid5(NAMESPACE_DNS, "python.org") = 886313e1-3b8a-5372-9b90-0c9aee199e5d
    assert.equal(
      uuidV5('python.org', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'),
      '886313e1-3b8a-5372-9b90-0c9aee199e5d',
    );
  });

  void it('Markdown is defanged by default, escapes API text, leaves private values out', async () => {
    const t = await triage();
    const md = report(t, 'md', { now: NOW });
    assert.ok(md.includes('| `185[.]220[.]101[.]34` |'), md);
    assert.ok(!md.includes('185.220.101.34'));
    assert.ok(!md.includes('10.0.0.5') && !md.includes('192.168.1.20'));
    assert.ok(!md.includes('](https'), 'no link survives');
    assert.ok(!md.includes('<b>'), 'no HTML survives');
    assert.match(md, /\\\[click\\\]\\\(https\\:\\\/\\\/evil/);
    assert.match(md, /\| private or internal \(never sent, not listed\) \| 2 \|/);
    assert.match(md, /CVEs/);
    const plain = report(t, 'md', { now: NOW, defang: false, includePrivate: true });
    assert.ok(plain.includes('185.220.101.34') && plain.includes('10.0.0.5'));
    assert.equal(defang('2606:4700::1111'), '2606[:]4700[:][:]1111');
  });

  void it("Markdown: e-mail addresses, www. names and URLs in scan data are never autolinked (markdown-it with linkify, as in VS Code; GitHub's www. and e-mail rules)", async () => {
    const org = 'admin@evil.example www.evil.example http://e.example //e.example';
    const t = await triage(undefined, org);
    const md = report(t, 'md', { now: NOW, defang: false });
    assert.ok(md.includes('admin\\@evil\\.example'), md);
    // VS Code's preview: markdown-it with linkify on (fuzzy links and e-mails as well).
    const MarkdownIt = createRequire(__filename)('markdown-it') as new (o: object) => {
      render(s: string): string;
    };
    const html = new MarkdownIt({ linkify: true }).render(md);
    assert.ok(html.includes('admin@evil.example'), 'the address is shown');
    assert.ok(!/<a\b/.test(html), html.match(/<a\b[^>]*>/)?.[0]);
    // GitHub (cmark-gfm) links `www.` names and e-mail addresses found within one text run:
    // the cell holding the scan text keeps no `www.` and no unescaped `@`, `:` or `.`.
    const line = md.split('\n').find((l) => l.includes('admin'))!;
    const cell = line.slice(line.indexOf('admin'), line.indexOf(' |', line.indexOf('admin')));
    assert.ok(!/www\./i.test(cell), cell);
    assert.ok(!/(^|[^\\])[@:.]/.test(cell), cell);
  });

  void it('CSV is formula-injection-safe', async () => {
    const t = await triage();
    const csv = report(t, 'csv');
    const lines = csv.trimEnd().split('\r\n');
    assert.match(lines[0]!, /^value,kind,count,status/);
    assert.ok(csv.includes(`"'=HYPERLINK(""http://x""); Tor <b>exit</b>"`), csv);
    assert.ok(csv.includes(",'=1+1,"), 'registrar formula neutralised');
    assert.ok(!/(^|,)[=+@-]/m.test(csv.replace(/"[^"]*"/g, '""')), 'no cell starts with a formula character');
    assert.ok(!csv.includes('10.0.0.5'));
  });

  void it('JSON and MISP are well formed; every format renders', async () => {
    const t = await triage();
    const json = JSON.parse(report(t, 'json', { now: NOW })) as {
      format: string;
      indicators: { value: string; status: string }[];
      summary: { partial: boolean };
    };
    assert.equal(json.format, 'odin-triage');
    assert.equal(json.summary.partial, false);
    assert.equal(json.indicators.find((i) => i.value === '45.33.32.156')?.status, 'unknown');
    const misp = JSON.parse(report(t, 'misp', { now: NOW, uuid })) as {
      Event: { info: string; Attribute: { type: string; value: string; category: string }[] };
    };
    assert.ok(misp.Event.Attribute.length >= 4);
    assert.ok(
      misp.Event.Attribute.every(
        (a) => ['ip-dst', 'domain'].includes(a.type) && a.category === 'Network activity',
      ),
    );
    assert.ok(!misp.Event.Attribute.some((a) => a.value === '10.0.0.5'));
    for (const f of REPORT_FORMATS) assert.ok(report(t, f, { now: NOW, uuid }).length > 0, f);
  });
});

// Exploited first: KEV and EPSS through the triage, from real host answers and the feeds' store.
void describe('triage: exploited first (KEV, then EPSS, then CVSS)', () => {
  const FEED_NOW = Date.parse('2026-11-20T12:00:00Z');
  const kevStore = (): ExploitationStore =>
    storeOf(
      [{ id: 'CVE-2021-41773', added: '2021-11-03', ransomware: true }],
      'CVE-2021-41773,0.94400,0.99900\nCVE-2024-10003,0.20000,0.96000',
      { now: FEED_NOW },
    );
  // A: one KEV CVE at CVSS 7.5. B: ten CVEs at 9.8, none in KEV.
  const A = '185.220.101.34';
  const B = '45.33.32.156';
  const hosts: Record<string, Host> = {
    [A]: hostWith(A, [cveAt('CVE-2021-41773', 7.5)]),
    [B]: hostWith(B, tenCritical()),
  };
  async function exploitedTriage(): Promise<Triage> {
    // B first in the text and seen more often: only the rule can put A above it.
    const text = `${B} ${B} ${B} then ${A}`;
    const t = await buildTriage([{ uri: 'file:///logs/b.log', text }], (kind, value) =>
      policy.check({ kind, value }),
    );
    const store = kevStore();
    await enrich(
      t,
      {
        cached: () => undefined,
        lookupHost: async (ip) => ({ found: true, verdict: hostVerdict(hosts[ip]!, store) }),
        lookupDomain: async () => ({ found: false }),
      },
      { batching: false },
    );
    return t;
  }

  void it('a host with one KEV CVE at CVSS 7.5 sorts above ten non-KEV CVEs at 9.8; "known exploited only" keeps it alone', async () => {
    const t = await exploitedTriage();
    const rows = rowViews(t, (u) => u);
    const order = sortRows(
      rows,
      rows.map((_, i) => i),
      'verdict',
      true,
    );
    assert.deepEqual(
      order.map((i) => rows[i]!.value),
      [A, B],
    );
    const a = rows.find((r) => r.value === A)!;
    assert.equal(a.kev, 1);
    assert.equal(a.ransomware, true);
    assert.equal(a.exploited, 'Known exploited (KEV, added 2021-11-03; used by ransomware)');
    const byKev = sortRows(
      rows,
      rows.map((_, i) => i),
      'kev',
      true,
    );
    assert.equal(rows[byKev[0]!]!.value, A);
    const only = filterRows(rows, rows.map(haystack), { exploited: true });
    assert.deepEqual(
      only.map((i) => rows[i]!.value),
      [A],
    );
    const v = t.rows.find((r) => r.value === A)!.verdict!;
    assert.equal(verdictLine(v).split(' · ')[0], '⚠ KEV (ransomware)');
  });

  void it('every report carries KEV and EPSS; STIX stays valid against the OASIS schemas; MISP has vulnerability attributes', async () => {
    const t = await exploitedTriage();
    const md = report(t, 'md', { now: NOW });
    const notable = md
      .split('\n')
      .filter((l) => l.startsWith('| `') || l.startsWith('| 1') || l.startsWith('| 4'));
    assert.ok(notable[0]!.includes('185'), md);
    assert.match(md, /\| 1 in KEV \\\(ransomware\\\) \| 94\.4% \|/);
    assert.match(md, /> Exploitation: KEV from 2026\\-11\\-19 · EPSS from 2026\\-11\\-19\./);
    const csv = report(t, 'csv', { now: NOW }).split('\r\n');
    const header = csv[0]!.split(',');
    const aRow = csv.find((l) => l.startsWith(A))!.split(',');
    assert.equal(aRow[header.indexOf('kev_cves')], '1');
    assert.equal(aRow[header.indexOf('ransomware')], 'true');
    const json = JSON.parse(report(t, 'json', { now: NOW })) as {
      indicators: { value: string; verdict?: { kev?: number; signals?: unknown[] } }[];
    };
    assert.equal(json.indicators.find((i) => i.value === A)!.verdict!.kev, 1);
    const bundle = JSON.parse(report(t, 'stix', { now: NOW, uuid })) as {
      objects: Record<string, unknown>[];
    };
    const validate = stixValidator();
    assert.ok(validate(bundle), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
    const vuln = bundle.objects.find((o) => o.type === 'vulnerability' && o.name === 'CVE-2021-41773')!;
    assert.deepEqual(vuln.x_odin_kev, { date_added: '2021-11-03', known_ransomware_campaign_use: 'Known' });
    assert.deepEqual(vuln.x_odin_epss, { epss: 0.944, percentile: 0.999 });
    assert.ok(
      (vuln.external_references as { source_name: string }[]).some((r) => r.source_name === 'cisa-kev'),
    );
    const misp = JSON.parse(report(t, 'misp', { now: NOW, uuid })) as {
      Event: { Attribute: { type: string; value: string; comment: string; Tag?: { name: string }[] }[] };
    };
    const attr = misp.Event.Attribute.find(
      (x) => x.type === 'vulnerability' && x.value === 'CVE-2021-41773',
    )!;
    assert.equal(attr.value, 'CVE-2021-41773');
    assert.match(attr.comment, /Known exploited \(KEV, added 2021-11-03; used by ransomware\) · EPSS 94\.4%/);
    assert.ok(
      misp.Event.Attribute.find((x) => x.value === A)!.Tag!.some(
        (g) => g.name === 'odin:known-exploited="true"',
      ),
    );
  });
});
