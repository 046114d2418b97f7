/** A ToolContext over a real loopback emulator: client, in-memory request layer, gate. */
import { createGate, type GateSettings, type ToolContext } from '../../../src/agent';
import { OdinClient } from '../../../src/api/client';
import { ResultCache } from '../../../src/core/cache';
import { Limiter } from '../../../src/core/limiter';
import { RequestLayer } from '../../../src/core/requests';

export function toolContext(url: string, apiKey: string | undefined, gate: GateSettings = {}): ToolContext & { logs: string[] } {
  const logs: string[] = [];
  const client = new OdinClient({
    baseUrl: url,
    apiKey: () => apiKey,
    timeoutMs: 5000,
    retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 500 },
    log: (level, msg) => logs.push(`${level} ${msg}`),
  });
  const hour = 3_600_000;
  const requests = new RequestLayer({
    cache: new ResultCache({ ttlMs: { host: hour, whois: hour, count: hour, notFound: hour }, maxEntries: 500 }),
    limiter: new Limiter({ perMinute: 600, maxConcurrent: 4 }),
    origin: () => new URL(url).origin,
  });
  return { client: () => client, requests, gate: createGate(gate), origin: () => new URL(url).origin, logs };
}
