// The columns of the triage view: what each shows of a row, its sort key, and at which widths
// it is shown (media/details.css collapses the lower priorities in a narrow panel). Cells are
// strings or DOM nodes, never HTML.
import type { SortKey, TriageKind, TriageRowView } from '../../common/triage/protocol';
import { verdictLabel } from '../../common/triage/glance';
import { h } from '../dom';
import { l10n } from '../../core/text/l10n';

export interface Column {
  key: SortKey | undefined;
  /** The header (a function: the page's words arrive after this module is loaded). */
  label: () => string;
  cell: (r: TriageRowView) => Node | string;
  cls?: string;
  /**
   * Which widths show the column (media/details.css): 1 always (indicator, verdict, CVEs,
   * CVSS), 2 from a medium width (kind, organisation, country, occurrences), 3 only wide
   * (exploits, ports, tags, first location). The details page of a row has all of them.
   */
  prio: 1 | 2 | 3;
}

export { verdictLabel };
export function kindLabel(k: TriageKind): string {
  return { ipv4: 'IPv4', ipv6: 'IPv6', domain: l10n.t('Domain'), cidr: 'CIDR' }[k];
}

function verdictText(r: TriageRowView): string {
  if (r.verdict === 'known' && (r.kind === 'ipv4' || r.kind === 'ipv6')) return l10n.t('No known CVEs');
  return verdictLabel(r.verdict);
}

function ports(r: TriageRowView): string {
  if (r.ports.length === 0) return '';
  const shown = r.ports.slice(0, 5).join(', ');
  return r.ports.length > 5 ? `${shown} +${r.ports.length - 5}` : shown;
}

function facts(r: TriageRowView): string {
  if (r.kind === 'domain') {
    const bits = [
      r.ageDays !== undefined ? l10n.t('{0} d old', r.ageDays) : undefined,
      r.expires ? l10n.t('expires {0}', r.expires) : undefined,
      r.subdomains === undefined
        ? undefined
        : r.subdomains === 1
          ? l10n.t('1 subdomain')
          : l10n.t('{0} subdomains', r.subdomains),
    ];
    const s = bits.filter(Boolean).join(' · ');
    if (s) return s;
  }
  if (r.tags.length) return r.tags.join(', ');
  return r.reason ?? '';
}

export const COLUMNS: Column[] = [
  { key: 'value', label: () => l10n.t('Indicator'), cell: (r) => r.value, cls: 'c-value', prio: 1 },
  { key: 'kind', label: () => l10n.t('Kind'), cell: (r) => kindLabel(r.kind), prio: 2 },
  {
    key: 'verdict',
    label: () => l10n.t('Verdict'),
    cell: (r) => h('span', { class: `verdict v-${r.verdict}` }, verdictText(r)),
    prio: 1,
  },
  { key: 'cves', label: () => 'CVEs', cell: (r) => (r.cves ? String(r.cves) : ''), cls: 'num', prio: 1 },
  {
    key: 'score',
    label: () => 'CVSS',
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
    label: () => 'KEV',
    cell: (r) =>
      r.kev
        ? h(
            'span',
            { class: 'kev', attrs: { title: r.exploited ?? l10n.t('Known exploited (CISA KEV)') } },
            r.ransomware ? l10n.t('KEV · ransomware') : r.kev > 1 ? `KEV ×${r.kev}` : 'KEV',
          )
        : '',
    prio: 1,
  },
  {
    key: 'epss',
    label: () => 'EPSS',
    cell: (r) => (r.epss !== undefined ? `${(r.epss * 100).toFixed(r.epss >= 0.1 ? 1 : 2)}%` : ''),
    cls: 'num',
    prio: 2,
  },
  {
    key: 'exploits',
    label: () => l10n.t('Exploits'),
    cell: (r) => (r.exploits ? String(r.exploits) : ''),
    cls: 'num',
    prio: 3,
  },
  { key: 'ports', label: () => l10n.t('Ports'), cell: ports, prio: 3 },
  {
    key: 'org',
    label: () => l10n.t('Org / ASN'),
    cell: (r) => (r.kind === 'domain' ? (r.registrar ?? '') : [r.org, r.asn].filter(Boolean).join(' · ')),
    prio: 2,
  },
  { key: 'country', label: () => l10n.t('Country'), cell: (r) => r.country ?? '', prio: 2 },
  { key: undefined, label: () => l10n.t('Tags / facts'), cell: facts, prio: 3 },
  { key: 'count', label: () => l10n.t('Seen'), cell: (r) => String(r.count), cls: 'num', prio: 2 },
  { key: 'first', label: () => l10n.t('First at'), cell: (r) => r.first, prio: 3 },
];

/** The classes of a column's cells (header and rows): its priority, its own class. */
export function cellClass(c: Column): string {
  return `tcell p${c.prio}${c.cls ? ` ${c.cls}` : ''}`;
}
