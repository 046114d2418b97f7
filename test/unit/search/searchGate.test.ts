/**
 * The search side of the one gate (issue #15, item 1): every page of a result set (the first,
 * "Load more", "Load all", export of all pages, retry) asks the gate when it is fetched and goes
 * through the shared request layer (its limiter, its origin switch, its pause); the CIDR
 * hover's "Search hosts in it" searches the block the gate wrote.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OdinApiError } from '../../../src/api/errors';
import { ResultCache } from '../../../src/core/requests/cache';
import { Gate } from '../../../src/core/gate';
import { Limiter } from '../../../src/core/requests/limiter';
import { hostsInBlockQuery } from '../../../src/core/query';
import { RequestLayer } from '../../../src/core/requests/layer';
import {
  gatedFetcher,
  PageBlockedError,
  searchPageGate,
  type PageGate,
} from '../../../src/extension/search/pageFetchers';
import { ResultSet, type PageFetcher } from '../../../src/extension/search/results/resultSet';
import { turns } from '../../support/wait';

const TTL = { host: 60_000, whois: 60_000, count: 60_000, notFound: 60_000 };

function layer(origin: () => string = () => 'https://api.example', maxConcurrent = 4): RequestLayer {
  return new RequestLayer({
    cache: new ResultCache({ ttlMs: TTL, maxEntries: 10 }),
    limiter: new Limiter({ perMinute: 10_000, maxConcurrent }),
    origin,
  });
}

/** A fetcher of `pages` pages of one host each, counting its calls. */
function pagesFetcher(pages: number): PageFetcher & { calls: number } {
  const f = (async (cursor: unknown) => {
    f.calls++;
    const i = typeof cursor === 'number' ? cursor : 0;
    return {
      items: [{ t: 'host', v: { ip: `8.8.8.${i}` } }],
      total: pages,
      ...(i + 1 < pages ? { next: i + 1 } : {}),
    };
  }) as unknown as PageFetcher & { calls: number };
  f.calls = 0;
  return f;
}

/** The extension's page gate over a core Gate whose settings the test changes. */
function pageGate(
  settings: { mode: 'onHover' | 'onCommand' | 'off'; trusted: boolean; consented?: boolean },
  rl: RequestLayer,
): PageGate {
  return {
    refusal: () => {
      const r = new Gate(settings).mayRun({ trigger: 'explicit', consented: settings.consented ?? false });
      return r.ok ? undefined : r.reason;
    },
    send: (fetcher, opts) => rl.send(fetcher, opts),
  };
}

describe('search pages pass the gate', () => {
  it('first page, "Load more" and "Load all" send through the request layer while allowed', async () => {
    const rl = layer();
    const raw = pagesFetcher(4);
    const set = new ResultSet(
      { kind: 'hosts', query: '*' },
      gatedFetcher(raw, pageGate({ mode: 'onCommand', trusted: true }, rl)),
      1,
    );
    assert.equal(await set.loadNext(), true);
    assert.equal(await set.loadNext(), true);
    await set.loadAll();
    assert.equal(set.items.length, 4);
    assert.equal(raw.calls, 4);
    assert.equal(rl.sent, 4, 'every page counted by the shared layer');
  });

  it('once lookups are off, "Load more" and "Load all" send nothing and say why', async () => {
    const rl = layer();
    const raw = pagesFetcher(4);
    const settings: { mode: 'onHover' | 'onCommand' | 'off'; trusted: boolean } = {
      mode: 'onHover',
      trusted: true,
    };
    const set = new ResultSet({ kind: 'hosts', query: '*' }, gatedFetcher(raw, pageGate(settings, rl)), 1);
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
    const raw = pagesFetcher(2);
    const settings = { mode: 'onHover' as const, trusted: false, consented: false };
    const fetch = gatedFetcher(raw, pageGate(settings, rl));
    await assert.rejects(fetch(undefined, 1, new AbortController().signal), PageBlockedError);
    assert.equal(raw.calls, 0);
    settings.consented = true;
    await fetch(undefined, 1, new AbortController().signal);
    assert.equal(raw.calls, 1);
  });

  it('query text is decided on every page: a private or denied value in it sends nothing', async () => {
    const rl = layer();
    const settings: { mode: 'onHover'; trusted: true; userDeny: string[] } = {
      mode: 'onHover',
      trusted: true,
      userDeny: [],
    };
    const current = (): { gate: Gate; consented: boolean } => ({ gate: new Gate(settings), consented: true });
    const send: PageGate['send'] = (fetcher, opts) => rl.send(fetcher, opts);
    // Palette, saved search, hunt, Re-run All, narrowing and similar hosts all fetch through this gate.
    for (const spec of [
      { kind: 'hosts', query: 'ip:10\\.0\\.0\\.7 OR services.port:22' },
      { kind: 'hostSummary', field: 'services.port', query: 'hostnames:db\\.corp' },
      { kind: 'buckets', query: 'name:\'x\' AND ip:"172.16.0.1"' },
    ] as const) {
      const raw = pagesFetcher(2);
      const set = new ResultSet(spec, gatedFetcher(raw, searchPageGate(spec, current, send)), 1);
      assert.equal(await set.loadNext(), false);
      assert.equal(raw.calls, 0, spec.query);
      assert.equal(set.error?.kind, 'blocked');
      assert.match(set.error?.message ?? '', /^(10\.0\.0\.7|db\.corp|172\.16\.0\.1) is .*not sent to ODIN/);
    }
    // A deny entry added while a result set is open: its next page is not sent.
    const spec = { kind: 'hosts', query: 'hostnames:vpn.mycompany\\.com' } as const;
    const raw = pagesFetcher(3);
    const set = new ResultSet(spec, gatedFetcher(raw, searchPageGate(spec, current, send)), 1);
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
    const raw = pagesFetcher(1);
    const page = gatedFetcher(raw, pageGate({ mode: 'onHover', trusted: true }, rl))(
      undefined,
      1,
      new AbortController().signal,
    );
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
