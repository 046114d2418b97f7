/** Exposed-storage buckets. */
import type { Bucket } from '../types';
import { isObj, str, nonEmpty, num, bool, strList, obj, time, FORBIDDEN_KEYS, compact } from './json';

export function normalizeBucket(v: unknown): Bucket | undefined {
  if (!isObj(v) || !nonEmpty(v.name)) return undefined;
  const counts: Record<string, number> = {};
  for (const [k, x] of Object.entries(obj(v.file_cat_count))) {
    const n = num(x);
    if (n !== undefined && !FORBIDDEN_KEYS.has(k)) counts[k] = n;
  }
  return compact<Bucket>({
    name: v.name as string,
    provider: str(v.provider),
    region: str(v.region),
    owner_id: str(v.owner_id),
    open: bool(v.open),
    deleted: bool(v.deleted),
    labels: strList(v.labels),
    categories: strList(v.categories),
    files: num(v.files),
    new_files: num(v.new_files),
    sensitive_files: num(v.sensitive_files),
    file_cat_count: counts,
    age_in_days: num(v.age_in_days),
    ins_at: time(v.ins_at),
    scan_at: time(v.scan_at),
    prev_scan_at: time(v.prev_scan_at),
    last_found_at: time(v.last_found_at),
    last_open_at: time(v.last_open_at),
  });
}
