/**
 * Cancellation end to end: a cancelled call rejects with `cancelled` at once and leaves
 * nothing running: no timer, no socket of the client that keeps the process alive, and
 * the emulator's end of the cancelled connection closes (that is how we know it saw the
 * cancellation). This file runs in its own process (node --test), so the only sockets and
 * timers are the ones these tests create.
 *
 * Note: after an aborted request, undici (Node's fetch, and the npm package alike) opens a
 * fresh idle keep-alive connection to the origin without sending anything on it. Its
 * client end is unref'd (it keeps nothing alive) and the server closes it at its
 * keep-alive timeout; the checks below therefore follow the cancelled connection itself.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import { type Emulator, startEmulator } from '../../../src/emulator/server';
import { expectKind, makeClient } from './support';

const HOST = FIXTURE_HOSTS.resolver;

const count = (type: string): number => process.getActiveResourcesInfo().filter((r) => r === type).length;
const timers = (): number => count('Timeout');

/** Ref'd TCP sockets (the ones that keep the process alive), from Node's active handles. */
function tcp(): Array<{ local: number; remote: number }> {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles
    .filter((h): h is net.Socket => h instanceof net.Socket && h.remotePort !== undefined)
    .map((s) => ({ local: s.localPort ?? 0, remote: s.remotePort ?? 0 }));
}

/** Client ends (towards the emulator) and emulator ends of the open connections. */
function ends(port: number): { client: number[]; server: number[] } {
  const all = tcp();
  return {
    client: all.filter((s) => s.remote === port).map((s) => s.local),
    server: all.filter((s) => s.local === port).map((s) => s.remote),
  };
}

async function waitFor(pred: () => boolean, ms = 1000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) return false;
    await new Promise<void>((r) => setImmediate(r));
  }
  return true;
}

void describe('cancellation', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  async function fresh(): Promise<Emulator> {
    emu = await startEmulator({ hosts: 10 });
    return emu;
  }

  /** After a cancel: the cancelled connection is closed on both ends, no client socket is ref'd. */
  async function assertClosed(port: number, cancelled: number[]): Promise<void> {
    const closed = await waitFor(() => {
      const now = ends(port);
      return now.client.length === 0 && !now.server.some((p) => cancelled.includes(p));
    }, 500);
    assert.ok(closed, `still open: ${JSON.stringify(ends(port))} (cancelled connection ${cancelled.join()})`);
  }

  void it('while waiting for headers (hang): cancelled at once, both ends of the socket closed', async () => {
    const e = await fresh();
    const { client, logs } = makeClient(e.url, e.apiKey, { timeoutMs: 30_000 });
    e.injectFault({ fault: { kind: 'hang' } });
    const ac = new AbortController();
    const call = client.getHost(HOST, { signal: ac.signal });
    assert.ok(await waitFor(() => e.requests.length === 1), 'the request reached the emulator');
    const port = Number(new URL(e.url).port);
    const during = ends(port);
    assert.equal(during.client.length, 1, 'one connection in flight');
    assert.deepEqual(during.server, during.client, 'the emulator holds the other end');
    const t0 = performance.now();
    ac.abort();
    const err = await expectKind(call, 'cancelled');
    assert.ok(performance.now() - t0 < 10_000, 'the cancel ended it, not the 30 s deadline');
    assert.equal(err.attempts, 1);
    await assertClosed(port, during.client);
    assert.equal(timers(), 0, 'the 30 s deadline timer was cleared');
    assert.equal(e.requests[0].status, 0, 'never answered');
    assert.ok(
      logs.every((l) => l.level !== 'warn' && l.level !== 'error'),
      'a cancel is not a warning',
    );
  });

  void it('while reading the body (trickle): cancelled, sockets closed', async () => {
    const e = await fresh();
    // fetch resolves when the response headers have arrived: then the body is being read.
    let headers = false;
    const { client } = makeClient(e.url, e.apiKey, {
      timeoutMs: 30_000,
      fetch: async (...args: Parameters<typeof fetch>) => {
        const res = await fetch(...args);
        headers = true;
        return res;
      },
    });
    e.injectFault({ fault: { kind: 'trickle', bytesPerChunk: 4, intervalMs: 20 } });
    const ac = new AbortController();
    const call = client.getHost(HOST, { signal: ac.signal });
    // The emulator sets the status when it writes the headers; then the body trickles.
    assert.ok(await waitFor(() => e.requests[0]?.status === 200));
    const port = Number(new URL(e.url).port);
    assert.ok(await waitFor(() => headers, 5000));
    const during = ends(port);
    assert.equal(during.client.length, 1);
    ac.abort();
    const err = await expectKind(call, 'cancelled');
    assert.match(err.detail, /reading the body/);
    await assertClosed(port, during.client);
    // The emulator's own trickle timer (20 ms) may still fire once; our 30 s deadline must be gone.
    assert.ok(await waitFor(() => timers() === 0, 200), 'no timer left');
  });

  void it('while sleeping before a retry: cancelled at once, the backoff timer cleared', async () => {
    const e = await fresh();
    const { client, logs } = makeClient(e.url, e.apiKey, {
      timeoutMs: 30_000,
      retry: { maxAttempts: 3, maxRetryAfterMs: 10_000 },
    });
    e.injectFault({ fault: { kind: 'status', status: 503, retryAfter: '5' }, count: -1 });
    const ac = new AbortController();
    const call = client.getHost(HOST, { signal: ac.signal });
    assert.ok(await waitFor(() => e.requests.length === 1 && e.requests[0].status === 503));
    // The client has read the 503 and is waiting out its Retry-After (it logs that first).
    assert.ok(await waitFor(() => logs.some((l) => /retrying in/.test(l.msg)), 5000));
    const t0 = performance.now();
    ac.abort();
    const err = await expectKind(call, 'cancelled');
    assert.ok(performance.now() - t0 < 4000, 'the cancel ended the 5 s Retry-After wait');
    assert.match(err.detail, /waiting to retry/);
    assert.equal(e.requests.length, 1, 'no retry was sent after the cancel');
    assert.equal(timers(), 0);
  });

  void it('an already-aborted signal sends nothing', async () => {
    const e = await fresh();
    const { client } = makeClient(e.url, e.apiKey);
    const err = await expectKind(client.getHost(HOST, { signal: AbortSignal.abort() }), 'cancelled');
    assert.equal(err.attempts, 0);
    assert.equal(e.requests.length, 0);
  });

  void it('a completed call leaves no timer behind (deadline cleared, not left to expire)', async () => {
    const e = await fresh();
    const { client } = makeClient(e.url, e.apiKey, { timeoutMs: 60_000 });
    const ac = new AbortController();
    assert.equal((await client.getHost(HOST, { signal: ac.signal })).ip, HOST);
    assert.equal(timers(), 0);
    // The caller's signal has no listener of ours left on it.
    ac.abort();
  });
});
