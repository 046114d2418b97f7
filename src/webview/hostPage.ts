/**
 * The host details page: summary, services (banners on demand), CVEs (sortable, paged),
 * exploits, hostnames, domains and the network's whois. DOM APIs only.
 */
import {
  BANNER_PREVIEW,
  SEVERITY_RANK,
  type CveView,
  type ExploitView,
  type HostView,
  type ServiceView,
} from '../common/protocol';
import type { PageContext } from './context';
import {
  button,
  chips,
  clear,
  dl,
  formatBytes,
  gridTable,
  h,
  icon,
  navigableRows,
  section,
  text,
} from './dom';

type SortKey = 'score' | 'severity' | 'id';

/** Service rows built before the first paint, then per batch. */
const FIRST_ROWS = 60;
const ROW_BATCH = 150;

export class HostPage {
  private host: HostView | undefined;
  private cves: CveView[] = [];
  private moreCves = false;
  private cvesError: string | undefined;
  private exploits: ExploitView[] = [];
  private exploitsError: string | undefined;
  private exploitsLoaded = false;
  private sort: { key: SortKey; desc: boolean } = { key: 'score', desc: true };
  private cveSlot = h('div', { class: 'slot' });
  private exploitSlot = h('div', { class: 'slot' });
  private cveCount = h('span', { class: 'count-badge' });
  private exploitCount = h('span', { class: 'count-badge' });

  constructor(
    private readonly root: HTMLElement,
    private readonly ctx: PageContext,
  ) {}

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
      section('Services', host.services.length, () => this.services(host.services), { id: 'services' }),
    );
    if (host.hostBanners.length) {
      this.root.appendChild(
        section('Host banners', host.hostBanners.length, () => this.hostBanners(host.hostBanners), {
          id: 'host-banners',
          expanded: false,
        }),
      );
    }
    this.cveSlot = h('div', { class: 'slot' });
    this.root.appendChild(
      section('Vulnerabilities (CVEs)', undefined, () => this.cveSlot, { id: 'cves', extra: this.cveCount }),
    );
    this.exploitSlot = h('div', { class: 'slot' });
    this.root.appendChild(
      section('Exploits', undefined, () => this.exploitSlot, { id: 'exploits', extra: this.exploitCount }),
    );
    this.renderCves();
    this.renderExploits();
    this.root.appendChild(
      section('Hostnames', host.hostnames.length, () => this.hostnames(host), {
        id: 'hostnames',
        expanded: host.hostnames.length > 0,
      }),
    );
    this.root.appendChild(
      section('Domains', host.domains.length, () => this.domains(host), {
        id: 'domains',
        expanded: host.domains.length > 0,
      }),
    );
    this.root.appendChild(section('Network whois', undefined, () => this.whois(host), { id: 'whois' }));
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
      iconName: string,
      a: 'refresh' | 'copyJson' | 'openJson' | 'export' | 'searchSimilar',
    ) => button(label, iconName, () => this.ctx.post({ type: 'action', action: a }));
    const badges = h('div', { class: 'badges' });
    if (host.isVuln)
      badges.appendChild(h('span', { class: 'badge badge-vuln' }, icon('warning'), ' Vulnerable'));
    if (host.asn) badges.appendChild(h('span', { class: 'badge' }, host.asn));
    const sub = [host.organization, host.location].filter((x): x is string => !!x);
    return h(
      'header',
      { class: 'page-header' },
      h('div', { class: 'title-row' }, h('h1', null, icon('server'), ' ', host.ip), badges),
      sub.length ? h('p', { class: 'subtitle' }, sub.join(' · ')) : null,
      h(
        'div',
        { class: 'toolbar', role: 'toolbar', attrs: { 'aria-label': 'Host actions' } },
        action('Refresh', 'refresh', 'refresh'),
        action('Copy JSON', 'copy', 'copyJson'),
        action('Open JSON', 'json', 'openJson'),
        action('Export…', 'save', 'export'),
        action('Search Similar', 'search', 'searchSimilar'),
      ),
    );
  }

  private summary(host: HostView): HTMLElement {
    return h(
      'div',
      { class: 'summary' },
      dl([
        ['IP', host.ip],
        ['Organisation', host.organization],
        ['ASN', [host.asn, host.asnCountry ? ` (${host.asnCountry})` : undefined]],
        ['Network', host.network],
        ['Location', host.location],
        ['Tags', chips(host.tags)],
        ['Modules', chips(host.modules, 'chip chip-muted')],
        ['Vulnerable', host.isVuln === undefined ? undefined : host.isVuln ? 'yes' : 'no'],
        ...host.dates.map((d): [string, string] => [d.label, d.value]),
      ]),
    );
  }

  // ---------------------------------------------------------------- services

  private services(services: ServiceView[]): Node {
    if (services.length === 0) return h('p', { class: 'empty' }, 'No services seen on this host.');
    const frag = document.createDocumentFragment();
    const filter = h('input', {
      class: 'filter',
      attrs: {
        type: 'search',
        placeholder: 'Filter services (port, name, product…)',
        'aria-label': 'Filter services',
      },
    });
    const table = h('table', { class: 'grid services-table' });
    // Fixed layout: column widths come from here, not from measuring 1,000 rows of cells.
    table.appendChild(
      h(
        'colgroup',
        null,
        ...['toggle', 'port', 'proto', 'name', 'product', 'version', 'tunnel', 'url', 'software', 'cves'].map(
          (c) => h('col', { class: `col-${c}` }),
        ),
      ),
    );
    table.appendChild(
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ...[
            '',
            'Port',
            'Protocol',
            'Name',
            'Product',
            'Version',
            'Tunnel',
            'URL / title',
            'Software',
            'CVEs',
          ].map((c, i) => h('th', { attrs: { scope: 'col' }, class: i === 0 ? 'col-toggle' : undefined }, c)),
        ),
      ),
    );
    const tbody = h('tbody');
    const searchText: string[] = [];
    const applyFilter = (): void => {
      const q = filter.value.trim().toLowerCase();
      const rows = tbody.rows;
      for (let i = 0; i < searchText.length; i++) {
        const hide = q !== '' && !searchText[i].includes(q);
        rows[2 * i].hidden = hide;
        if (hide) rows[2 * i + 1].hidden = true;
        else rows[2 * i + 1].hidden = rows[2 * i].getAttribute('aria-expanded') !== 'true';
      }
    };
    // Big hosts: the first rows now, the rest in batches after the first paint, so the page
    // is readable at once and never blocks for seconds.
    let next = 0;
    const appendRows = (count: number): void => {
      const end = Math.min(services.length, next + count);
      const batch = document.createDocumentFragment();
      for (; next < end; next++) {
        const s = services[next];
        const row = this.serviceRow(s);
        batch.appendChild(row.main);
        batch.appendChild(row.detail);
        searchText.push(
          [
            s.port,
            s.protocol,
            s.name,
            s.product,
            s.version,
            s.tunnel,
            s.url,
            s.title,
            ...s.software,
            ...s.cves,
          ]
            .filter((x) => x !== undefined)
            .join(' ')
            .toLowerCase(),
        );
      }
      tbody.appendChild(batch);
      if (next < services.length) {
        setTimeout(() => appendRows(ROW_BATCH), 0);
      } else {
        tbody.dataset.complete = 'true';
        if (filter.value) applyFilter();
      }
    };
    appendRows(FIRST_ROWS);
    table.appendChild(tbody);
    navigableRows(tbody);
    filter.addEventListener('input', applyFilter);
    frag.appendChild(filter);
    frag.appendChild(h('div', { class: 'table-scroll' }, table));
    return frag;
  }

  private serviceRow(s: ServiceView): { main: HTMLTableRowElement; detail: HTMLTableRowElement } {
    const detailCell = h('td', { attrs: { colspan: '10' } });
    const detail = h('tr', { class: 'detail-row', hidden: true }, detailCell);
    const main = h('tr', { class: 'row', tabIndex: -1, data: { service: String(s.index) } });
    main.setAttribute('aria-expanded', 'false');
    let built = false;
    const toggle = h(
      'button',
      {
        class: 'icon-button',
        title: s.bannerLength ? `Show banner (${formatBytes(s.bannerLength)})` : 'Show details',
        attrs: { type: 'button', 'aria-expanded': 'false', 'aria-label': `Details of port ${s.port}` },
        onClick: (e) => {
          e.stopPropagation();
          const open = main.getAttribute('aria-expanded') !== 'true';
          main.setAttribute('aria-expanded', String(open));
          toggle.setAttribute('aria-expanded', String(open));
          toggle.replaceChildren(icon(open ? 'chevron-down' : 'chevron-right'));
          detail.hidden = !open;
          if (open && !built) {
            built = true;
            detailCell.appendChild(this.serviceDetail(s));
          }
        },
      },
      icon('chevron-right'),
    );
    const urlCell = h('td', { class: 'wrap url-cell' });
    if (s.url) urlCell.appendChild(this.linkText(s.url, { kind: 'service', serviceIndex: s.index }));
    if (s.title) urlCell.appendChild(h('div', { class: 'muted' }, s.title));
    if (s.statusCode !== undefined) urlCell.appendChild(h('div', { class: 'muted' }, `HTTP ${s.statusCode}`));
    append(
      main,
      h('td', { class: 'col-toggle' }, toggle),
      h('td', { class: 'num' }, String(s.port)),
      h('td', null, s.protocol ?? ''),
      h('td', null, s.name ?? ''),
      h('td', { class: 'wrap' }, s.product ?? ''),
      h('td', null, s.version ?? ''),
      h('td', null, s.tunnel ?? ''),
      urlCell,
      h('td', { class: 'wrap' }, s.software.join(', ')),
      h('td', null, s.cves.length ? String(s.cves.length) : ''),
    );
    return { main, detail };
  }

  private serviceDetail(s: ServiceView): Node {
    const box = h('div', { class: 'service-detail' });
    box.appendChild(
      dl([
        ['Extra info', s.extraInfo],
        ['Last seen', s.lastUpdated],
        ['CVEs', s.cves.length ? s.cves.join(', ') : undefined],
      ]),
    );
    if (s.bannerLength === 0) {
      box.appendChild(h('p', { class: 'empty' }, 'No banner recorded for this service.'));
      return box;
    }
    box.appendChild(
      bannerBox(`Banner of port ${s.port}`, s.bannerLength, (full) =>
        this.ctx.requests.request('banner', { serviceIndex: s.index, full }),
      ),
    );
    return box;
  }

  private hostBanners(lengths: number[]): Node {
    const list = h('div', { class: 'host-banners' });
    lengths.forEach((length, index) => {
      list.appendChild(
        section(
          `Banner ${index + 1}`,
          formatBytes(length),
          () =>
            bannerBox(`Host banner ${index + 1}`, length, (full) =>
              this.ctx.requests.request('hostBanner', { index, full }),
            ),
          { expanded: false },
        ),
      );
    });
    return list;
  }

  /** A URL from scan data: text, plus copy and (confirmed) open actions carrying its id. */
  private linkText(
    url: string,
    link:
      | { kind: 'service'; serviceIndex: number }
      | { kind: 'reference'; cveId: string; refIndex: number }
      | { kind: 'exploit'; exploitId: string },
  ): HTMLElement {
    return h(
      'span',
      { class: 'link-text' },
      h('span', { class: 'url' }, url),
      button('Copy link', 'copy', () => this.ctx.post({ type: 'copyLink', link }), { iconOnly: true }),
      button(
        'Open in browser (asks first)',
        'link-external',
        () => this.ctx.post({ type: 'openLink', link }),
        {
          iconOnly: true,
        },
      ),
    );
  }

  // ---------------------------------------------------------------- CVEs

  private sortedCves(): CveView[] {
    const { key, desc } = this.sort;
    const dir = desc ? -1 : 1;
    const score = (c: CveView): number => c.score ?? -1;
    return [...this.cves].sort((a, b) => {
      let d = 0;
      if (key === 'score') d = score(a) - score(b) || SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity];
      else if (key === 'severity')
        d = SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || score(a) - score(b);
      else d = a.id.localeCompare(b.id);
      return d * dir || a.id.localeCompare(b.id);
    });
  }

  private renderCves(): void {
    const slot = this.cveSlot;
    clear(slot);
    this.cveCount.textContent = `${this.cves.length}${this.moreCves ? '+' : ''}`;
    if (this.cvesError)
      slot.appendChild(h('p', { class: 'error', role: 'alert' }, `CVE lookup failed: ${this.cvesError}`));
    if (this.cves.length === 0) {
      slot.appendChild(h('p', { class: 'empty' }, this.cvesError ? '' : 'No CVEs are listed for this host.'));
      return;
    }
    const header = (label: string, key: SortKey): HTMLElement => {
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
            title: `Sort by ${label.toLowerCase()}`,
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
    };
    const table = h(
      'table',
      { class: 'grid cve-table' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { class: 'col-toggle', attrs: { scope: 'col' } }, ''),
          header('CVE', 'id'),
          header('Severity', 'severity'),
          header('Score', 'score'),
          h('th', { attrs: { scope: 'col' } }, 'Summary'),
          h('th', { attrs: { scope: 'col' } }, 'Ports'),
          h('th', { attrs: { scope: 'col' } }, 'Exploits'),
        ),
      ),
    );
    const tbody = h('tbody');
    for (const c of this.sortedCves()) {
      const detailCell = h('td', { attrs: { colspan: '7' } });
      const detail = h('tr', { class: 'detail-row', hidden: true }, detailCell);
      const row = h('tr', { class: 'row', tabIndex: -1, data: { cve: c.id } });
      let built = false;
      const toggle = h(
        'button',
        {
          class: 'icon-button',
          attrs: { type: 'button', 'aria-expanded': 'false', 'aria-label': `Details of ${c.id}` },
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
      const summary = c.summary ?? (c.source === 'host' ? 'Details load from the CVE endpoint…' : '');
      append(
        row,
        h('td', { class: 'col-toggle' }, toggle),
        h('td', { class: 'nowrap' }, c.id),
        h('td', null, h('span', { class: `sev sev-${c.severity.toLowerCase()}` }, c.severity)),
        h('td', { class: 'num' }, c.score !== undefined ? c.score.toFixed(1) : '–'),
        h('td', { class: 'wrap summary-cell' }, summary.length > 240 ? `${summary.slice(0, 240)}…` : summary),
        h('td', null, c.services.join(', ')),
        h('td', { class: 'num' }, c.exploits.length ? String(c.exploits.length) : ''),
      );
      tbody.appendChild(row);
      tbody.appendChild(detail);
    }
    table.appendChild(tbody);
    navigableRows(tbody);
    slot.appendChild(h('div', { class: 'table-scroll' }, table));
    if (this.moreCves) {
      const more = button('Load more CVEs', 'fold-down', () => {
        more.disabled = true;
        more.replaceChildren(icon('loading'), h('span', null, 'Loading…'));
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
      slot.appendChild(h('div', { class: 'more' }, more));
    }
  }

  private cveDetail(c: CveView): Node {
    const box = h('div', { class: 'cve-detail' });
    box.appendChild(
      h(
        'div',
        { class: 'inline-actions' },
        button('Copy CVE id', 'copy', () => this.ctx.post({ type: 'copyCve', cveId: c.id })),
      ),
    );
    box.appendChild(
      dl([
        ['Summary', c.summary ? h('span', { class: 'prose' }, c.summary) : undefined],
        ['Vector', c.vector],
        ['Weakness', c.weakness],
        ['Ports', c.services.join(', ')],
      ]),
    );
    if (c.references.length) {
      box.appendChild(h('h3', null, `References (${c.references.length})`));
      box.appendChild(
        h(
          'ul',
          { class: 'refs' },
          ...c.references.map((r, i) =>
            h('li', null, this.linkText(r, { kind: 'reference', cveId: c.id, refIndex: i })),
          ),
        ),
      );
    }
    if (c.exploits.length) {
      box.appendChild(h('h3', null, `Exploits (${c.exploits.length})`));
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
        h('p', { class: 'error', role: 'alert' }, `Exploit lookup failed: ${this.exploitsError}`),
      );
      return;
    }
    if (!this.exploitsLoaded) {
      slot.appendChild(h('p', { class: 'status' }, 'Loading exploits…'));
      return;
    }
    if (this.exploits.length === 0) {
      slot.appendChild(h('p', { class: 'empty' }, 'No public exploits are listed for this host.'));
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
            e.url ? this.linkText(e.url, { kind: 'exploit', exploitId: e.id }) : (e.file ?? ''),
          ),
        ),
      );
    }
    navigableRows(tbody);
    return gridTable(['ID', 'Description', 'Platform', 'Type', 'CVEs', 'Link / file'], tbody);
  }

  // ---------------------------------------------------------------- names, domains, whois

  private hostnames(host: HostView): Node {
    if (host.hostnames.length === 0) return h('p', { class: 'empty' }, 'No hostnames recorded.');
    return h(
      'ul',
      { class: 'plain-list' },
      ...host.hostnames.map((n) =>
        h(
          'li',
          null,
          h('span', { class: 'mono' }, n.name),
          n.lastUpdated ? h('span', { class: 'muted' }, ` · ${n.lastUpdated}`) : null,
        ),
      ),
    );
  }

  private domains(host: HostView): Node {
    if (host.domains.length === 0) return h('p', { class: 'empty' }, 'No domains recorded.');
    const tbody = h('tbody');
    for (const d of host.domains) {
      tbody.appendChild(
        h(
          'tr',
          { class: 'row', tabIndex: -1 },
          h('td', { class: 'mono' }, d.name ?? ''),
          h('td', null, d.webServer ?? ''),
          h('td', null, d.country ?? ''),
          h('td', { class: 'wrap' }, d.dnsServers.join(', ')),
          h('td', { class: 'wrap' }, d.emails.join(', ')),
          h('td', null, d.lastUpdated ?? ''),
        ),
      );
    }
    navigableRows(tbody);
    return gridTable(['Domain', 'Web server', 'Country', 'DNS servers', 'Emails', 'Updated'], tbody);
  }

  private whois(host: HostView): Node {
    const w = host.whois;
    if (!w) return h('p', { class: 'empty' }, 'No network whois in this record.');
    const box = h('div');
    box.appendChild(
      dl([
        ['Organisation', w.organization],
        ['Network', w.network],
        ['Description', w.descr ? h('span', { class: 'prose' }, w.descr) : undefined],
      ]),
    );
    if (w.raw) {
      box.appendChild(
        section('Raw network whois', undefined, () => h('pre', { class: 'raw', tabIndex: 0 }, w.raw ?? ''), {
          expanded: false,
        }),
      );
    }
    return box;
  }
}

/**
 * A banner fetched on demand: the first BANNER_PREVIEW characters, then all of it when
 * asked ("Show all"). The text goes in with textContent (invisible characters marked).
 */
function bannerBox(
  label: string,
  length: number,
  fetch: (full: boolean) => Promise<{ text: string; length: number }>,
): HTMLElement {
  const box = h('div', { class: 'banner-box' });
  const pre = h('pre', { class: 'banner', tabIndex: 0, attrs: { 'aria-label': label } });
  const note = h('div', { class: 'banner-note' });
  box.appendChild(h('h3', null, `Banner (${formatBytes(length)})`));
  box.appendChild(pre);
  box.appendChild(note);
  pre.appendChild(h('span', { class: 'muted' }, 'Loading banner…'));
  const load = (full: boolean): void => {
    fetch(full).then(
      ({ text: body, length: total }) => {
        pre.replaceChildren(text(body));
        clear(note);
        if (body.length < total) {
          note.appendChild(
            h('span', { class: 'muted' }, `Showing ${formatBytes(body.length)} of ${formatBytes(total)}. `),
          );
          if (!full) note.appendChild(button('Show all', 'unfold', () => load(true)));
        }
      },
      (err: unknown) => {
        pre.replaceChildren(h('span', { class: 'error' }, err instanceof Error ? err.message : String(err)));
      },
    );
  };
  load(length <= BANNER_PREVIEW);
  return box;
}

function append(el: HTMLElement, ...children: Node[]): void {
  for (const c of children) el.appendChild(c);
}
