/**
 * A small SVG renderer for horizontal bar charts (no library): one row per bar, its label on
 * the left, the bar, then its count and share, placed by common/charts/barLayout.ts (every value
 * inside the chart at any width from 200 px; `fitChart` measures them once shown). Every
 * label is scan data and enters the document only as `textContent` of a `<text>` or
 * `<title>` node, never as markup or an attribute that could run. Colours come from the
 * theme through CSS classes in media/details.css (`var(--vscode-…)`); `inlineColours` copies
 * the computed ones onto a clone for export, where those variables do not exist.
 */
import { BAR_PAD, barLayout, type BarLayout } from '../../common/charts/barLayout';
import { shareText, type ChartBar } from '../../common/charts/bars';
import { l10n } from '../../core/text/l10n';
import { visibleTitle } from '../dom';
import { fmt } from '../../core/text/numbers';

const NS = 'http://www.w3.org/2000/svg';
export const ROW_H = 26;
const BAR_H = 18;
/** Labels longer than this are cut (the whole one is in the bar's title and the table). */
const LABEL_CHARS = 40;
/** A value text's width before it can be measured (px per character at the usual font). */
const VALUE_CHAR_W = 7.5;

function el<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  textContent?: string,
): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (textContent !== undefined) e.textContent = textContent;
  return e;
}

const cut = (s: string): string => (s.length > LABEL_CHARS ? `${s.slice(0, LABEL_CHARS - 1)}…` : s);

export interface BarChartOptions {
  width: number;
  /** The chart's accessible name. */
  title: string;
  /** A bar with a value was activated (click, Enter or Space). */
  onActivate?: (bar: ChartBar) => void;
  /** What activating a bar does, for its accessible name (default: narrowing the search). */
  actionLabel?: string;
  /** The bucket of the bar shown as chosen (`aria-pressed`), e.g. the filter in force. */
  selected?: number;
  /** Narrower label and value columns (the triage header's small charts). */
  compact?: boolean;
}

/** What `fitChart` needs of a drawn chart: its bars, its columns and the width it was given. */
interface Drawn {
  bars: readonly ChartBar[];
  compact: boolean;
  width: number;
}
const drawn = new WeakMap<SVGSVGElement, Drawn>();

/** The chart as one `<svg>`: each bar that narrows is a focusable `role="button"` group. */
export function barChart(bars: readonly ChartBar[], opts: BarChartOptions): SVGSVGElement {
  const svg = el('svg', {
    xmlns: NS,
    class: 'bar-chart',
    role: 'group',
    'aria-label': opts.title,
  });
  const action = opts.actionLabel ?? l10n.t('Narrow the search to this value.');
  bars.forEach((bar, i) => {
    const y = BAR_PAD + i * ROW_H;
    // Bidi and zero-width characters of a label are shown (as in the table), not obeyed.
    const label = visibleTitle(bar.label);
    const value = `${fmt(bar.count)} (${shareText(bar.share)})`;
    const active = !bar.other && bar.bucket !== undefined && opts.onActivate !== undefined;
    const chosen = active && opts.selected !== undefined && bar.bucket === opts.selected;
    const g = el('g', {
      class: `bar-row${bar.other ? ' other' : ''}${active ? ' active' : ''}${chosen ? ' selected' : ''}`,
      'data-bar': i,
      ...(active ? { tabindex: 0, role: 'button' } : { role: 'img' }),
      ...(active && opts.selected !== undefined ? { 'aria-pressed': String(chosen) } : {}),
      'aria-label': `${label}: ${value}${active ? `. ${action}` : ''}`,
    });
    g.appendChild(el('title', {}, `${label}: ${value}`));
    g.appendChild(el('rect', { class: 'bar-hit', x: 0, y, height: ROW_H }));
    g.appendChild(el('text', { class: 'bar-label', y: y + ROW_H / 2, 'text-anchor': 'end' }, cut(label)));
    g.appendChild(el('rect', { class: 'bar', y: y + (ROW_H - BAR_H) / 2, height: BAR_H }));
    g.appendChild(el('text', { class: 'bar-value', y: y + ROW_H / 2 }, value));
    if (active) {
      const fire = (): void => opts.onActivate?.(bar);
      g.addEventListener('click', fire);
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          fire();
        } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault();
          const rows = Array.from(svg.querySelectorAll<SVGGElement>('g.bar-row.active'));
          const next = rows[rows.indexOf(g) + (e.key === 'ArrowDown' ? 1 : -1)];
          next?.focus();
        }
      });
    }
    svg.appendChild(g);
  });
  const d: Drawn = { bars, compact: opts.compact === true, width: opts.width };
  drawn.set(svg, d);
  // Laid out with estimated value widths until `fitChart` can measure them.
  place(
    svg,
    d,
    valueTexts(svg).map((t) => (t.textContent ?? '').length * VALUE_CHAR_W),
  );
  return svg;
}

function valueTexts(svg: SVGSVGElement): SVGTextElement[] {
  return Array.from(svg.querySelectorAll<SVGTextElement>('text.bar-value'));
}

/** Puts the chart's parts where common/charts/barLayout.ts says, for value texts this wide. */
function place(svg: SVGSVGElement, d: Drawn, valueWidths: number[]): BarLayout {
  const layout = barLayout({
    width: d.width,
    counts: d.bars.map((b) => b.count),
    valueWidths,
    compact: d.compact,
  });
  const height = d.bars.length * ROW_H + BAR_PAD * 2;
  svg.setAttribute('width', String(layout.width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('viewBox', `0 0 ${layout.width} ${height}`);
  svg.querySelectorAll<SVGGElement>('g.bar-row').forEach((g, i) => {
    g.querySelector('rect.bar-hit')?.setAttribute('width', String(layout.width));
    g.querySelector('text.bar-label')?.setAttribute('x', String(layout.labelWidth - BAR_PAD));
    const bar = g.querySelector('rect.bar');
    bar?.setAttribute('x', String(layout.labelWidth));
    bar?.setAttribute('width', (layout.bars[i] ?? 0).toFixed(1));
    g.querySelector('text.bar-value')?.setAttribute('x', (layout.valueX[i] ?? 0).toFixed(1));
  });
  return layout;
}

/**
 * Lays the chart out again for its measured value texts (and `width`, when the page's width
 * changed): every value ends inside the chart, and each label wider than its column is
 * shortened, keeping its start and an ellipsis. The chart must be in the document and shown:
 * nothing to measure while hidden (the page calls it again when it shows the chart).
 */
export function fitChart(svg: SVGSVGElement, width?: number): void {
  const d = drawn.get(svg);
  if (!d) return;
  if (width !== undefined) d.width = width;
  const texts = valueTexts(svg);
  const widths = texts.map((t) => t.getComputedTextLength());
  if (texts.some((t, i) => widths[i] === 0 && (t.textContent ?? '') !== '')) return;
  const layout = place(svg, d, widths);
  const max = layout.labelWidth - BAR_PAD * 2;
  svg.querySelectorAll<SVGTextElement>('text.bar-label').forEach((label, i) => {
    let s = cut(visibleTitle(d.bars[i]?.label ?? ''));
    label.textContent = s;
    while (s.length > 1 && label.getComputedTextLength() > max) {
      s = s.slice(0, -2);
      label.textContent = `${s}…`;
    }
  });
}

/** A standalone copy of `svg` for a file: computed colours and font written onto each node. */
export function standaloneSvg(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...Array.from(svg.querySelectorAll('*'))];
  const to = [clone, ...Array.from(clone.querySelectorAll('*'))];
  from.forEach((node, i) => {
    const target = to[i];
    if (!target) return;
    target.removeAttribute('tabindex');
    if (node.tagName === 'title' || node.tagName === 'g' || node.tagName === 'svg') return;
    const cs = getComputedStyle(node);
    target.setAttribute('fill', cs.fill);
    if (cs.stroke && cs.stroke !== 'none') {
      target.setAttribute('stroke', cs.stroke);
      target.setAttribute('stroke-width', cs.strokeWidth);
    }
    if (node.tagName === 'text') {
      target.setAttribute('font-family', cs.fontFamily);
      target.setAttribute('font-size', cs.fontSize);
      target.setAttribute('dominant-baseline', 'middle');
    }
  });
  const bg = getComputedStyle(document.body).backgroundColor;
  const back = document.createElementNS(NS, 'rect');
  back.setAttribute('width', '100%');
  back.setAttribute('height', '100%');
  back.setAttribute('fill', bg);
  clone.insertBefore(back, clone.firstChild);
  // Scan data may hold characters XML 1.0 does not allow (NUL, ESC, BEL): a file with them is
  // not an image any viewer (or the page's own PNG rasteriser) will open.
  return new XMLSerializer().serializeToString(clone).replace(XML_INVALID, '\uFFFD');
}

const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
