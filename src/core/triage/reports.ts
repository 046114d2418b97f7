// Reports of a triage for a ticket: Markdown (defanged by default), CSV (formula-safe), JSON,
// a STIX 2.1 bundle and a MISP event. Private and internal values are left out unless asked
// for (their number is still reported). API text (organisations, tags, registrars) is data:
// escaped for Markdown, never a link. Pure: no `vscode` import.
import { createHash, randomUUID } from 'node:crypto';
import { csvLine } from '../export';
import type { Triage, TriageRow } from './model';
import { account } from './triage';
import { verdictLine } from './verdict';

export type ReportFormat = 'md' | 'csv' | 'json' | 'stix' | 'misp';
export const REPORT_FORMATS: readonly ReportFormat[] = ['md', 'csv', 'json', 'stix', 'misp'];

export interface ReportOptions {
  /** Include private/internal values (default false). */
  includePrivate?: boolean;
  /** Write indicators defanged (`1.2.3[.]4`). Default true for Markdown, false otherwise. */
  defang?: boolean;
  /** Fixed time for reproducible output (tests); default now. */
  now?: Date;
  /** Fixed ids for reproducible output (tests); default random UUIDs where STIX wants v4. */
  uuid?: () => string;
  title?: string;
  /** Display names of the scanned files (default their URIs). */
  fileLabel?: (uri: string) => string;
}

export function report(triage: Triage, format: ReportFormat, opts: ReportOptions = {}): string {
  switch (format) {
    case 'md':
      return markdownReport(triage, opts);
    case 'csv':
      return csvReport(triage, opts);
    case 'json':
      return jsonReport(triage, opts);
    case 'stix':
      return JSON.stringify(stixBundle(triage, opts), null, 2);
    case 'misp':
      return JSON.stringify(mispEvent(triage, opts), null, 2);
  }
}

function rowsOf(triage: Triage, opts: ReportOptions): TriageRow[] {
  return opts.includePrivate ? triage.rows : triage.rows.filter((r) => !r.private);
}

/** `1.2.3[.]4`, `evil[.]com`, `2001[:]db8[:][:]1`. */
export function defang(value: string): string {
  return value.includes(':') && !value.includes('.')
    ? value.replace(/:/g, '[:]')
    : value.replace(/\./g, '[.]');
}

/** Markdown for a table cell: no HTML, no links, no emphasis, one line. */
export function mdText(s: string, max = 120): string {
  let t = s.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, ' ');
  if (t.length > max) t = `${t.slice(0, max - 1)}…`;
  return t.replace(/[\\`*_{}[\]()<>#+!|~&]/g, (c) => `\\${c}`).replace(/:\/\//g, ':\\/\\/');
}

/** A one-line code span (its fence longer than any backtick run inside): shown as written, never a link. */
export function mdCode(s: string, max = 200): string {
  let t = s.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, ' ');
  if (t.length > max) t = `${t.slice(0, max - 1)}…`;
  const run = Math.max(0, ...(t.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(run + 1);
  // A pipe would end the table cell even inside a code span.
  return `${fence}${run ? ' ' : ''}${t.replace(/\|/g, '\\|')}${run ? ' ' : ''}${fence}`;
}

function severityOrder(r: TriageRow): number {
  const v = r.verdict;
  if (!v || v.kind !== 'host') return -1;
  return (v.maxScore ?? 0) * 100 + v.cves + (v.exploits > 0 ? 10_000 : 0);
}

export function markdownReport(triage: Triage, opts: ReportOptions = {}): string {
  const dfg = opts.defang ?? true;
  const show = (v: string): string => mdCode(dfg ? defang(v) : v);
  const label = opts.fileLabel ?? ((u: string) => u);
  const rows = rowsOf(triage, opts);
  const acc = account(triage);
  const priv = triage.rows.filter((r) => r.private).length;
  const vulnerable = triage.rows.filter((r) => r.verdict?.kind === 'host' && r.verdict.vulnerable);
  const lines: string[] = [];
  lines.push(`## ${mdText(opts.title ?? 'ODIN triage')}`, '');
  lines.push(
    `Generated ${(opts.now ?? new Date()).toISOString()} from ${triage.files.length} file${triage.files.length === 1 ? '' : 's'}: ${triage.files
      .slice(0, 5)
      .map((f) => mdCode(label(f), 80))
      .join(', ')}${triage.files.length > 5 ? ', …' : ''}.`,
    '',
  );
  lines.push('| | count |', '|---|---:|');
  lines.push(`| unique indicators | ${triage.rows.length} |`);
  lines.push(`| occurrences | ${triage.occurrences} |`);
  lines.push(`| private or internal (never sent${opts.includePrivate ? '' : ', not listed'}) | ${priv} |`);
  lines.push(`| enriched | ${acc.answered} of ${acc.eligible} |`);
  lines.push(`| vulnerable hosts | ${vulnerable.length} |`, '');
  if (acc.partial) lines.push(`> Partial: ${mdText(acc.summary, 300)}.`, '');
  if (triage.truncated)
    lines.push('> More unique values than the triage lists; the rest are counted only.', '');
  const notable = rows
    .filter((r) => r.verdict?.kind === 'host' && (r.verdict.vulnerable || r.verdict.tags.length > 0))
    .sort((a, b) => severityOrder(b) - severityOrder(a) || b.count - a.count)
    .slice(0, 50);
  if (notable.length) {
    lines.push(
      '### Notable hosts',
      '',
      '| indicator | seen | CVEs | max CVSS | severity | exploits | tags | ports | ASN | organisation | country |',
      '|---|---:|---:|---:|---|---:|---|---|---|---|---|',
    );
    for (const r of notable) {
      const v = r.verdict!;
      if (v.kind !== 'host') continue;
      lines.push(
        `| ${show(r.value)} | ${r.count} | ${v.cves} | ${v.maxScore ?? ''} | ${mdText(v.maxSeverity ?? '')} | ${v.exploits} | ${mdText(v.tags.join(', '), 80)} | ${v.ports.slice(0, 10).join(', ')}${v.ports.length > 10 ? ', …' : ''} | ${mdText(v.asn ?? '')} | ${mdText(v.org ?? '', 60)} | ${mdText(v.country ?? '')} |`,
      );
    }
    lines.push('');
  }
  const domains = rows.filter((r) => r.verdict?.kind === 'domain').slice(0, 50);
  if (domains.length) {
    lines.push(
      '### Domains',
      '',
      '| indicator | seen | registrar | created | age (days) | expires |',
      '|---|---:|---|---|---:|---|',
    );
    for (const r of domains) {
      const v = r.verdict!;
      if (v.kind !== 'domain') continue;
      lines.push(
        `| ${show(r.value)} | ${r.count} | ${mdText(v.registrar ?? '', 60)} | ${v.created ?? ''} | ${v.ageDays ?? ''} | ${v.expires ?? ''} |`,
      );
    }
    lines.push('');
  }
  const rest = rows.filter((r) => !notable.includes(r) && !domains.includes(r));
  if (rest.length) {
    lines.push('### Other indicators', '', '| indicator | kind | seen | status |', '|---|---|---:|---|');
    for (const r of rest.slice(0, 200))
      lines.push(`| ${show(r.value)} | ${r.kind} | ${r.count} | ${mdText(statusText(r))} |`);
    if (rest.length > 200) lines.push('', `…and ${rest.length - 200} more (see the CSV or JSON report).`);
    lines.push('');
  }
  return lines.join('\n');
}

function statusText(r: TriageRow): string {
  switch (r.status) {
    case 'enriched':
      return verdictLine(r.verdict) || 'known to ODIN';
    case 'unknown':
      return 'unknown to ODIN';
    case 'local':
      return r.private ? 'private/internal, not sent' : (r.localReason ?? 'not looked up');
    case 'pending':
      return r.reason ? `not sent: ${r.reason}` : 'not sent';
    case 'failed':
      return `failed: ${r.reason ?? 'error'}`;
  }
}

export const CSV_COLUMNS = [
  'value',
  'kind',
  'count',
  'status',
  'private',
  'sent',
  'from_cache',
  'first_file',
  'first_offset',
  'vulnerable',
  'cves',
  'max_cvss',
  'max_severity',
  'exploits',
  'cve_ids',
  'tags',
  'ports',
  'asn',
  'organisation',
  'country',
  'registrar',
  'created',
  'age_days',
  'expires',
  'reason',
] as const;

export function csvReport(triage: Triage, opts: ReportOptions = {}): string {
  const dfg = opts.defang ?? false;
  const out = [csvLine(CSV_COLUMNS)];
  for (const r of rowsOf(triage, opts)) {
    const h = r.verdict?.kind === 'host' ? r.verdict : undefined;
    const d = r.verdict?.kind === 'domain' ? r.verdict : undefined;
    out.push(
      csvLine([
        dfg ? defang(r.value) : r.value,
        r.kind,
        r.count,
        r.status,
        r.private,
        r.sent,
        r.fromCache,
        r.first.uri,
        r.first.offset,
        h ? h.vulnerable : '',
        h?.cves ?? '',
        h?.maxScore ?? '',
        h?.maxSeverity ?? '',
        h?.exploits ?? '',
        h?.cveIds.join(' ') ?? '',
        h?.tags.join('; ') ?? '',
        h?.ports.join(' ') ?? '',
        h?.asn ?? '',
        h?.org ?? '',
        h?.country ?? '',
        d?.registrar ?? '',
        d?.created ?? '',
        d?.ageDays ?? '',
        d?.expires ?? '',
        r.reason ?? r.localReason ?? '',
      ]),
    );
  }
  return out.join('\r\n') + '\r\n';
}

export function jsonReport(triage: Triage, opts: ReportOptions = {}): string {
  const dfg = opts.defang ?? false;
  const acc = account(triage);
  return JSON.stringify(
    {
      format: 'odin-triage',
      version: 1,
      generated: (opts.now ?? new Date()).toISOString(),
      files: triage.files,
      occurrences: triage.occurrences,
      truncated: triage.truncated,
      summary: {
        eligible: acc.eligible,
        enriched: acc.answered,
        failed: acc.failed,
        pending: acc.pending,
        partial: acc.partial,
        text: acc.summary,
      },
      indicators: rowsOf(triage, opts).map((r) => ({
        value: dfg ? defang(r.value) : r.value,
        kind: r.kind,
        count: r.count,
        status: r.status,
        private: r.private,
        sent: r.sent,
        fromCache: r.fromCache,
        first: r.first,
        ...(r.verdict ? { verdict: r.verdict } : {}),
        ...(r.reason || r.localReason ? { reason: r.reason ?? r.localReason } : {}),
      })),
    },
    null,
    2,
  );
}

// ------------------------------------------------------------------ STIX 2.1

/** The namespace STIX 2.1 prescribes for deterministic SCO ids (UUIDv5). */
const STIX_SCO_NAMESPACE = '00abedb4-aa42-466c-9c01-fed23315a9b7';

export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const h = createHash('sha1').update(ns).update(Buffer.from(name, 'utf8')).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** SCO id per STIX 2.1 §2.9: UUIDv5 over the canonical JSON of its id-contributing properties. */
function scoId(type: string, props: Record<string, string | number>): string {
  const keys = Object.keys(props).sort();
  const canon = `{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(props[k])}`).join(',')}}`;
  return `${type}--${uuidV5(canon, STIX_SCO_NAMESPACE)}`;
}

type StixObject = Record<string, unknown> & { type: string; id: string };

function stixTime(d: Date): string {
  return d.toISOString();
}

export function stixBundle(
  triage: Triage,
  opts: ReportOptions = {},
): { type: 'bundle'; id: string; objects: StixObject[] } {
  const now = stixTime(opts.now ?? new Date());
  const uuid = opts.uuid ?? randomUUID;
  // SDO ids must be UUIDv4 (the schemas refuse other versions in references); SCO ids are v5.
  const identityId = `identity--${uuid()}`;
  const vulnIds = new Map<string, string>();
  const allRefs: string[] = [];
  const objects: StixObject[] = [
    {
      type: 'identity',
      spec_version: '2.1',
      id: identityId,
      created: '2026-01-01T00:00:00.000Z',
      modified: '2026-01-01T00:00:00.000Z',
      name: 'ODIN for VS Code (triage)',
      identity_class: 'system',
    },
  ];
  const seen = new Set<string>();
  const add = (o: StixObject): string => {
    if (!seen.has(o.id)) {
      seen.add(o.id);
      objects.push(o);
    }
    return o.id;
  };
  for (const r of rowsOf(triage, opts)) {
    if (r.kind === 'cidr') continue;
    const type = r.kind === 'ipv4' ? 'ipv4-addr' : r.kind === 'ipv6' ? 'ipv6-addr' : 'domain-name';
    const sco: StixObject = {
      type,
      spec_version: '2.1',
      id: scoId(type, { value: r.value }),
      value: r.value,
    };
    const v = r.verdict;
    const refs: string[] = [];
    if (v?.kind === 'host' && v.asn) {
      const number = Number(v.asn.replace(/^AS/i, ''));
      if (Number.isInteger(number) && number >= 0) {
        const as: StixObject = {
          type: 'autonomous-system',
          spec_version: '2.1',
          id: scoId('autonomous-system', { number }),
          number,
        };
        if (v.org) as.name = v.org;
        sco.belongs_to_refs = [add(as)];
      }
    }
    refs.push(add(sco));
    if (!v) {
      allRefs.push(...refs);
      continue;
    }
    if (v.kind === 'host') {
      for (const cve of v.cveIds) {
        let vulnId = vulnIds.get(cve);
        if (!vulnId) vulnIds.set(cve, (vulnId = `vulnerability--${uuid()}`));
        refs.push(
          add({
            type: 'vulnerability',
            spec_version: '2.1',
            id: vulnId,
            created: now,
            modified: now,
            created_by_ref: identityId,
            name: cve,
            external_references: [{ source_name: 'cve', external_id: cve }],
          }),
        );
      }
    }
    // Custom properties carry the enrichment on the observable itself (STIX 2.1 §11.1): the
    // official bundle schema lists no `note` or `opinion`, so a note would not validate.
    sco.x_odin_enrichment = enrichmentText(r);
    sco.x_odin_verdict = { ...v };
    allRefs.push(...refs);
  }
  const acc = account(triage);
  objects.push({
    type: 'report',
    spec_version: '2.1',
    id: `report--${uuid()}`,
    created: now,
    modified: now,
    created_by_ref: identityId,
    name: opts.title ?? 'ODIN triage',
    description: `${triage.rows.length} unique indicators in ${triage.files.length} file(s); ${acc.summary}.`,
    report_types: ['observed-data'],
    published: now,
    object_refs: allRefs.length ? [...new Set(allRefs)] : [identityId],
  });
  return { type: 'bundle', id: `bundle--${uuid()}`, objects };
}

function enrichmentText(r: TriageRow): string {
  const v = r.verdict;
  const lines = [`${r.value} (${r.kind}), seen ${r.count} time${r.count === 1 ? '' : 's'}.`];
  if (v?.kind === 'host') {
    lines.push(
      `Vulnerable: ${v.vulnerable ? 'yes' : 'no'}; CVEs: ${v.cves}${v.maxScore !== undefined ? `; highest CVSS ${v.maxScore}` : ''}${v.maxSeverity ? ` (${v.maxSeverity})` : ''}; exploits: ${v.exploits}.`,
    );
    if (v.ports.length) lines.push(`Open ports: ${v.ports.join(', ')}.`);
    if (v.tags.length) lines.push(`Tags: ${v.tags.join(', ')}.`);
    if (v.asn || v.org || v.country)
      lines.push(`Network: ${[v.asn, v.org, v.country].filter(Boolean).join(', ')}.`);
  } else if (v?.kind === 'domain') {
    if (v.registrar) lines.push(`Registrar: ${v.registrar}.`);
    if (v.created)
      lines.push(`Created ${v.created}${v.ageDays !== undefined ? ` (${v.ageDays} days old)` : ''}.`);
    if (v.expires) lines.push(`Expires ${v.expires}.`);
  }
  return lines.join('\n');
}

// ------------------------------------------------------------------ MISP

/** A MISP event (the JSON `{"Event": …}` that MISP imports), one attribute per indicator. */
export function mispEvent(triage: Triage, opts: ReportOptions = {}): { Event: Record<string, unknown> } {
  const now = opts.now ?? new Date();
  const uuid = opts.uuid ?? randomUUID;
  const attrs: Record<string, unknown>[] = [];
  for (const r of rowsOf(triage, opts)) {
    if (r.kind === 'cidr' && !opts.includePrivate) continue;
    const type = r.kind === 'domain' ? 'domain' : 'ip-dst';
    const v = r.verdict;
    const tags: { name: string }[] = [];
    if (v?.kind === 'host' && v.vulnerable) tags.push({ name: 'odin:vulnerable="true"' });
    if (v?.kind === 'host' && v.maxSeverity) tags.push({ name: `odin:max-severity="${v.maxSeverity}"` });
    attrs.push({
      uuid: uuid(),
      type,
      category: 'Network activity',
      to_ids: false,
      value: r.value,
      comment: v ? enrichmentText(r).replace(/\n/g, ' ') : statusText(r),
      timestamp: String(Math.floor(now.getTime() / 1000)),
      ...(tags.length ? { Tag: tags } : {}),
    });
  }
  const acc = account(triage);
  return {
    Event: {
      uuid: uuid(),
      info:
        opts.title ??
        `ODIN triage of ${triage.files.length} file${triage.files.length === 1 ? '' : 's'}: ${acc.summary}`,
      date: now.toISOString().slice(0, 10),
      timestamp: String(Math.floor(now.getTime() / 1000)),
      published: false,
      analysis: '1',
      threat_level_id: '4',
      distribution: '0',
      Attribute: attrs,
      Tag: [{ name: 'tlp:amber' }],
    },
  };
}
