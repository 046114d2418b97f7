/**
 * A credit budget the emulator's requests spend, so that "credits used up" (HTTP 402) and the
 * credits display are real in the demo and the tests. Off by default (the emulator then counts
 * credits down but never refuses); set with `EmulatorOptions.credits`, `POST /__admin/credits`
 * or `Emulator.setCredits`.
 *
 * One served request of the hosts/CVE endpoints spends one host credit (a batched `ip:` search
 * too: one request, one credit); buckets and files spend bucket credits. A refused request
 * spends nothing.
 */
import type { Credits, Reply } from './handlers/common';

export type CreditPool = 'host' | 'bucket';

export interface CreditLimits {
  /** Host credits left; the budget is enforced once set. */
  host?: number;
  bucket?: number;
}

/** Which pool an endpoint spends from (undefined: free, e.g. ping, credits, whois). */
export function poolOf(endpoint: string): CreditPool | undefined {
  if (endpoint === 'credits.usage') return undefined;
  if (endpoint.startsWith('hosts.') || endpoint.startsWith('cves.')) return 'host';
  if (endpoint.startsWith('buckets.') || endpoint.startsWith('files.')) return 'bucket';
  return undefined;
}

export class CreditBudget {
  private readonly enforced: Record<CreditPool, boolean> = { host: false, bucket: false };

  constructor(private readonly credits: Credits) {}

  /** Sets what is left (and enforces it); a negative or non-integer value is refused. */
  configure(limits: CreditLimits): void {
    for (const pool of ['host', 'bucket'] as const) {
      const v = limits[pool];
      if (v === undefined) continue;
      if (!Number.isInteger(v) || v < 0) throw new Error(`credits.${pool} must be a non-negative integer`);
      this.enforced[pool] = true;
      if (pool === 'host') {
        this.credits.hostLeft = v;
        this.credits.hostPlan = Math.max(this.credits.hostPlan, v);
      } else {
        this.credits.bucketLeft = v;
        this.credits.bucketPlan = Math.max(this.credits.bucketPlan, v);
      }
    }
  }

  /** The 402 reply for a request whose pool is spent, or undefined when it may be served. */
  refuse(endpoint: string): Reply | undefined {
    const pool = poolOf(endpoint);
    if (!pool || !this.enforced[pool]) return undefined;
    const left = pool === 'host' ? this.credits.hostLeft : this.credits.bucketLeft;
    if (left > 0) return undefined;
    return {
      status: 402,
      body: { success: false, message: 'Insufficient credits. Please upgrade your plan.' },
    };
  }

  /** Spends one credit for a served request. */
  spend(endpoint: string): void {
    const pool = poolOf(endpoint);
    if (pool === 'host') this.credits.hostLeft = Math.max(0, this.credits.hostLeft - 1);
    else if (pool === 'bucket') this.credits.bucketLeft = Math.max(0, this.credits.bucketLeft - 1);
  }

  status(): { host: { left: number; enforced: boolean }; bucket: { left: number; enforced: boolean } } {
    return {
      host: { left: this.credits.hostLeft, enforced: this.enforced.host },
      bucket: { left: this.credits.bucketLeft, enforced: this.enforced.bucket },
    };
  }
}
