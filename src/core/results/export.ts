/**
 * Export of result sets to JSON and CSV. Pure: no VS Code.
 *
 * CSV is opened in spreadsheets, and scan data is written by whoever runs the scanned
 * host, so every cell that a spreadsheet would read as a formula (starting with `=`, `+`,
 * `-`, `@`, tab or carriage return, also after leading whitespace) is prefixed with `'`
 * (OWASP "CSV injection"). Cells are quoted per RFC 4180 when needed; lines end in CRLF.
 */
import type { ResultItem } from './resultItem';
import { certSummary, serviceSummary } from '../hosts/serviceText';

export type ExportFormat = 'json' | 'csv';

/**
 * Text a spreadsheet would read as a formula, or whose leading apostrophe it would swallow as
 * its own text marker (so `'-x` would show as `-x`): both get an apostrophe in front.
 */
const FORMULA_START = /^(?:[\s]*[=+\-@\t\r]|')/;

/** One CSV cell: formula-safe and quoted when it holds a comma, quote or line break. */
export function csvCell(value: unknown): string {
  let text: string;
  if (value === undefined || value === null) text = '';
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
  else text = JSON.stringify(value);
  // Numbers are data, not formulas (a negative score stays numeric).
  if (typeof value !== 'number' && FORMULA_START.test(text)) text = `'${text}`;
  if (/[",\r\n]/.test(text)) text = `"${text.replace(/"/g, '""')}"`;
  return text;
}

export function csvLine(cells: readonly unknown[]): string {
  return cells.map(csvCell).join(',');
}

export interface Table {
  columns: string[];
  rows: unknown[][];
}

export function toCsv(table: Table): string {
  return [csvLine(table.columns), ...table.rows.map(csvLine)].join('\r\n') + '\r\n';
}

const join = (xs: ReadonlyArray<string | number | undefined>): string =>
  xs.filter((x) => x !== undefined && x !== '').join('; ');

type ItemOf<K extends ResultItem['t']> = Extract<ResultItem, { t: K }>;

function hostTable(hosts: ReadonlyArray<ItemOf<'host'>>): Table {
  return {
    columns: [
      'ip',
      'ports',
      'products',
      'cves',
      'is_vuln',
      'asn',
      'organization',
      'country',
      'city',
      'hostnames',
      'last_updated_at',
      'tags',
      'services',
      'certificates',
    ],
    rows: hosts.map(({ v }) => [
      v.ip,
      join(v.services.map((s) => s.port)),
      join([...new Set(v.services.map((s) => s.product))]),
      join([...new Set(v.services.flatMap((s) => s.cve.map((c) => c.id)))]),
      v.is_vuln,
      v.asn?.number,
      v.asn?.organization,
      v.location?.country_code,
      v.location?.city,
      join(v.hostnames.map((h) => h.name)),
      v.last_updated_at,
      // Tags that hold (their value is true), what each service says, the certificates.
      join(v.tags.map((t) => t.name)),
      join(v.services.map((s) => [s.port, serviceSummary(s)].filter((x) => x !== undefined).join(' '))),
      join(
        v.services.flatMap((s) =>
          s.tls ? [[certSummary(s.tls), s.tls.fingerprintSha256].filter((x) => x).join(' sha256 ')] : [],
        ),
      ),
    ]),
  };
}

function bucketTable(buckets: ReadonlyArray<ItemOf<'bucket'>>): Table {
  return {
    columns: [
      'name',
      'provider',
      'region',
      'open',
      'files',
      'sensitive_files',
      'labels',
      'categories',
      'ins_at',
      'scan_at',
      'last_found_at',
    ],
    rows: buckets.map(({ v }) => [
      v.name,
      v.provider,
      v.region,
      v.open,
      v.files,
      v.sensitive_files,
      join(v.labels),
      join(v.categories),
      v.ins_at,
      v.scan_at,
      v.last_found_at,
    ]),
  };
}

function whoisTable(records: ReadonlyArray<ItemOf<'whois'>>): Table {
  return {
    columns: [
      'domain_name',
      'registrar',
      'created_date',
      'updated_date',
      'expires_date',
      'name_servers',
      'registrant_organization',
    ],
    rows: records.map(({ v }) => [
      v.domain_name,
      v.registrar?.name,
      v.created_date,
      v.updated_date,
      v.expires_date,
      join(v.name_servers),
      v.registrant_contact?.company,
    ]),
  };
}

/** The columns and rows for a list of items of one kind (the first item's kind decides). */
export function toTable(items: readonly ResultItem[]): Table {
  const kind = items[0]?.t ?? 'host';
  const of = <K extends ResultItem['t']>(k: K) => items.filter((i): i is ItemOf<K> => i.t === k);
  switch (kind) {
    case 'host':
      return hostTable(of('host'));
    case 'domain':
      return {
        columns: ['domain', 'subdomain', 'tld', 'added_at'],
        rows: of('domain').map(({ v }) => [v.domain, v.subdomain, v.ext_dns_name?.tld, v.added_at]),
      };
    case 'bucket':
      return bucketTable(of('bucket'));
    case 'cve':
      return {
        columns: ['ip', 'id', 'severity', 'score', 'summary', 'exploits'],
        rows: of('cve').map(({ v, ip }) => [ip, v.id, v.severity, v.score, v.summary, v.exploit.length]),
      };
    case 'exploit':
      return {
        columns: ['ip', 'id', 'cves', 'type', 'platform', 'description', 'url'],
        rows: of('exploit').map(({ v, ip }) => [
          ip,
          v.id,
          join(v.cves ?? []),
          v.type,
          v.platform,
          v.description,
          v.url,
        ]),
      };
    case 'whois':
      return whoisTable(of('whois'));
    case 'facet':
      return {
        columns: ['field', 'key', 'doc_count'],
        rows: of('facet').map(({ v, field }) => [field, v.key, v.doc_count]),
      };
    case 'count':
      return { columns: ['what', 'count'], rows: of('count').map(({ v, label }) => [label, v]) };
  }
}

export interface ExportMeta {
  /** What was searched (kind and parameters). */
  search: unknown;
  total?: number;
  exportedAt: string;
  /** False when only the loaded pages are exported and more exist. */
  complete: boolean;
  /** What the records hold when they are not the API's whole records (compact hosts). */
  records?: string;
}

/** JSON: `{ search, total, exported, complete, records?, items: [...] }` with the records as the result set holds them. */
export function toJson(items: readonly ResultItem[], meta: ExportMeta): string {
  const records = items.map((i) => {
    switch (i.t) {
      case 'facet':
        return { field: i.field, ...i.v };
      case 'count':
        return { what: i.label, count: i.v };
      case 'cve':
      case 'exploit':
        return i.ip ? { ip: i.ip, ...i.v } : i.v;
      default:
        return i.v;
    }
  });
  return `${JSON.stringify({ ...meta, exported: items.length, items: records }, null, 2)}\n`;
}

export function exportText(format: ExportFormat, items: readonly ResultItem[], meta: ExportMeta): string {
  return format === 'json' ? toJson(items, meta) : toCsv(toTable(items));
}
