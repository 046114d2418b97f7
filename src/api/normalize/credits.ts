/** `/v1/credits/usage`: credits left and their expiry. */
import type { CreditsUsage } from '../types';
import { isObj, num, obj, time, compact, type Obj } from './json';
import { envelopeData } from './envelope';

/**
 * The credits' expiry: an integer (Cyble's schemas: epoch seconds; milliseconds accepted)
 * or a date string, as ISO 8601.
 */
function expiry(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) {
    const ms = v < 100_000_000_000 ? v * 1000 : v;
    return ms <= 8_640_000_000_000_000 ? new Date(ms).toISOString() : undefined;
  }
  return time(v);
}

/**
 * `/v1/credits/usage`: `{search: {host_cert: {left, plan}, bucket_file: {…}}, expires_on}`
 * at the top level (every official schema), or under `data`.
 */
export function normalizeCredits(body: Obj): CreditsUsage | undefined {
  const data = envelopeData(body);
  const root = isObj(data) && ('search' in data || 'expires_on' in data) ? data : body;
  const search = obj(root.search);
  const part = (v: unknown): { left?: number; plan?: number } | undefined => {
    if (!isObj(v)) return undefined;
    const p = compact({ left: num(v.left), plan: num(v.plan) });
    return Object.keys(p).length ? p : undefined;
  };
  const out = compact<CreditsUsage>({
    hostCert: part(search.host_cert),
    bucketFile: part(search.bucket_file),
    expiresOn: expiry(root.expires_on),
  });
  return Object.keys(out).length ? out : undefined;
}
