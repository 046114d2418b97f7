/**
 * The request parts of a run outside VS Code (the hunt runner, tests): one client, one
 * in-memory request layer (cache, limiter), one gate, as the extension's Ctx has them. The
 * key is read from the caller's function, never stored here. Pure: no VS Code.
 */
import { OdinClient } from '../../api/client';
import type { Logger } from '../../api/http';
import { Gate, type GateSettings } from '../gate';
import { ResultCache } from '../requests/cache';
import { Limiter } from '../requests/limiter';
import { RequestLayer } from '../requests/layer';
import type { NotebookSession } from './execute';

export interface HeadlessSessionOptions {
  baseUrl: string;
  apiKey: () => string | undefined;
  /** The gate's settings; default: sending on command, trusted (running the file is the act). */
  gate?: GateSettings;
  log?: Logger;
}

export function headlessSession(
  opts: HeadlessSessionOptions,
): NotebookSession & { requests: RequestLayer; client: OdinClient } {
  const client = new OdinClient({
    baseUrl: opts.baseUrl,
    apiKey: opts.apiKey,
    ...(opts.log ? { log: opts.log } : {}),
  });
  const origin = new URL(opts.baseUrl).origin;
  const hour = 3_600_000;
  const requests = new RequestLayer({
    cache: new ResultCache({
      ttlMs: { host: hour, whois: hour, count: hour, notFound: hour },
      maxEntries: 500,
    }),
    limiter: new Limiter({ perMinute: 600, maxConcurrent: 4 }),
    origin: () => origin,
  });
  const gate = new Gate(opts.gate ?? { mode: 'onCommand', trusted: true });
  return {
    client,
    requests,
    env: { client: () => client, requests },
    gate: () => ({ gate, consented: true }),
    baseUrl: () => origin,
    credits: async (signal) => {
      const r = gate.mayRun({ trigger: 'explicit', consented: true });
      if (!r.ok) return undefined;
      return (await client.getCreditsUsage({ signal })).hostCert?.left;
    },
  };
}
