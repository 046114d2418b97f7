/**
 * Entry of the triage view's script (bundled to dist/triage-view.js, loaded by nonce): one
 * row per indicator of the last triage, sorted and filtered here, rendered virtually (only
 * the rows in view exist in the DOM, so 10,000 rows scroll as smoothly as 10). Data arrives
 * only by postMessage after `ready`; every string enters the page through dom.ts (textContent).
 * The page sends back row indices only.
 */
import type { IconName } from '../icons';
import {
  filterRows,
  haystack,
  isToTriageView,
  parseRows,
  SORT_KEYS,
  sortRows,
  GLANCE_CHARTS,
  TOP_ROWS,
  TRIAGE_KINDS,
  VERDICT_CLASSES,
  type GlanceChartId,
  type FromTriageView,
  type SortKey,
  type ToTriageView,
  type TriageFilter,
  type TriageKind,
  type TriageRowView,
  type TriageVerdictClass,
} from '../../common/triage/protocol';
import { shareText, type ChartBar } from '../../common/charts/bars';
import { glanceFilter, type GlanceChart, type TriageGlance } from '../../common/triage/glance';
import { barChart, fitChart } from '../charts/svg';
import { button, clear, h, icon } from '../dom';
import { cellClass, COLUMNS, kindLabel, verdictLabel } from './columns';
import { vscode } from '../vscodeApi';
import { useWords } from '../../common/words';
import { l10n } from '../../core/text/l10n';

const post = (m: FromTriageView): void => vscode.postMessage(m);

/** Row height in px (CSS `.trow` holds the same); rows are positioned from it. */
const ROW_H = 24;
/** Rows built above and below the visible ones. */
const OVERSCAN = 8;
/** The header's charts: the narrowest and widest chart, the gap between two (details.css
 * `.glance` gap) and the room kept for the header's vertical scroll bar, in px. */
const GLANCE_MIN = 330;
const GLANCE_MAX = 400;
const GLANCE_GAP = 16;
const GLANCE_SCROLLBAR = 14;

interface ViewState {
  sort: SortKey;
  desc: boolean;
  filter: TriageFilter;
}

function restoredState(): ViewState {
  const s = vscode.getState() as Partial<ViewState> | undefined;
  const sort = s && SORT_KEYS.includes(s.sort as SortKey) ? (s.sort as SortKey) : 'verdict';
  const f = (s?.filter ?? {}) as TriageFilter;
  const g = f.glance;
  const glance =
    g && GLANCE_CHARTS.includes(g.chart) && typeof g.key === 'string' && g.key.length <= 200
      ? { chart: g.chart, key: g.key }
      : undefined;
  return {
    sort,
    desc: s?.desc !== false,
    filter: {
      verdict: VERDICT_CLASSES.includes(f.verdict as TriageVerdictClass) ? f.verdict : undefined,
      kind: TRIAGE_KINDS.includes(f.kind as TriageKind) ? f.kind : undefined,
      exploited: f.exploited === true ? true : undefined,
      text: typeof f.text === 'string' ? f.text.slice(0, 200) : undefined,
      glance,
    },
  };
}

class TriageTable {
  private rows: TriageRowView[] = [];
  private hay: string[] = [];
  /** Positions into `rows`, filtered and sorted: what the grid shows, in order. */
  private order: number[] = [];
  /** Position in `order` of the selected row. */
  private selected = 0;
  private generation = 0;
  private state = restoredState();
  private frame = 0;
  private glance: TriageGlance = { charts: [] };
  /** The width the header's charts were drawn at (`glanceWidth`). */
  private glanceDrawnWidth = 0;
  private readonly summary = h('p', { class: 'summary', role: 'status' });
  /** The header of small charts (common/triage/glance.ts): a bar filters the table. */
  private readonly glanceBox = h('section', {
    class: 'glance',
    attrs: { 'aria-label': l10n.t('Triage at a glance: click a bar (or Enter on it) to filter the table') },
  });
  private readonly shownCount = h('span', { class: 'shown-count', attrs: { 'aria-live': 'polite' } });
  private readonly grid = h('div', {
    class: 'tgrid',
    role: 'grid',
    tabIndex: 0,
    attrs: { 'aria-label': l10n.t('Triage results'), 'aria-multiselectable': 'false' },
  });
  private readonly head = h('div', { class: 'trow thead', role: 'row' });
  private readonly spacer = h('div', { class: 'spacer' });
  private readonly body = h('div', { class: 'tbody', role: 'rowgroup' });
  private readonly empty = h(
    'p',
    { class: 'status empty', hidden: true },
    l10n.t('No row matches the filter.'),
  );
  private readonly verdictSel: HTMLSelectElement;
  private readonly kindSel: HTMLSelectElement;
  private readonly textInput: HTMLInputElement;
  private readonly exploitedBox: HTMLInputElement;

  constructor(private readonly root: HTMLElement) {
    this.verdictSel = select(
      l10n.t('Verdict'),
      [['', l10n.t('All verdicts')], ...VERDICT_CLASSES.map((v) => [v, verdictLabel(v)] as [string, string])],
      this.state.filter.verdict ?? '',
    );
    this.kindSel = select(
      l10n.t('Kind'),
      [['', l10n.t('All kinds')], ...TRIAGE_KINDS.map((k) => [k, kindLabel(k)] as [string, string])],
      this.state.filter.kind ?? '',
    );
    this.textInput = h('input', {
      class: 'filter-text',
      attrs: {
        type: 'search',
        placeholder: l10n.t('Filter: value, org, ASN, country, tag, file'),
        'aria-label': l10n.t('Filter text'),
      },
    });
    this.textInput.value = this.state.filter.text ?? '';
    this.exploitedBox = h('input', {
      class: 'filter-exploited',
      attrs: { type: 'checkbox', 'aria-label': l10n.t('Known exploited only') },
    });
    this.exploitedBox.checked = this.state.filter.exploited === true;
    this.exploitedBox.addEventListener('change', () =>
      this.setFilter({ exploited: this.exploitedBox.checked || undefined }),
    );
    this.verdictSel.addEventListener('change', () =>
      this.setFilter({ verdict: (this.verdictSel.value || undefined) as TriageVerdictClass | undefined }),
    );
    this.kindSel.addEventListener('change', () =>
      this.setFilter({ kind: (this.kindSel.value || undefined) as TriageKind | undefined }),
    );
    this.textInput.addEventListener('input', () =>
      this.setFilter({ text: this.textInput.value.slice(0, 200) || undefined }),
    );
    this.textInput.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown' || e.key === 'Enter') {
        e.preventDefault();
        this.grid.focus();
      }
    });

    for (const c of COLUMNS) {
      const cell = h('div', { class: cellClass(c), role: 'columnheader' });
      if (c.key) {
        const key = c.key;
        cell.appendChild(
          h(
            'button',
            { class: 'sort', attrs: { type: 'button' }, data: { key }, onClick: () => this.sortBy(key) },
            c.label(),
          ),
        );
      } else cell.appendChild(h('span', null, c.label()));
      this.head.appendChild(cell);
    }
    this.grid.append(this.head, h('div', { class: 'viewport' }, this.spacer, this.body));
    this.grid.addEventListener('scroll', () => this.schedule());
    this.grid.addEventListener('keydown', (e) => this.onKey(e));
    this.body.addEventListener('click', (e) => this.onClick(e));
    this.body.addEventListener('dblclick', (e) => {
      const pos = this.rowAt(e);
      if (pos !== undefined) this.open(pos, 'open');
    });
    window.addEventListener('resize', () => {
      this.schedule();
      // The header's charts are drawn to a width: again when the panel's width changes it.
      if (this.rows.length && this.glanceWidth() !== this.glanceDrawnWidth) this.drawGlance();
    });
  }

  showEmpty(message: string): void {
    this.rows = [];
    clear(this.root);
    this.root.appendChild(h('p', { class: 'status' }, message));
  }

  show(m: Extract<ToTriageView, { type: 'rows' }>): void {
    const started = performance.now();
    const rows = parseRows(m.rowsJson);
    if (!rows) return this.showEmpty(l10n.t('The triage results could not be read.'));
    this.generation = m.generation;
    this.rows = rows;
    this.hay = rows.map(haystack);
    this.glance = m.glance && Array.isArray(m.glance.charts) ? m.glance : { charts: [] };
    const g = this.state.filter.glance;
    if (g && !this.glance.charts.some((c) => c.id === g.chart && c.keys.includes(g.key)))
      this.state = { ...this.state, filter: { ...this.state.filter, glance: undefined } };
    this.selected = 0;
    clear(this.root);
    clear(this.summary);
    this.summary.append(m.summary);
    this.root.append(
      h('header', { class: 'triage-head' }, h('h1', null, icon('checklist'), l10n.t('Triage')), this.summary),
      this.glanceBox,
      h(
        'div',
        { class: 'toolbar' },
        this.verdictSel.parentElement!,
        this.kindSel.parentElement!,
        h(
          'label',
          { class: 'tfilter', attrs: { title: l10n.t('Rows with a CVE in the CISA KEV catalogue') } },
          this.exploitedBox,
          h('span', null, l10n.t('Known exploited only')),
        ),
        this.textInput,
        this.shownCount,
        button(l10n.t('Open Report'), 'markdown', () => post({ type: 'action', action: 'openReport' }), {
          title: l10n.t('Open the Markdown report of this triage (defanged, for a ticket)'),
        }),
        button(l10n.t('Save Report…'), 'save', () => post({ type: 'action', action: 'saveReport' }), {
          title: l10n.t('Save the report as Markdown, CSV, JSON, STIX 2.1 or MISP'),
        }),
      ),
      this.grid,
      this.empty,
    );
    this.apply();
    this.drawGlance();
    const dom = this.renderNow();
    void this.grid.offsetHeight;
    post({
      type: 'rendered',
      generation: m.generation,
      rows: rows.length,
      shown: this.order.length,
      dom,
      ms: Math.max(0, performance.now() - started),
      top: this.topRows(),
    });
  }

  private topRows(): number[] {
    return this.order.slice(0, TOP_ROWS).map((i) => this.rows[i]!.index);
  }

  /**
   * A header chart's width: the charts wrap, as many to a line as fit at 330 px or more, each
   * as wide as its share of the line (at most 400 px), so every chart is whole inside the
   * panel, none cut at its edge. The header scrolls down past 40% of the panel's height
   * (details.css), so the table keeps the rest; the line leaves room for that scroll bar.
   */
  private glanceWidth(): number {
    const line = Math.max(0, (this.root.clientWidth || 900) - GLANCE_SCROLLBAR);
    const perLine = Math.max(1, Math.floor((line + GLANCE_GAP) / (GLANCE_MIN + GLANCE_GAP)));
    return Math.min(GLANCE_MAX, Math.floor((line - GLANCE_GAP * (perLine - 1)) / perLine));
  }

  /** The header's charts, each with its table for screen readers; the chosen bar marked. */
  private drawGlance(): void {
    clear(this.glanceBox);
    this.glanceBox.hidden = this.rows.length === 0;
    const sel = this.state.filter.glance;
    const width = this.glanceWidth();
    this.glanceDrawnWidth = width;
    for (const chart of this.glance.charts) {
      if (chart.bars.length === 0) continue;
      const chosen = sel && sel.chart === chart.id ? chart.keys.indexOf(sel.key) : -1;
      const svg = barChart(chart.bars, {
        width,
        title: chart.title,
        compact: true,
        actionLabel: l10n.t('Filter the table to these rows (again: clear the filter).'),
        onActivate: (bar) => this.pickBar(chart, bar),
        ...(chosen >= 0 ? { selected: chosen } : {}),
      });
      svg.setAttribute('aria-hidden', 'false');
      const figure = h(
        'figure',
        { class: 'glance-chart', data: { chart: chart.id } },
        h('figcaption', null, chart.title),
        svg,
        this.glanceTable(chart, chosen),
      );
      this.glanceBox.appendChild(figure);
      fitChart(svg);
    }
  }

  /** The chart's table equivalent (visually hidden): a button per bar that filters. */
  private glanceTable(chart: GlanceChart, chosen: number): HTMLElement {
    const tbody = h('tbody');
    for (const bar of chart.bars) {
      const active = !bar.other && bar.bucket !== undefined;
      tbody.appendChild(
        h(
          'tr',
          null,
          h(
            'th',
            { attrs: { scope: 'row' } },
            active
              ? h(
                  'button',
                  {
                    // The chart's bars are the tab stops; the table is for screen readers.
                    tabIndex: -1,
                    attrs: { type: 'button', 'aria-pressed': String(bar.bucket === chosen) },
                    onClick: () => this.pickBar(chart, bar),
                  },
                  bar.label,
                )
              : bar.label,
          ),
          h('td', null, String(bar.count)),
          h('td', null, shareText(bar.share)),
        ),
      );
    }
    return h(
      'table',
      { class: 'visually-hidden' },
      h('caption', null, chart.title),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ...[l10n.t('Value'), l10n.t('Rows'), l10n.t('Share')].map((l) =>
            h('th', { attrs: { scope: 'col' } }, l),
          ),
        ),
      ),
      tbody,
    );
  }

  /** A bar filters the table to its rows; the same bar again clears the filter. */
  private pickBar(chart: GlanceChart, bar: ChartBar): void {
    if (bar.other || bar.bucket === undefined) return;
    const key = chart.keys[bar.bucket];
    if (key === undefined) return;
    const cur = this.state.filter.glance;
    const again = cur !== undefined && cur.chart === chart.id && cur.key === key;
    this.setFilter({ glance: again ? undefined : { chart: chart.id, key } });
    this.drawGlance();
    const focus = this.glanceBox.querySelector<SVGGElement>(
      `figure[data-chart="${chart.id}"] g.bar-row[data-bar="${chart.bars.indexOf(bar)}"]`,
    );
    focus?.focus();
    post({
      type: 'glanceFilter',
      generation: this.generation,
      chart: chart.id as GlanceChartId,
      ...(again ? {} : { bucket: bar.bucket }),
      shown: this.order.length,
      top: this.topRows(),
    });
  }

  private setFilter(f: TriageFilter): void {
    this.state = { ...this.state, filter: { ...this.state.filter, ...f } };
    this.save();
    this.apply();
    this.grid.scrollTop = 0;
    this.renderNow();
  }

  private sortBy(key: SortKey): void {
    const desc =
      this.state.sort === key
        ? !this.state.desc
        : key !== 'value' && key !== 'kind' && key !== 'org' && key !== 'country' && key !== 'first';
    const keep = this.order[this.selected];
    this.state = { ...this.state, sort: key, desc };
    this.save();
    this.apply();
    this.selected = Math.max(0, keep === undefined ? 0 : this.order.indexOf(keep));
    this.reveal();
    this.renderNow();
  }

  private save(): void {
    // Sort and filter only: never row data.
    vscode.setState({ sort: this.state.sort, desc: this.state.desc, filter: this.state.filter });
  }

  private apply(): void {
    this.order = sortRows(
      this.rows,
      glanceFilter(this.rows, filterRows(this.rows, this.hay, this.state.filter), this.state.filter.glance),
      this.state.sort,
      this.state.desc,
    );
    if (this.selected >= this.order.length) this.selected = Math.max(0, this.order.length - 1);
    this.spacer.style.height = `${this.order.length * ROW_H}px`;
    const g = this.state.filter.glance;
    const chart = g && this.glance.charts.find((c) => c.id === g.chart);
    const bar = chart?.bars.find((b) => b.bucket !== undefined && chart.keys[b.bucket] === g?.key);
    this.shownCount.textContent =
      (this.order.length === this.rows.length
        ? this.rows.length === 1
          ? l10n.t('1 row')
          : l10n.t('{0} rows', this.rows.length)
        : this.rows.length === 1
          ? l10n.t('{0} of 1 row', this.order.length)
          : l10n.t('{0} of {1} rows', this.order.length, this.rows.length)) +
      (chart && bar ? ` · ${chart.title}: ${bar.label}` : '');
    this.empty.hidden = this.order.length > 0 || this.rows.length === 0;
    this.grid.setAttribute('aria-rowcount', String(this.order.length + 1));
    for (const b of Array.from(this.head.querySelectorAll<HTMLButtonElement>('button.sort'))) {
      const on = b.dataset.key === this.state.sort;
      b.parentElement!.setAttribute(
        'aria-sort',
        on ? (this.state.desc ? 'descending' : 'ascending') : 'none',
      );
      b.classList.toggle('sorted', on);
      b.classList.toggle('desc', on && this.state.desc);
    }
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderNow();
    });
  }

  /** Builds the rows in view (and a few around); returns how many exist in the DOM. */
  private renderNow(): number {
    const top = this.grid.scrollTop;
    const height = this.grid.clientHeight || 600;
    const from = Math.max(0, Math.floor(top / ROW_H) - OVERSCAN);
    const to = Math.min(this.order.length, Math.ceil((top + height) / ROW_H) + OVERSCAN);
    clear(this.body);
    this.body.style.transform = `translateY(${from * ROW_H}px)`;
    const frag = document.createDocumentFragment();
    for (let pos = from; pos < to; pos++) frag.appendChild(this.rowEl(pos));
    this.body.appendChild(frag);
    const sel = this.order[this.selected];
    if (sel !== undefined) this.grid.setAttribute('aria-activedescendant', `row-${sel}`);
    else this.grid.removeAttribute('aria-activedescendant');
    return to - from;
  }

  private rowEl(pos: number): HTMLElement {
    const r = this.rows[this.order[pos]!]!;
    const row = h('div', {
      class: `trow row v-${r.verdict}${pos === this.selected ? ' selected' : ''}`,
      id: `row-${r.index}`,
      role: 'row',
      data: { pos: String(pos), value: r.value, verdict: r.verdict },
      attrs: { 'aria-rowindex': String(pos + 2), 'aria-selected': String(pos === this.selected) },
    });
    for (const c of COLUMNS) {
      const v = c.cell(r);
      row.appendChild(
        h(
          'div',
          {
            class: cellClass(c),
            role: 'gridcell',
            title: typeof v === 'string' ? v : undefined,
          },
          v,
        ),
      );
    }
    // The buttons collapse in a narrow panel (p2); Enter, Shift+Enter and a double click remain.
    const actions = h('div', { class: 'tcell p2 actions', role: 'gridcell' });
    if (r.details)
      actions.appendChild(iconButton('link-external', l10n.t('Open details of {0}', r.value), 'open'));
    actions.appendChild(iconButton('go-to-file', l10n.t('Reveal occurrences of {0}', r.value), 'reveal'));
    row.appendChild(actions);
    return row;
  }

  private rowAt(e: Event): number | undefined {
    const el = (e.target as HTMLElement).closest<HTMLElement>('.trow.row');
    const pos = el ? Number(el.dataset.pos) : NaN;
    return Number.isInteger(pos) && pos >= 0 && pos < this.order.length ? pos : undefined;
  }

  private onClick(e: MouseEvent): void {
    const pos = this.rowAt(e);
    if (pos === undefined) return;
    this.select(pos);
    const action = (e.target as HTMLElement).closest<HTMLElement>('button[data-action]')?.dataset.action;
    if (action === 'open' || action === 'reveal') this.open(pos, action);
    else this.grid.focus();
  }

  private open(pos: number, what: 'open' | 'reveal'): void {
    const r = this.rows[this.order[pos]!];
    if (r) post({ type: what, generation: this.generation, index: r.index });
  }

  private select(pos: number): void {
    this.selected = Math.max(0, Math.min(this.order.length - 1, pos));
    this.reveal();
    this.renderNow();
  }

  /** Scrolls so the selected row is in view. */
  private reveal(): void {
    const y = this.selected * ROW_H;
    const headH = this.head.offsetHeight || ROW_H;
    const view = this.grid.clientHeight - headH;
    if (y < this.grid.scrollTop) this.grid.scrollTop = y;
    else if (y + ROW_H > this.grid.scrollTop + view) this.grid.scrollTop = y + ROW_H - view;
  }

  private onKey(e: KeyboardEvent): void {
    if (e.target !== this.grid || this.order.length === 0) return;
    const page = Math.max(1, Math.floor((this.grid.clientHeight - ROW_H) / ROW_H) - 1);
    let next: number | undefined;
    switch (e.key) {
      case 'ArrowDown':
        next = this.selected + 1;
        break;
      case 'ArrowUp':
        next = this.selected - 1;
        break;
      case 'PageDown':
        next = this.selected + page;
        break;
      case 'PageUp':
        next = this.selected - page;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = this.order.length - 1;
        break;
      case 'Enter':
        e.preventDefault();
        this.open(this.selected, e.shiftKey ? 'reveal' : 'open');
        return;
      default:
        if (e.key === 'f' && (e.ctrlKey || e.metaKey)) return;
        if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey && e.key !== ' ') {
          // Typing in the grid goes to the text filter.
          this.textInput.focus();
        }
        return;
    }
    e.preventDefault();
    this.select(next);
  }
}

function select(label: string, options: Array<[string, string]>, value: string): HTMLSelectElement {
  const s = h(
    'select',
    { attrs: { 'aria-label': label } },
    ...options.map(([v, l]) => h('option', { attrs: { value: v } }, l)),
  );
  s.value = value;
  h('label', { class: 'tfilter' }, h('span', null, label), s);
  return s;
}

function iconButton(name: IconName, label: string, action: 'open' | 'reveal'): HTMLButtonElement {
  const b = h('button', {
    class: 'icon-button',
    title: label,
    tabIndex: -1,
    attrs: { type: 'button', 'aria-label': label },
    data: { action },
  });
  b.appendChild(icon(name));
  return b;
}

const root = document.getElementById('root') as HTMLElement;
/** Built on the first rows (or empty state), after the words: its toolbar is in the user's language. */
let table: TriageTable | undefined;

window.addEventListener('message', (event: MessageEvent) => {
  if (!isToTriageView(event.data)) return;
  const m = event.data;
  if (m.type === 'words') {
    useWords(m.words);
    return;
  }
  table ??= new TriageTable(root);
  if (m.type === 'rows') table.show(m);
  else table.showEmpty(m.message);
});

post({ type: 'ready' });
