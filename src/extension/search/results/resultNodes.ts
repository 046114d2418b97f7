/**
 * The results tree as plain data: which nodes a result set has (`children`) and the text a
 * node copies; how each one looks is nodeViews.ts. No VS Code here: the bench times these
 * modules in plain Node.
 */
import {
  SEVERITY_RANK,
  type Bucket,
  type Cve,
  type Exploit,
  type Host,
  type Service,
  type Severity,
  type WhoisRecord,
} from '../../../api/types';
import { compareIds } from '../../../core/exploitation/order';
import type { ResultItem } from '../../../core/results/resultItem';
import { certSummary, httpSummary } from '../../../core/hosts/serviceText';
import { KINDS, describeSpec } from '../../../core/savedSearches';
import { l10n } from '../../../core/text/l10n';
import { fmt } from '../../../core/text/numbers';
import type { ResultSet } from './resultSet';

export type Node =
  | { type: 'set'; set: ResultSet }
  | {
      type: 'item';
      set: ResultSet;
      item: ResultItem;
      index: number;
      /** Set on hosts: lets `odin.openHostDetails` take the node itself as its argument. */
      ip?: string;
      /** Set on domains and whois records: for `odin.openWhoisDetails` / `odin.whois`. */
      domain?: string;
    }
  | { type: 'service'; set: ResultSet; host: Host; service: Service }
  | { type: 'cve'; set: ResultSet; ip?: string; cve: Cve }
  | { type: 'exploit'; set: ResultSet; ip?: string; exploit: Exploit }
  | { type: 'info'; set: ResultSet; label: string; value: string; copy?: string }
  | { type: 'more'; set: ResultSet }
  | { type: 'loading'; set: ResultSet }
  | { type: 'error'; set: ResultSet }
  | { type: 'empty'; set: ResultSet }
  | { type: 'note'; set: ResultSet; text: string };
export { fmt };

/** Severity rank for sorting, most severe highest; strings outside the set rank below all. */
export const rank = (severity: string): number => SEVERITY_RANK[severity as Severity] ?? -1;

export function sortCves(cves: readonly Cve[]): Cve[] {
  return cves
    .slice()
    .sort(
      (a, b) =>
        rank(b.severity) - rank(a.severity) || (b.score ?? -1) - (a.score ?? -1) || compareIds(a.id, b.id),
    );
}
/** "Host search: services.port:443" */
export function setTitle(set: ResultSet): string {
  return `${KINDS[set.spec.kind].label}: ${describeSpec(set.spec)}`;
}

// ---------------------------------------------------------------- children

/** The children of a result set: its items, then the state node(s) at the end. */
export function setChildren(set: ResultSet): Node[] {
  const out: Node[] = set.items.map((item, index) => itemNode(set, item, index));
  for (const text of set.notes) out.push({ type: 'note', set, text });
  if (set.status === 'loading') out.push({ type: 'loading', set });
  else if (set.status === 'error') out.push({ type: 'error', set });
  else if (set.items.length === 0 && set.done) out.push({ type: 'empty', set });
  else if (!set.done && set.pages > 0) out.push({ type: 'more', set });
  else if (
    set.done &&
    !set.cursorCycle &&
    set.total !== undefined &&
    set.items.length < set.total &&
    isPaged(set)
  ) {
    // Nothing silently truncated: say why the list ends before the total.
    out.push({
      type: 'note',
      set,
      text: l10n.t(
        '{0} of {1} shown: the service returns no further pages for this search. Narrow the query to see the rest.',
        fmt(set.items.length),
        fmt(set.total),
      ),
    });
  }
  return out;
}

export function itemNode(set: ResultSet, item: ResultItem, index: number): Node {
  if (item.t === 'host') return { type: 'item', set, item, index, ip: item.v.ip };
  if (item.t === 'domain')
    return { type: 'item', set, item, index, domain: item.v.subdomain || item.v.domain };
  if (item.t === 'whois') return { type: 'item', set, item, index, domain: item.v.domain_name };
  return { type: 'item', set, item, index };
}

function isPaged(set: ResultSet): boolean {
  return KINDS[set.spec.kind].paged === true;
}

export function children(node: Node): Node[] {
  const set = node.set;
  switch (node.type) {
    case 'set':
      return setChildren(node.set);
    case 'item':
      return itemChildren(set, node.item);
    case 'service':
      return [
        ...sortCves(node.service.cve).map((cve): Node => ({ type: 'cve', set, ip: node.host.ip, cve })),
        ...serviceInfo(set, node.service),
      ];
    case 'cve':
      return cveInfo(set, node.cve, node.ip);
    case 'exploit':
      return exploitInfo(set, node.exploit);
    default:
      return [];
  }
}

const info = (
  set: ResultSet,
  label: string,
  value: string | number | boolean | undefined,
  copy?: string,
): Node[] =>
  value === undefined || value === ''
    ? []
    : [{ type: 'info', set, label, value: String(value), ...(copy ? { copy } : {}) }];

function itemChildren(set: ResultSet, item: ResultItem): Node[] {
  switch (item.t) {
    case 'host': {
      const h = item.v;
      const services = h.services
        .slice()
        .sort((a, b) => a.port - b.port)
        .map((service): Node => ({ type: 'service', set, host: h, service }));
      return [
        ...services,
        ...info(
          set,
          l10n.t('ASN'),
          [h.asn?.number, h.asn?.organization].filter(Boolean).join(' '),
          h.asn?.number,
        ),
        ...info(
          set,
          l10n.t('Location'),
          [h.location?.city, h.location?.country_name ?? h.location?.country_code].filter(Boolean).join(', '),
        ),
        ...info(set, l10n.t('Hostnames'), h.hostnames.map((n) => n.name).join(', ')),
        ...info(
          set,
          l10n.t('Domains'),
          h.domains
            .map((d) => d.name)
            .filter(Boolean)
            .join(', '),
        ),
        ...info(set, l10n.t('Tags'), h.tags.map((x) => x.pretty_name ?? x.name).join(', ')),
        ...info(set, l10n.t('Network'), h.whois?.network ?? h.location?.network),
        ...info(set, l10n.t('Last seen'), h.last_updated_at),
      ];
    }
    case 'bucket':
      return bucketInfo(set, item.v);
    case 'whois':
      return whoisInfo(set, item.v);
    case 'cve':
      return cveInfo(set, item.v, item.ip);
    case 'exploit':
      return exploitInfo(set, item.v);
    case 'domain':
      return [
        ...info(set, l10n.t('Domain'), item.v.domain, item.v.domain),
        ...info(set, l10n.t('TLD'), item.v.ext_dns_name?.tld),
        ...info(set, l10n.t('Added'), item.v.added_at),
      ];
    default:
      return [];
  }
}

function serviceInfo(set: ResultSet, s: Service): Node[] {
  // HTTP by what it answered (status, title, server); other protocols by their banner.
  return [
    ...info(set, l10n.t('Product'), [s.product, s.version].filter(Boolean).join(' ')),
    ...info(set, l10n.t('HTTP'), httpSummary(s)),
    ...info(set, l10n.t('Banner'), s.banner),
    ...info(set, l10n.t('Certificate'), certSummary(s.tls), s.tls?.fingerprintSha256),
    ...info(set, l10n.t('URL'), s.url, s.url),
  ];
}

function cveInfo(set: ResultSet, c: Cve, ip: string | undefined): Node[] {
  return [
    ...info(set, l10n.t('Summary'), c.summary),
    ...info(set, l10n.t('Score'), c.score),
    ...info(set, l10n.t('Vector'), c.vector_string),
    ...info(set, l10n.t('Weakness'), c.weakness),
    ...c.exploit.map((exploit): Node => ({ type: 'exploit', set, ...(ip ? { ip } : {}), exploit })),
    ...c.references
      .slice(0, 20)
      .map((r): Node => ({ type: 'info', set, label: l10n.t('Reference'), value: r, copy: r })),
    ...(c.references.length > 20
      ? info(set, l10n.t('References'), l10n.t('{0} more (export to see all)', c.references.length - 20))
      : []),
  ];
}

function exploitInfo(set: ResultSet, e: Exploit): Node[] {
  return [
    ...info(set, l10n.t('Description'), e.description),
    ...info(set, l10n.t('CVEs'), (e.cves ?? []).join(', ')),
    ...info(set, l10n.t('Type'), e.type),
    ...info(set, l10n.t('Platform'), e.platform),
    ...info(set, l10n.t('URL'), e.url, e.url),
  ];
}

function bucketInfo(set: ResultSet, b: Bucket): Node[] {
  const cats = Object.entries(b.file_cat_count)
    .sort((x, y) => y[1] - x[1])
    .map(([k, v]) => `${k} ${fmt(v)}`)
    .join(', ');
  return [
    ...info(set, l10n.t('Provider'), [b.provider, b.region].filter(Boolean).join(' · ')),
    ...info(set, l10n.t('Open'), b.open),
    ...info(set, l10n.t('Files'), b.files),
    ...info(set, l10n.t('Sensitive files'), b.sensitive_files),
    ...info(set, l10n.t('Labels'), b.labels.join(', ')),
    ...info(set, l10n.t('Categories'), cats || b.categories.join(', ')),
    ...info(set, l10n.t('First indexed'), b.ins_at),
    ...info(set, l10n.t('Last scanned'), b.scan_at),
    ...info(set, l10n.t('Last found'), b.last_found_at),
  ];
}

function whoisInfo(set: ResultSet, w: WhoisRecord): Node[] {
  return [
    ...info(set, l10n.t('Registrar'), w.registrar?.name),
    ...info(set, l10n.t('Created'), w.created_date),
    ...info(set, l10n.t('Updated'), w.updated_date),
    ...info(set, l10n.t('Expires'), w.expires_date),
    ...info(set, l10n.t('Status'), w.domain_status.join(', ')),
    ...info(set, l10n.t('Name servers'), w.name_servers.join(', ')),
    ...info(
      set,
      l10n.t('Registrant'),
      [w.registrant_contact?.company, w.registrant_contact?.country].filter(Boolean).join(', '),
    ),
    ...info(set, l10n.t('Registrant email'), w.registrant_contact?.email, w.registrant_contact?.email),
  ];
}

/** The text a "Copy" on a node puts on the clipboard. */
export function copyText(node: Node): string | undefined {
  switch (node.type) {
    case 'item': {
      const i = node.item;
      switch (i.t) {
        case 'host':
          return i.v.ip;
        case 'domain':
          return i.v.subdomain || i.v.domain;
        case 'bucket':
          return i.v.name;
        case 'cve':
          return i.v.id;
        case 'exploit':
          return i.v.id;
        case 'whois':
          return i.v.domain_name;
        case 'facet':
          return i.v.key === null ? '' : String(i.v.key);
        case 'count':
          return String(i.v);
      }
      return undefined;
    }
    case 'cve':
      return node.cve.id;
    case 'exploit':
      return node.exploit.url ?? node.exploit.id;
    case 'service':
      return `${node.host.ip}:${node.service.port}`;
    case 'info':
      return node.copy ?? node.value;
    case 'set':
      return describeSpec(node.set.spec);
    case 'error':
      return node.set.error?.message;
    case 'note':
      return node.text;
    default:
      return undefined;
  }
}
