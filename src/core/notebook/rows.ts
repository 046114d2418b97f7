/**
 * A cell's result as rows: the canonical line of each full row (what the sidecar holds and the
 * SHA-256 covers), the short table row people read, and the map point. Canonical means
 * stable: object keys sorted at every depth, `undefined` left out, so an editor run and a
 * headless run of the same data write the same bytes and the same hash. Pure: no VS Code.
 */
import { createHash, type Hash } from 'node:crypto';
import type { AggregationBucket, Host } from '../../api/types';

/** JSON with sorted keys at every depth; `__proto__` keys never come from our parser anyway. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined) out[k] = sortKeys(x);
  }
  return out;
}

/** The columns of a hosts table and of a summary table. */
export const HOST_COLUMNS = ['ip', 'ports', 'country', 'asn', 'organization', 'updated'] as const;
export const FACET_COLUMNS = ['value', 'count'] as const;

export type TableRow = Record<string, string | number>;

/** A host as one table row (the first ten ports; the rest counted). */
export function hostRow(h: Host): TableRow {
  const ports = [...new Set(h.services.map((s) => s.port).filter((p): p is number => typeof p === 'number'))];
  const shown = ports.slice(0, 10).join(', ');
  return {
    ip: h.ip,
    ports: ports.length > 10 ? `${shown} +${ports.length - 10}` : shown,
    country: h.location?.country_code ?? '',
    asn: h.asn?.number ?? '',
    organization: h.asn?.organization ?? '',
    updated: h.last_updated_at ?? '',
  };
}

export function facetRow(b: AggregationBucket): TableRow {
  return { value: String(b.key), count: b.doc_count };
}

/** The SHA-256 of a result, fed one canonical line at a time (the sidecar's bytes). */
export class ResultHash {
  private readonly h: Hash = createHash('sha256');
  private n = 0;
  /** Adds one row; returns its line (with the newline), for the sidecar. */
  add(row: unknown): string {
    const line = `${canonicalJson(row)}\n`;
    this.h.update(line);
    this.n++;
    return line;
  }
  get count(): number {
    return this.n;
  }
  digest(): string {
    return this.h.digest('hex');
  }
}
