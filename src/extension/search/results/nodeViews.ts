/**
 * How each node of the results tree looks (label, description, icon, context value, click
 * command), as plain data: no VS Code here (resultsView.ts turns a `NodeView` into a
 * `TreeItem`). Every API string passes `neutraliseUiText` (a `$(icon)` in a banner must not
 * render as an icon in a tree label).
 */
import type { Cve, DomainRecord, Host, Service } from '../../../api/types';
import type { ExploitationView } from '../../../core/exploitation/host';
import { epssText, kevText } from '../../../core/exploitation/text';
import type { ResultItem } from '../../../core/results/resultItem';
import { mapModeOf } from '../../../core/map/mapModel';
import { describeSpec, isSummary, KINDS, summaryOf } from '../../../core/search';
import { neutraliseUiText } from '../../../core/text/inert';
import { l10n } from '../../../core/text/l10n';
import { nodeContext } from '../../../core/results/nodeMenus';
import { fmt, rank, setTitle, type Node } from './resultNodes';
import type { ResultSet } from './resultSet';
import type { IconView, NodeView } from './viewTypes';

export interface ViewOptions {
  /** The set shown expanded (the current one). */
  currentId?: string;
  /** `odin.openHostDetails` / `odin.openWhoisDetails` are registered (the details page exists). */
  detailsAvailable?: boolean;
  /** The KEV and EPSS feeds: a CVE node leads with its exploitation signal. */
  exploitation?: ExploitationView;
}
const t = (s: string | undefined, max = 200): string => (s ? neutraliseUiText(s, max) : '');

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
function worstOf(cves: readonly Cve[], best?: string): string | undefined {
  for (const c of cves) if (best === undefined || rank(c.severity) > rank(best)) best = c.severity;
  return best;
}

function worstSeverity(host: Host): string | undefined {
  let best: string | undefined;
  for (const s of host.services) best = worstOf(s.cve, best);
  return best;
}

/**
 * A set node's context value (its kind and capabilities, nodeMenus.ts), which the menus of
 * package.json read: `odin.summarySet` for a summary (it also offers "Change Facet Count…"),
 * `odin.resultSet` for any other set, each with a suffix where the set shows on a map
 * (`mapModeOf`): `odin.resultSet.hosts` (a host search: "Show Result Set on Map") and
 * `odin.summarySet.countries` (a summary by country: "Show on Map"); and
 * `odin.resultSet.summarisable` for another set that can be summarised (`summaryOf`: a file
 * count). "Summarize Results By…" shows on the host search, the summarisable set and every
 * summary (each kind of summary can be summarised again; test/unit/search/setMenus.test.ts
 * holds the menu to `summaryOf`).
 */
export function setContextValue(set: Pick<ResultSet, 'spec'>): string {
  const mode = mapModeOf(set.spec);
  if (isSummary(set.spec.kind))
    return nodeContext(mode === 'countries' ? 'odin.summarySet.countries' : 'odin.summarySet');
  if (mode === 'points') return nodeContext('odin.resultSet.hosts');
  return nodeContext(summaryOf(set.spec.kind) ? 'odin.resultSet.summarisable' : 'odin.resultSet');
}

// ---------------------------------------------------------------- views

/** A result set's node: its title, state and count; expanded when it is the current set. */
function setView(set: ResultSet, opts: ViewOptions): NodeView {
  const stateText =
    set.status === 'loading' && set.pages === 0
      ? l10n.t('loading…')
      : set.status === 'error' && set.pages === 0
        ? l10n.t('failed')
        : countDescription(set);
  return {
    id: set.id,
    label: t(setTitle(set)),
    description: stateText,
    tooltip: `${t(setTitle(set), 1000)}\n${stateText}`,
    icon: { id: KINDS[set.spec.kind].icon },
    collapsible: set.id === opts.currentId ? 'expanded' : 'collapsed',
    contextValue: setContextValue(set),
  };
}

/** A service of a host: port, protocol, name, product and its CVEs' worst severity. */
function serviceView(s: Service): NodeView {
  const product = [s.product, s.version].filter(Boolean).join(' ');
  const cves = s.cve.length ? (s.cve.length === 1 ? l10n.t('1 CVE') : l10n.t('{0} CVEs', s.cve.length)) : '';
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
    collapsible: s.cve.length || product || s.banner || s.http || s.tls || s.url ? 'collapsed' : 'none',
    contextValue: nodeContext('odin.service'),
  };
}

export function view(node: Node, opts: ViewOptions = {}): NodeView {
  const set = node.set;
  switch (node.type) {
    case 'set':
      return setView(set, opts);
    case 'item':
      return cachedItemView(set, node.item, opts);
    case 'service':
      return serviceView(node.service);
    case 'cve':
      return cveView(node.cve, opts.exploitation);
    case 'exploit':
      return {
        label: t(node.exploit.id, 80),
        description: t([node.exploit.type, node.exploit.platform].filter(Boolean).join(' · '), 80),
        tooltip: t(node.exploit.description ?? node.exploit.id, 1000),
        icon: { id: 'flame', color: 'errorForeground' },
        collapsible: 'collapsed',
        contextValue: nodeContext('odin.exploit'),
      };
    case 'info':
      return {
        label: t(node.label, 60),
        description: t(node.value, 300),
        tooltip: t(node.value, 2000),
        collapsible: 'none',
        contextValue: nodeContext('odin.value'),
      };
    case 'more': {
      const shown = countDescription(set);
      return {
        label: l10n.t('Load {0} more', fmt(set.pageSize)),
        description: l10n.t('{0} shown', shown),
        tooltip: l10n.t(
          '{0} shown. Click to load the next page; use "Load All Results" from the context menu for every page.',
          shown,
        ),
        icon: { id: 'fold-down' },
        collapsible: 'none',
        contextValue: nodeContext('odin.loadMore'),
        command: { command: 'odin.loadMore', title: l10n.t('Load More Results'), arguments: [set.id] },
      };
    }
    case 'loading':
      return {
        label: set.pages === 0 ? l10n.t('Loading…') : l10n.t('Loading page {0}…', set.pages + 1),
        description: set.pages ? l10n.t('{0} shown', countDescription(set)) : '',
        icon: { id: 'loading~spin' },
        collapsible: 'none',
        contextValue: nodeContext('odin.loading'),
      };
    case 'error': {
      const message = t(set.error?.message ?? l10n.t('The request failed.'), 300);
      return {
        label: message,
        description: set.pages
          ? l10n.t('{0} kept · click to retry', countDescription(set))
          : l10n.t('click to retry'),
        tooltip: set.pages
          ? l10n.t('{0}\nClick to retry the next page.', t(set.error?.message ?? '', 1000))
          : l10n.t('{0}\nClick to retry.', t(set.error?.message ?? '', 1000)),
        icon: { id: 'error', color: 'errorForeground' },
        collapsible: 'none',
        contextValue: nodeContext('odin.error'),
        command: { command: 'odin.retry', title: l10n.t('Retry'), arguments: [set.id] },
      };
    }
    case 'empty':
      return {
        label: l10n.t('No results'),
        description: t(describeSpec(set.spec), 100),
        icon: { id: 'info' },
        collapsible: 'none',
        contextValue: nodeContext('odin.empty'),
      };
    case 'note':
      return {
        label: t(node.text, 300),
        tooltip: t(node.text, 1000),
        icon: { id: 'info' },
        collapsible: 'none',
        contextValue: nodeContext('odin.note'),
      };
  }
}

/**
 * Item views are cached per item on their set (records do not change once loaded): a
 * refresh of a set with thousands of rows, which VS Code answers by asking for every row
 * again, then costs a lookup per row instead of re-describing hosts with hundreds of services.
 */
function cachedItemView(set: ResultSet, item: ResultItem, opts: ViewOptions): NodeView {
  const details = !!opts.detailsAvailable;
  const hit = set.itemViews.get(item);
  if (hit && hit.details === details) return hit.view;
  const v = itemView(set, item, opts);
  set.itemViews.set(item, { details, view: v });
  return v;
}

/** "25 of 10,000" plus "(cancelled)" when the last load was cancelled. */
export function countDescription(set: ResultSet): string {
  return set.cancelled ? l10n.t('{0} (cancelled)', set.countText()) : set.countText();
}

function cveView(c: Cve, x?: ExploitationView): NodeView {
  const e = x?.lookup(c.id);
  const words = [e?.kev ? kevText(e.kev) : '', e?.epss ? epssText(e.epss) : ''].filter(Boolean);
  return {
    label: t(c.id, 40),
    description: [
      e?.kev ? (e.kev.ransomware ? l10n.t('KEV (ransomware)') : 'KEV') : '',
      e?.epss && e.epss.epss >= 0.01 ? `EPSS ${(e.epss.epss * 100).toFixed(1)}%` : '',
      c.severity === 'UNKNOWN' ? '' : c.severity,
      c.score !== undefined ? String(c.score) : '',
      c.exploit.length
        ? c.exploit.length === 1
          ? l10n.t('1 exploit')
          : l10n.t('{0} exploits', c.exploit.length)
        : '',
    ]
      .filter(Boolean)
      .join(' · '),
    tooltip: [...words, t(c.summary ?? c.id, 1000)].join('\n'),
    icon: severityIcon(c.severity),
    collapsible:
      c.summary || c.exploit.length || c.references.length || c.score !== undefined ? 'collapsed' : 'none',
    contextValue: nodeContext('odin.cve'),
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
            b.files !== undefined ? l10n.t('{0} files', fmt(b.files)) : '',
            b.labels.length ? b.labels.join(', ') : '',
          ]
            .filter(Boolean)
            .join(' · '),
          150,
        ),
        tooltip: t(`${b.name}\n${b.provider ?? ''} ${b.region ?? ''}`, 500),
        icon: b.sensitive_files ? { id: 'database', color: 'errorForeground' } : { id: 'database' },
        collapsible: 'collapsed',
        contextValue: nodeContext('odin.bucket'),
      };
    }
    case 'cve':
      return cveView(item.v, opts.exploitation);
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
        contextValue: nodeContext('odin.exploit'),
      };
    case 'whois': {
      const w = item.v;
      return {
        label: t(w.domain_name, 120),
        description: t(
          [
            w.registrar?.name,
            w.updated_date ? l10n.t('updated {0}', w.updated_date) : '',
            w.expires_date ? l10n.t('expires {0}', w.expires_date) : '',
          ]
            .filter(Boolean)
            .join(' · '),
          150,
        ),
        tooltip: t(w.domain_name, 300),
        icon: { id: 'book' },
        collapsible: 'collapsed',
        contextValue: nodeContext('odin.whois'),
        ...(opts.detailsAvailable
          ? {
              command: {
                command: 'odin.openWhoisDetails',
                title: l10n.t('Open Whois Details'),
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
        tooltip: l10n.t(
          '{0} = {1}: {2}\nClick to narrow the search to this value.',
          t(item.field, 100),
          t(key, 300),
          fmt(item.v.doc_count),
        ),
        icon: { id: 'filter' },
        collapsible: 'none',
        contextValue: nodeContext('odin.facet'),
        command: {
          command: 'odin.narrowByFacet',
          title: l10n.t('Narrow Search to This Value'),
          arguments: [set.id, item.field, item.v.key],
        },
      };
    }
    case 'count':
      return {
        label: `${t(item.label, 100)}: ${fmt(item.v)}`,
        icon: { id: 'symbol-number' },
        collapsible: 'none',
        contextValue: nodeContext('odin.count'),
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
        h.last_updated_at ? l10n.t('last seen {0}', h.last_updated_at) : '',
      ]
        .filter((x) => x.trim())
        .join(' — '),
      600,
    ),
    icon: worst ? { id: 'server', color: severityIcon(worst).color } : { id: 'server' },
    collapsible: 'collapsed',
    contextValue: nodeContext('odin.host'),
    ...(opts.detailsAvailable
      ? {
          command: { command: 'odin.openHostDetails', title: l10n.t('Open Host Details'), arguments: [h.ip] },
        }
      : {}),
  };
}

function domainView(d: DomainRecord): NodeView {
  const name = d.subdomain && d.subdomain !== d.domain ? d.subdomain : d.domain;
  return {
    label: t(name, 200),
    description: t(
      [name !== d.domain ? d.domain : '', d.added_at ? l10n.t('added {0}', d.added_at.slice(0, 10)) : '']
        .filter(Boolean)
        .join(' · '),
      120,
    ),
    tooltip: t(name, 300),
    icon: { id: 'globe' },
    collapsible: 'collapsed',
    contextValue: nodeContext('odin.domain'),
  };
}
