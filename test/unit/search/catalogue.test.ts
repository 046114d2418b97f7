/**
 * The search catalogue (core/search, one place per kind of search): every kind has its client call, cache kind and
 * answer rows; host counting is one call under one cache key, whoever asks (the CIDR hover,
 * the agent); a page of a result set is asked afresh, a lookup comes from the cache.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countHosts } from '../../../src/agent/apiTools';
import { createGate } from '../../../src/agent/gate';
import type { OdinClient } from '../../../src/api/client';
import { OdinApiError } from '../../../src/api/errors';
import { hostsInBlockQuery } from '../../../src/core/query';
import { ResultCache } from '../../../src/core/requests/cache';
import { RequestLayer } from '../../../src/core/requests/layer';
import { Limiter } from '../../../src/core/requests/limiter';
import { CATALOGUE, KINDS, searchVia } from '../../../src/core/search';

function layer(): RequestLayer {
  const ttl = 60_000;
  return new RequestLayer({
    cache: new ResultCache({ ttlMs: { host: ttl, whois: ttl, count: ttl, notFound: ttl }, maxEntries: 10 }),
    limiter: new Limiter({ perMinute: 10_000, maxConcurrent: 4 }),
    origin: () => 'https://api.example',
  });
}

/** A client that answers every search with one host, counting its calls. */
function countingClient(): { client: () => OdinClient; calls: number } {
  const state = { calls: 0, client: (): OdinClient => fake };
  const fake = new Proxy(
    {},
    {
      get: () => async () => {
        state.calls++;
        return { items: [{ ip: '8.8.8.8' }], total: 1 };
      },
    },
  ) as unknown as OdinClient;
  return state;
}

describe('the search catalogue', () => {
  it('every kind of search has its entry (client call, cache kind, answer rows), each cache kind its own', () => {
    for (const kind of Object.keys(KINDS) as Array<keyof typeof KINDS>) {
      assert.equal(typeof CATALOGUE[kind].call, 'function', kind);
      assert.equal(typeof CATALOGUE[kind].rows, 'function', kind);
    }
    const cacheKinds = Object.values(CATALOGUE).map((e) => e.cacheKind);
    assert.equal(new Set(cacheKinds).size, cacheKinds.length);
  });

  it('each kind states itself consistently: prompts ask what it requires, links name summaries and searches', () => {
    const asks: Record<string, string[]> = {
      query: [],
      querySort: [],
      fieldQuery: ['field'],
      ip: ['ip'],
      ipCve: ['cve', 'ip'],
      domain: ['domain'],
      domainFilter: [],
    };
    for (const [kind, info] of Object.entries(KINDS)) {
      assert.deepEqual(
        [...info.required].sort(),
        asks[info.prompt],
        `${kind}: its prompt asks what it requires`,
      );
      assert.equal(info.target !== undefined, info.uses.includes('query'), `${kind}: a query has a language`);
      if (info.summary) assert.ok(KINDS[info.summary].narrowsTo, `${kind}: summarised by a summary`);
      if (info.narrowsTo) assert.equal(KINDS[info.narrowsTo].summary, kind, `${kind}: narrows to its search`);
    }
  });

  it("the agent's host count is answered from the cache the CIDR hover filled: one key, one request", async () => {
    const rl = layer();
    const calls: string[] = [];
    const client = {
      countHosts: async (p: { query: string }) => {
        calls.push(p.query);
        return 42;
      },
    } as unknown as OdinClient;
    // The CIDR hover (lookup/lookups.ts): the catalogue's count of the block's query.
    const hover = await searchVia(
      { client: () => client, requests: rl },
      { kind: 'hostCount', query: hostsInBlockQuery('8.8.8.0/24') },
      { automatic: true },
    );
    assert.deepEqual(hover.status === 'ok' && hover.value, 42);
    // The agent's odin_count_hosts over the same block.
    const ctx = {
      client: () => client,
      requests: rl,
      gate: createGate({}),
      origin: () => 'https://api.example',
    };
    const text = await countHosts.prepare({ query: 'ip:"8.8.8.0/24"' }, ctx).run(ctx);
    assert.match(text, /hosts: 42/);
    assert.match(text, /answered from the local cache/);
    assert.deepEqual(calls, ['ip:"8.8.8.0/24"'], 'one request, POST /v1/hosts/count');
    assert.equal(rl.sent, 1);
  });

  it('host counting falls back to a one-result search where the count endpoint is refused', async () => {
    const rl = layer();
    const client = {
      countHosts: async () => {
        throw new OdinApiError({ kind: 'notFound', endpoint: 'POST /v1/hosts/count', status: 404 });
      },
      searchHosts: async (p: { limit: number }) => ({ items: [], total: p.limit === 1 ? 7 : -1 }),
    } as unknown as OdinClient;
    const r = await searchVia(
      { client: () => client, requests: rl },
      { kind: 'hostCount', query: 'services.port:22' },
      { automatic: false },
    );
    assert.deepEqual(r.status === 'ok' && r.value, 7);
  });

  it('a page of a result set is asked afresh each time; a lookup is answered from the cache', async () => {
    const rl = layer();
    const raw = countingClient();
    const env = { client: raw.client, requests: rl };
    const spec = { kind: 'hosts', query: 'services.port:22' } as const;
    await searchVia(env, spec, { page: { limit: 5 }, automatic: false, fresh: true });
    await searchVia(env, spec, { page: { limit: 5 }, automatic: false, fresh: true });
    assert.equal(raw.calls, 2);
    const first = await searchVia(env, spec, { page: { limit: 5 }, automatic: true });
    const again = await searchVia(env, spec, { page: { limit: 5 }, automatic: true });
    assert.equal(first.fromCache, false);
    assert.equal(again.fromCache, true);
    assert.equal(raw.calls, 3);
  });
});
