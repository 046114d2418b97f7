/**
 * A summary over a time field (`last_updated_at`, `services.last_updated_at`, `created_at`,
 * an `expires_date` …) as a histogram over time: the buckets' dates binned by day, week
 * (Monday, UTC) or month, the unit chosen from the range so a chart has at most `MAX_BINS`
 * bins, empty bins kept so the gaps show, oldest first. A key that is not a date is counted
 * in a bar of its own, never dropped; "other" (`sum_other_doc_count`) stays its own bar, as
 * in bars.ts. Pure: no VS Code, no DOM.
 */
import { otherLabel, type ChartBar, type ChartBucket } from './bars';
import { l10n } from '../../core/text/l10n';

export type TimeUnit = 'day' | 'week' | 'month' | 'year';

/** Bins at most per chart: the unit grows until the range fits. */
export const MAX_BINS = 60;
/** The bar of the buckets whose key is not a date. */
export const notADateLabel = (): string => l10n.t('Not a date');

const DAY = 86_400_000;

/** Whether a summary field holds dates (its last part ends in `_at`, `date` or `_time`). */
export function isTimeField(field: string): boolean {
  const last = field.split('.').pop() ?? '';
  return /(_at|date|_time|timestamp)$/i.test(last);
}

/** A bucket key as ms since the epoch: ISO text, or a number of ms (seconds when small). */
export function keyTime(key: ChartBucket['key']): number | undefined {
  if (typeof key === 'number') {
    if (!Number.isFinite(key)) return undefined;
    return Math.abs(key) < 1e11 ? key * 1000 : key;
  }
  if (typeof key !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(key.trim())) return undefined;
  const t = Date.parse(key.trim());
  return Number.isFinite(t) ? t : undefined;
}

/** The start of the bin holding `t` (UTC). */
function binStart(t: number, unit: TimeUnit): number {
  const d = new Date(t);
  switch (unit) {
    case 'day':
      return Math.floor(t / DAY) * DAY;
    case 'week': {
      const day = Math.floor(t / DAY) * DAY;
      return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY;
    }
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case 'year':
      return Date.UTC(d.getUTCFullYear(), 0, 1);
  }
}

function nextBin(start: number, unit: TimeUnit): number {
  const d = new Date(start);
  switch (unit) {
    case 'day':
      return start + DAY;
    case 'week':
      return start + 7 * DAY;
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    case 'year':
      return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
  }
}

function binLabel(start: number, unit: TimeUnit): string {
  const iso = new Date(start).toISOString();
  switch (unit) {
    case 'day':
      return iso.slice(0, 10);
    case 'week':
      return l10n.t('week of {0}', iso.slice(0, 10));
    case 'month':
      return iso.slice(0, 7);
    case 'year':
      return iso.slice(0, 4);
  }
}

function binsBetween(from: number, to: number, unit: TimeUnit): number {
  let n = 0;
  for (let s = binStart(from, unit); s <= to && n <= MAX_BINS; s = nextBin(s, unit)) n++;
  return n;
}

/** The smallest unit that draws the range in at most `MAX_BINS` bins. */
export function timeUnit(from: number, to: number): TimeUnit {
  for (const unit of ['day', 'week', 'month'] as const)
    if (binsBetween(from, to, unit) <= MAX_BINS) return unit;
  return 'year';
}

export interface TimeHistogram {
  unit: TimeUnit;
  /** Oldest bin first; then "Not a date" and "other" bars when there are any. */
  bars: ChartBar[];
  /** Bucket counts whose key was not a date (counted in their own bar). */
  unparsed: number;
  /** The first and last day with a count (YYYY-MM-DD), when any key was a date. */
  from?: string;
  to?: string;
}

/** The buckets of a time summary as a histogram (see the file's comment). */
export function timeHistogram(buckets: readonly ChartBucket[], sumOther = 0): TimeHistogram {
  const counted = (n: number): number => (Number.isFinite(n) && n > 0 ? n : 0);
  const other = counted(sumOther);
  const times: { t: number; n: number }[] = [];
  let unparsed = 0;
  let total = other;
  for (const b of buckets) {
    const n = counted(b.doc_count);
    total += n;
    const t = keyTime(b.key);
    if (t === undefined) unparsed += n;
    else times.push({ t, n });
  }
  const share = (n: number): number => (total > 0 ? n / total : 0);
  const bars: ChartBar[] = [];
  let unit: TimeUnit = 'day';
  let from: string | undefined;
  let to: string | undefined;
  if (times.length) {
    let min = Infinity;
    let max = -Infinity;
    for (const { t } of times) {
      if (t < min) min = t;
      if (t > max) max = t;
    }
    unit = timeUnit(min, max);
    const counts = new Map<number, number>();
    for (const { t, n } of times) {
      const s = binStart(t, unit);
      counts.set(s, (counts.get(s) ?? 0) + n);
    }
    for (let s = binStart(min, unit); s <= max; s = nextBin(s, unit)) {
      const n = counts.get(s) ?? 0;
      bars.push({ label: binLabel(s, unit), count: n, share: share(n) });
    }
    from = new Date(min).toISOString().slice(0, 10);
    to = new Date(max).toISOString().slice(0, 10);
  }
  if (unparsed > 0)
    bars.push({ label: notADateLabel(), count: unparsed, share: share(unparsed), other: true });
  if (other > 0) bars.push({ label: otherLabel(), count: other, share: share(other), other: true });
  return { unit, bars, unparsed, ...(from ? { from, to } : {}) };
}
