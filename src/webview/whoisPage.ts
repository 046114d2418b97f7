/**
 * The whois details page: registrar, dates (expiry warning), status, name servers, the
 * four contacts, the history as a timeline of field changes (with a side-by-side diff in
 * VS Code's diff editor), and the raw record. DOM APIs only.
 */
import type { IconName } from './icons';
import type { WhoisSnapshotView, WhoisView } from '../common/protocol';
import type { PageContext } from './context';
import { button, chips, clear, dl, h, icon, section } from './dom';
import { l10n } from '../core/text/l10n';

/** A contact's role as a heading (a function: the words are the page's, known once it has them). */
function roleLabel(role: 'registrant' | 'administrative' | 'technical' | 'billing'): string {
  return {
    registrant: l10n.t('Registrant'),
    administrative: l10n.t('Administrative'),
    technical: l10n.t('Technical'),
    billing: l10n.t('Billing'),
  }[role];
}

export class WhoisPage {
  constructor(
    private readonly root: HTMLElement,
    private readonly ctx: PageContext,
  ) {}

  reset(): void {
    // Nothing kept between loads.
  }

  show(w: WhoisView): void {
    const started = performance.now();
    clear(this.root);
    this.root.appendChild(this.header(w));
    const expiry = this.expiry(w);
    if (expiry) this.root.appendChild(expiry);
    this.root.appendChild(
      h(
        'div',
        { class: 'summary' },
        dl([
          [l10n.t('Domain'), h('span', { class: 'mono' }, w.domain)],
          [l10n.t('Registrar'), w.registrar?.name],
          [l10n.t('Registrar IANA id'), w.registrar?.id],
          [
            l10n.t('Registrar URL'),
            w.registrar?.url ? h('span', { class: 'url' }, w.registrar.url) : undefined,
          ],
          [l10n.t('Registrar whois'), w.registrar?.whois],
          [l10n.t('Created'), w.created],
          [l10n.t('Updated'), w.updated],
          [l10n.t('Expires'), w.expires],
          [l10n.t('Status'), chips(w.status)],
          [
            l10n.t('Name servers'),
            w.nameServers.length
              ? h('ul', { class: 'plain-list mono' }, ...w.nameServers.map((n) => h('li', null, n)))
              : undefined,
          ],
        ]),
      ),
    );
    const contacts = w.contacts.filter((c) => c.fields.length > 0).length;
    this.root.appendChild(section(l10n.t('Contacts'), contacts, () => this.contacts(w), { id: 'contacts' }));
    const changes = w.history.reduce((n, s) => n + s.changes.length, 0);
    this.root.appendChild(
      section(l10n.t('History'), w.history.length, () => this.history(w), {
        id: 'history',
        expanded: w.history.length > 0 || w.historyError !== undefined,
      }),
    );
    this.root.appendChild(
      section(
        l10n.t('Raw record'),
        undefined,
        () =>
          w.raw
            ? h(
                'pre',
                { class: 'raw', tabIndex: 0, attrs: { 'aria-label': l10n.t('Raw whois record') } },
                w.raw,
              )
            : h('p', { class: 'empty' }, l10n.t('No raw record.')),
        { id: 'raw', expanded: false },
      ),
    );
    this.ctx.rendered({ contacts, snapshots: w.history.length, changes }, started);
  }

  private header(w: WhoisView): HTMLElement {
    const action = (
      label: string,
      iconName: IconName,
      a: 'refresh' | 'copyJson' | 'openJson' | 'export' | 'copyRaw',
    ) => button(label, iconName, () => this.ctx.post({ type: 'action', action: a }));
    return h(
      'header',
      { class: 'page-header' },
      h('div', { class: 'title-row' }, h('h1', null, icon('book'), ' ', w.domain)),
      w.registrar?.name ? h('p', { class: 'subtitle' }, l10n.t('Registrar: {0}', w.registrar.name)) : null,
      h(
        'div',
        { class: 'toolbar', role: 'toolbar', attrs: { 'aria-label': l10n.t('Whois actions') } },
        action(l10n.t('Refresh'), 'refresh', 'refresh'),
        w.raw ? action(l10n.t('Copy Raw'), 'copy', 'copyRaw') : null,
        action(l10n.t('Copy JSON'), 'copy', 'copyJson'),
        action(l10n.t('Open JSON'), 'json', 'openJson'),
        action(l10n.t('Export…'), 'save', 'export'),
      ),
    );
  }

  private expiry(w: WhoisView): HTMLElement | undefined {
    const d = w.daysToExpiry;
    if (d === undefined) return undefined;
    if (d < 0) {
      return h(
        'div',
        { class: 'callout callout-error', role: 'alert' },
        icon('error'),
        ' ',
        d === -1
          ? l10n.t('Expired 1 day ago ({0}).', w.expires ?? '')
          : l10n.t('Expired {0} days ago ({1}).', -d, w.expires ?? ''),
      );
    }
    if (d <= w.expiryWarningDays) {
      return h(
        'div',
        { class: 'callout callout-warning', role: 'alert' },
        icon('warning'),
        ' ',
        d === 1
          ? l10n.t('Expires in 1 day ({0}).', w.expires ?? '')
          : l10n.t('Expires in {0} days ({1}).', d, w.expires ?? ''),
      );
    }
    return undefined;
  }

  private contacts(w: WhoisView): Node {
    return h(
      'div',
      { class: 'cards' },
      ...w.contacts.map((c) =>
        h(
          'div',
          { class: 'card' },
          h('h3', null, icon('person'), ' ', roleLabel(c.role)),
          c.fields.length
            ? dl(c.fields.map((f): [string, string] => [f.label, f.value]))
            : h('p', { class: 'empty' }, l10n.t('Not published (or redacted).')),
        ),
      ),
    );
  }

  private history(w: WhoisView): Node {
    const box = h('div');
    if (w.historyError)
      box.appendChild(
        h('p', { class: 'error', role: 'alert' }, l10n.t('History lookup failed: {0}', w.historyError)),
      );
    if (w.history.length === 0) {
      if (!w.historyError) box.appendChild(h('p', { class: 'empty' }, l10n.t('No earlier snapshots.')));
      return box;
    }
    if (w.history.length >= 2) box.appendChild(this.compare(w.history));
    const list = h('ol', { class: 'timeline' });
    for (const s of w.history) list.appendChild(this.snapshot(s));
    box.appendChild(list);
    return box;
  }

  /** Two pickers and a button: any two snapshots side by side in the diff editor. */
  private compare(history: WhoisSnapshotView[]): HTMLElement {
    const label = (s: WhoisSnapshotView): string =>
      `${s.date ?? l10n.t('snapshot {0}', s.index + 1)}${s.registrar ? ` · ${s.registrar}` : ''}`;
    const picker = (id: string, selected: number): HTMLSelectElement => {
      const sel = h('select', { id });
      for (const s of history) {
        const opt = h('option', null, label(s));
        opt.value = String(s.index);
        if (s.index === selected) opt.selected = true;
        sel.appendChild(opt);
      }
      return sel;
    };
    const newest = history[0].index;
    const older = history[1].index;
    const from = picker('diff-from', older);
    const to = picker('diff-to', newest);
    return h(
      'div',
      { class: 'compare' },
      h('label', { attrs: { for: 'diff-from' } }, l10n.t('Compare')),
      from,
      h('label', { attrs: { for: 'diff-to' } }, l10n.t('with')),
      to,
      button(l10n.t('Open Diff'), 'diff', () => {
        const a = Number(from.value);
        const b = Number(to.value);
        if (a !== b) this.ctx.post({ type: 'diffSnapshots', from: a, to: b });
      }),
    );
  }

  private snapshot(s: WhoisSnapshotView): HTMLElement {
    const item = h('li', { class: 'timeline-item' });
    const head = h(
      'div',
      { class: 'timeline-head' },
      h('span', { class: 'timeline-dot' }, icon('circle-filled')),
      h('strong', null, s.date ?? l10n.t('Undated snapshot')),
      s.registrar ? h('span', { class: 'muted' }, ` · ${s.registrar}`) : null,
      s.index > 0
        ? button(
            l10n.t('Compare with previous'),
            'diff',
            () => this.ctx.post({ type: 'diffSnapshots', from: s.index - 1, to: s.index }),
            {
              class: 'small',
            },
          )
        : null,
    );
    item.appendChild(head);
    if (s.index === 0) {
      item.appendChild(h('p', { class: 'muted' }, l10n.t('Oldest snapshot on record.')));
    } else if (s.changes.length === 0) {
      item.appendChild(h('p', { class: 'muted' }, l10n.t('No field changes from the previous snapshot.')));
    } else {
      const tbody = h('tbody');
      for (const c of s.changes) {
        tbody.appendChild(
          h(
            'tr',
            { class: `change change-${c.kind}` },
            h('th', { attrs: { scope: 'row' } }, c.field),
            h(
              'td',
              { class: 'wrap before' },
              c.before !== undefined ? h('del', null, c.before) : h('span', { class: 'muted' }, '—'),
            ),
            h('td', { class: 'arrow', attrs: { 'aria-hidden': 'true' } }, icon('arrow-right')),
            h(
              'td',
              { class: 'wrap after' },
              c.after !== undefined
                ? h('ins', null, c.after)
                : h('span', { class: 'muted' }, l10n.t('removed')),
            ),
          ),
        );
      }
      item.appendChild(
        h(
          'div',
          { class: 'table-scroll' },
          h(
            'table',
            { class: 'grid changes' },
            h(
              'caption',
              { class: 'visually-hidden' },
              s.date ? l10n.t('Changes on {0}', s.date) : l10n.t('Changes in this snapshot'),
            ),
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                ...[l10n.t('Field'), l10n.t('Before'), '', l10n.t('After')].map((l) =>
                  h('th', { attrs: { scope: 'col' } }, l),
                ),
              ),
            ),
            tbody,
          ),
        ),
      );
    }
    return item;
  }
}
