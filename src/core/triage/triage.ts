// One triage, from the rows of the scan (./scan.ts) to the verdicts: preview (never sent /
// cached / requests the chosen mode will send / credits) → enrichment (batched `ip:` host
// searches in chunks, or one lookup per target) within the request budget the preview showed;
// a refused batch is new cost: single lookups only after a new yes (`confirmFallback`), or
// none, "over budget" → partial/failed accounting. A re-run plans only the rows still pending
// or failed. Pure: no `vscode` import; the caller supplies the privacy decision and the
// lookups (through its request layer and cache).
import { OdinApiError } from '../../api/errors';
import { OverBudgetError, RequestBudget } from '../requests/budget';
import type { DetectionKind } from '../detect';
import { LocalRateLimitError } from '../requests/limiter';
import { LookupsPausedError } from '../requests/layer';
import { l10n } from '../text/l10n';
import { lookupKind, type Triage, type TriageRow, type Verdict, type HostVerdict } from './model';

/** What a lookup answered: a verdict, or a definite "ODIN does not know it". */
export type Answer = { found: true; verdict: Verdict } | { found: false };

/**
 * The lookups a triage uses; the extension implements it with its request layer and cache.
 * Each lookup sends under `budget`, which the request layer charges as a request leaves (and
 * refuses once it is used up): the triage's count is what reached the service.
 */
export interface EnrichmentSource {
  /** The cached answer, without a request (fresh or stale: a stale verdict is still a verdict). */
  cached(kind: 'host' | 'domain', value: string): Answer | undefined;
  lookupHost(ip: string, signal: AbortSignal, budget: RequestBudget): Promise<Answer>;
  lookupDomain(domain: string, signal: AbortSignal, budget: RequestBudget): Promise<Answer>;
  /**
   * One host search for many IPs (`ip:a OR ip:b …`): the verdicts of the hosts found; an IP
   * missing from the map is unknown to ODIN. Throws a `badRequest` OdinApiError when the API
   * refuses the query (the triage then falls back to single lookups).
   */
  lookupHostsBatch?(
    ips: readonly string[],
    signal: AbortSignal,
    budget: RequestBudget,
  ): Promise<Map<string, HostVerdict>>;
}

/**
 * `source` with every value passed through `pass` at the moment it is sent (the gate, once
 * more): `pass` returns the canonical value to send, or throws its refusal. The one wrapper
 * that the triage command and the agents' triage tool both use.
 */
export function guardedSource(
  source: EnrichmentSource,
  pass: (value: string, kind: 'ip' | 'domain') => string,
): EnrichmentSource {
  const out: EnrichmentSource = {
    cached: (kind, value) => source.cached(kind, value),
    lookupHost: (ip, signal, budget) => source.lookupHost(pass(ip, 'ip'), signal, budget),
    lookupDomain: (domain, signal, budget) => source.lookupDomain(pass(domain, 'domain'), signal, budget),
  };
  const batch = source.lookupHostsBatch;
  if (batch)
    out.lookupHostsBatch = (ips, signal, budget) =>
      batch(
        ips.map((ip) => pass(ip, 'ip')),
        signal,
        budget,
      );
  return out;
}

export interface EnrichOptions {
  /** Batch IPs into host searches (when the source can). Default true. */
  batching?: boolean;
  /** IPs per batched search. Default 50. */
  batchSize?: number;
  /** Requests in flight at once. Default 4. */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /**
   * The requests agreed to (the count the preview showed). Default: the plan's count. The
   * request layer enforces it; `EnrichResult.requests` is what it charged.
   */
  budget?: RequestBudget;
  /**
   * The service refused the batched search: may `singles` lookups, one per IP left, be sent
   * beyond what is left of the budget? (A person is asked in a modal.) Without it the run
   * stops there, "over budget" (agents), and sends no single lookup.
   */
  confirmFallback?: (singles: number, budget: RequestBudget) => Promise<boolean>;
}

export type Mode = 'batched' | 'single';

export interface Preview {
  unique: number;
  byKind: Record<DetectionKind, number>;
  /** Private, internal or denied: never sent. */
  private: number;
  /** No lookup for this kind (CIDR blocks). */
  notLookedUp: number;
  /** Answered from the cache (no request). */
  cached: number;
  /** Rows a run would send. */
  toSend: number;
  /** Requests a run would send in `mode`. */
  requests: number;
  mode: Mode;
  occurrences: number;
  truncated: boolean;
}

/** Fills rows from the cache (no request) and counts what enrichment would send. */
export function preview(
  triage: Triage,
  source: Pick<EnrichmentSource, 'cached' | 'lookupHostsBatch'>,
  opts: EnrichOptions = {},
): Preview {
  applyCache(triage, source);
  const byKind: Record<DetectionKind, number> = { ipv4: 0, ipv6: 0, cidr: 0, domain: 0 };
  let priv = 0;
  let notLookedUp = 0;
  let cached = 0;
  for (const r of triage.rows) {
    byKind[r.kind]++;
    if (r.private) priv++;
    else if (r.status === 'local') notLookedUp++;
    else if (r.fromCache) cached++;
  }
  const plan = planRequests(triage, source, opts);
  return {
    unique: triage.rows.length,
    byKind,
    private: priv,
    notLookedUp,
    cached,
    toSend: plan.reduce((n, p) => n + (p.kind === 'batch' ? p.ips.length : 1), 0),
    requests: plan.length,
    mode: modeOf(source, opts),
    occurrences: triage.occurrences,
    truncated: triage.truncated,
  };
}

function modeOf(source: Pick<EnrichmentSource, 'lookupHostsBatch'>, opts: EnrichOptions): Mode {
  return opts.batching !== false && source.lookupHostsBatch ? 'batched' : 'single';
}

/** Rows still to send that the cache can answer now become enriched/unknown from the cache. */
export function applyCache(triage: Triage, source: Pick<EnrichmentSource, 'cached'>): void {
  for (const r of triage.rows) {
    if (r.status !== 'pending' && r.status !== 'failed') continue;
    const lk = lookupKind(r);
    if (!lk) continue;
    const hit = source.cached(lk, r.value);
    if (!hit) continue;
    settle(r, hit, true);
  }
}

function settle(r: TriageRow, a: Answer, fromCache: boolean): void {
  r.fromCache = fromCache;
  if (!fromCache) r.sent = true;
  r.reason = undefined;
  if (a.found) {
    r.status = 'enriched';
    r.verdict = a.verdict;
  } else {
    r.status = 'unknown';
    r.verdict = undefined;
  }
}

export type PlannedRequest =
  { kind: 'batch'; ips: string[] } | { kind: 'host'; ip: string } | { kind: 'domain'; domain: string };

/** The requests a run sends: rows pending or failed, IPs in chunks when batching. */
export function planRequests(
  triage: Triage,
  source: Pick<EnrichmentSource, 'lookupHostsBatch'>,
  opts: EnrichOptions = {},
): PlannedRequest[] {
  const size = Math.max(1, Math.min(opts.batchSize ?? 50, 500));
  const batched = modeOf(source, opts) === 'batched';
  const out: PlannedRequest[] = [];
  let chunk: string[] = [];
  for (const r of triage.rows) {
    if (r.status !== 'pending' && r.status !== 'failed') continue;
    const lk = lookupKind(r);
    if (lk === 'domain') out.push({ kind: 'domain', domain: r.value });
    else if (lk === 'host' && !batched) out.push({ kind: 'host', ip: r.value });
    else if (lk === 'host') {
      chunk.push(r.value);
      if (chunk.length === size) {
        out.push({ kind: 'batch', ips: chunk });
        chunk = [];
      }
    }
  }
  if (chunk.length) out.push({ kind: 'batch', ips: chunk });
  return out;
}

export interface EnrichResult {
  /**
   * Requests this run sent, as the request layer charged them: what reached the service (a
   * refused batch counts, and so do its fallbacks; what the local limiter refused does not).
   */
  requests: number;
  /** Rows that may be sent (public, with a lookup). */
  eligible: number;
  /** Rows with an answer (verdict or "unknown to ODIN"), cached or new. */
  answered: number;
  failed: number;
  pending: number;
  partial: boolean;
  /** Why the run stopped early, if it did ("credits used up", "cancelled"). */
  stoppedBecause?: string;
  /** Batched searches were refused and the run fell back to single lookups. */
  batchRefused: boolean;
  /** "412 of 530 enriched; 118 not: credits used up; 413 requests sent". */
  summary: string;
}

/**
 * Why a run stopped when a refused batch's single lookups were not agreed to, as the agent
 * compares it: its tool calls read English words (core/text/l10n.ts `englishWhile`), and
 * `overBudget()` in English is this.
 */
// l10n: English, for the model (the agent compares it)
export const OVER_BUDGET = 'over budget';
const overBudget = (): string => l10n.t('over budget');
const cancelled = (): string => l10n.t('cancelled');

/** Why an error ends the whole run (credits, key, rate limit, pause), or undefined for a per-item failure. */
function stopReason(err: unknown): string | undefined {
  if (err instanceof LookupsPausedError)
    return err.pause.reason === 'quota' ? l10n.t('credits used up') : l10n.t('lookups paused');
  if (err instanceof OverBudgetError) return overBudget();
  if (err instanceof LocalRateLimitError) return l10n.t('local limit of automatic lookups reached');
  if (!(err instanceof OdinApiError)) return undefined;
  switch (err.kind) {
    case 'quota':
      return l10n.t('credits used up');
    case 'auth':
      return l10n.t('API key rejected');
    case 'forbidden':
      return l10n.t('access refused (HTTP 403)');
    case 'rateLimited':
      return l10n.t('rate limited');
    case 'cancelled':
      return cancelled();
    default:
      return undefined;
  }
}

function itemReason(err: unknown): string {
  if (err instanceof OdinApiError) {
    switch (err.kind) {
      case 'network':
        return err.network === 'reset' ? l10n.t('connection reset') : l10n.t('network error');
      case 'timeout':
        return l10n.t('timed out');
      case 'server':
        return err.status ? l10n.t('server error (HTTP {0})', err.status) : l10n.t('server error');
      case 'badResponse':
        return l10n.t('unreadable answer');
      case 'badRequest':
        return l10n.t('refused as a bad request');
      case 'tooLarge':
        return l10n.t('answer too large');
      default:
        return err.kind;
    }
  }
  return 'failed';
}

/** Rows a stopped run left pending say why (and whether their batched search was refused). */
function sayWhyPending(rows: Iterable<TriageRow>, stopped: string, refused: ReadonlySet<string>): void {
  for (const r of rows) {
    if (r.status !== 'pending') continue;
    r.reason =
      refused.has(r.value) && stopped !== cancelled()
        ? l10n.t('{0} (batched search refused)', stopped)
        : stopped;
  }
}

/**
 * Enriches the rows still pending or failed within the budget (default: the plan's count).
 * A batched search the service refuses (400) is not retried one IP at a time on its own:
 * the batches after it are not sent either, and once the rest of the plan has run the IPs
 * left are looked up singly only within what is left of the budget or after
 * `confirmFallback` said yes; else they stay "over budget". Resolves (never rejects) with
 * the accounting.
 */
export async function enrich(
  triage: Triage,
  source: EnrichmentSource,
  opts: EnrichOptions = {},
): Promise<EnrichResult> {
  applyCache(triage, source);
  const plan = planRequests(triage, source, opts);
  const budget = opts.budget ?? new RequestBudget(plan.length);
  const spentBefore = budget.spent;
  const byValue = new Map<string, TriageRow>();
  for (const r of triage.rows) if (r.status === 'pending' || r.status === 'failed') byValue.set(r.value, r);
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) controller.abort();
  let stopped: string | undefined;
  let batchRefused = false;
  /** IPs of refused batches, and of batches not sent after a refusal. */
  const refusedIps: string[] = [];
  let done = 0;
  let total = plan.length;

  const single = async (ip: string): Promise<void> => {
    settle(byValue.get(ip)!, await source.lookupHost(ip, controller.signal, budget), false);
  };
  const runOne = async (p: PlannedRequest): Promise<void> => {
    try {
      if (p.kind === 'domain') {
        settle(byValue.get(p.domain)!, await source.lookupDomain(p.domain, controller.signal, budget), false);
      } else if (p.kind === 'host') {
        await single(p.ip);
      } else if (batchRefused) {
        // The service refuses this query form: the next batch would be refused too.
        refusedIps.push(...p.ips);
      } else {
        try {
          const found = await source.lookupHostsBatch!(p.ips, controller.signal, budget);
          for (const ip of p.ips) {
            const v = found.get(ip);
            settle(byValue.get(ip)!, v ? { found: true, verdict: v } : { found: false }, false);
          }
        } catch (err) {
          if (!(err instanceof OdinApiError && err.kind === 'badRequest')) throw err;
          batchRefused = true;
          refusedIps.push(...p.ips);
        }
      }
    } catch (err) {
      fail(err, p.kind === 'batch' ? p.ips : [p.kind === 'host' ? p.ip : p.domain]);
    }
  };
  const fail = (err: unknown, values: readonly string[]): void => {
    const why = opts.signal?.aborted ? cancelled() : stopReason(err);
    if (why) {
      if (!stopped) stopped = why;
      controller.abort();
      return;
    }
    for (const v of values) {
      const row = byValue.get(v)!;
      row.status = 'failed';
      row.reason = itemReason(err);
    }
  };

  const runAll = async (work: readonly PlannedRequest[]): Promise<void> => {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (!stopped && !controller.signal.aborted && next < work.length) {
        const p = work[next++]!;
        await runOne(p);
        done++;
        opts.onProgress?.(done, total);
      }
    };
    const n = Math.max(1, Math.min(opts.concurrency ?? 4, 16));
    await Promise.all(Array.from({ length: n }, worker));
  };

  await runAll(plan);
  if (refusedIps.length && !stopped && !controller.signal.aborted) {
    // A fallback is new cost: within what is left of the budget, or after a new yes.
    const singles = refusedIps.length;
    const more = singles - budget.left;
    const agreed =
      more <= 0 || (opts.confirmFallback !== undefined && (await opts.confirmFallback(singles, budget)));
    if (agreed && !controller.signal.aborted) {
      if (more > 0) budget.extend(more);
      total += singles;
      await runAll(refusedIps.map((ip) => ({ kind: 'host', ip })));
    } else if (!controller.signal.aborted) {
      stopped = opts.confirmFallback ? l10n.t('single lookups not confirmed') : overBudget();
    }
  }
  opts.signal?.removeEventListener('abort', onAbort);
  if (!stopped && opts.signal?.aborted) stopped = cancelled();
  if (stopped) sayWhyPending(byValue.values(), stopped, new Set(refusedIps));
  return account(triage, budget.spent - spentBefore, stopped, batchRefused, true);
}

/** The accounting of a triage as it stands. */
export function account(
  triage: Triage,
  requests = 0,
  stoppedBecause?: string,
  batchRefused = false,
  /** Say in the summary how many requests reached the service (a run's own accounting). */
  sayRequests = false,
): EnrichResult {
  let eligible = 0;
  let answered = 0;
  let failed = 0;
  let pending = 0;
  const reasons = new Map<string, number>();
  for (const r of triage.rows) {
    if (r.status === 'local') continue;
    eligible++;
    if (r.status === 'enriched' || r.status === 'unknown') answered++;
    else {
      if (r.status === 'failed') failed++;
      else pending++;
      const why = r.reason ?? l10n.t('not sent');
      reasons.set(why, (reasons.get(why) ?? 0) + 1);
    }
  }
  const partial = answered < eligible;
  const parts = [l10n.t('{0} of {1} enriched', answered, eligible)];
  if (partial) {
    const top = [...reasons.entries()].sort((a, b) => b[1] - a[1]);
    const whys = top.map(([why, n]) => (top.length > 1 ? `${why} (${n})` : why)).join(', ');
    parts.push(l10n.t('{0} not: {1}', eligible - answered, whys));
  }
  if (sayRequests)
    parts.push(requests === 1 ? l10n.t('1 request sent') : l10n.t('{0} requests sent', requests));
  const summary = parts.join('; ');
  const out: EnrichResult = { requests, eligible, answered, failed, pending, partial, batchRefused, summary };
  if (stoppedBecause) out.stoppedBecause = stoppedBecause;
  return out;
}

/** The `ip:` query of one batch: IPv6 values quoted (their colons would read as field separators). */
export function batchQuery(ips: readonly string[]): string {
  return ips.map((ip) => (ip.includes(':') ? `ip:"${ip}"` : `ip:${ip}`)).join(' OR ');
}
