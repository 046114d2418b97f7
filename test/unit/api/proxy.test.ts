/**
 * The client works through a `fetch` built the way VS Code's patched global fetch is (undici
 * fetch with a proxy dispatcher injected), never passes a dispatcher of its own, and keeps
 * its deadline, size cap and cancellation through a real HTTP proxy on loopback.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ProxyAgent, fetch as undiciFetch } from 'undici';
import { FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import { type Emulator, startEmulator } from '../../../src/emulator/server';
import { expectKind, makeClient, startProxy, type TestProxy } from './support';
import { waitFor } from '../../support/wait';

const HOST = FIXTURE_HOSTS.resolver;

/** Like the extension host's patched fetch: whatever the caller passes, the proxy dispatcher wins. */
function proxiedFetch(agent: ProxyAgent, inits: Array<Record<string, unknown>>): typeof fetch {
  return ((url: string, init: Record<string, unknown> = {}) => {
    inits.push(init);
    return undiciFetch(url, { ...init, dispatcher: agent });
  }) as unknown as typeof fetch;
}

for (const mode of ['CONNECT tunnel', 'absolute-form'] as const) {
  void describe(`through a loopback HTTP proxy (${mode})`, () => {
    let emu: Emulator;
    let proxy: TestProxy;
    let agent: ProxyAgent;
    const inits: Array<Record<string, unknown>> = [];
    let fetchViaProxy: typeof fetch;

    before(async () => {
      emu = await startEmulator({ hosts: 10, dialect: 'live' });
      proxy = await startProxy();
      agent = new ProxyAgent({ uri: proxy.url, proxyTunnel: mode === 'CONNECT tunnel' });
      fetchViaProxy = proxiedFetch(agent, inits);
    });
    after(async () => {
      await agent.close();
      await proxy.close();
      await emu.close();
    });
    beforeEach(() => {
      emu.clearFaults();
      emu.clearLog();
      proxy.seen.length = 0;
    });

    void it('requests reach the emulator through the proxy, and no dispatcher is passed', async () => {
      const { client } = makeClient(emu.url, emu.apiKey, { fetch: fetchViaProxy });
      assert.equal((await client.getHost(HOST)).ip, HOST);
      assert.ok((await client.searchHosts({ query: '*', limit: 3 })).items.length > 0);
      const port = new URL(emu.url).port;
      if (mode === 'CONNECT tunnel') {
        assert.ok(proxy.seen.includes(`CONNECT 127.0.0.1:${port}`), proxy.seen.join());
      } else {
        assert.ok(proxy.seen.includes(`GET ${emu.url}/v1/hosts/${HOST}`), proxy.seen.join());
        assert.ok(proxy.seen.includes(`POST ${emu.url}/v1/hosts/search`), proxy.seen.join());
      }
      assert.deepEqual(
        emu.requests.map((r) => [r.endpoint, r.keyValid]),
        [
          ['hosts.get', true],
          ['hosts.search', true],
        ],
      );
      for (const init of inits) {
        assert.equal('dispatcher' in init, false, 'the client never passes a dispatcher');
        assert.equal(init.redirect, 'manual');
        assert.ok(init.signal instanceof AbortSignal);
      }
    });

    void it('the deadline fires through the proxy (hang and trickle)', async () => {
      const { client } = makeClient(emu.url, emu.apiKey, { fetch: fetchViaProxy, timeoutMs: 300 });
      emu.injectFault({ fault: { kind: 'hang' } });
      let t0 = performance.now();
      await expectKind(client.getHost(HOST), 'timeout');
      assert.ok(performance.now() - t0 < 10_000, 'the 300 ms deadline fired, not a later one');
      emu.injectFault({ fault: { kind: 'trickle', bytesPerChunk: 8, intervalMs: 40 } });
      t0 = performance.now();
      const e = await expectKind(client.getHost(HOST), 'timeout');
      assert.ok(performance.now() - t0 < 10_000, 'the 300 ms deadline fired, not a later one');
      assert.match(e.detail, /reading the body/);
    });

    void it('the size cap fires through the proxy while streaming', async () => {
      const { client } = makeClient(emu.url, emu.apiKey, { fetch: fetchViaProxy, maxResponseBytes: 50_000 });
      emu.injectFault({ fault: { kind: 'oversized', bytes: 10_000_000 } });
      const e = await expectKind(client.getHost(HOST), 'tooLarge');
      assert.match(e.detail, /while streaming/);
    });

    void it('cancellation works through the proxy', async () => {
      const { client } = makeClient(emu.url, emu.apiKey, { fetch: fetchViaProxy, timeoutMs: 30_000 });
      emu.injectFault({ fault: { kind: 'hang' } });
      const ac = new AbortController();
      const before = emu.requests.length;
      const call = client.getHost(HOST, { signal: ac.signal });
      // Cancelled once the request hangs at the emulator, through the proxy.
      await waitFor(() => emu.requests.length > before, 10_000, 'the request at the emulator');
      ac.abort();
      const t0 = performance.now();
      await expectKind(call, 'cancelled');
      assert.ok(performance.now() - t0 < 10_000, 'the cancel ended it, not the 30 s deadline');
    });

    void it('retries go through the proxy too', async () => {
      const { client } = makeClient(emu.url, emu.apiKey, { fetch: fetchViaProxy });
      emu.injectFault({ fault: { kind: 'status', status: 503 }, count: 2 });
      assert.equal((await client.getHost(HOST)).ip, HOST);
      assert.equal(emu.requests.length, 3);
    });
  });
}
