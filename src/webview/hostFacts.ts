/** The host page's names, domains and network whois (plain facts from the host record). */
import type { HostView } from '../common/protocol';
import { dl, gridTable, h, navigableRows, section } from './dom';
import { l10n } from '../core/text/l10n';

export function hostnames(host: HostView): Node {
  if (host.hostnames.length === 0) return h('p', { class: 'empty' }, l10n.t('No hostnames recorded.'));
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

export function domains(host: HostView): Node {
  if (host.domains.length === 0) return h('p', { class: 'empty' }, l10n.t('No domains recorded.'));
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
  return gridTable(
    [
      l10n.t('Domain'),
      l10n.t('Web server'),
      l10n.t('Country'),
      l10n.t('DNS servers'),
      l10n.t('Emails'),
      l10n.t('Updated'),
    ],
    tbody,
  );
}

export function whois(host: HostView): Node {
  const w = host.whois;
  if (!w) return h('p', { class: 'empty' }, l10n.t('No network whois in this record.'));
  const box = h('div');
  box.appendChild(
    dl([
      [l10n.t('Organisation'), w.organization],
      [l10n.t('Network'), w.network],
      [l10n.t('Description'), w.descr ? h('span', { class: 'prose' }, w.descr) : undefined],
    ]),
  );
  if (w.raw) {
    box.appendChild(
      section(
        l10n.t('Raw network whois'),
        undefined,
        () => h('pre', { class: 'raw', tabIndex: 0 }, w.raw ?? ''),
        {
          expanded: false,
        },
      ),
    );
  }
  return box;
}
