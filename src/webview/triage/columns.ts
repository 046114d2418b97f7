// The columns of the triage view: what each shows of a row, its sort key, and at which widths
// it is shown (media/details.css collapses the lower priorities in a narrow panel). Cells are
// strings or DOM nodes, never HTML.
import type { SortKey, TriageKind, TriageRowView } from '../../common/triageProtocol';
import { VERDICT_LABEL } from '../../common/triageGlance';
import { h } from '../dom';

export interface Column {
  key: SortKey | undefined;
  label: string;
  cell: (r: TriageRowView) => Node | string;
  cls?: string;
  /**
   * Which widths show the column (media/details.css): 1 always (indicator, verdict, CVEs,
   * CVSS), 2 from a medium width (kind, organisation, country, occurrences), 3 only wide
   * (exploits, ports, tags, first location). The details page of a row has all of them.
   */
  prio: 1 | 2 | 3;
}

export { VERDICT_LABEL };
export const KIND_LABEL: Record<TriageKind, string> = {
  ipv4: 'IPv4',
  ipv6: 'IPv6',
  domain: 'Domain',
  cidr: 'CIDR',
};

function verdictText(r: TriageRowView): string {
  if (r.verdict === 'known' && (r.kind === 'ipv4' || r.kind === 'ipv6')) return 'No known CVEs';
  return VERDICT_LABEL[r.verdict];
}

function ports(r: TriageRowView): string {
  if (r.ports.length === 0) return '';
  const shown = r.ports.slice(0, 5).join(', ');
  return r.ports.length > 5 ? `${shown} +${r.ports.length - 5}` : shown;
}

function facts(r: TriageRowView): string {
  if (r.kind === 'domain') {
    const bits = [
      r.ageDays !== undefined ? `${r.ageDays} d old` : undefined,
      r.expires ? `expires ${r.expires}` : undefined,
      r.subdomains !== undefined ? `${r.subdomains} subdomain${r.subdomains === 1 ? '' : 's'}` : undefined,
    ];
    const s = bits.filter(Boolean).join(' · ');
    if (s) return s;
  }
  if (r.tags.length) return r.tags.join(', ');
  return r.reason ?? '';
}

export const COLUMNS: Column[] = [
  { key: 'value', label: 'Indicator', cell: (r) => r.value, cls: 'c-value', prio: 1 },
  { key: 'kind', label: 'Kind', cell: (r) => KIND_LABEL[r.kind], prio: 2 },
  {
    key: 'verdict',
    label: 'Verdict',
    cell: (r) => h('span', { class: `verdict v-${r.verdict}` }, verdictText(r)),
    prio: 1,
  },
  { key: 'cves', label: 'CVEs', cell: (r) => (r.cves ? String(r.cves) : ''), cls: 'num', prio: 1 },
  {
    key: 'score',
    label: 'CVSS',
    cell: (r) =>
      r.maxScore !== undefined || r.severity
        ? h(
            'span',
            { class: `sev sev-${r.severity ?? 'none'}` },
            [r.maxScore?.toFixed(1), r.severity].filter(Boolean).join(' '),
          )
        : '',
    prio: 1,
  },
  {
    key: 'kev',
    label: 'KEV',
    cell: (r) =>
      r.kev
        ? h(
            'span',
            { class: 'kev', attrs: { title: r.exploited ?? 'Known exploited (CISA KEV)' } },
            r.ransomware ? 'KEV · ransomware' : r.kev > 1 ? `KEV ×${r.kev}` : 'KEV',
          )
        : '',
    prio: 1,
  },
  {
    key: 'epss',
    label: 'EPSS',
    cell: (r) => (r.epss !== undefined ? `${(r.epss * 100).toFixed(r.epss >= 0.1 ? 1 : 2)}%` : ''),
    cls: 'num',
    prio: 2,
  },
  {
    key: 'exploits',
    label: 'Exploits',
    cell: (r) => (r.exploits ? String(r.exploits) : ''),
    cls: 'num',
    prio: 3,
  },
  { key: 'ports', label: 'Ports', cell: ports, prio: 3 },
  {
    key: 'org',
    label: 'Org / ASN',
    cell: (r) => (r.kind === 'domain' ? (r.registrar ?? '') : [r.org, r.asn].filter(Boolean).join(' · ')),
    prio: 2,
  },
  { key: 'country', label: 'Country', cell: (r) => r.country ?? '', prio: 2 },
  { key: undefined, label: 'Tags / facts', cell: facts, prio: 3 },
  { key: 'count', label: 'Seen', cell: (r) => String(r.count), cls: 'num', prio: 2 },
  { key: 'first', label: 'First at', cell: (r) => r.first, prio: 3 },
];

/** The classes of a column's cells (header and rows): its priority, its own class. */
export function cellClass(c: Column): string {
  return `tcell p${c.prio}${c.cls ? ` ${c.cls}` : ''}`;
}
