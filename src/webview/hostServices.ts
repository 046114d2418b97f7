/**
 * The host page's services: a filterable table whose rows open to the service's details
 * (what HTTP answered, the TLS certificate with a pivot to every host presenting it, the
 * banner on demand), and the host-level banners.
 */
import type { ServiceView } from '../common/protocol';
import { bannerBox } from './banner';
import { certificateBox } from './certificate';
import type { PageContext } from './context';
import { dl, formatBytes, h, icon, navigableRows, section } from './dom';
import { linkText } from './links';
import { l10n } from '../core/text/l10n';

/** Service rows built before the first paint, then per batch. */
const FIRST_ROWS = 60;
const ROW_BATCH = 150;

/** The table's columns: fixed widths (not measured from 1,000 rows of cells), then the header row. */
function servicesTableHead(): HTMLElement[] {
  return [
    h(
      'colgroup',
      null,
      ...['toggle', 'port', 'proto', 'name', 'product', 'version', 'tunnel', 'url', 'software', 'cves'].map(
        (c) => h('col', { class: `col-${c}` }),
      ),
    ),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ...[
          '',
          l10n.t('Port'),
          l10n.t('Protocol'),
          l10n.t('Name'),
          l10n.t('Product'),
          l10n.t('Version'),
          l10n.t('Tunnel'),
          l10n.t('URL / title'),
          l10n.t('Software'),
          'CVEs',
        ].map((c, i) => h('th', { attrs: { scope: 'col' }, class: i === 0 ? 'col-toggle' : undefined }, c)),
      ),
    ),
  ];
}

/** What the filter box matches a service row against, lower case. */
function serviceSearchText(s: ServiceView): string {
  return [
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
    .toLowerCase();
}

export class ServicesSection {
  constructor(private readonly ctx: PageContext) {}

  /** The services table (filterable; rows built in batches; details on demand). */
  render(services: ServiceView[]): Node {
    if (services.length === 0) return h('p', { class: 'empty' }, l10n.t('No services seen on this host.'));
    const frag = document.createDocumentFragment();
    const filter = h('input', {
      class: 'filter',
      attrs: {
        type: 'search',
        placeholder: l10n.t('Filter services (port, name, product…)'),
        'aria-label': l10n.t('Filter services'),
      },
    });
    const table = h('table', { class: 'grid services-table' });
    table.append(...servicesTableHead());
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
        searchText.push(serviceSearchText(s));
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
        title: s.bannerLength
          ? l10n.t('Show banner ({0})', formatBytes(s.bannerLength))
          : l10n.t('Show details'),
        attrs: {
          type: 'button',
          'aria-expanded': 'false',
          'aria-label': l10n.t('Details of port {0}', s.port),
        },
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
    if (s.url) urlCell.appendChild(linkText(this.ctx, s.url, { kind: 'service', serviceIndex: s.index }));
    if (s.title) urlCell.appendChild(h('div', { class: 'muted' }, s.title));
    if (s.statusCode !== undefined) urlCell.appendChild(h('div', { class: 'muted' }, `HTTP ${s.statusCode}`));
    if (s.server) urlCell.appendChild(h('div', { class: 'muted' }, s.server));
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
        [l10n.t('HTTP status'), s.statusCode === undefined ? undefined : String(s.statusCode)],
        [l10n.t('Title'), s.title],
        [l10n.t('Server'), s.server],
        [l10n.t('Extra info'), s.extraInfo],
        [l10n.t('Last seen'), s.lastUpdated],
        ['CVEs', s.cves.length ? s.cves.join(', ') : undefined],
      ]),
    );
    if (s.certificate) box.appendChild(certificateBox(this.ctx, s.certificate, s.index));
    if (s.bannerLength === 0) {
      // HTTP records no banner: what it answered is above.
      if (s.statusCode === undefined && !s.title && !s.server)
        box.appendChild(h('p', { class: 'empty' }, l10n.t('No banner recorded for this service.')));
      return box;
    }
    box.appendChild(
      bannerBox(l10n.t('Banner of port {0}', s.port), s.bannerLength, (full) =>
        this.ctx.requests.request('banner', { serviceIndex: s.index, full }),
      ),
    );
    return box;
  }

  /** Host-level banners (the spec dialect lists banner text on the host). */
  hostBanners(lengths: number[]): Node {
    const list = h('div', { class: 'host-banners' });
    lengths.forEach((length, index) => {
      list.appendChild(
        section(
          l10n.t('Banner {0}', index + 1),
          formatBytes(length),
          () =>
            bannerBox(l10n.t('Host banner {0}', index + 1), length, (full) =>
              this.ctx.requests.request('hostBanner', { index, full }),
            ),
          { expanded: false },
        ),
      );
    });
    return list;
  }
}

function append(el: HTMLElement, ...children: Node[]): void {
  for (const c of children) el.appendChild(c);
}
