/** The terms aggregation of the summary endpoints (5, 6). */
import { type Primitive, valuesAt } from './evaluate';

export interface TermsAggregation {
  buckets: { key: Primitive; doc_count: number }[];
  doc_count_error_upper_bound: number;
  sum_other_doc_count: number;
}

/** An Elasticsearch terms aggregation: each record counts once per distinct value. */
export function termsAggregation<T>(records: T[], path: string, size: number): TermsAggregation {
  const counts = new Map<string, { key: Primitive; doc_count: number }>();
  for (const r of records) {
    const seen = new Set<string>();
    for (const v of valuesAt(r, path)) {
      const k = `${typeof v}:${String(v)}`;
      if (seen.has(k)) continue;
      seen.add(k);
      const b = counts.get(k);
      if (b) b.doc_count++;
      else counts.set(k, { key: v, doc_count: 1 });
    }
  }
  const all = [...counts.values()].sort(
    (a, b) =>
      b.doc_count - a.doc_count ||
      (String(a.key) < String(b.key) ? -1 : String(a.key) > String(b.key) ? 1 : 0),
  );
  const top = all.slice(0, size);
  const other = all.slice(size).reduce((n, b) => n + b.doc_count, 0);
  return { buckets: top, doc_count_error_upper_bound: 0, sum_other_doc_count: other };
}
