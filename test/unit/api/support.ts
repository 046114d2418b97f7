/** Shared helpers of the API client tests: a client wired to a log collector, a loopback HTTP proxy. */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { OdinClient, type OdinClientOptions } from '../../../src/api/client';
import { OdinApiError, type OdinErrorKind } from '../../../src/api/errors';
import type { LogLevel } from '../../../src/api/http';

export interface LoggedClient {
  client: OdinClient;
  logs: Array<{ level: LogLevel; msg: string }>;
}

/** A client with small timeouts and backoff (tests stay fast) and every log line kept. */
export function makeClient(
  url: string,
  apiKey: string | undefined,
  extra: Partial<OdinClientOptions> = {},
): LoggedClient {
  const logs: Array<{ level: LogLevel; msg: string }> = [];
  const client = new OdinClient({
    baseUrl: url,
    apiKey: () => apiKey,
    timeoutMs: 2000,
    retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1500 },
    log: (level, msg) => logs.push({ level, msg }),
    ...extra,
  });
  return { client, logs };
}

/** Awaits a rejection and checks it is an OdinApiError of `kind`; returns it for more checks. */
export async function expectKind(p: Promise<unknown>, kind: OdinErrorKind): Promise<OdinApiError> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof OdinApiError))
      throw new Error(`expected OdinApiError(${kind}), got ${String(e)}`, { cause: e });
    if (e.kind !== kind) {
      throw new Error(`expected kind ${kind}, got ${e.kind}: ${e.message} | ${e.detail}`, { cause: e });
    }
    return e;
  }
  throw new Error(`expected OdinApiError(${kind}), but the call succeeded`);
}

export interface TestProxy {
  url: string;
  /** What went through: `CONNECT host:port` or `GET http://host:port/path`. */
  seen: string[];
  close(): Promise<void>;
}

/**
 * A minimal forward proxy on loopback: absolute-form requests are forwarded with
 * `http.request`, CONNECT opens a raw tunnel. Enough to prove requests go through it.
 */
export async function startProxy(): Promise<TestProxy> {
  const seen: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        res.on('close', () => up.destroy());
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
    res.on('close', () => upstream.destroy());
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    sockets.add(client);
    const end = (): void => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', end).on('close', end);
    client.on('error', end).on('close', end);
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
