/**
 * A summary's buckets as the bars of a chart: sorted by count (then by label), each with its
 * share of everything the summary counted, and "other" (the service's `sum_other_doc_count`)
 * as a bar of its own at the end. Pure: no VS Code, no DOM. Labels are kept as the plain
 * strings the scan data holds; the page puts them in the document as text, never markup.
 */
import { l10n } from '../../core/text/l10n';
/** A summary bucket as the API answers it (structurally api/types.ts AggregationBucket). */
export interface ChartBucket {
  key: string | number | boolean | null;
  doc_count: number;
}

export interface ChartBar {
  /** The bucket's position in the summary (the id the page sends back); absent on "other". */
  bucket?: number;
  /** The value as text: `(none)` for a null key. Scan data: shown as text only. */
  label: string;
  count: number;
  /** count / (all buckets + other), 0..1; 0 when nothing was counted. */
  share: number;
  /** The bar of values not listed (`sum_other_doc_count`): it has no value to narrow by. */
  other?: true;
}

/** The label of a null key. */
export const noneLabel = (): string => l10n.t('(none)');
/** The label of the bar of values not listed. */
export const otherLabel = (): string => l10n.t('Other values');

export function keyLabel(key: ChartBucket['key']): string {
  return key === null ? noneLabel() : String(key);
}

/** Bars of `buckets` (largest first) and one "other" bar when `sumOther` > 0. */
export function chartBars(buckets: readonly ChartBucket[], sumOther = 0): ChartBar[] {
  const other = Number.isFinite(sumOther) && sumOther > 0 ? sumOther : 0;
  const counted = (n: number): number => (Number.isFinite(n) && n > 0 ? n : 0);
  const total = buckets.reduce((s, b) => s + counted(b.doc_count), 0) + other;
  const share = (n: number): number => (total > 0 ? n / total : 0);
  const bars: ChartBar[] = buckets.map((b, i) => ({
    bucket: i,
    label: keyLabel(b.key),
    count: counted(b.doc_count),
    share: share(counted(b.doc_count)),
  }));
  bars.sort((a, b) => b.count - a.count || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  if (other > 0) bars.push({ label: otherLabel(), count: other, share: share(other), other: true });
  return bars;
}

/** "12.5%" (one decimal below 10%, none above; "<0.1%" for a small non-zero share). */
export function shareText(share: number): string {
  if (share <= 0) return '0%';
  const pct = share * 100;
  if (pct < 0.1) return '<0.1%';
  return pct < 10 ? `${pct.toFixed(1)}%` : `${Math.round(pct)}%`;
}
