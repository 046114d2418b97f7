/** Exposed-storage endpoints: bucket search (2), file summary (6) and file count (7). */
import type { BucketRecord } from '../records';
import { bucketOut } from '../dialect';
import { termsAggregation } from '../query/aggregate';
import { BadRequest, cursorValues, type Handler, limitOf, ok, optString, pageStart, queryOf } from './common';
import { BUCKET_SCHEMA, FILE_SCHEMA } from './schemas';

export const BUCKET_SORT_FIELDS = [
  'ins_at',
  'scan_at',
  'files',
  'new_files',
  'sensitive_files',
  'last_found_at',
  'age_in_days',
  'name',
];

export const bucketsSearch: Handler = (ctx, _params, body) => {
  const limit = limitOf(body);
  const pred = queryOf(body, BUCKET_SCHEMA);
  const sortBy = optString(body, 'sort_by') ?? 'ins_at';
  if (!BUCKET_SORT_FIELDS.includes(sortBy))
    throw new BadRequest(`sort_by must be one of ${BUCKET_SORT_FIELDS.join(', ')}`);
  const dirRaw = (optString(body, 'sort_dir') ?? 'desc').toLowerCase();
  if (dirRaw !== 'asc' && dirRaw !== 'desc') throw new BadRequest('sort_dir must be asc or desc');
  const dir = dirRaw === 'asc' ? 1 : -1;
  const key = (b: BucketRecord): string | number => b[sortBy as keyof BucketRecord] as string | number;
  const cmp = (a: string | number, b: string | number): number => (a < b ? -1 : a > b ? 1 : 0);
  const order = (a: BucketRecord, b: BucketRecord): number =>
    dir * cmp(key(a), key(b)) || cmp(a.name, b.name);
  const matching = ctx.ds.buckets.filter(pred).sort(order);
  const dates = sortBy.endsWith('_at');
  const cursor = cursorValues(body.start);
  let from = 0;
  if (cursor) {
    let v: unknown;
    let name: unknown;
    if (cursor.length === 1 && typeof cursor[0] === 'object' && cursor[0] !== null) {
      v = (cursor[0] as Record<string, unknown>)[sortBy];
      name = (cursor[0] as Record<string, unknown>).name;
    } else if (cursor.length === 2) {
      [v, name] = cursor;
      if (dates && typeof v === 'number' && Number.isFinite(v)) v = new Date(v).toISOString();
    }
    if ((typeof v !== 'string' && typeof v !== 'number') || typeof name !== 'string') {
      throw new BadRequest('start must be the pagination.last array of the previous page (same sort_by)');
    }
    const value = v;
    from = matching.findIndex((b) => dir * cmp(key(b), value) > 0 || (key(b) === value && b.name > name));
    if (from < 0) from = matching.length;
  }
  const page = matching.slice(from, from + limit);
  const more = from + page.length < matching.length;
  const lastRec = page[page.length - 1];
  const lastKey = lastRec ? key(lastRec) : undefined;
  const last =
    lastRec === undefined || (!more && ctx.dialect === 'live')
      ? ctx.dialect === 'live'
        ? null
        : []
      : ctx.dialect === 'live'
        ? [dates ? Date.parse(String(lastKey)) : lastKey, lastRec.name]
        : [{ [sortBy]: lastKey, name: lastRec.name }];
  return ok({
    message: 'Buckets fetched successfully',
    data: page.map((b) => bucketOut(b, ctx.dialect)),
    pagination: { start: pageStart(ctx, body.start), last, limit, total: matching.length },
  });
};

export const filesSummary: Handler = (ctx, _params, body) => {
  const field = optString(body, 'field');
  if (!field) throw new BadRequest('field is required');
  const limit = limitOf(body);
  const pred = queryOf(body, FILE_SCHEMA);
  const agg = termsAggregation(ctx.ds.files.filter(pred), FILE_SCHEMA.aliases[field] ?? field, limit);
  return ok({ message: 'Summary fetched successfully', data: agg, pagination: {} });
};

export const filesCount: Handler = (ctx, _params, body) => {
  const pred = queryOf(body, FILE_SCHEMA);
  return ok({
    message: 'Count fetched successfully',
    data: { count: ctx.ds.files.filter(pred).length },
    pagination: {},
  });
};
