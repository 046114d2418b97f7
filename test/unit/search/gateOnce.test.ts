/**
 * The gate is asked once per call, inside the request path (core/search `decideCall`): a
 * palette-style search (the palette, saved searches, hunts, Re-run All and narrowing fetch
 * their pages through `searchPages`) consults it once before its first page and once per
 * later page, never beforehand in the caller, and the Restricted Mode question is asked once
 * per explicit action, not once per page.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OdinClient } from '../../../src/api/client';
import { Gate, type GateSettings } from '../../../src/core/gate';
import { RequestLayer } from '../../../src/core/requests/layer';
import { Limiter } from '../../../src/core/requests/limiter';
import { ResultCache } from '../../../src/core/requests/cache';
import { PageBlockedError, searchPages, type CurrentGate } from '../../../src/core/search';
import { RequestBudget } from '../../../src/core/requests/budget';
import { buildTriage, enrich, layerSource } from '../../../src/core/triage';
import { ResultSet } from '../../../src/extension/search/results/resultSet';

const TTL = { host: 60_000, whois: 60_000, count: 60_000, notFound: 60_000 };

function env(pages: number): { env: Parameters<typeof searchPages>[0]; calls: () => number } {
  let calls = 0;
  const page = async (params: { start?: unknown }): Promise<unknown> => {
    calls++;
    const i = typeof params.start === 'number' ? params.start : 0;
    return { items: [{ ip: `8.8.8.${i}` }], total: pages, ...(i + 1 < pages ? { next: i + 1 } : {}) };
  };
  const client = new Proxy({}, { get: () => page }) as unknown as OdinClient;
  const requests = new RequestLayer({
    cache: new ResultCache({ ttlMs: TTL, maxEntries: 10 }),
    limiter: new Limiter({ perMinute: 10_000, maxConcurrent: 4 }),
    origin: () => 'https://api.example',
  });
  return { env: { client: () => client, requests }, calls: () => calls };
}

/** A gate whose every consultation from outside (any method called on it) is counted, by form. */
function countedGate(settings: GateSettings & { consented?: boolean }): {
  current: CurrentGate;
  asked: () => number;
  forms: Set<string>;
} {
  let asked = 0;
  const forms = new Set<string>();
  const current: CurrentGate = () => {
    const real = new Gate(settings);
    const gate = new Proxy(real, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          asked++;
          forms.add(String(prop));
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    return { gate, consented: settings.consented ?? false };
  };
  return { current, asked: () => asked, forms };
}

describe('the gate is asked once per call, inside the request path', () => {
  it('a palette-style search: 1 consultation before its first page, 1 per later page', async () => {
    const e = env(3);
    const g = countedGate({ mode: 'onCommand', trusted: true });
    const set = new ResultSet(
      { kind: 'hosts', query: 'services.port:22' },
      searchPages(e.env, { kind: 'hosts', query: 'services.port:22' }, g.current),
      1,
    );
    assert.equal(g.asked(), 0, 'nothing asked before the path runs');
    assert.equal(await set.loadNext(), true);
    assert.equal(g.asked(), 1, 'once before the first page');
    assert.equal(await set.loadNext(), true);
    assert.equal(await set.loadNext(), true);
    assert.equal(g.asked(), 3, 'once per page');
    assert.equal(e.calls(), 3);
  });

  it('a refused value: one consultation, nothing sent, the refusal from the path', async () => {
    const e = env(2);
    const g = countedGate({ mode: 'onCommand', trusted: true, userDeny: ['mycompany.com'] });
    const spec = { kind: 'hosts', query: 'hostnames:vpn.mycompany\\.com' } as const;
    let confirmed = 0;
    const set = new ResultSet(
      spec,
      searchPages(e.env, spec, g.current, { confirm: async () => (confirmed++, true) }),
      1,
    );
    assert.equal(await set.loadNext(), false);
    assert.equal(g.asked(), 1);
    assert.equal(e.calls(), 0);
    assert.equal(confirmed, 0, 'a refused value asks the user nothing');
    assert.equal(set.error?.kind, 'blocked');
    assert.equal(set.error?.code, 'user-deny');
    assert.match(
      set.error?.message ?? '',
      /^vpn\.mycompany\.com is not sent to ODIN: denied by user setting/,
    );
  });

  it('lookups off: one consultation, the "off" code and reason, nothing sent', async () => {
    const e = env(2);
    const g = countedGate({ mode: 'off', trusted: true });
    const spec = { kind: 'hosts', query: 'ip:10.0.0.7' } as const;
    const set = new ResultSet(spec, searchPages(e.env, spec, g.current), 1);
    assert.equal(await set.loadNext(), false);
    assert.equal(g.asked(), 1);
    assert.equal(e.calls(), 0);
    assert.equal(set.error?.code, 'off');
    assert.match(set.error?.message ?? '', /Lookups are off/);
  });

  it('Restricted Mode: the question once per explicit action, not once per page', async () => {
    const e = env(3);
    const settings = { mode: 'onCommand' as const, trusted: false, consented: false };
    const g = countedGate(settings);
    let questions = 0;
    // What the editor's SessionGate does: the yes is kept for the session.
    const confirm = async (): Promise<boolean> => {
      questions++;
      settings.consented = true;
      return true;
    };
    const spec = { kind: 'hosts', query: '*' } as const;
    const set = new ResultSet(spec, searchPages(e.env, spec, g.current, { confirm }), 1);
    assert.equal(await set.loadNext(), true);
    await set.loadAll();
    assert.equal(questions, 1);
    assert.equal(g.asked(), 3, 'once per page');
    assert.equal(e.calls(), 3);
  });

  it('Restricted Mode, the user says no: nothing sent, one consultation', async () => {
    const e = env(2);
    const g = countedGate({ mode: 'onCommand', trusted: false });
    const spec = { kind: 'hosts', query: '*' } as const;
    const set = new ResultSet(spec, searchPages(e.env, spec, g.current, { confirm: async () => false }), 1);
    assert.equal(await set.loadNext(), false);
    assert.equal(g.asked(), 1);
    assert.equal(e.calls(), 0);
    assert.equal(set.error?.code, 'needs-consent');
  });
});

describe('the triage asks the gate in one form, once per call, inside the request path', () => {
  it('a batch of three IPs: one consultation (decideSearch), one request', async () => {
    const e = env(1);
    const g = countedGate({ mode: 'onCommand', trusted: true, consented: true });
    const t = await buildTriage([{ uri: 'file:///a.log', text: '8.8.8.8 1.1.1.1 9.9.9.9' }], () => ({
      allowed: true,
      reason: '',
    }));
    const source = layerSource({
      layer: e.env.requests as RequestLayer,
      client: e.env.client,
      gate: g.current,
    });
    const r = await enrich(t, source, { batchSize: 50 });
    assert.equal(r.requests, 1);
    assert.equal(e.calls(), 1);
    assert.equal(g.asked(), 1, 'once for the batch, not once per value');
    assert.deepEqual([...g.forms], ['decideSearch'], 'one form');
  });

  it('a value the gate refuses as it is sent: nothing sent, the refusal from the path', async () => {
    const e = env(1);
    const g = countedGate({ mode: 'onCommand', trusted: true, consented: true, userDeny: ['example.com'] });
    const source = layerSource({
      layer: e.env.requests as RequestLayer,
      client: e.env.client,
      gate: g.current,
    });
    const budget = new RequestBudget(3);
    const signal = new AbortController().signal;
    await assert.rejects(source.lookupHostsBatch!(['8.8.8.8', '10.0.0.7'], signal, budget), PageBlockedError);
    await assert.rejects(source.lookupDomain('www.example.com', signal, budget), /denied by user setting/);
    assert.equal(e.calls(), 0);
    assert.equal(g.asked(), 2);
    assert.deepEqual([...g.forms], ['decideSearch']);
  });
});
