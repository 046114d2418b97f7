/**
 * The host details page: summary, services (banners on demand), CVEs (sortable, paged),
 * exploits, hostnames, domains and the network's whois. DOM APIs only.
 */
import type { IconName } from './icons';
import { SEVERITY_RANK, type CveView, type ExploitView, type HostView } from '../common/protocol';
import { compareIds, compareRisk, type Risk } from '../core/exploitation/order';
import { epssText, kevText } from '../core/exploitation/text';
import type { PageContext } from './context';
import { domains, hostnames, whois } from './hostFacts';
import { ServicesSection } from './hostServices';
import { linkText } from './links';
import { button, chips, clear, dl, gridTable, h, icon, navigableRows, section } from './dom';
import { l10n } from '../core/text/l10n';

/** A CVE's place in the one ordering rule (core/exploitation/order.ts). */
function risk(c: CveView): Risk {
  const r: Risk = { kev: c.kev !== undefined };
  if (c.kev?.ransomware) r.ransomware = true;
  if (c.epss) r.epss = c.epss.epss;
  if (c.score !== undefined) r.cvss = c.score;
  return r;
}

/** By id (the one tie-break, core/exploitation/order.ts); the collator's first use cost ~10 ms of the first render. */
function byId(a: CveView, b: CveView): number {
  return compareIds(a.id, b.id);
}

type SortKey = 'risk' | 'epss' | 'score' | 'severity' | 'id';

export class HostPage {
  private host: HostView | undefined;
  private cves: CveView[] = [];
  private moreCves = false;
  private cvesError: string | undefined;
  private exploits: ExploitView[] = [];
  private exploitsError: string | undefined;
  private exploitsLoaded = false;
  // Default: the one rule of core/exploitation (known exploited, then EPSS, then CVSS).
  private sort: { key: SortKey; desc: boolean } = { key: 'risk', desc: true };
  private cveSlot = h('div', { class: 'slot' });
  private exploitSlot = h('div', { class: 'slot' });
  private cveCount = h('span', { class: 'count-badge' });
  private exploitCount = h('span', { class: 'count-badge' });

  private readonly servicesSection: ServicesSection;

  constructor(
    private readonly root: HTMLElement,
    private readonly ctx: PageContext,
  ) {
    this.servicesSection = new ServicesSection(ctx);
  }

  reset(): void {
    this.host = undefined;
  }

  showHost(host: HostView): void {
    const started = performance.now();
    this.host = host;
    this.cves = host.cves;
    this.moreCves = false;
    this.cvesError = undefined;
    this.exploits = [];
    this.exploitsLoaded = false;
    this.exploitsError = undefined;
    clear(this.root);
    this.root.appendChild(this.header(host));
    this.root.appendChild(this.summary(host));
    this.root.appendChild(
      section(l10n.t('Services'), host.services.length, () => this.servicesSection.render(host.services), {
        id: 'services',
      }),
    );
    if (host.hostBanners.length) {
      this.root.appendChild(
        section(
          l10n.t('Host banners'),
          host.hostBanners.length,
          () => this.servicesSection.hostBanners(host.hostBanners),
          {
            id: 'host-banners',
            expanded: false,
          },
        ),
      );
    }
    this.cveSlot = h('div', { class: 'slot' });
    this.root.appendChild(
      section(l10n.t('Vulnerabilities (CVEs)'), undefined, () => this.cveSlot, {
        id: 'cves',
        extra: this.cveCount,
      }),
    );
    this.exploitSlot = h('div', { class: 'slot' });
    this.root.appendChild(
      section(l10n.t('Exploits'), undefined, () => this.exploitSlot, {
        id: 'exploits',
        extra: this.exploitCount,
      }),
    );
    this.renderCves();
    this.renderExploits();
    this.root.appendChild(
      section(l10n.t('Hostnames'), host.hostnames.length, () => hostnames(host), {
        id: 'hostnames',
        expanded: host.hostnames.length > 0,
      }),
    );
    this.root.appendChild(
      section(l10n.t('Domains'), host.domains.length, () => domains(host), {
        id: 'domains',
        expanded: host.domains.length > 0,
      }),
    );
    this.root.appendChild(section(l10n.t('Network whois'), undefined, () => whois(host), { id: 'whois' }));
    this.report(started);
  }

  showCves(cves: CveView[], more: boolean, error: string | undefined): void {
    const started = performance.now();
    this.cves = cves;
    this.moreCves = more;
    this.cvesError = error;
    this.renderCves();
    this.report(started);
  }

  showExploits(exploits: ExploitView[], error: string | undefined): void {
    const started = performance.now();
    this.exploits = exploits;
    this.exploitsError = error;
    this.exploitsLoaded = true;
    this.renderExploits();
    this.report(started);
  }

  private report(started: number): void {
    const host = this.host;
    this.ctx.rendered(
      {
        services: host?.services.length ?? 0,
        cves: this.cves.length,
        exploits: this.exploits.length,
        hostnames: host?.hostnames.length ?? 0,
        domains: host?.domains.length ?? 0,
      },
      started,
    );
  }

  // ---------------------------------------------------------------- header and summary

  private header(host: HostView): HTMLElement {
    const action = (
      label: string,
      iconName: IconName,
      a: 'refresh' | 'copyJson' | 'openJson' | 'export' | 'searchSimilar',
    ) => button(label, iconName, () => this.ctx.post({ type: 'action', action: a }));
    const badges = h('div', { class: 'badges' });
    if (host.isVuln)
      badges.appendChild(
        h('span', { class: 'badge badge-vuln' }, icon('warning'), ' ', l10n.t('Vulnerable')),
      );
    if (host.asn) badges.appendChild(h('span', { class: 'badge' }, host.asn));
    const sub = [host.organization, host.location].filter((x): x is string => !!x);
    return h(
      'header',
      { class: 'page-header' },
      h('div', { class: 'title-row' }, h('h1', null, icon('server'), ' ', host.ip), badges),
      sub.length ? h('p', { class: 'subtitle' }, sub.join(' · ')) : null,
      h(
        'div',
        { class: 'toolbar', role: 'toolbar', attrs: { 'aria-label': l10n.t('Host actions') } },
        action(l10n.t('Refresh'), 'refresh', 'refresh'),
        action(l10n.t('Copy JSON'), 'copy', 'copyJson'),
        action(l10n.t('Open JSON'), 'json', 'openJson'),
        action(l10n.t('Export…'), 'save', 'export'),
        action(l10n.t('Search Similar'), 'search', 'searchSimilar'),
      ),
    );
  }

  private summary(host: HostView): HTMLElement {
    return h(
      'div',
      { class: 'summary' },
      dl([
        ['IP', host.ip],
        [l10n.t('Organisation'), host.organization],
        ['ASN', [host.asn, host.asnCountry ? ` (${host.asnCountry})` : undefined]],
        [l10n.t('Network'), host.network],
        [l10n.t('Location'), host.location],
        [l10n.t('Tags'), chips(host.tags)],
        [l10n.t('Modules'), chips(host.modules, 'chip chip-muted')],
        [
          l10n.t('Vulnerable'),
          host.isVuln === undefined ? undefined : host.isVuln ? l10n.t('yes') : l10n.t('no'),
        ],
        ...host.dates.map((d): [string, string] => [d.label, d.value]),
        [l10n.t('Not kept'), host.notKept],
      ]),
    );
  }

  // ---------------------------------------------------------------- CVEs

  private sortedCves(): CveView[] {
    const { key, desc } = this.sort;
    const dir = desc ? -1 : 1;
    const score = (c: CveView): number => c.score ?? -1;
    const risks = key === 'risk' ? new Map(this.cves.map((c) => [c, risk(c)])) : undefined;
    return [...this.cves].sort((a, b) => {
      let d = 0;
      if (risks)
        d =
          compareRisk(risks.get(b)!, risks.get(a)!) || SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity];
      else if (key === 'epss') d = (a.epss?.epss ?? -1) - (b.epss?.epss ?? -1) || score(a) - score(b);
      else if (key === 'score')
        d = score(a) - score(b) || SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity];
      else if (key === 'severity')
        d = SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || score(a) - score(b);
      else d = byId(a, b);
      return d * dir || byId(a, b);
    });
  }

  private renderCves(): void {
    const slot = this.cveSlot;
    clear(slot);
    this.cveCount.textContent = `${this.cves.length}${this.moreCves ? '+' : ''}`;
    if (this.cvesError)
      slot.appendChild(
        h('p', { class: 'error', role: 'alert' }, l10n.t('CVE lookup failed: {0}', this.cvesError)),
      );
    if (this.cves.length === 0) {
      slot.appendChild(
        h('p', { class: 'empty' }, this.cvesError ? '' : l10n.t('No CVEs are listed for this host.')),
      );
      return;
    }
    const table = h('table', { class: 'grid cve-table' }, this.cveTableHead());
    const tbody = h('tbody');
    for (const c of this.sortedCves()) tbody.append(...this.cveRows(c));
    table.appendChild(tbody);
    navigableRows(tbody);
    slot.appendChild(h('div', { class: 'table-scroll' }, table));
    if (this.moreCves) slot.appendChild(h('div', { class: 'more' }, this.moreCvesButton()));
  }

  /** A column header that sorts by `key` (again: the other way) and keeps the focus on it. */
  private cveHeader(label: string, key: SortKey): HTMLElement {
    const active = this.sort.key === key;
    const th = h('th', {
      attrs: { scope: 'col', 'aria-sort': active ? (this.sort.desc ? 'descending' : 'ascending') : 'none' },
    });
    th.appendChild(
      h(
        'button',
        {
          class: 'sort-button',
          attrs: { type: 'button' },
          title: l10n.t('Sort by {0}', label),
          onClick: () => {
            this.sort = { key, desc: active ? !this.sort.desc : key !== 'id' };
            this.renderCves();
            (this.cveSlot.querySelector(`th[data-key="${key}"] button`) as HTMLElement | null)?.focus();
          },
        },
        label,
        active ? icon(this.sort.desc ? 'arrow-down' : 'arrow-up') : null,
      ),
    );
    th.dataset.key = key;
    return th;
  }

  private cveTableHead(): HTMLElement {
    return h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { class: 'col-toggle', attrs: { scope: 'col' } }, ''),
        this.cveHeader('CVE', 'id'),
        this.cveHeader(l10n.t('Severity'), 'severity'),
        this.cveHeader(l10n.t('Score'), 'score'),
        this.cveHeader('KEV', 'risk'),
        this.cveHeader('EPSS', 'epss'),
        h('th', { attrs: { scope: 'col' } }, l10n.t('Summary')),
        h('th', { attrs: { scope: 'col' } }, l10n.t('Ports')),
        h('th', { attrs: { scope: 'col' } }, l10n.t('Exploits')),
      ),
    );
  }

  /** A CVE's row and its detail row, hidden and built on first open. */
  private cveRows(c: CveView): [HTMLElement, HTMLElement] {
    const detailCell = h('td', { attrs: { colspan: '9' } });
    const detail = h('tr', { class: 'detail-row', hidden: true }, detailCell);
    const row = h('tr', { class: 'row', tabIndex: -1, data: { cve: c.id } });
    let built = false;
    const toggle = h(
      'button',
      {
        class: 'icon-button',
        attrs: { type: 'button', 'aria-expanded': 'false', 'aria-label': l10n.t('Details of {0}', c.id) },
        onClick: (e) => {
          e.stopPropagation();
          const open = toggle.getAttribute('aria-expanded') !== 'true';
          toggle.setAttribute('aria-expanded', String(open));
          toggle.replaceChildren(icon(open ? 'chevron-down' : 'chevron-right'));
          detail.hidden = !open;
          if (open && !built) {
            built = true;
            detailCell.appendChild(this.cveDetail(c));
          }
        },
      },
      icon('chevron-right'),
    );
    const summary = c.summary ?? (c.source === 'host' ? l10n.t('Details load from the CVE endpoint…') : '');
    append(
      row,
      h('td', { class: 'col-toggle' }, toggle),
      h('td', { class: 'nowrap' }, c.id),
      h('td', null, h('span', { class: `sev sev-${c.severity.toLowerCase()}` }, c.severity)),
      h('td', { class: 'num' }, c.score !== undefined ? c.score.toFixed(1) : '–'),
      h(
        'td',
        { class: 'nowrap', title: c.kev ? kevText(c.kev) : '' },
        c.kev ? (c.kev.ransomware ? l10n.t('KEV · ransomware') : l10n.t('KEV {0}', c.kev.added)) : '',
      ),
      h(
        'td',
        { class: 'num', title: c.epss ? epssText(c.epss) : '' },
        c.epss ? `${(c.epss.epss * 100).toFixed(c.epss.epss >= 0.1 ? 1 : 2)}%` : '',
      ),
      h('td', { class: 'wrap summary-cell' }, summary.length > 240 ? `${summary.slice(0, 240)}…` : summary),
      h('td', null, c.services.join(', ')),
      h('td', { class: 'num' }, c.exploits.length ? String(c.exploits.length) : ''),
    );
    return [row, detail];
  }

  /** "Load more CVEs": asks the extension for the next page and draws the table again. */
  private moreCvesButton(): HTMLButtonElement {
    const more = button(l10n.t('Load more CVEs'), 'fold-down', () => {
      more.disabled = true;
      more.replaceChildren(icon('loading'), h('span', null, l10n.t('Loading…')));
      const started = performance.now();
      this.ctx.requests.request('moreCves', {}).then(
        (r) => {
          this.cves = r.cves;
          this.moreCves = r.more;
          this.cvesError = undefined;
          this.renderCves();
          this.report(started);
        },
        (err: unknown) => {
          this.cvesError = err instanceof Error ? err.message : String(err);
          this.renderCves();
        },
      );
    });
    return more;
  }

  private cveDetail(c: CveView): Node {
    const box = h('div', { class: 'cve-detail' });
    box.appendChild(
      h(
        'div',
        { class: 'inline-actions' },
        button(l10n.t('Copy CVE id'), 'copy', () => this.ctx.post({ type: 'copyCve', cveId: c.id })),
      ),
    );
    box.appendChild(
      dl([
        [l10n.t('Summary'), c.summary ? h('span', { class: 'prose' }, c.summary) : undefined],
        [l10n.t('Vector'), c.vector],
        [l10n.t('Weakness'), c.weakness],
        [l10n.t('Ports'), c.services.join(', ')],
      ]),
    );
    if (c.references.length) {
      box.appendChild(h('h3', null, l10n.t('References ({0})', c.references.length)));
      box.appendChild(
        h(
          'ul',
          { class: 'refs' },
          ...c.references.map((r, i) =>
            h('li', null, linkText(this.ctx, r, { kind: 'reference', cveId: c.id, refIndex: i })),
          ),
        ),
      );
    }
    if (c.exploits.length) {
      box.appendChild(h('h3', null, l10n.t('Exploits ({0})', c.exploits.length)));
      box.appendChild(this.exploitTable(c.exploits));
    }
    return box;
  }

  // ---------------------------------------------------------------- exploits

  private renderExploits(): void {
    const slot = this.exploitSlot;
    clear(slot);
    this.exploitCount.textContent = this.exploitsLoaded ? String(this.exploits.length) : '…';
    if (this.exploitsError) {
      slot.appendChild(
        h('p', { class: 'error', role: 'alert' }, l10n.t('Exploit lookup failed: {0}', this.exploitsError)),
      );
      return;
    }
    if (!this.exploitsLoaded) {
      slot.appendChild(h('p', { class: 'status' }, l10n.t('Loading exploits…')));
      return;
    }
    if (this.exploits.length === 0) {
      slot.appendChild(h('p', { class: 'empty' }, l10n.t('No public exploits are listed for this host.')));
      return;
    }
    slot.appendChild(this.exploitTable(this.exploits));
  }

  private exploitTable(exploits: ExploitView[]): HTMLElement {
    const tbody = h('tbody');
    for (const e of exploits) {
      tbody.appendChild(
        h(
          'tr',
          { class: 'row', tabIndex: -1 },
          h('td', { class: 'nowrap' }, e.id),
          h('td', { class: 'wrap' }, e.description ?? ''),
          h('td', null, e.platform ?? ''),
          h('td', null, e.type ?? ''),
          h('td', { class: 'wrap' }, e.cves.join(', ')),
          h(
            'td',
            { class: 'wrap' },
            e.url ? linkText(this.ctx, e.url, { kind: 'exploit', exploitId: e.id }) : (e.file ?? ''),
          ),
        ),
      );
    }
    navigableRows(tbody);
    return gridTable(
      ['ID', l10n.t('Description'), l10n.t('Platform'), l10n.t('Type'), 'CVEs', l10n.t('Link / file')],
      tbody,
    );
  }
}

function append(el: HTMLElement, ...children: Node[]): void {
  for (const c of children) el.appendChild(c);
}
