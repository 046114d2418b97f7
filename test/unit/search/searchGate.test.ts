/**
 * The search side of the one gate: every page of a result set (the first,
 * "Load more", "Load all", export of all pages, retry) asks the gate when it is fetched and goes
 * through the shared request layer (its limiter, its origin switch, its pause); the CIDR
 * hover's "Search hosts in it" searches the block the gate wrote. The pages come from the
 * search catalogue (core/search `searchPages`), as the palette, saved searches, hunts,
 * Re-run All and narrowing fetch them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OdinClient } from '../../../src/api/client';
import { OdinApiError } from '../../../src/api/errors';
import { ResultCache } from '../../../src/core/requests/cache';
import { Gate } from '../../../src/core/gate';
import { Limiter } from '../../../src/core/requests/limiter';
import { hostsInBlockQuery } from '../../../src/core/query';
import { RequestLayer } from '../../../src/core/requests/layer';
import {
  PageBlockedError,
  searchPages,
  type CatalogueSpec,
  type CurrentGate,
} from '../../../src/core/search';
import { ResultSet } from '../../../src/extension/search/results/resultSet';
import { turns } from '../../support/wait';

const TTL = { host: 60_000, whois: 60_000, count: 60_000, notFound: 60_000 };

function layer(origin: () => string = () => 'https://api.example', maxConcurrent = 4): RequestLayer {
  return new RequestLayer({
    cache: new ResultCache({ ttlMs: TTL, maxEntries: 10 }),
    limiter: new Limiter({ perMinute: 10_000, maxConcurrent }),
    origin,
  });
}

/**
 * A client whose every method answers pages of one host each (`pages` in all), counting its
 * calls: what the catalogue asks of it is what a page costs.
 */
function pagesClient(pages: number): { client: () => OdinClient; calls: number } {
  const state = { calls: 0, client: (): OdinClient => fake };
  const page = async (params: { start?: unknown }): Promise<unknown> => {
    state.calls++;
    const i = typeof params.start === 'number' ? params.start : 0;
    return { items: [{ ip: `8.8.8.${i}` }], total: pages, ...(i + 1 < pages ? { next: i + 1 } : {}) };
  };
  const fake = new Proxy({}, { get: () => page }) as unknown as OdinClient;
  return state;
}

type Settings = {
  mode: 'onHover' | 'onCommand' | 'off';
  trusted: boolean;
  consented?: boolean;
  userDeny?: string[];
};

/** The gate of the moment over settings the test changes. */
const gateOf =
  (settings: Settings): CurrentGate =>
  () => ({ gate: new Gate(settings), consented: settings.consented ?? false });

/** The pages of `spec` as the palette, saved searches, hunts, Re-run All and narrowing fetch them. */
function pagesOf(spec: CatalogueSpec, settings: Settings, rl: RequestLayer, c: { client: () => OdinClient }) {
  return searchPages({ client: c.client, requests: rl }, spec, gateOf(settings));
}

describe('search pages pass the gate', () => {
  it('first page, "Load more" and "Load all" send through the request layer while allowed', async () => {
    const rl = layer();
    const raw = pagesClient(4);
    const spec = { kind: 'hosts', query: '*' } as const;
    const set = new ResultSet(spec, pagesOf(spec, { mode: 'onCommand', trusted: true }, rl, raw), 1);
    assert.equal(await set.loadNext(), true);
    assert.equal(await set.loadNext(), true);
    await set.loadAll();
    assert.equal(set.items.length, 4);
    assert.equal(raw.calls, 4);
    assert.equal(rl.sent, 4, 'every page counted by the shared layer');
  });

  it('once lookups are off, "Load more" and "Load all" send nothing and say why', async () => {
    const rl = layer();
    const raw = pagesClient(4);
    const settings: Settings = { mode: 'onHover', trusted: true };
    const spec = { kind: 'hosts', query: '*' } as const;
    const set = new ResultSet(spec, pagesOf(spec, settings, rl, raw), 1);
    assert.equal(await set.loadNext(), true);
    settings.mode = 'off';
    assert.equal(await set.loadNext(), false);
    assert.equal(await set.loadAll(), 0);
    assert.equal(raw.calls, 1, 'no page after the switch');
    assert.equal(rl.sent, 1);
    assert.equal(set.status, 'error');
    assert.equal(set.error?.kind, 'blocked');
    assert.match(set.error?.message ?? '', /Lookups are off/);
    assert.equal(set.items.length, 1, 'the loaded page stays');
  });

  it('in Restricted Mode a page is sent only after the session confirmation', async () => {
    const rl = layer();
    const raw = pagesClient(2);
    const settings: Settings = { mode: 'onHover', trusted: false, consented: false };
    const fetch = pagesOf({ kind: 'hosts', query: '*' }, settings, rl, raw);
    await assert.rejects(fetch(undefined, 1, new AbortController().signal), PageBlockedError);
    assert.equal(raw.calls, 0);
    settings.consented = true;
    await fetch(undefined, 1, new AbortController().signal);
    assert.equal(raw.calls, 1);
  });

  it('query text is decided on every page: a private or denied value in it sends nothing', async () => {
    const rl = layer();
    const settings: Settings = { mode: 'onHover', trusted: true, consented: true, userDeny: [] };
    // Palette, saved search, hunt, Re-run All, narrowing and similar hosts all fetch through this gate.
    for (const spec of [
      { kind: 'hosts', query: 'ip:10\\.0\\.0\\.7 OR services.port:22' },
      { kind: 'hostSummary', field: 'services.port', query: 'hostnames:db\\.corp' },
      { kind: 'buckets', query: 'name:\'x\' AND ip:"172.16.0.1"' },
    ] as const) {
      const raw = pagesClient(2);
      const set = new ResultSet(spec, pagesOf(spec, settings, rl, raw), 1);
      assert.equal(await set.loadNext(), false);
      assert.equal(raw.calls, 0, spec.query);
      assert.equal(set.error?.kind, 'blocked');
      assert.match(set.error?.message ?? '', /^(10\.0\.0\.7|db\.corp|172\.16\.0\.1) is .*not sent to ODIN/);
    }
    // A deny entry added while a result set is open: its next page is not sent.
    const spec = { kind: 'hosts', query: 'hostnames:vpn.mycompany\\.com' } as const;
    const raw = pagesClient(3);
    const set = new ResultSet(spec, pagesOf(spec, settings, rl, raw), 1);
    assert.equal(await set.loadNext(), true);
    settings.userDeny = ['mycompany.com'];
    assert.equal(await set.loadNext(), false);
    assert.equal(raw.calls, 1);
    assert.equal(rl.sent, 1);
    assert.match(set.error?.message ?? '', /vpn\.mycompany\.com is not sent to ODIN: denied by user setting/);
  });

  it('a page waits for the shared limiter like any lookup', async () => {
    const rl = layer(undefined, 1);
    let release!: () => void;
    const held = rl.get('host', '8.8.8.8', () => new Promise<string>((r) => (release = () => r('x'))), {
      automatic: false,
    });
    const raw = pagesClient(1);
    const page = pagesOf(
      { kind: 'hosts', query: '*' },
      { mode: 'onHover', trusted: true },
      rl,
      raw,
    )(undefined, 1, new AbortController().signal);
    await turns();
    assert.equal(raw.calls, 0, 'the page waits for the one slot');
    release();
    await held;
    await page;
    assert.equal(raw.calls, 1);
  });

  it('a page in flight is aborted when the API origin changes, and never sent if queued before it', async () => {
    let origin = 'https://api.example';
    const rl = layer(() => origin, 1);
    let seen: AbortSignal | undefined;
    const slow = rl.send(
      (signal) =>
        new Promise<never>((_r, reject) => {
          seen = signal;
          signal.addEventListener('abort', () =>
            reject(new OdinApiError({ kind: 'cancelled', endpoint: 'search' })),
          );
        }),
      { automatic: false },
    );
    let queuedRan = false;
    const queued = rl.send(async () => (queuedRan = true), { automatic: false });
    await turns();
    origin = 'http://127.0.0.1:9';
    rl.originChanged();
    await assert.rejects(slow, (e: unknown) => e instanceof OdinApiError && e.kind === 'cancelled');
    await assert.rejects(queued, (e: unknown) => e instanceof OdinApiError && e.kind === 'cancelled');
    assert.equal(seen?.aborted, true);
    assert.equal(queuedRan, false, 'queued under the old origin: not sent');
  });

  it("a page's auth error pauses automatic lookups (one pause for all)", async () => {
    const rl = layer();
    await assert.rejects(
      rl.send(
        async () => {
          throw new OdinApiError({ kind: 'auth', endpoint: 'POST /v1/hosts/search', status: 401 });
        },
        { automatic: false },
      ),
    );
    assert.equal(rl.paused?.reason, 'auth');
  });
});

describe('"Search hosts in it" (CIDR hover)', () => {
  it('searches the block in the form the gate wrote it', () => {
    const t = new Gate({ mode: 'onHover', trusted: true }).decide('8.8.8.0/24', {
      trigger: 'explicit',
      source: 'command',
      accept: ['ip', 'cidr'],
    });
    assert.ok(t.send);
    assert.equal(hostsInBlockQuery(t.target.value), 'ip:"8.8.8.0/24"');
    assert.equal(hostsInBlockQuery('2001:4860::/32'), 'ip:"2001:4860::/32"');
    assert.equal(hostsInBlockQuery('1.2.3.0/24" OR "x'), 'ip:"1.2.3.0/24 OR x"', 'no quote can end the term');
  });
});
