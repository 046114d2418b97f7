/**
 * A small SVG renderer for horizontal bar charts (no library): one row per bar, its label on
 * the left, the bar, then its count and share. Every label is scan data and enters the
 * document only as `textContent` of a `<text>` or `<title>` node, never as markup or an
 * attribute that could run. Colours come from the theme through CSS classes in
 * media/details.css (`var(--vscode-…)`); `inlineColours` copies the computed ones onto a
 * clone for export, where those variables do not exist.
 */
import { shareText, type ChartBar } from '../../common/chartBars';
import { l10n } from '../../core/text/l10n';

const NS = 'http://www.w3.org/2000/svg';
export const ROW_H = 26;
const BAR_H = 18;
const LABEL_W = 220;
const VALUE_W = 130;
const COMPACT_LABEL_W = 160;
const COMPACT_VALUE_W = 90;
const PAD = 8;
/** Labels longer than this are cut (the whole one is in the bar's title and the table). */
const LABEL_CHARS = 40;

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

const fmt = (n: number): string => n.toLocaleString('en-US');
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

/** The chart as one `<svg>`: each bar that narrows is a focusable `role="button"` group. */
export function barChart(bars: readonly ChartBar[], opts: BarChartOptions): SVGSVGElement {
  const labelW = opts.compact ? COMPACT_LABEL_W : LABEL_W;
  const valueW = opts.compact ? COMPACT_VALUE_W : VALUE_W;
  const width = Math.max(opts.compact ? 240 : 360, Math.floor(opts.width));
  const height = bars.length * ROW_H + PAD * 2;
  const svg = el('svg', {
    xmlns: NS,
    class: 'bar-chart',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'group',
    'aria-label': opts.title,
  });
  const max = bars.reduce((m, b) => Math.max(m, b.count), 0);
  const plotW = Math.max(40, width - labelW - valueW - PAD * 2);
  const action = opts.actionLabel ?? l10n.t('Narrow the search to this value.');
  bars.forEach((bar, i) => {
    const y = PAD + i * ROW_H;
    const w = max > 0 ? Math.max(bar.count > 0 ? 2 : 0, (bar.count / max) * plotW) : 0;
    const value = `${fmt(bar.count)} (${shareText(bar.share)})`;
    const active = !bar.other && bar.bucket !== undefined && opts.onActivate !== undefined;
    const chosen = active && opts.selected !== undefined && bar.bucket === opts.selected;
    const g = el('g', {
      class: `bar-row${bar.other ? ' other' : ''}${active ? ' active' : ''}${chosen ? ' selected' : ''}`,
      'data-bar': i,
      ...(active ? { tabindex: 0, role: 'button' } : { role: 'img' }),
      ...(active && opts.selected !== undefined ? { 'aria-pressed': String(chosen) } : {}),
      'aria-label': `${bar.label}: ${value}${active ? `. ${action}` : ''}`,
    });
    g.appendChild(el('title', {}, `${bar.label}: ${value}`));
    g.appendChild(el('rect', { class: 'bar-hit', x: 0, y, width, height: ROW_H }));
    g.appendChild(
      el(
        'text',
        { class: 'bar-label', x: labelW - PAD, y: y + ROW_H / 2, 'text-anchor': 'end' },
        cut(bar.label),
      ),
    );
    g.appendChild(
      el('rect', {
        class: 'bar',
        x: labelW,
        y: y + (ROW_H - BAR_H) / 2,
        width: w.toFixed(1),
        height: BAR_H,
      }),
    );
    g.appendChild(el('text', { class: 'bar-value', x: labelW + w + PAD, y: y + ROW_H / 2 }, value));
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
  return svg;
}

/**
 * Shortens each label that is wider than its column (measured: the chart must be in the
 * document and shown), keeping its start and an ellipsis. Nothing to do while hidden.
 */
export function fitLabels(svg: SVGSVGElement, compact = false): void {
  const max = (compact ? COMPACT_LABEL_W : LABEL_W) - PAD * 2;
  for (const label of Array.from(svg.querySelectorAll<SVGTextElement>('text.bar-label'))) {
    let s = label.textContent ?? '';
    while (s.length > 1 && label.getComputedTextLength() > max) {
      s = s.slice(0, -2);
      label.textContent = `${s}…`;
    }
  }
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
