/**
 * Small DOM helpers for the details pages. Every string from the API enters the document
 * through `text()` (textContent, with invisible characters made visible), never as HTML.
 */
import type { IconName } from './icons';
import { codePoint, INVISIBLE } from '../core/text/inert';
import { l10n } from '../core/text/l10n';

export type Child = Node | string | number | undefined | null | false;

interface Props {
  class?: string;
  id?: string;
  title?: string;
  role?: string;
  tabIndex?: number;
  hidden?: boolean;
  attrs?: Record<string, string>;
  data?: Record<string, string>;
  onClick?: (e: MouseEvent) => void;
  onKeyDown?: (e: KeyboardEvent) => void;
}

/** Creates an element; string children become text nodes via `text()`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props) {
    if (props.class) el.className = props.class;
    if (props.id) el.id = props.id;
    if (props.title !== undefined) el.title = visibleTitle(props.title);
    if (props.role) el.setAttribute('role', props.role);
    if (props.tabIndex !== undefined) el.tabIndex = props.tabIndex;
    if (props.hidden) el.hidden = true;
    for (const [k, v] of Object.entries(props.attrs ?? {})) el.setAttribute(k, v);
    for (const [k, v] of Object.entries(props.data ?? {})) el.dataset[k] = v;
    const target = el as HTMLElement;
    if (props.onClick) target.addEventListener('click', props.onClick);
    if (props.onKeyDown) target.addEventListener('keydown', props.onKeyDown);
  }
  append(el, ...children);
  return el;
}

export function append(el: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? text(String(c)) : c);
  }
}

/**
 * Bidi controls, zero-width characters, NUL and other C0/C1 controls (ANSI escapes start
 * with ESC), line/paragraph separators: shown as visible markers, never interpreted.
 * The one list is src/core/text/inert.ts `INVISIBLE` (`showInvisibles` marks the same set).
 * Tabs and newlines are kept.
 */
const INVISIBLE_G = new RegExp(INVISIBLE.source, 'g');

/** Text as DOM nodes: plain text, with invisible characters as marked `U+XXXX` badges. */
export function text(s: string): Node {
  if (!INVISIBLE.test(s)) return document.createTextNode(s);
  const frag = document.createDocumentFragment();
  let last = 0;
  for (const m of s.matchAll(INVISIBLE_G)) {
    const i = m.index ?? 0;
    if (i > last) frag.appendChild(document.createTextNode(s.slice(last, i)));
    const mark = document.createElement('span');
    mark.className = 'invisible';
    mark.textContent = codePoint(m[0]);
    mark.title = l10n.t('Invisible or control character in the data');
    frag.appendChild(mark);
    last = i + m[0].length;
  }
  if (last < s.length) frag.appendChild(document.createTextNode(s.slice(last)));
  return frag;
}

/** For attributes (tooltips): the same characters as `<U+XXXX>` text. */
export function visibleTitle(s: string): string {
  return s.replace(INVISIBLE_G, (ch) => `<${codePoint(ch)}>`);
}

export function icon(name: IconName): HTMLElement {
  const el = document.createElement('span');
  el.className = `codicon codicon-${name}`;
  el.setAttribute('aria-hidden', 'true');
  return el;
}

/** A button with a codicon and a label (or an icon-only button with an accessible name). */
export function button(
  label: string,
  iconName: IconName | undefined,
  onClick: () => void,
  opts: { iconOnly?: boolean; class?: string; title?: string } = {},
): HTMLButtonElement {
  const b = h('button', {
    class: `${opts.iconOnly ? 'icon-button' : 'button'}${opts.class ? ` ${opts.class}` : ''}`,
    title: opts.title ?? label,
    attrs: { type: 'button', 'aria-label': label },
    onClick: (e) => {
      e.stopPropagation();
      onClick();
    },
  });
  if (iconName) b.appendChild(icon(iconName));
  if (!opts.iconOnly) b.appendChild(h('span', null, label));
  return b;
}

let sectionSeq = 0;

/**
 * A collapsible section: a heading holding a button with `aria-expanded` that shows or
 * hides the body. The body is built on first expansion when `lazy` is set.
 */
export function section(
  title: string,
  count: number | string | undefined,
  body: () => Node,
  opts: { expanded?: boolean; id?: string; extra?: Node } = {},
): HTMLElement {
  const expanded = opts.expanded ?? true;
  const bodyId = `section-${++sectionSeq}`;
  const content = h('div', { class: 'section-body', id: bodyId, hidden: !expanded });
  let built = false;
  const build = (): void => {
    if (built) return;
    built = true;
    content.appendChild(body());
  };
  if (expanded) build();
  const chevron = icon(expanded ? 'chevron-down' : 'chevron-right');
  const toggle = h(
    'button',
    {
      class: 'section-toggle',
      attrs: { type: 'button', 'aria-expanded': String(expanded), 'aria-controls': bodyId },
      onClick: () => {
        const open = toggle.getAttribute('aria-expanded') !== 'true';
        toggle.setAttribute('aria-expanded', String(open));
        chevron.className = `codicon codicon-${open ? 'chevron-down' : 'chevron-right'}`;
        if (open) build();
        content.hidden = !open;
      },
    },
    chevron,
    h('span', { class: 'section-title' }, title),
    count !== undefined ? h('span', { class: 'count-badge' }, String(count)) : null,
  );
  return h(
    'section',
    { class: 'section', id: opts.id },
    h('div', { class: 'section-header' }, h('h2', null, toggle), opts.extra ?? null),
    content,
  );
}

/** A definition list from label/value pairs; empty values are left out. */
export function dl(rows: Array<[string, Child | Child[]]>): HTMLDListElement {
  const list = h('dl', { class: 'facts' });
  for (const [label, value] of rows) {
    const values = Array.isArray(value) ? value : [value];
    if (values.every((v) => v === undefined || v === null || v === false || v === '')) continue;
    list.appendChild(h('dt', null, label));
    list.appendChild(h('dd', null, ...values));
  }
  return list;
}

export function chips(values: string[], cls = 'chip'): HTMLElement | undefined {
  if (values.length === 0) return undefined;
  return h('ul', { class: 'chips' }, ...values.map((v) => h('li', { class: cls }, v)));
}

/**
 * Keyboard navigation for a table's body rows (one tab stop; arrows, Home/End move;
 * Enter/Space press the row's first button).
 */
export function navigableRows(tbody: HTMLTableSectionElement): void {
  const rows = (): HTMLTableRowElement[] =>
    Array.from(tbody.rows).filter((r) => r.classList.contains('row') && !r.hidden);
  const first = rows()[0];
  if (first) first.tabIndex = 0;
  tbody.addEventListener('keydown', (e) => {
    const row = (e.target as HTMLElement).closest('tr');
    if (!row || row !== e.target) return;
    const list = rows();
    const i = list.indexOf(row as HTMLTableRowElement);
    let next: HTMLTableRowElement | undefined;
    if (e.key === 'ArrowDown') next = list[i + 1];
    else if (e.key === 'ArrowUp') next = list[i - 1];
    else if (e.key === 'Home') next = list[0];
    else if (e.key === 'End') next = list[list.length - 1];
    else if (e.key === 'Enter' || e.key === ' ') {
      row.querySelector('button')?.click();
      e.preventDefault();
      return;
    } else return;
    e.preventDefault();
    if (next) {
      for (const r of list) r.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    }
  });
  tbody.addEventListener('focusin', (e) => {
    const row = (e.target as HTMLElement).closest('tr');
    if (row && row.classList.contains('row') && row.tabIndex !== 0) {
      for (const r of rows()) r.tabIndex = -1;
      row.tabIndex = 0;
    }
  });
}

export function formatBytes(n: number): string {
  if (n < 1024) return l10n.t('{0} chars', n);
  if (n < 1024 * 1024) return l10n.t('{0} K chars', (n / 1024).toFixed(1));
  return l10n.t('{0} M chars', (n / 1024 / 1024).toFixed(1));
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** A scrollable `table.grid` with one header row of column names over `tbody`. */
export function gridTable(columns: string[], tbody: HTMLTableSectionElement): HTMLElement {
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { class: 'grid' },
      h('thead', null, h('tr', null, ...columns.map((l) => h('th', { attrs: { scope: 'col' } }, l)))),
      tbody,
    ),
  );
}
