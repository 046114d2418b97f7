/**
 * The triage view's header at a glance: small bar charts of the rows (verdicts, the worst
 * CVSS/exploitation band, the top countries, ASNs and products with CVEs), each bar a filter
 * of the table. Pure: no VS Code, no DOM; the extension computes it (the test API reads it)
 * and the page draws it with the chart renderer (webview/charts/svg.ts). Bounded: each chart
 * has at most `GLANCE_TOP` bars plus one "other". Labels from scan data stay plain strings.
 */
import { riskBand, RISK_BAND_LABEL, RISK_BANDS } from '../../core/exploitation/bands';
import { chartBars, type ChartBar } from '../charts/bars';
import {
  rowRisk,
  VERDICT_CLASSES,
  type GlanceChartId,
  type TriageRowView,
  type TriageVerdictClass,
} from './protocol';
import { l10n } from '../../core/text/l10n';

export { GLANCE_CHARTS, type GlanceChartId } from './protocol';

/** Bars per chart besides "other". */
export const GLANCE_TOP = 5;

/** A verdict class in words (a function: the words are known once translations are). */
export function verdictLabel(v: TriageVerdictClass): string {
  return {
    vulnerable: l10n.t('Vulnerable'),
    known: l10n.t('Known'),
    unknown: l10n.t('Unknown to ODIN'),
    local: l10n.t('Not sent'),
    pending: l10n.t('Not enriched'),
    failed: l10n.t('Failed'),
  }[v];
}

function chartTitle(id: GlanceChartId): string {
  return {
    verdict: l10n.t('Verdicts'),
    band: l10n.t('Worst CVE'),
    country: l10n.t('Top countries'),
    asn: l10n.t('Top ASNs'),
    product: l10n.t('Top products with CVEs'),
  }[id];
}

export interface GlanceChart {
  id: GlanceChartId;
  title: string;
  /** The bars: `bar.bucket` indexes `keys`; "other" has no bucket and filters nothing. */
  bars: ChartBar[];
  /** The value each bucket filters by (a verdict class, a band, a country, an ASN, a product). */
  keys: string[];
  /** Rows the chart counts (hosts only for band, country, ASN and product). */
  counted: number;
}

export interface TriageGlance {
  charts: GlanceChart[];
}

/** What the table is filtered to from the header: a chart and one of its keys. */
export interface GlanceSelection {
  chart: GlanceChartId;
  key: string;
}

/** The band of a host without known CVEs (after the bands of core/exploitation/bands.ts). */
const NO_CVES = 'clean';

const isHost = (r: TriageRowView): boolean =>
  (r.kind === 'ipv4' || r.kind === 'ipv6') && (r.verdict === 'vulnerable' || r.verdict === 'known');

/** The keys a row counts under in a chart (none: not counted there; products: several). */
export function glanceKeys(r: TriageRowView, chart: GlanceChartId): readonly string[] {
  switch (chart) {
    case 'verdict':
      return [r.verdict];
    case 'band':
      return isHost(r) ? [r.cves > 0 ? riskBand(rowRisk(r)) : NO_CVES] : [];
    case 'country':
      return isHost(r) && r.country ? [r.country] : [];
    case 'asn':
      return isHost(r) && r.asn ? [r.asn] : [];
    case 'product':
      return isHost(r) && r.cves > 0 ? (r.products ?? []) : [];
  }
}

/** The positions of `order` whose row passes the header's selection (all without one). */
export function glanceFilter(
  rows: readonly TriageRowView[],
  order: readonly number[],
  sel: GlanceSelection | undefined,
): number[] {
  if (!sel) return [...order];
  return order.filter((i) => glanceKeys(rows[i]!, sel.chart).includes(sel.key));
}

/** Bars in a fixed order (verdicts, bands), the empty ones left out. */
function fixedChart(
  id: GlanceChartId,
  rows: readonly TriageRowView[],
  order: readonly string[],
  label: (k: string) => string,
): GlanceChart {
  const counts = new Map<string, number>();
  let counted = 0;
  for (const r of rows) {
    const keys = glanceKeys(r, id);
    if (keys.length) counted++;
    for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const keys = order.filter((k) => (counts.get(k) ?? 0) > 0);
  const bars = keys.map((k, bucket) => {
    const count = counts.get(k)!;
    return { bucket, label: label(k), count, share: counted > 0 ? count / counted : 0 };
  });
  return { id, title: chartTitle(id), bars, keys, counted };
}

/** The largest `GLANCE_TOP` values, then "other" for the rest (ties by value). */
function topChart(
  id: GlanceChartId,
  rows: readonly TriageRowView[],
  label?: (k: string) => string,
): GlanceChart {
  const counts = new Map<string, number>();
  let counted = 0;
  for (const r of rows) {
    const keys = glanceKeys(r, id);
    if (keys.length) counted++;
    for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const top = ranked.slice(0, GLANCE_TOP);
  const rest = ranked.slice(GLANCE_TOP).reduce((n, [, c]) => n + c, 0);
  const keys = top.map(([k]) => k);
  const bars = chartBars(
    top.map(([k, c]) => ({ key: label ? label(k) : k, doc_count: c })),
    rest,
  );
  return { id, title: chartTitle(id), bars, keys, counted };
}

/** The header's charts for the rows of one triage. */
export function triageGlance(rows: readonly TriageRowView[]): TriageGlance {
  const asnOrg = new Map<string, string>();
  for (const r of rows) if (r.asn && r.org && !asnOrg.has(r.asn)) asnOrg.set(r.asn, r.org);
  return {
    charts: [
      fixedChart('verdict', rows, VERDICT_CLASSES, (k) => verdictLabel(k as TriageVerdictClass)),
      fixedChart('band', rows, [...RISK_BANDS, NO_CVES], (k) =>
        k === NO_CVES ? l10n.t('No known CVEs') : RISK_BAND_LABEL[k as keyof typeof RISK_BAND_LABEL],
      ),
      topChart('country', rows),
      topChart('asn', rows, (k) => (asnOrg.has(k) ? `${k} ${asnOrg.get(k)!}` : k)),
      topChart('product', rows),
    ],
  };
}
