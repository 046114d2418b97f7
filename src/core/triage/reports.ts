// Reports of a triage for a ticket: Markdown (defanged by default), CSV (formula-safe) and JSON
// here; a STIX 2.1 bundle and a MISP event in ./exchange.ts. Private and internal values are
// left out unless asked for (their number is still reported). API text (organisations, tags, registrars) is data:
// escaped for Markdown, never a link. Pure: no `vscode` import.
import { compareRisk } from '../exploitation/order';
import { verdictRisk } from './verdict';
import { csvLine } from '../results/export';
import { escapeMarkdownSyntax } from '../text/inert';
import { mispEvent, stixBundle } from './exchange';
import type { Triage, TriageRow } from './model';
import { rowsOf, statusText, type ReportOptions } from './reportRows';
import { account } from './triage';
import { l10n } from '../text/l10n';

export type ReportFormat = 'md' | 'csv' | 'json' | 'stix' | 'misp';
export const REPORT_FORMATS: readonly ReportFormat[] = ['md', 'csv', 'json', 'stix', 'misp'];

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

/** `1.2.3[.]4`, `evil[.]com`, `2001[:]db8[:][:]1`. */
export function defang(value: string): string {
  return value.includes(':') && !value.includes('.')
    ? value.replace(/:/g, '[:]')
    : value.replace(/\./g, '[.]');
}

/** Markdown for a table cell: no HTML, no links (autolinks of e-mail addresses and `www.` names included), no emphasis, one line. */
export function mdText(s: string, max = 120): string {
  let t = s.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, ' ');
  if (t.length > max) t = `${t.slice(0, max - 1)}…`;
  return escapeMarkdownSyntax(t);
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

function isVulnerable(r: TriageRow): boolean {
  return r.verdict?.kind === 'host' && r.verdict.vulnerable;
}

/** A Markdown table row of these cells. */
function tableRow(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** The report's title, what it was made from, the counts table and its notes. */
function reportSummary(triage: Triage, opts: ReportOptions, rows: TriageRow[]): string[] {
  const label = opts.fileLabel ?? ((u: string) => u);
  const acc = account(triage);
  const priv = triage.rows.filter((r) => r.private).length;
  const vulnerable = triage.rows.filter((r) => r.verdict?.kind === 'host' && r.verdict.vulnerable);
  const lines: string[] = [];
  lines.push(`## ${mdText(opts.title ?? l10n.t('ODIN triage'))}`, '');
  const when = (opts.now ?? new Date()).toISOString();
  const files = `${triage.files
    .slice(0, 5)
    .map((f) => mdCode(label(f), 80))
    .join(', ')}${triage.files.length > 5 ? ', …' : ''}`;
  lines.push(
    triage.files.length === 1
      ? l10n.t('Generated {0} from 1 file: {1}.', when, files)
      : l10n.t('Generated {0} from {1} files: {2}.', when, triage.files.length, files),
    '',
  );
  lines.push(`| | ${l10n.t('count')} |`, '|---|---:|');
  lines.push(tableRow([l10n.t('unique indicators'), String(triage.rows.length)]));
  lines.push(tableRow([l10n.t('occurrences'), String(triage.occurrences)]));
  lines.push(
    tableRow([
      opts.includePrivate
        ? l10n.t('private or internal (never sent)')
        : l10n.t('private or internal (never sent, not listed)'),
      String(priv),
    ]),
  );
  lines.push(tableRow([l10n.t('enriched'), l10n.t('{0} of {1}', acc.answered, acc.eligible)]));
  lines.push(tableRow([l10n.t('vulnerable hosts'), String(vulnerable.length)]), '');
  if (acc.partial) lines.push(`> ${l10n.t('Partial: {0}.', mdText(acc.summary, 300))}`, '');
  // Where the KEV and EPSS columns come from, or why they are empty (never "not exploited").
  const feeds = rows.find((r) => r.verdict?.kind === 'host' && r.verdict.feeds)?.verdict;
  if (feeds?.kind === 'host' && feeds.feeds)
    lines.push(`> ${l10n.t('Exploitation: {0}.', mdText(feeds.feeds, 300))}`, '');
  if (triage.truncated)
    lines.push(`> ${l10n.t('More unique values than the triage lists; the rest are counted only.')}`, '');
  return lines;
}

/** Vulnerable or tagged hosts, riskiest first (KEV, EPSS, CVSS), at most 50. */
function notableHosts(rows: TriageRow[]): TriageRow[] {
  return rows
    .filter((r) => r.verdict?.kind === 'host' && (r.verdict.vulnerable || r.verdict.tags.length > 0))
    .sort(
      (a, b) =>
        compareRisk(verdictRisk(a.verdict), verdictRisk(b.verdict)) ||
        Number(isVulnerable(b)) - Number(isVulnerable(a)) ||
        b.count - a.count,
    )
    .slice(0, 50);
}

function notableSection(notable: TriageRow[], show: (v: string) => string): string[] {
  if (!notable.length) return [];
  const lines = [
    `### ${l10n.t('Notable hosts')}`,
    '',
    tableRow([
      l10n.t('indicator'),
      l10n.t('seen'),
      l10n.t('exploited'),
      l10n.t('max EPSS'),
      'CVEs',
      l10n.t('max CVSS'),
      l10n.t('severity'),
      l10n.t('exploits'),
      l10n.t('tags'),
      l10n.t('ports'),
      'ASN',
      l10n.t('organisation'),
      l10n.t('country'),
    ]),
    '|---|---:|---|---:|---:|---:|---|---:|---|---|---|---|---|',
  ];
  for (const r of notable) {
    const v = r.verdict!;
    if (v.kind !== 'host') continue;
    lines.push(
      `| ${show(r.value)} | ${r.count} | ${mdText(v.kev ? (v.ransomware ? l10n.t('{0} in KEV (ransomware)', v.kev) : l10n.t('{0} in KEV', v.kev)) : '')} | ${v.epss !== undefined ? `${(v.epss * 100).toFixed(1)}%` : ''} | ${v.cves} | ${v.maxScore ?? ''} | ${mdText(v.maxSeverity ?? '')} | ${v.exploits} | ${mdText(v.tags.join(', '), 80)} | ${v.ports.slice(0, 10).join(', ')}${v.ports.length > 10 ? `, … ${l10n.t('({0} in all)', v.ports.length)}` : ''} | ${mdText(v.asn ?? '')} | ${mdText(v.org ?? '', 60)} | ${mdText(v.country ?? '')} |`,
    );
  }
  lines.push('');
  return lines;
}

function domainSection(domains: TriageRow[], show: (v: string) => string): string[] {
  if (!domains.length) return [];
  const lines = [
    `### ${l10n.t('Domains')}`,
    '',
    tableRow([
      l10n.t('indicator'),
      l10n.t('seen'),
      l10n.t('registrar'),
      l10n.t('created'),
      l10n.t('age (days)'),
      l10n.t('expires'),
    ]),
    '|---|---:|---|---|---:|---|',
  ];
  for (const r of domains) {
    const v = r.verdict!;
    if (v.kind !== 'domain') continue;
    lines.push(
      `| ${show(r.value)} | ${r.count} | ${mdText(v.registrar ?? '', 60)} | ${v.created ?? ''} | ${v.ageDays ?? ''} | ${v.expires ?? ''} |`,
    );
  }
  lines.push('');
  return lines;
}

/** Every other indicator with its status, at most 200 (the CSV and JSON list them all). */
function otherSection(rest: TriageRow[], show: (v: string) => string): string[] {
  if (!rest.length) return [];
  const lines = [
    `### ${l10n.t('Other indicators')}`,
    '',
    tableRow([l10n.t('indicator'), l10n.t('kind'), l10n.t('seen'), l10n.t('status')]),
    '|---|---|---:|---|',
  ];
  for (const r of rest.slice(0, 200))
    lines.push(`| ${show(r.value)} | ${r.kind} | ${r.count} | ${mdText(statusText(r))} |`);
  if (rest.length > 200)
    lines.push('', `…${l10n.t('and {0} more (see the CSV or JSON report).', rest.length - 200)}`);
  lines.push('');
  return lines;
}

export function markdownReport(triage: Triage, opts: ReportOptions = {}): string {
  const dfg = opts.defang ?? true;
  const show = (v: string): string => mdCode(dfg ? defang(v) : v);
  const rows = rowsOf(triage, opts);
  const notable = notableHosts(rows);
  const domains = rows.filter((r) => r.verdict?.kind === 'domain').slice(0, 50);
  const rest = rows.filter((r) => !notable.includes(r) && !domains.includes(r));
  return [
    ...reportSummary(triage, opts, rows),
    ...notableSection(notable, show),
    ...domainSection(domains, show),
    ...otherSection(rest, show),
  ].join('\n');
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
  'kev_cves',
  'ransomware',
  'max_epss',
  'exploited',
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
        h?.kev ?? '',
        h?.ransomware ?? '',
        h?.epss ?? '',
        h?.exploited ?? '',
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
