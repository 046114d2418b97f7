/**
 * The one call every search goes through (`searchVia`): the catalogue's client call for the
 * kind, sent through the shared request layer (its limiter, origin switch, pause and budget),
 * either as a cached lookup (one request per target at a time; the hover, the agent tools)
 * or as a fresh page of a result set (the palette, saved searches, hunts, Re-run All,
 * narrowing: `searchPages`, where the gate decides each page once: `decideCall`). Pure: no VS Code.
 */
import type { OdinClient } from '../../api/client';
import { OdinApiError } from '../../api/errors';
import type { CreditsUsage } from '../../api/types';
import type { BlockCode, Gate, Trigger } from '../gate';
import type { RequestBudget } from '../requests/budget';
import type { LookupResult, RequestLayer } from '../requests/layer';
import type { SessionLedger } from '../requests/ledger';
import {
  CATALOGUE,
  cacheTarget,
  gateTargets,
  type Answers,
  type CatalogueEntry,
  type CatalogueKind,
  type CatalogueSpec,
  type PageFetcher,
  type PageRequest,
  type PageResult,
} from './catalogue';

/** What a search needs: the client of the moment (origin and key may change) and the request layer. */
export interface SearchEnv {
  client(): OdinClient;
  requests: Pick<RequestLayer, 'get' | 'send' | 'peek'> & { readonly ledger?: SessionLedger };
}

export interface SearchOptions {
  signal?: AbortSignal;
  /** A request the user did not ask for by hand (a hover, an agent): the automatic limits apply. */
  automatic: boolean;
  /** The page asked for: its cursor and size (a paged kind needs it; the others ignore it). */
  page?: PageRequest;
  /**
   * `true`: a page of a result set, always asked afresh and not kept in the cache (a result
   * set keeps its own pages); `false`: a lookup answered from the cache when fresh.
   */
  fresh?: boolean;
  /** The count a confirmation showed: each request sent is charged to it. */
  budget?: RequestBudget;
  /** A lookup asked afresh (skipping the cache) and stored (a page's Refresh). */
  refresh?: boolean;
  /**
   * The gate of the moment: given, the call is decided once here (`decideCall`) before
   * anything is sent or read from the cache, and a refusal throws `PageBlockedError`.
   */
  gate?: CurrentGate;
}

/** A spec of kind `K`. */
export type SpecOf<K extends CatalogueKind> = CatalogueSpec & { kind: K };

/** The one call: the kind's client call through the request layer. */
export async function searchVia<K extends CatalogueKind>(
  env: SearchEnv,
  spec: SpecOf<K>,
  opts: SearchOptions,
): Promise<LookupResult<Answers[K]>> {
  if (opts.gate) await decideCall(spec, opts.gate, undefined, opts.automatic ? 'automatic' : 'explicit');
  const entry = CATALOGUE[spec.kind] as CatalogueEntry<Answers[K]>;
  const page = opts.page ?? { limit: 1 };
  const fetcher = (signal: AbortSignal): Promise<Answers[K]> => entry.call(env.client(), spec, page, signal);
  if (opts.fresh) {
    const value = await env.requests.send(fetcher, {
      signal: opts.signal,
      automatic: opts.automatic,
      budget: opts.budget,
      cost: entry.cost,
    });
    return { status: 'ok', value, fromCache: false, storedAt: Date.now(), stale: false };
  }
  return env.requests.get(entry.cacheKind, cacheTarget(spec, opts.page), fetcher, {
    signal: opts.signal,
    automatic: opts.automatic,
    ttlClass: entry.ttl,
    budget: opts.budget,
    cost: entry.cost,
    refresh: opts.refresh,
  });
}

/**
 * The key's credits as the service says now (`GET /v1/credits/usage`, free: it costs the
 * ledger nothing), noted in the session's ledger as its balance.
 */
export async function readCredits(
  env: SearchEnv,
  opts: { signal?: AbortSignal; automatic?: boolean } = {},
): Promise<CreditsUsage> {
  const r = await searchVia(
    env,
    { kind: 'credits' },
    { signal: opts.signal, automatic: opts.automatic ?? false, refresh: true },
  );
  if (r.status !== 'ok') throw new OdinApiError({ kind: 'notFound', endpoint: 'GET /v1/credits/usage' });
  const u = r.value;
  const n = (v: number | undefined): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  env.requests.ledger?.noteBalance({
    hostLeft: n(u.hostCert?.left),
    hostPlan: n(u.hostCert?.plan),
    bucketLeft: n(u.bucketFile?.left),
    bucketPlan: n(u.bucketFile?.plan),
    at: Date.now(),
  });
  return u;
}

/** What the cache holds for a request, without sending anything (the hover's quick card). */
export function peekSearch<K extends CatalogueKind>(
  env: Pick<SearchEnv, 'requests'>,
  spec: SpecOf<K>,
  page?: PageRequest,
): LookupResult<Answers[K]> | undefined {
  return env.requests.peek<Answers[K]>(CATALOGUE[spec.kind].cacheKind, cacheTarget(spec, page));
}

/** An answer as the rows of a result set. */
export function rowsOf<K extends CatalogueKind>(spec: SpecOf<K>, answer: Answers[K]): PageResult {
  return (CATALOGUE[spec.kind] as CatalogueEntry<Answers[K]>).rows(answer, spec);
}

/** A call the gate refused (lookups off, Restricted Mode without the confirmation, a refused value). */
export class PageBlockedError extends Error {
  override readonly name = 'PageBlockedError';
  readonly kind = 'blocked';
  constructor(
    message: string,
    /** Why (core/gate `BlockCode`): the caller words `off` and `needs-consent` its own way. */
    readonly code?: BlockCode,
  ) {
    super(message);
  }
}

/** The gate of the moment (read per call) and whether the user confirmed Restricted Mode. */
export type CurrentGate = () => { gate: Gate; consented: boolean };

/**
 * The one gate decision of an explicit call of `spec` (`Gate.decideSearch` over the kind's
 * gate targets, mode and trust included), asked once per call, inside the request path.
 * In Restricted Mode without the session's confirmation, `confirm` (the editor's question,
 * asked once a session) may give it: the decision already passed every value, so the call is
 * sent without asking the gate again. Throws `PageBlockedError` when nothing may be sent.
 */
export async function decideCall(
  spec: CatalogueSpec,
  current: CurrentGate,
  confirm?: () => Promise<boolean>,
  trigger: Trigger = 'explicit',
): Promise<void> {
  const { gate, consented } = current();
  const d = gate.decideSearch(gateTargets(spec), { trigger, consented });
  if (d.ok) return;
  if (d.code === 'needs-consent' && confirm && (await confirm())) return;
  throw new PageBlockedError(d.code === 'off' || d.code === 'needs-consent' ? d.reason : d.message, d.code);
}

/** What `searchPages` may be given besides the gate. */
export interface PagesOptions {
  /** The count a confirmation showed, read per page (it covers the first page only). */
  budget?: () => RequestBudget | undefined;
  /** Restricted Mode: the user's confirmation (`decideCall`). */
  confirm?: () => Promise<boolean>;
  /** Called once per page the gate allowed, before it is sent (the palette reveals its set). */
  onAllowed?: () => void;
}

/**
 * The pages of a result set of `spec`. Every page (the first, "Load more", "Load all", export
 * of all pages, retry) is decided by the gate once, when it is fetched (`decideCall`), so
 * nothing is sent once lookups are off (or in Restricted Mode without the user's
 * confirmation) or a deny entry names a value of the spec, and goes through `searchVia` as a
 * fresh page. Callers do not ask the gate beforehand: they show the `PageBlockedError`.
 */
export function searchPages(
  env: SearchEnv,
  spec: CatalogueSpec,
  current: CurrentGate,
  opts: PagesOptions = {},
): PageFetcher {
  return async (cursor, limit, signal) => {
    // Decided here rather than by `searchVia` (`gate`): the Restricted Mode question is the page's.
    await decideCall(spec, current, opts.confirm);
    opts.onAllowed?.();
    const r = await searchVia(env, spec, {
      page: { cursor, limit },
      signal,
      automatic: false,
      fresh: true,
      budget: opts.budget?.(),
    });
    if (r.status !== 'ok') throw new Error('unreachable: a fresh page is never "not found"');
    return rowsOf(spec, r.value);
  };
}
