/** Aggregations (summaries), counts and the field catalogues (endpoints 15, 16, 17). */
import type { Aggregation, AggregationBucket, FieldDescriptor } from '../types';
import { isObj, str, nonEmpty, num, bool, mapList, compact } from './json';

const AGG_KEY = (v: unknown): v is AggregationBucket['key'] =>
  v === null ||
  typeof v === 'string' ||
  typeof v === 'boolean' ||
  (typeof v === 'number' && Number.isFinite(v));

export function normalizeAggregation(data: unknown): Aggregation | undefined {
  if (!isObj(data)) return undefined;
  const buckets = mapList(data.buckets, (b): AggregationBucket | undefined => {
    if (!isObj(b) || !AGG_KEY(b.key)) return undefined;
    const docCount = num(b.doc_count);
    return docCount === undefined || docCount < 0 ? undefined : { key: b.key, doc_count: docCount };
  });
  return {
    buckets,
    doc_count_error_upper_bound: num(data.doc_count_error_upper_bound) ?? 0,
    sum_other_doc_count: num(data.sum_other_doc_count) ?? 0,
  };
}

/** A count: `{count: n}` (or a bare number); `undefined` when there is none. */
export function normalizeCount(data: unknown): number | undefined {
  const n = isObj(data) ? num(data.count) : num(data);
  return n !== undefined && n >= 0 ? n : undefined;
}

function normalizeField(v: unknown): FieldDescriptor | undefined {
  if (typeof v === 'string' && v !== '') return { name: v, is_locked: false };
  if (!isObj(v) || !nonEmpty(v.name)) return undefined;
  return compact<FieldDescriptor>({
    name: v.name as string,
    category: str(v.category),
    display_category: str(v.display_category),
    is_locked: bool(v.is_locked) ?? false,
  });
}

export function normalizeFields(data: unknown): FieldDescriptor[] {
  const items = Array.isArray(data) ? data : isObj(data) ? (data.fields ?? data.items) : undefined;
  return mapList(items, normalizeField);
}
