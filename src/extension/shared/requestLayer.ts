import * as path from 'node:path';
import { ResultCache, type CacheTtls, type TtlClass } from '../../core/requests/cache';
import { Limiter } from '../../core/requests/limiter';
import { RequestLayer } from '../../core/requests/layer';
import { config, onConfigChange } from './config';
import { ContextKeys, type ContextKeyValues } from './contextKeys';
import type { DisposableStore } from './disposable';
import type { Log } from './log';
import type { SessionLedger } from '../../core/requests/ledger';

/**
 * Lookup kinds of the shared layer and the TTL class each one uses (the search catalogue's
 * kinds, core/search, name their own TTL class per call).
 */
export const LOOKUP_KINDS = {
  host: 'host',
  whois: 'whois',
  subdomains: 'count',
} as const satisfies Record<string, TtlClass>;
export type LookupKind = keyof typeof LOOKUP_KINDS;

const HOUR_MS = 3_600_000;

function ttls(): CacheTtls {
  const h = config.cacheTtlHours();
  return {
    host: h.host * HOUR_MS,
    whois: h.whois * HOUR_MS,
    count: h.host * HOUR_MS,
    notFound: h.notFound * HOUR_MS,
  };
}

/**
 * What the layer needs of the window's context (`Ctx` passes itself; named here, not imported,
 * because ctx.ts requires this module through dist/connection.js).
 */
export interface LayerContext {
  readonly extension: { readonly globalStorageUri: { readonly scheme: string; readonly fsPath: string } };
  readonly log: Pick<Log, 'warn' | 'info' | 'debug' | 'error'>;
  readonly ledger: SessionLedger;
  readonly subscriptions: DisposableStore;
  readonly contextKeys: ContextKeyValues;
  readonly onDidChangeConnection: (listener: () => void) => { dispose(): void };
  origin(): string;
}

/**
 * Builds the shared request layer for `ctx` (called once, lazily, by `ctx.requests`): the
 * cache file lives in the extension's global storage, limits follow the settings, and a
 * new key or API origin ends a pause.
 */
export function createRequestLayer(ctx: LayerContext): RequestLayer {
  const storage = ctx.extension.globalStorageUri;
  const cache = new ResultCache({
    // Memory only when global storage is not a local folder (e.g. a virtual file system).
    file: storage.scheme === 'file' ? path.join(storage.fsPath, 'lookup-cache.json') : undefined,
    ttlMs: ttls(),
    maxEntries: config.cacheMaxEntries(),
    maxBytes: config.cacheMaxBytes(),
    onProblem: (m) => ctx.log.warn(m),
  });
  const limiter = new Limiter({
    perMinute: config.requestsPerMinute(),
    maxConcurrent: config.maxConcurrentRequests(),
  });
  const layer = new RequestLayer({
    cache,
    limiter,
    origin: () => ctx.origin(),
    ttlClassOf: (kind) => LOOKUP_KINDS[kind as LookupKind] ?? 'host',
    log: (level, message) => ctx.log[level](message),
    ledger: ctx.ledger,
  });
  ctx.subscriptions.add({ dispose: () => cache.dispose() });
  ctx.subscriptions.add({ dispose: () => layer.dispose() });
  ctx.subscriptions.add(
    onConfigChange((e) => {
      if (e.affectsConfiguration('odin.cache'))
        cache.setLimits(ttls(), config.cacheMaxEntries(), config.cacheMaxBytes());
      if (e.affectsConfiguration('odin.rateLimit')) {
        limiter.setLimits({
          perMinute: config.requestsPerMinute(),
          maxConcurrent: config.maxConcurrentRequests(),
        });
      }
    }),
  );
  // A new key or another API: whatever paused lookups may no longer hold.
  // Another API origin (demo data started or stopped): requests in flight for the old one stop.
  ctx.subscriptions.add(
    ctx.onDidChangeConnection(() => {
      layer.originChanged();
      layer.resume();
    }),
  );
  const sub = layer.onDidChangeState(
    (state) => void ctx.contextKeys.set(ContextKeys.lookupsPaused, state !== undefined),
  );
  ctx.subscriptions.add(sub);
  return layer;
}
