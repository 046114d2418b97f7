/**
 * Where a horizontal bar chart's parts go at a width (webview/charts/svg.ts draws them): the
 * label column on the left, then each bar, then its value text ("1,234 (12%)"). Pure
 * arithmetic, no DOM: the page measures the value texts and asks here.
 *
 * At a normal width the columns are fixed (labels 220 px, values 130 px; 160 and 90 in the
 * compact charts of the triage header) and the longest bar fills the rest. In a narrow chart
 * the label column gives way first (to 30% of the width, less only if the widest value needs
 * it) and the bars are scaled so that every value text ends inside the chart: the longest bar
 * is never drawn so long that its value runs past the right edge.
 */

/** Gap between label and bar, bar and value, and the chart's right margin (px). */
export const BAR_PAD = 8;
/** The narrowest chart drawn (px): narrower containers get a chart this wide. */
export const MIN_CHART_WIDTH = 200;
/** Shortest bar with a count (px), so a tiny share still shows. */
export const MIN_BAR = 2;
/** Room kept for the longest bar before the label column is narrowed (px). */
const MIN_PLOT = 40;
const COLUMNS = {
  normal: { label: 220, value: 130 },
  compact: { label: 160, value: 90 },
};

export interface BarLayoutInput {
  /** The width the chart may take (px). */
  width: number;
  /** Each bar's count (negative or non-finite counts as 0). */
  counts: readonly number[];
  /** Each bar's value text width (px), measured on the page (or estimated before). */
  valueWidths: readonly number[];
  /** The narrower columns of the triage header's small charts. */
  compact?: boolean;
}

export interface BarLayout {
  /** The chart's width (px): the width given, at least MIN_CHART_WIDTH. */
  width: number;
  /** The label column's width: labels end BAR_PAD left of it, bars start at it. */
  labelWidth: number;
  /** Each bar's length (px). */
  bars: number[];
  /** Each value text's left edge (px). */
  valueX: number[];
}

export function barLayout(input: BarLayoutInput): BarLayout {
  const cols = input.compact ? COLUMNS.compact : COLUMNS.normal;
  const width = Math.max(MIN_CHART_WIDTH, Math.floor(Number.isFinite(input.width) ? input.width : 0));
  const counts = input.counts.map((c) => (Number.isFinite(c) && c > 0 ? c : 0));
  const texts = counts.map((_, i) => Math.max(0, input.valueWidths[i] ?? 0));
  const widest = texts.reduce((m, t) => Math.max(m, t), 0);
  // The space beside the label column: the bar, a gap, its value, the right margin.
  const beside = (label: number): number => width - label - BAR_PAD * 2;
  let labelWidth = Math.min(cols.label, Math.max(Math.round(width * 0.3), beside(0) - widest - MIN_PLOT));
  // The widest value always fits beside the shortest bar, whatever the labels lose.
  labelWidth = Math.max(0, Math.min(labelWidth, beside(0) - widest - MIN_BAR));
  const max = counts.reduce((m, c) => Math.max(m, c), 0);
  // The longest bar: the fixed value column's rest (the usual look), never less than
  // MIN_PLOT, and never so long that a bar's value would pass the right edge.
  let plot = Math.max(MIN_PLOT, beside(labelWidth) - cols.value);
  counts.forEach((c, i) => {
    if (c > 0) plot = Math.min(plot, ((beside(labelWidth) - texts[i]!) * max) / c);
  });
  plot = Math.max(0, plot);
  const bars = counts.map((c) => (max > 0 && c > 0 ? Math.max(MIN_BAR, (c / max) * plot) : 0));
  return {
    width,
    labelWidth,
    bars,
    valueX: bars.map((b) => labelWidth + b + BAR_PAD),
  };
}
