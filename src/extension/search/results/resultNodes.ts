/**
 * The results tree as plain data: which nodes a result set has, and how each one looks
 * (label, description, icon, context value, click command). No VS Code here: the tree
 * provider turns a `NodeView` into a `TreeItem`, and the bench times this module in plain
 * Node. Every API string passes `neutraliseUiText` (a `$(icon)` in a banner must not
 * render as an icon in a tree label).
 */
import {
  SEVERITY_RANK,
  type Bucket,
  type Cve,
  type DomainRecord,
  type Exploit,
  type Host,
  type Service,
  type Severity,
  type WhoisRecord,
} from '../../../api/types';
import type { ResultItem } from '../../../core/resultItem';
import { KINDS, describeSpec, type SearchKind } from '../../../core/savedSearches';
import { neutraliseUiText } from '../../../core/text';
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

export interface IconView {
  id: string;
  /** A theme colour id (`errorForeground`, `charts.orange`, ...). */
  color?: string;
}

export interface CommandView {
  command: string;
  title: string;
  arguments: unknown[];
}

export interface NodeView {
  label: string;
  description?: string;
  tooltip?: string;
  icon?: IconView;
  collapsible: 'none' | 'collapsed' | 'expanded';
  contextValue?: string;
  command?: CommandView;
  id?: string;
}

export interface ViewOptions {
  /** The set shown expanded (the current one). */
  currentId?: string;
  /** `odin.openHostDetails` / `odin.openWhoisDetails` are registered (the details page exists). */
  detailsAvailable?: boolean;
}

const t = (s: string | undefined, max = 200): string => (s ? neutraliseUiText(s, max) : '');
const fmt = (n: number): string => n.toLocaleString('en-US');

/** Severity rank for sorting, most severe highest; strings outside the set rank below all. */
const rank = (severity: string): number => SEVERITY_RANK[severity as Severity] ?? -1;

export function severityIcon(severity: string): IconView {
  switch (severity) {
    case 'CRITICAL':
      return { id: 'error', color: 'errorForeground' };
    case 'HIGH':
      return { id: 'warning', color: 'errorForeground' };
    case 'MEDIUM':
      return { id: 'warning', color: 'editorWarning.foreground' };
    case 'LOW':
      return { id: 'info', color: 'editorInfo.foreground' };
    default:
      return { id: 'circle-outline', color: 'descriptionForeground' };
  }
}

export function sortCves(cves: readonly Cve[]): Cve[] {
  return cves
    .slice()
    .sort(
      (a, b) =>
        rank(b.severity) - rank(a.severity) ||
        (b.score ?? -1) - (a.score ?? -1) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
}

function worstOf(cves: readonly Cve[], best?: string): string | undefined {
  for (const c of cves) if (best === undefined || rank(c.severity) > rank(best)) best = c.severity;
  return best;
}

function worstSeverity(host: Host): string | undefined {
  let best: string | undefined;
  for (const s of host.services) best = worstOf(s.cve, best);
  return best;
}

const KIND_ICON: Record<SearchKind, string> = {
  hosts: 'server-environment',
  hostSummary: 'graph',
  host: 'server',
  hostCves: 'bug',
  hostExploits: 'flame',
  hostCve: 'bug',
  domains: 'globe',
  domainCount: 'symbol-number',
  subdomainCount: 'symbol-number',
  whois: 'book',
  whoisHistory: 'history',
  buckets: 'database',
  fileCount: 'symbol-number',
  fileSummary: 'graph',
};

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
  else if (set.done && set.total !== undefined && set.items.length < set.total && isPaged(set)) {
    // Nothing silently truncated: say why the list ends before the total.
    out.push({
      type: 'note',
      set,
      text: `${fmt(set.items.length)} of ${fmt(set.total)} shown: the service returns no further pages for this search. Narrow the query to see the rest.`,
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
  return (
    set.spec.kind === 'hosts' ||
    set.spec.kind === 'buckets' ||
    set.spec.kind === 'domains' ||
    set.spec.kind === 'hostCves'
  );
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
        ...info(set, 'ASN', [h.asn?.number, h.asn?.organization].filter(Boolean).join(' '), h.asn?.number),
        ...info(
          set,
          'Location',
          [h.location?.city, h.location?.country_name ?? h.location?.country_code].filter(Boolean).join(', '),
        ),
        ...info(set, 'Hostnames', h.hostnames.map((n) => n.name).join(', ')),
        ...info(
          set,
          'Domains',
          h.domains
            .map((d) => d.name)
            .filter(Boolean)
            .join(', '),
        ),
        ...info(set, 'Tags', h.tags.map((x) => x.pretty_name ?? x.name).join(', ')),
        ...info(set, 'Network', h.whois?.network ?? h.location?.network),
        ...info(set, 'Last seen', h.last_updated_at),
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
        ...info(set, 'Domain', item.v.domain, item.v.domain),
        ...info(set, 'TLD', item.v.ext_dns_name?.tld),
        ...info(set, 'Added', item.v.added_at),
      ];
    default:
      return [];
  }
}

function serviceInfo(set: ResultSet, s: Service): Node[] {
  const title = s.modules.http?.title;
  return [
    ...info(set, 'Product', [s.product, s.version].filter(Boolean).join(' ')),
    ...info(set, 'Title', typeof title === 'string' ? title : undefined),
    ...info(set, 'Banner', s.banner),
    ...info(set, 'URL', s.url, s.url),
  ];
}

function cveInfo(set: ResultSet, c: Cve, ip: string | undefined): Node[] {
  return [
    ...info(set, 'Summary', c.summary),
    ...info(set, 'Score', c.score),
    ...info(set, 'Vector', c.vector_string),
    ...info(set, 'Weakness', c.weakness),
    ...c.exploit.map((exploit): Node => ({ type: 'exploit', set, ...(ip ? { ip } : {}), exploit })),
    ...c.references
      .slice(0, 20)
      .map((r): Node => ({ type: 'info', set, label: 'Reference', value: r, copy: r })),
    ...(c.references.length > 20
      ? info(set, 'References', `${c.references.length - 20} more (export to see all)`)
      : []),
  ];
}

function exploitInfo(set: ResultSet, e: Exploit): Node[] {
  return [
    ...info(set, 'Description', e.description),
    ...info(set, 'CVEs', (e.cves ?? []).join(', ')),
    ...info(set, 'Type', e.type),
    ...info(set, 'Platform', e.platform),
    ...info(set, 'URL', e.url, e.url),
  ];
}

function bucketInfo(set: ResultSet, b: Bucket): Node[] {
  const cats = Object.entries(b.file_cat_count)
    .sort((x, y) => y[1] - x[1])
    .map(([k, v]) => `${k} ${fmt(v)}`)
    .join(', ');
  return [
    ...info(set, 'Provider', [b.provider, b.region].filter(Boolean).join(' · ')),
    ...info(set, 'Open', b.open),
    ...info(set, 'Files', b.files),
    ...info(set, 'Sensitive files', b.sensitive_files),
    ...info(set, 'Labels', b.labels.join(', ')),
    ...info(set, 'Categories', cats || b.categories.join(', ')),
    ...info(set, 'First indexed', b.ins_at),
    ...info(set, 'Last scanned', b.scan_at),
    ...info(set, 'Last found', b.last_found_at),
  ];
}

function whoisInfo(set: ResultSet, w: WhoisRecord): Node[] {
  return [
    ...info(set, 'Registrar', w.registrar?.name),
    ...info(set, 'Created', w.created_date),
    ...info(set, 'Updated', w.updated_date),
    ...info(set, 'Expires', w.expires_date),
    ...info(set, 'Status', w.domain_status.join(', ')),
    ...info(set, 'Name servers', w.name_servers.join(', ')),
    ...info(
      set,
      'Registrant',
      [w.registrant_contact?.company, w.registrant_contact?.country].filter(Boolean).join(', '),
    ),
    ...info(set, 'Registrant email', w.registrant_contact?.email, w.registrant_contact?.email),
  ];
}

// ---------------------------------------------------------------- views

export function view(node: Node, opts: ViewOptions = {}): NodeView {
  const set = node.set;
  switch (node.type) {
    case 'set': {
      const stateText =
        set.status === 'loading' && set.pages === 0
          ? 'loading…'
          : set.status === 'error' && set.pages === 0
            ? 'failed'
            : countDescription(set);
      return {
        id: set.id,
        label: t(setTitle(set)),
        description: stateText,
        tooltip: `${t(setTitle(set), 1000)}\n${stateText}`,
        icon: { id: KIND_ICON[set.spec.kind] },
        collapsible: set.id === opts.currentId ? 'expanded' : 'collapsed',
        contextValue: 'odin.resultSet',
      };
    }
    case 'item':
      return cachedItemView(set, node.item, opts);
    case 'service': {
      const s = node.service;
      const product = [s.product, s.version].filter(Boolean).join(' ');
      const cves = s.cve.length ? `${s.cve.length} CVE${s.cve.length === 1 ? '' : 's'}` : '';
      const sev = worstOf(s.cve);
      return {
        label: `${s.port}/${t(s.protocol ?? 'tcp', 20)}${s.name ? ` ${t(s.name, 40)}` : ''}`,
        description: [t(product, 80), cves].filter(Boolean).join(' · '),
        tooltip:
          [product, s.extra_info, s.url]
            .filter(Boolean)
            .map((x) => t(x, 300))
            .join('\n') || undefined,
        icon: sev ? { id: 'plug', color: severityIcon(sev).color } : { id: 'plug' },
        collapsible: s.cve.length || product || s.banner || s.url ? 'collapsed' : 'none',
        contextValue: 'odin.service',
      };
    }
    case 'cve':
      return cveView(node.cve);
    case 'exploit':
      return {
        label: t(node.exploit.id, 80),
        description: t([node.exploit.type, node.exploit.platform].filter(Boolean).join(' · '), 80),
        tooltip: t(node.exploit.description ?? node.exploit.id, 1000),
        icon: { id: 'flame', color: 'errorForeground' },
        collapsible: 'collapsed',
        contextValue: 'odin.exploit',
      };
    case 'info':
      return {
        label: t(node.label, 60),
        description: t(node.value, 300),
        tooltip: t(node.value, 2000),
        collapsible: 'none',
        contextValue: 'odin.value',
      };
    case 'more': {
      const shown = countDescription(set);
      return {
        label: `Load ${fmt(set.pageSize)} more`,
        description: `${shown} shown`,
        tooltip: `${shown} shown. Click to load the next page; use "Load All Results" from the context menu for every page.`,
        icon: { id: 'fold-down' },
        collapsible: 'none',
        contextValue: 'odin.loadMore',
        command: { command: 'odin.loadMore', title: 'Load More Results', arguments: [set.id] },
      };
    }
    case 'loading':
      return {
        label: set.pages === 0 ? 'Loading…' : `Loading page ${set.pages + 1}…`,
        description: set.pages ? `${countDescription(set)} shown` : '',
        icon: { id: 'loading~spin' },
        collapsible: 'none',
        contextValue: 'odin.loading',
      };
    case 'error': {
      const message = t(set.error?.message ?? 'The request failed.', 300);
      return {
        label: message,
        description: set.pages ? `${countDescription(set)} kept · click to retry` : 'click to retry',
        tooltip: `${t(set.error?.message ?? '', 1000)}\nClick to retry${set.pages ? ' the next page' : ''}.`,
        icon: { id: 'error', color: 'errorForeground' },
        collapsible: 'none',
        contextValue: 'odin.error',
        command: { command: 'odin.retry', title: 'Retry', arguments: [set.id] },
      };
    }
    case 'empty':
      return {
        label: 'No results',
        description: t(describeSpec(set.spec), 100),
        icon: { id: 'info' },
        collapsible: 'none',
        contextValue: 'odin.empty',
      };
    case 'note':
      return {
        label: t(node.text, 300),
        tooltip: t(node.text, 1000),
        icon: { id: 'info' },
        collapsible: 'none',
        contextValue: 'odin.note',
      };
  }
}

/**
 * Item views are cached per item (records do not change once loaded): a refresh of a set
 * with thousands of rows, which VS Code answers by asking for every row again, then costs
 * a lookup per row instead of re-describing hosts with hundreds of services.
 */
const itemViews = new WeakMap<ResultItem, { details: boolean; view: NodeView }>();

function cachedItemView(set: ResultSet, item: ResultItem, opts: ViewOptions): NodeView {
  const details = !!opts.detailsAvailable;
  const hit = itemViews.get(item);
  if (hit && hit.details === details) return hit.view;
  const v = itemView(set, item, opts);
  itemViews.set(item, { details, view: v });
  return v;
}

/** "25 of 10,000" plus "(cancelled)" when the last load was cancelled. */
export function countDescription(set: ResultSet): string {
  return `${set.countText()}${set.cancelled ? ' (cancelled)' : ''}`;
}

function cveView(c: Cve): NodeView {
  return {
    label: t(c.id, 40),
    description: [
      c.severity === 'UNKNOWN' ? '' : c.severity,
      c.score !== undefined ? String(c.score) : '',
      c.exploit.length ? `${c.exploit.length} exploit${c.exploit.length === 1 ? '' : 's'}` : '',
    ]
      .filter(Boolean)
      .join(' · '),
    tooltip: t(c.summary ?? c.id, 1000),
    icon: severityIcon(c.severity),
    collapsible:
      c.summary || c.exploit.length || c.references.length || c.score !== undefined ? 'collapsed' : 'none',
    contextValue: 'odin.cve',
  };
}

function itemView(set: ResultSet, item: ResultItem, opts: ViewOptions): NodeView {
  switch (item.t) {
    case 'host':
      return hostView(item.v, opts);
    case 'domain':
      return domainView(item.v);
    case 'bucket': {
      const b = item.v;
      return {
        label: t(b.name, 120),
        description: t(
          [
            b.provider,
            b.region,
            b.files !== undefined ? `${fmt(b.files)} files` : '',
            b.labels.length ? b.labels.join(', ') : '',
          ]
            .filter(Boolean)
            .join(' · '),
          150,
        ),
        tooltip: t(`${b.name}\n${b.provider ?? ''} ${b.region ?? ''}`, 500),
        icon: b.sensitive_files ? { id: 'database', color: 'errorForeground' } : { id: 'database' },
        collapsible: 'collapsed',
        contextValue: 'odin.bucket',
      };
    }
    case 'cve':
      return cveView(item.v);
    case 'exploit':
      return {
        label: t(item.v.id, 80),
        description: t(
          [(item.v.cves ?? []).join(', '), item.v.type, item.v.platform].filter(Boolean).join(' · '),
          120,
        ),
        tooltip: t(item.v.description ?? item.v.id, 1000),
        icon: { id: 'flame', color: 'errorForeground' },
        collapsible: 'collapsed',
        contextValue: 'odin.exploit',
      };
    case 'whois': {
      const w = item.v;
      return {
        label: t(w.domain_name, 120),
        description: t(
          [
            w.registrar?.name,
            w.updated_date ? `updated ${w.updated_date}` : '',
            w.expires_date ? `expires ${w.expires_date}` : '',
          ]
            .filter(Boolean)
            .join(' · '),
          150,
        ),
        tooltip: t(w.domain_name, 300),
        icon: { id: 'book' },
        collapsible: 'collapsed',
        contextValue: 'odin.whois',
        ...(opts.detailsAvailable
          ? {
              command: {
                command: 'odin.openWhoisDetails',
                title: 'Open Whois Details',
                arguments: [w.domain_name],
              },
            }
          : {}),
      };
    }
    case 'facet': {
      const key = item.v.key === null ? '(none)' : String(item.v.key);
      return {
        label: t(key, 150),
        description: fmt(item.v.doc_count),
        tooltip: `${t(item.field, 100)} = ${t(key, 300)}: ${fmt(item.v.doc_count)}\nClick to narrow the search to this value.`,
        icon: { id: 'filter' },
        collapsible: 'none',
        contextValue: 'odin.facet',
        command: {
          command: 'odin.narrowByFacet',
          title: 'Narrow Search to This Value',
          arguments: [set.id, item.field, item.v.key],
        },
      };
    }
    case 'count':
      return {
        label: `${t(item.label, 100)}: ${fmt(item.v)}`,
        icon: { id: 'symbol-number' },
        collapsible: 'none',
        contextValue: 'odin.count',
      };
  }
}

function hostView(h: Host, opts: ViewOptions): NodeView {
  const ports = h.services.map((s) => s.port).sort((a, b) => a - b);
  const portText =
    ports.length > 6 ? `${ports.slice(0, 6).join(', ')} +${ports.length - 6}` : ports.join(', ');
  const cveCount = new Set(h.services.flatMap((s) => s.cve.map((c) => c.id))).size;
  const worst = worstSeverity(h);
  const desc = [
    portText,
    h.asn?.organization ?? h.asn?.number,
    h.location?.country_code,
    cveCount ? `${cveCount} CVE${cveCount === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return {
    label: t(h.ip, 60),
    description: t(desc.join(' · '), 150),
    tooltip: t(
      [
        h.ip,
        h.asn ? `${h.asn.number ?? ''} ${h.asn.organization ?? ''}` : '',
        h.location?.country_name ?? '',
        h.last_updated_at ? `last seen ${h.last_updated_at}` : '',
      ]
        .filter((x) => x.trim())
        .join(' — '),
      600,
    ),
    icon: worst ? { id: 'server', color: severityIcon(worst).color } : { id: 'server' },
    collapsible: 'collapsed',
    contextValue: 'odin.host',
    ...(opts.detailsAvailable
      ? { command: { command: 'odin.openHostDetails', title: 'Open Host Details', arguments: [h.ip] } }
      : {}),
  };
}

function domainView(d: DomainRecord): NodeView {
  const name = d.subdomain && d.subdomain !== d.domain ? d.subdomain : d.domain;
  return {
    label: t(name, 200),
    description: t(
      [name !== d.domain ? d.domain : '', d.added_at ? `added ${d.added_at.slice(0, 10)}` : '']
        .filter(Boolean)
        .join(' · '),
      120,
    ),
    tooltip: t(name, 300),
    icon: { id: 'globe' },
    collapsible: 'collapsed',
    contextValue: 'odin.domain',
  };
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
