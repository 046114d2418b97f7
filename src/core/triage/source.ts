// The lookups of a triage through the search catalogue and the shared request layer (cache,
// one request per target, client-side limits, the pause on 401/402/403/long Retry-After, the
// session's ledger). Pure: no `vscode` import. Every value reaching here has passed the
// privacy check of the triage's plan; with `gate`, each call is decided again as it is sent.
import type { OdinClient } from '../../api/client';
import type { Host } from '../../api/types';
import { canonicalIp } from '../detect';
import type { ExploitationView } from '../exploitation';
import type { RequestLayer } from '../requests/layer';
import { peekSearch, searchVia, type CurrentGate, type SearchEnv } from '../search/run';
import type { HostVerdict } from './model';
import { batchQuery, type Answer, type EnrichmentSource } from './triage';
import { domainVerdict, hostVerdict } from './verdict';

/**
 * Cache kinds of the triage's own: a search hit of a batch (a full host lookup, whois and the
 * subdomain count are the catalogue's, shared with hovers and details pages).
 */
export const TRIAGE_KINDS = {
  host: 'host',
  hostHit: 'hostHit',
} as const;

export interface LayerSourceOptions {
  layer: RequestLayer;
  client: () => OdinClient;
  /** Offer batched host searches. Default true. */
  batching?: boolean;
  /** Lookups count as automatic (the hover's limits and pauses): an agent's triage. Default false. */
  automatic?: boolean;
  now?: () => number;
  /** The KEV and EPSS feeds as they are now (verdicts order and count by them). */
  exploitation?: () => ExploitationView;
  /**
   * The gate of the moment: every lookup and batch is decided once, inside the request path
   * (core/search `decideCall`), and a refused one sends nothing (`PageBlockedError`).
   */
  gate?: CurrentGate;
}

/** What the cache says about a host or domain (no request): the verdict, "unknown", or nothing. */
export function cachedAnswer(
  layer: RequestLayer,
  kind: 'host' | 'domain',
  value: string,
  now = Date.now(),
  x?: ExploitationView,
): Answer | undefined {
  if (kind === 'host') {
    const full =
      peekSearch({ requests: layer }, { kind: 'host', ip: value }) ??
      layer.peek<Host>(TRIAGE_KINDS.hostHit, value);
    if (!full) return undefined;
    return full.status === 'ok' ? { found: true, verdict: hostVerdict(full.value, x) } : { found: false };
  }
  const env = { requests: layer };
  const whois = peekSearch(env, { kind: 'whois', domain: value });
  if (!whois) return undefined;
  if (whois.status === 'notFound') return { found: false };
  const subs = peekSearch(env, { kind: 'subdomainCount', domain: value });
  return {
    found: true,
    verdict: domainVerdict(whois.value, now, subs?.status === 'ok' ? subs.value : undefined),
  };
}

export function layerSource(opts: LayerSourceOptions): EnrichmentSource {
  const { layer } = opts;
  const env: SearchEnv = { client: opts.client, requests: layer };
  const now = opts.now ?? Date.now;
  const automatic = opts.automatic === true;
  const gate = opts.gate;
  const x = (): ExploitationView | undefined => opts.exploitation?.();
  const source: EnrichmentSource = {
    cached: (kind, value) => cachedAnswer(layer, kind, value, now(), x()),
    async lookupHost(ip, signal, budget) {
      const r = await searchVia(env, { kind: 'host', ip }, { signal, automatic, budget, gate });
      return r.status === 'ok' ? { found: true, verdict: hostVerdict(r.value, x()) } : { found: false };
    },
    async lookupDomain(domain, signal, budget) {
      const r = await searchVia(env, { kind: 'whois', domain }, { signal, automatic, budget, gate });
      return r.status === 'ok' ? { found: true, verdict: domainVerdict(r.value, now()) } : { found: false };
    },
  };
  if (opts.batching !== false) {
    source.lookupHostsBatch = async (ips, signal, budget) => {
      const wanted = new Set(ips);
      const query = batchQuery(ips);
      // A fresh page of the catalogue's host search (its limits, pause and count): a batch is
      // never answered from an old batch, nor kept itself (its hosts are, one by one).
      const r = await searchVia(
        env,
        { kind: 'hosts', query },
        {
          signal,
          automatic,
          budget,
          gate,
          fresh: true,
          page: { limit: Math.min(100, Math.max(ips.length, 1)) },
        },
      );
      const found = new Map<string, HostVerdict>();
      const hosts = r.status === 'ok' ? r.value.items : [];
      for (const h of hosts) {
        // An answer may carry hosts nobody asked for: only the asked ones count.
        const ip = canonicalIp(h.ip);
        if (!ip || !wanted.has(ip) || found.has(ip)) continue;
        found.set(ip, hostVerdict(h, x()));
        layer.store(TRIAGE_KINDS.hostHit, ip, h);
      }
      for (const ip of ips) if (!found.has(ip)) layer.store(TRIAGE_KINDS.hostHit, ip, undefined);
      return found;
    };
  }
  return source;
}
