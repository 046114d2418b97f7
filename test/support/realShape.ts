/**
 * The project's real-shaped fixture (`test/fixtures/real-shape/hosts-search.json`: a hosts
 * search answer written in the structure of the one captured answer of the real service,
 * with the project's own values), read once for every test that needs it, and a loopback
 * upstream that serves it the way the real service answers (search, count, lookup, CVEs and
 * exploits, credits).
 *
 * Plain Node (no `vscode`): the unit tests, the integration tests inside VS Code and the UI
 * tests (through `out/test/support/realShape.js`) share it.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { normalizeHost, parseJson } from '../../src/api/normalize';
import type { Host } from '../../src/api/types';

/** Compiled to out/test/support: the repository root is three folders up. */
export const REAL_SHAPE_FILE = path.join(
  __dirname,
  '..',
  '..',
  '..',
  'test',
  'fixtures',
  'real-shape',
  'hosts-search.json',
);

/** One host as the wire carries it (only what the upstream reads is typed). */
export interface RawHost {
  ip: string;
  services?: Array<{ modules?: Record<string, { fingerprint_sha256?: string } | undefined> }>;
}

export interface RealShapeBody {
  success: boolean;
  pagination: { start: unknown; last: unknown; limit: number; total: number };
  data: RawHost[];
}

/** The fixture as the wire carries it (a fresh copy on every call). */
export function readRealShape(): RealShapeBody {
  return parseJson(fs.readFileSync(REAL_SHAPE_FILE, 'utf8')) as RealShapeBody;
}

/** The fixture's hosts as the client reads them, and a lookup by IP. */
export function realShapeHosts(): { hosts: Host[]; byIp(ip: string): Host } {
  const hosts = readRealShape().data.map((h) => normalizeHost(h)!) as Host[];
  return {
    hosts,
    byIp(ip: string): Host {
      const h = hosts.find((x) => x.ip === ip);
      if (!h) throw new Error(`${ip} is not in ${REAL_SHAPE_FILE}`);
      return h;
    },
  };
}

export interface RealShapeUpstream {
  url: string;
  /** `METHOD /path` of every request, in order. */
  paths: string[];
  /** The `query` of every POST /v1/hosts/search, in order. */
  queries: string[];
  close(): Promise<void>;
}

function v4(ip: string): number {
  return ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
}

/** The hosts a query selects: `ip:"a.b.c.d"` or `ip:"a.b.c.0/n"`, a certificate fingerprint, else all. */
function select(data: RawHost[], query: string): RawHost[] {
  const fp = /fingerprint_sha256:\s*"?([0-9a-fA-F]{64})"?/.exec(query)?.[1]?.toUpperCase();
  if (fp) {
    return data.filter((h) =>
      (h.services ?? []).some((s) => s.modules?.tls?.fingerprint_sha256?.toUpperCase() === fp),
    );
  }
  const ip = /ip:\s*"([^"]+)"/.exec(query)?.[1];
  if (!ip) return data;
  const [base, len] = ip.split('/');
  if (len === undefined) return data.filter((h) => h.ip === base);
  const mask = 2 ** (32 - Number(len));
  return data.filter((h) => Math.floor(v4(h.ip) / mask) === Math.floor(v4(base) / mask));
}

/** Serves the fixture on 127.0.0.1 as the real service would answer (any key is accepted). */
export async function startRealShapeUpstream(): Promise<RealShapeUpstream> {
  const body = readRealShape();
  const paths: string[] = [];
  const queries: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const p = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
      paths.push(`${req.method} ${p}`);
      const send = (status: number, value: unknown): void => {
        const text = JSON.stringify(value);
        res.writeHead(status, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        });
        res.end(text);
      };
      if (!req.headers['x-api-key']) return send(401, { success: false, message: 'API key required' });
      const query = (): string => {
        try {
          const q = (JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { query?: unknown }).query;
          return typeof q === 'string' ? q : '*';
        } catch {
          return '*';
        }
      };
      if (req.method === 'POST' && p === '/v1/hosts/search') {
        const q = query();
        queries.push(q);
        const data = select(body.data, q);
        return send(200, { ...body, pagination: { ...body.pagination, total: data.length }, data });
      }
      if (req.method === 'POST' && p === '/v1/hosts/count') {
        return send(200, {
          success: true,
          message: 'ok',
          data: { count: select(body.data, query()).length },
        });
      }
      const lookup = /^\/v1\/hosts\/([0-9.]+)$/.exec(p);
      if (req.method === 'GET' && lookup) {
        const host = body.data.find((h) => h.ip === lookup[1]);
        return host
          ? send(200, { success: true, message: 'ok', data: host })
          : send(404, { success: false, message: 'Host not found' });
      }
      // The CVE details and exploits endpoints: the fixture holds none beyond the search
      // hits' `{id, severity}`, so they answer an empty map (as a page past the end does).
      const cves = /^\/v1\/(?:cves\/all\/([0-9.]+)\/\d+|hosts\/exploits\/([0-9.]+))$/.exec(p);
      if (req.method === 'GET' && cves) {
        return body.data.some((h) => h.ip === (cves[1] ?? cves[2]))
          ? send(200, { success: true, message: 'ok', data: {} })
          : send(404, { success: false, message: 'Host not found' });
      }
      if (req.method === 'GET' && p === '/v1/credits/usage') {
        return send(200, {
          search: { host_cert: { left: 7, plan: 10 } },
          expires_on: Math.floor(Date.parse('2027-01-31T00:00:00Z') / 1000),
        });
      }
      return send(404, { success: false, message: 'Not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
