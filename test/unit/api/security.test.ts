/**
 * The network-path rules of SECURITY.md: no plain http except loopback (refused before any
 * connection), redirects never followed (the key cannot reach another origin), and the key
 * never in a URL, error text or log line, even when a server echoes it back.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { OdinClient } from '../../../src/api/client';
import { FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import { type Emulator, startEmulator } from '../../../src/emulator/server';
import type { LogLevel } from '../../../src/api/http';
import { expectKind, makeClient } from './support';

const KEY = 'odin-k3y-THAT-MUST-NOT-LEAK-42';

/** A real fetch that counts its calls (a spy, not a stub: it still goes to the network). */
function countingFetch(): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fetch: ((input: string, init?: RequestInit) => {
      calls.push(String(input));
      return fetch(input, init);
    }) as typeof fetch,
  };
}

/** A loopback server answering every request with `handler`; records what it saw. */
async function serve(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ url: string; seen: http.IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

void describe('plain http is refused unless loopback', () => {
  for (const base of [
    'http://api.odin.io',
    'http://10.1.2.3:8080',
    'http://127.0.0.1.nip.io',
    'ftp://api.odin.io',
  ]) {
    void it(`${base}: refused without any connection`, async () => {
      const spy = countingFetch();
      const client = new OdinClient({ baseUrl: base, apiKey: () => KEY, fetch: spy.fetch });
      assert.equal(client.baseUrl.ok, false);
      const e = await expectKind(client.getHost('8.8.8.8'), 'network');
      assert.equal(e.network, 'insecure');
      assert.equal(e.attempts, 0);
      assert.match(e.message, /https/);
      await expectKind(client.ping(), 'network');
      assert.deepEqual(spy.calls, []);
    });
  }

  void it('https and loopback http are accepted', () => {
    for (const base of [
      'https://api.odin.io',
      'http://127.0.0.1:1',
      'http://localhost:1',
      'http://[::1]:1',
    ]) {
      assert.ok(new OdinClient({ baseUrl: base, apiKey: () => KEY }).baseUrl.ok, base);
    }
  });
});

void describe('redirects are never followed', () => {
  let target: Awaited<ReturnType<typeof serve>>;
  let redirector: Awaited<ReturnType<typeof serve>>;
  before(async () => {
    target = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    redirector = await serve((req, res) => {
      const status = req.url?.includes('307') ? 307 : 302;
      res.writeHead(status, { location: `${target.url}/steal` }).end();
    });
  });
  after(async () => {
    await target.close();
    await redirector.close();
  });

  for (const ip of ['1.1.1.1', '307']) {
    void it(`a 3xx is an error and the key never reaches the other origin (${ip})`, async () => {
      const { client, logs } = makeClient(redirector.url, KEY);
      const e = await expectKind(client.getHost(ip === '307' ? '1.1.1.307' : ip), 'badResponse');
      assert.ok(e.status === 302 || e.status === 307);
      assert.match(e.message, /redirect/);
      assert.match(e.detail, /not followed/);
      assert.equal(target.seen.length, 0, 'the redirect target was never contacted');
      assert.equal(redirector.seen.length >= 1, true);
      assert.ok(logs.length > 0);
    });
  }
});

void describe('the key never leaks', () => {
  let echo: Awaited<ReturnType<typeof serve>>;
  let emu: Emulator;
  before(async () => {
    // A hostile or buggy server that echoes the key in every kind of answer.
    echo = await serve((req, res) => {
      const key = String(req.headers['x-api-key']);
      if (req.url?.includes('/hosts/1.1.1.1')) {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: `bad key ${key}` }));
      } else if (req.url?.includes('/hosts/2.2.2.2')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, message: `key ${encodeURIComponent(key)} unknown` }));
      } else if (req.url?.includes('/hosts/3.3.3.3')) {
        res.writeHead(302, { location: `https://evil.example/?k=${key}` }).end();
      } else {
        res.writeHead(503, { 'content-type': 'text/plain' }).end(`overloaded, key=${key}`);
      }
    });
    emu = await startEmulator({ hosts: 10, apiKey: KEY });
  });
  after(async () => {
    await echo.close();
    await emu.close();
  });

  void it('server text echoing the key is redacted in messages, details, causes and logs', async () => {
    const { client, logs } = makeClient(echo.url, KEY);
    const errors = [
      await expectKind(client.getHost('1.1.1.1'), 'badRequest'),
      await expectKind(client.getHost('2.2.2.2'), 'badRequest'),
      await expectKind(client.getHost('3.3.3.3'), 'badResponse'),
      await expectKind(client.getHost('4.4.4.4'), 'server'),
    ];
    assert.equal(echo.seen.length, 6, 'the 503 was retried (3 attempts)');
    const texts = [
      ...errors.flatMap((e) => [
        e.message,
        e.detail,
        e.stack ?? '',
        String(e.cause ?? ''),
        JSON.stringify(e),
      ]),
      ...logs.map((l) => l.msg),
    ];
    assert.ok(
      texts.some((t) => t.includes('[redacted]')),
      'the echo was seen and redacted',
    );
    for (const t of texts) {
      assert.ok(!t.includes(KEY), `key in: ${t.slice(0, 160)}`);
      assert.ok(!t.includes(encodeURIComponent(KEY)), `encoded key in: ${t.slice(0, 160)}`);
    }
  });

  void it('a logger that drops a level is not handed its lines; its other levels still are', async () => {
    const lines: Array<{ level: LogLevel; msg: string }> = [];
    const asked: LogLevel[] = [];
    const log = Object.assign((level: LogLevel, msg: string) => void lines.push({ level, msg }), {
      writes: (level: LogLevel) => {
        asked.push(level);
        return level !== 'debug' && level !== 'trace';
      },
    });
    const { client } = makeClient(emu.url, KEY, { log });
    await client.getHost(FIXTURE_HOSTS.resolver);
    assert.ok(asked.includes('debug'), 'asked before a debug line');
    assert.equal(lines.length, 0, 'the request and answer lines are debug: dropped');
    const echoed = makeClient(echo.url, KEY, { log });
    await expectKind(echoed.client.getHost('4.4.4.4'), 'server');
    assert.ok(
      lines.some((l) => l.level === 'info' && /retrying/.test(l.msg)),
      JSON.stringify(lines),
    );
    assert.ok(lines.every((l) => l.level !== 'debug' && !l.msg.includes(KEY)));
  });

  void it('the key is sent only as a header, never in a URL', async () => {
    const { client, logs } = makeClient(emu.url, KEY);
    await client.getHost(FIXTURE_HOSTS.resolver);
    await client.searchHosts({ query: '*', limit: 2 });
    await client.getHostFields();
    assert.ok(emu.requests.every((r) => r.keyValid && !r.path.includes(KEY)));
    assert.ok(logs.every((l) => !l.msg.includes(KEY)));
  });

  void it('a key that cannot go in a header is refused before sending, without echoing it', async () => {
    emu.clearLog();
    const bad = `${KEY}\r\nX-Injected: 1`;
    const { client, logs } = makeClient(emu.url, bad);
    const e = await expectKind(client.getHost(FIXTURE_HOSTS.resolver), 'auth');
    assert.match(e.message, /invalid characters/);
    assert.equal(emu.requests.length, 0);
    for (const t of [e.message, e.detail, e.stack ?? '', ...logs.map((l) => l.msg)])
      assert.ok(!t.includes(KEY));
  });

  void it('a key store that throws ends in auth, not a crash', async () => {
    const client = new OdinClient({
      baseUrl: emu.url,
      apiKey: () => {
        throw new Error('keyring locked');
      },
    });
    const e = await expectKind(client.getHost(FIXTURE_HOSTS.resolver), 'auth');
    assert.match(e.detail, /keyring locked/);
  });

  void it('a wrong key is auth (401) with the set-key hint', async () => {
    const { client } = makeClient(emu.url, 'odin-wrong-key-000');
    const e = await expectKind(client.getHost(FIXTURE_HOSTS.resolver), 'auth');
    assert.equal(e.status, 401);
    assert.match(e.message, /Set API Key/);
  });
});

void describe('network failures are told apart, and compressed bodies are capped after decompression', () => {
  void it('connection refused → network/refused, not retried', async () => {
    // A port that was just free: nothing listens there.
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    const spy = countingFetch();
    const { client } = makeClient(`http://127.0.0.1:${port}`, KEY, { fetch: spy.fetch });
    const e = await expectKind(client.getHost('8.8.8.8'), 'network');
    assert.equal(e.network, 'refused');
    assert.match(e.detail, /ECONNREFUSED/);
    assert.equal(spy.calls.length, 1);
  });

  void it('TLS to a plain-http server → network/tls', async () => {
    const plain = await serve((_req, res) => res.end('{}'));
    const { client } = makeClient(plain.url.replace('http:', 'https:'), KEY);
    const e = await expectKind(client.getHost('8.8.8.8'), 'network');
    assert.equal(e.network, 'tls');
    assert.match(e.message, /secure connection failed/);
    await plain.close();
  });

  void it('a gzip bomb is stopped at the cap of decoded bytes', async () => {
    const bomb = zlib.gzipSync(Buffer.concat([Buffer.from('{"data":"'), Buffer.alloc(20_000_000, 0x61)]));
    assert.ok(bomb.length < 100_000);
    const server = await serve((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': bomb.length,
      });
      res.end(bomb);
    });
    const { client } = makeClient(server.url, KEY, { maxResponseBytes: 1_000_000 });
    const e = await expectKind(client.getHost('8.8.8.8'), 'tooLarge');
    assert.match(e.detail, /while streaming/);
    await server.close();
  });
});
