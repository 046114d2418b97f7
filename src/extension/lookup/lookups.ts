import type { ExploitationView } from '../../core/exploitation';
import { l10n } from '../../core/text/l10n';
import { getDomain } from 'tldts';
import { OdinApiError } from '../../api/errors';
import {
  asWritten,
  cidrCard,
  domainCard,
  errorCard,
  hostCard,
  hostNotFoundCard,
  localCard,
  pendingCard,
  type CardOptions,
  type Part,
} from '../../core/cards/hoverCard';
import { NOT_YET, withinDeadline } from '../../core/requests/deadline';
import { LocalRateLimitError } from '../../core/requests/limiter';
import { LookupsPausedError, type LookupResult } from '../../core/requests/layer';
import { hostsInBlockQuery } from '../../core/query/query';
import { peekSearch, searchVia, type SpecOf } from '../../core/search/run';
import { config } from '../shared/config';
import type { Ctx } from '../ctx';
import { isCancellation, userMessage } from '../shared/errors';
import type { Decision, Refusal } from '../shared/gate';
import { privacyVerdict, targetIndicator, type Indicator, type PrivacyVerdict } from './policy';

/** Why the card shows local facts only when the gate refused for the mode or trust (display text). */
function modeCard(code: Refusal['code']): { why: string; lookupLink: boolean } | undefined {
  switch (code) {
    case 'untrusted':
    case 'needs-consent':
      return {
        why: l10n.t('This workspace is in Restricted Mode: ODIN sends nothing on hover.'),
        lookupLink: true,
      };
    case 'off':
      return { why: l10n.t('Lookups are off (setting odin.lookups.mode).'), lookupLink: false };
    case 'on-command':
      return { why: l10n.t('Lookups run on command only (setting odin.lookups.mode).'), lookupLink: true };
    default:
      return undefined;
  }
}

const noKey = (): { why: string; lookupLink: boolean } => ({
  why: l10n.t('No API key is set. Run "ODIN: Set API Key" or "ODIN: Try with Demo Data".'),
  lookupLink: false,
});

export interface CardRequest {
  indicator: Indicator;
  /**
   * The gate's decision when the user asked (a command, "Look up now"): the caller asked
   * `ctx.gate.decide(value, { trigger: 'explicit' })` once. Absent for a hover, which asks
   * the gate here as an automatic request.
   */
  decided?: Decision;
  signal?: AbortSignal;
}

/** A `/32` (IPv4) or `/128` (IPv6) block is one address: show that host (Terraform `cidr_blocks`). */
export function singleAddress(ind: Indicator): Indicator {
  if (ind.kind !== 'cidr') return ind;
  const m = /^(.*)\/(\d+)$/.exec(ind.value);
  if (!m) return ind;
  const v6 = m[1].includes(':');
  if (Number(m[2]) !== (v6 ? 128 : 32)) return ind;
  return { ...ind, kind: v6 ? 'ipv6' : 'ipv4', value: m[1] };
}

/** The registrable domain whose whois and subdomains describe `name`. */
export function registrableDomain(name: string): string {
  return getDomain(name, { allowPrivateDomains: false }) ?? name;
}

function partOf<T>(r: PromiseSettledResult<LookupResult<T>>): Part<T> {
  if (r.status === 'rejected') return { error: describeError(r.reason) };
  return r.value.status === 'ok' ? { ok: r.value.value } : { notFound: true };
}

function describeError(err: unknown): string {
  if (err instanceof LocalRateLimitError) {
    return l10n.t(
      'Paused by the local limit of {0} automatic lookups per minute; hover again in {1} s.',
      config.requestsPerMinute(),
      Math.ceil(err.retryAfterMs / 1000),
    );
  }
  return userMessage(err);
}

/**
 * The one path of a card: one ask of the gate (`ctx.gate.decide`, automatic for a hover,
 * or the caller's explicit decision), then the cache (`peek`) or ODIN (`fetch`), always for
 * the gate's target, never the value as written. Local facts when the gate refuses.
 */
export type CardStep = { card: string } | { ind: Indicator; opts: CardOptions; privacy: PrivacyVerdict };

function decideCard(ctx: Ctx, req: CardRequest, freshOnly: boolean): CardStep {
  const written = singleAddress(req.indicator);
  const d = req.decided ?? ctx.gate.decide(written.value, { trigger: 'automatic', source: 'hover' });
  const target = 'target' in d ? d.target : d.refusal.target;
  const ind = targetIndicator(written, target);
  const opts: CardOptions = { now: Date.now(), ...asWritten(ind) };
  const decision = 'target' in d ? d.privacy : d.refusal.privacy;
  const privacy = privacyVerdict(
    decision ?? {
      allowed: false,
      reason: l10n.t('not a valid IP address, CIDR block or host name'),
      source: 'invalid',
    },
    ind.kind,
  );
  if (!privacy.allowed) return { card: localCard(ind.value, { what: privacy.what, why: privacy.why }, opts) };
  const block = 'refusal' in d ? modeCard(d.refusal.code) : ctx.keys.get() ? undefined : noKey();
  if (block) {
    // In onCommand mode an earlier explicit lookup of this value is still shown.
    const cached = 'refusal' in d && d.refusal.code === 'on-command' ? peek(ctx, ind, opts) : undefined;
    return {
      card:
        cached ??
        localCard(ind.value, { what: privacy.what, why: block.why, lookupLink: block.lookupLink }, opts),
    };
  }
  if ('refusal' in d)
    return { card: localCard(ind.value, { what: privacy.what, why: d.refusal.reason }, opts) };
  const cached = req.decided ? undefined : peek(ctx, ind, opts, { freshOnly });
  return cached ? { card: cached } : { ind, opts, privacy };
}

/**
 * The Markdown card for one indicator: local facts when the gate refuses; else a fresh
 * cached answer or the ODIN answer through the shared request layer (cache, single flight,
 * limits). Throws only a cancellation. `step` is the hover's own `cardStep` (the gate is
 * asked once per hover); other callers leave it out.
 */
export async function buildCard(
  ctx: Ctx,
  req: CardRequest,
  step: CardStep = decideCard(ctx, req, true),
): Promise<string> {
  if ('card' in step) return step.card;
  const { ind, opts, privacy } = step;
  try {
    if (req.decided) return await fetchCard(ctx, ind, req, opts);
    // A hover answers within a few seconds whatever the API does; the request goes on within
    // its own deadline (it is no longer tied to this hover) and fills the cache for the next one.
    const linked = linkedWhileWaiting(req.signal);
    const card = await withinDeadline(
      fetchCard(ctx, ind, { ...req, signal: linked.signal }, opts),
      HOVER_WAIT_MS,
      linked.release,
    );
    return card === NOT_YET ? pendingCard(ind.value, opts) : card;
  } catch (err) {
    if (isCancellation(err) || req.signal?.aborted) throw err;
    if (err instanceof LookupsPausedError) {
      return localCard(ind.value, { what: privacy.what, why: err.message, resumeLink: true }, opts);
    }
    if (!(err instanceof OdinApiError) && !(err instanceof LocalRateLimitError)) {
      ctx.log.error(err instanceof Error ? err : String(err));
    } else if (err instanceof OdinApiError) {
      // l10n: English, for the log
      ctx.log.warn(`Lookup failed: ${err.kind} ${err.status ?? ''} ${err.detail}`);
    }
    return errorCard(ind.value, describeError(err), opts);
  }
}

/** How long a hover waits for ODIN before it says "not answered yet". */
export const HOVER_WAIT_MS = 4000;

/**
 * A signal that follows `signal` until `release` (the hover's wait ended: answered, or
 * "not answered yet") and then lets go: a hover closed early still cancels its request, one
 * still waiting after the hover answered no longer does.
 */
function linkedWhileWaiting(signal: AbortSignal | undefined): {
  signal?: AbortSignal;
  release: () => void;
} {
  if (!signal) return { release: () => undefined };
  const c = new AbortController();
  const onAbort = (): void => c.abort(signal.reason);
  if (signal.aborted) c.abort(signal.reason);
  else signal.addEventListener('abort', onAbort, { once: true });
  return { signal: c.signal, release: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * A hover's one ask of the gate: the card when it needs no waiting at all (local facts, or a
 * fresh cached answer the gate lets through), else what `buildCard` must fetch. Synchronous
 * on purpose: a warm hover never yields to the event loop, so nothing else can run in the
 * middle of it.
 */
export function cardStep(ctx: Ctx, req: Omit<CardRequest, 'decided'>): CardStep {
  return decideCard(ctx, req, true);
}

/** The card from the cache only (nothing sent), or undefined when nothing is cached. */
function peek(
  ctx: Ctx,
  ind: Indicator,
  opts: CardOptions,
  { freshOnly = false }: { freshOnly?: boolean } = {},
): string | undefined {
  const usable = <T>(hit: LookupResult<T> | undefined): hit is LookupResult<T> =>
    !!hit && !(freshOnly && hit.stale);
  if (ind.kind === 'ipv4' || ind.kind === 'ipv6') {
    const hit = peekSearch(ctx, { kind: 'host', ip: ind.value });
    if (!usable(hit)) return undefined;
    const o = { ...opts, cachedAt: hit.storedAt, stale: hit.stale, exploitation: feedsNow(ctx) };
    return hit.status === 'ok' ? hostCard(ind.value, hit.value, o) : hostNotFoundCard(ind.value, o);
  }
  if (ind.kind === 'cidr') {
    const hit = peekSearch(ctx, blockCount(ind.value));
    if (!usable(hit)) return undefined;
    return cidrCard(ind.value, hit.status === 'ok' ? { ok: hit.value } : { notFound: true }, {
      ...opts,
      cachedAt: hit.storedAt,
      stale: hit.stale,
    });
  }
  const domain = registrableDomain(ind.value);
  const whois = peekSearch(ctx, { kind: 'whois', domain });
  if (!usable(whois)) return undefined;
  const subs = peekSearch(ctx, { kind: 'subdomainCount', domain });
  if (freshOnly && !usable(subs)) return undefined;
  return domainCard(
    domain,
    whois.status === 'ok' ? { ok: whois.value } : { notFound: true },
    subs
      ? subs.status === 'ok'
        ? { ok: subs.value }
        : { notFound: true }
      : { pending: l10n.t('not looked up yet') },
    {
      ...opts,
      cachedAt: whois.storedAt,
      stale: whois.stale,
      expiryWarningDays: config.expiryWarningDays(),
      hovered: ind.value,
    },
  );
}

/** How many hosts ODIN knows in a block: the catalogue's host count of the block's query. */
const blockCount = (cidr: string): SpecOf<'hostCount'> => ({
  kind: 'hostCount',
  query: hostsInBlockQuery(cidr),
});

/** The feeds as they are now, for a card built without waiting; starts loading them on first need. */
function feedsNow(ctx: Ctx): ExploitationView {
  // l10n: English, for the log
  ctx.feeds.ensure().catch((e: unknown) => ctx.log.warn(`Exploitation feeds: ${String(e)}`));
  return ctx.feeds.store;
}

async function fetchCard(ctx: Ctx, ind: Indicator, req: CardRequest, opts: CardOptions): Promise<string> {
  const get = { signal: req.signal, automatic: !req.decided };
  if (ind.kind === 'ipv4' || ind.kind === 'ipv6') {
    // The feeds load (first need) while the host is asked for; they never hold a card back on error.
    const [r, exploitation] = await Promise.all([
      searchVia(ctx, { kind: 'host', ip: ind.value }, get),
      ctx.feeds.ensure().catch(() => ctx.feeds.store),
    ]);
    const o = r.fromCache
      ? { ...opts, cachedAt: r.storedAt, stale: r.stale, exploitation }
      : { ...opts, exploitation };
    return r.status === 'ok' ? hostCard(ind.value, r.value, o) : hostNotFoundCard(ind.value, o);
  }
  if (ind.kind === 'cidr') {
    // The catalogue's host count (core/search): one call and one cache key, the agent's too.
    const r = await searchVia(ctx, blockCount(ind.value), get);
    const o = r.fromCache ? { ...opts, cachedAt: r.storedAt, stale: r.stale } : opts;
    return cidrCard(ind.value, r.status === 'ok' ? { ok: r.value } : { notFound: true }, o);
  }
  const domain = registrableDomain(ind.value);
  const [whois, subs] = await Promise.allSettled([
    searchVia(ctx, { kind: 'whois', domain }, get),
    searchVia(ctx, { kind: 'subdomainCount', domain }, get),
  ]);
  for (const r of [whois, subs]) {
    if (r.status === 'rejected' && (isCancellation(r.reason) || req.signal?.aborted)) throw r.reason;
  }
  // Both paused with nothing cached: one "paused" card rather than two error lines.
  if (whois.status === 'rejected' && whois.reason instanceof LookupsPausedError) throw whois.reason;
  const cachedAt = whois.status === 'fulfilled' && whois.value.fromCache ? whois.value.storedAt : undefined;
  return domainCard(domain, partOf(whois), partOf(subs), {
    ...opts,
    cachedAt,
    stale: whois.status === 'fulfilled' && whois.value.stale,
    expiryWarningDays: config.expiryWarningDays(),
    hovered: ind.value,
  });
}
