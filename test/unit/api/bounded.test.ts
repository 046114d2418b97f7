/**
 * Bounded work per answer (no answer freezes the editor): an answer under the 16 MiB cap can list 900,000
 * services or a module of a million values; normalising keeps at most MAX_LIST_ITEMS of a
 * list (services with CVEs first) and MAX_MODULE_VALUES module values, and says what it left
 * out. The cache's byte bound counts heap bytes from above, checked here against measured
 * heap growth. Time is measured by `npm run bench -- --only=freeze`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { normalizeHost, parseJson } from '../../../src/api/normalize';
import { MAX_HOST_CVES, MAX_LIST_ITEMS, MAX_MODULE_VALUES } from '../../../src/api/normalize/json';
import { entryBytes, ResultCache } from '../../../src/core/requests/cache';
import { normalizeWhois } from '../../../src/api/normalize/domains';
import { heapBytes } from '../../../src/core/requests/heapBytes';
import { hostCard } from '../../../src/core/cards/hoverCard';
import { hostOut } from '../../../src/emulator/dialect';
import { generateDataset } from '../../../src/emulator/dataset';
import { hostView } from '../../../src/extension/details/hostModel';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

function heap(): number {
  /x/.test('x');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

void describe('bounded work per answer', () => {
  void it('a host listing 900,000 services keeps 1,000, those with CVEs first, and counts the rest', () => {
    const services: unknown[] = [];
    for (let i = 0; i < 900_000; i++) services.push({ port: i % 65536 });
    // Two vulnerable services at the very end of the list.
    services.push({ port: 22, cve: [{ id: 'CVE-2024-6387', severity: 'high' }] });
    services.push({ port: 443, cve: { 'CVE-2023-44487': { id: 'CVE-2023-44487', severity: 'high' } } });
    const host = normalizeHost(parseJson(JSON.stringify({ ip: '198.51.100.8', services })))!;
    assert.equal(host.services.length, MAX_LIST_ITEMS);
    assert.equal(host.services_omitted, 900_002 - MAX_LIST_ITEMS);
    assert.deepEqual(
      host.services.slice(0, 2).map((s) => s.cve.map((c) => c.id)),
      [['CVE-2024-6387'], ['CVE-2023-44487']],
    );
    // What the user is shown: the count the answer listed, and that the rest was not kept.
    const card = hostCard(host.ip, host, { now: 0 });
    assert.match(card, /Open ports \(900,002, 1,000 kept\)/);
    assert.match(hostView(host).notKept ?? '', /^899,002 of the 900,002 services the answer listed/);
  });

  void it('a host listing 560,000 CVEs keeps 1,000 a service and MAX_HOST_CVES in all, in a list or a map, and the cut is said', () => {
    const ids = Array.from({ length: 560_000 }, (_, i) => `CVE-2024-${String(i + 10_000)}`);
    const asMap: Record<string, unknown> = {};
    for (const id of ids) asMap[id] = { id, severity: 'high' };
    for (const cve of [ids, asMap]) {
      const host = normalizeHost({ ip: '198.51.100.11', services: [{ port: 443, cve }] })!;
      assert.equal(host.services[0]!.cve.length, MAX_LIST_ITEMS);
      assert.equal(host.details_cut, true);
      assert.equal(host.services[0]!.cve[0]!.id, 'CVE-2024-10000');
      // Small enough to be cached, so the next hover does not read it again.
      assert.ok(heapBytes(host) < 2 * 1024 * 1024, `${heapBytes(host)} bytes`);
    }
    // The same 560,000 spread over 560 services: the host keeps MAX_HOST_CVES, and every
    // service that lists CVEs keeps at least one (none reads as clean).
    const services = Array.from({ length: 560 }, (_, s) => ({
      port: s + 1,
      cve: ids.slice(s * 1000, s * 1000 + 1000),
    }));
    const spread = normalizeHost({ ip: '198.51.100.12', services })!;
    const kept = spread.services.map((s) => s.cve.length);
    assert.ok(kept.every((n) => n >= 1));
    assert.ok(
      kept.reduce((a, b) => a + b) <= MAX_HOST_CVES + 560,
      `${kept.reduce((a, b) => a + b)} CVEs kept`,
    );
    assert.equal(spread.details_cut, true);
    // The hover says the count is a floor.
    assert.match(hostCard(spread.ip, spread, { now: 0 }), /\*\*Vulnerable:\*\* yes · 5,\d{3}\+ CVEs/);
    assert.ok(heapBytes(spread) < 8 * 1024 * 1024, `${heapBytes(spread)} bytes`);
  });

  void it('protocol modules of one answer are copied up to MAX_MODULE_VALUES values, and the cut is said', () => {
    const headers: Record<string, string[]> = {};
    for (let i = 0; i < 300_000; i++) headers[`x_h${i}`] = ['v'];
    const host = normalizeHost({
      ip: '198.51.100.9',
      services: [
        { port: 80, modules: { http: { title: 'big', headers } } },
        { port: 81, modules: { http: { title: 'after the cut' } } },
      ],
      hostnames: Array.from({ length: 5000 }, (_, i) => `h${i}.example.com`),
    })!;
    assert.ok(heapBytes(host.services) < heapBytes({ headers }) / 2);
    const kept = Object.keys(host.services[0]!.modules.http!.headers as object).length;
    assert.ok(kept < MAX_MODULE_VALUES && kept > MAX_MODULE_VALUES / 3, `${kept} headers kept`);
    assert.equal(host.hostnames.length, MAX_LIST_ITEMS);
    assert.equal(host.details_cut, true);
    assert.match(hostView(host).notKept ?? '', /part of the other lists and protocol details/);
    // An ordinary host is kept whole and says nothing.
    const plain = normalizeHost({ ip: '198.51.100.10', services: [{ port: 22 }] })!;
    assert.equal(plain.services_omitted, undefined);
    assert.equal(plain.details_cut, undefined);
  });

  void it('parseJson drops forbidden keys however they are spelled, and parses without a reviver', () => {
    const v = parseJson(
      '{"\\u005f_proto__":{"polluted":1},"a":[{"constru\\u0063tor":{"x":1},"ok":true}]}',
    ) as {
      a: Record<string, unknown>[];
    };
    assert.deepEqual(Object.keys(v), ['a']);
    assert.deepEqual(Object.keys(v.a[0]!), ['ok']);
    assert.equal(({} as { polluted?: number }).polluted, undefined);
  });

  void it('every answer shape the cache holds is counted from above: lookups, whois, ports, CVEs and module-heavy hosts (measured)', (t) => {
    // Real-shaped lookups of the emulator's hosts (banners, certificates, CVE records) and
    // whois records; a host of 65,535 small services as the size cap admits it; hosts whose
    // protocol modules carry keys of their own (a header named by the scanned host), nested
    // lists, numbers and many small objects, each up to MAX_MODULE_VALUES.
    const data = generateDataset({ hosts: 150, seed: 11, now: Date.UTC(2026, 0, 1) });
    const withModule = (copy: number, x: unknown): string =>
      JSON.stringify({
        ip: `198.51.100.${copy}`,
        services: [{ port: 80, modules: { http: { title: `t${copy}`, x } } }],
      });
    const copies = (n: number, make: (copy: number) => string): string[] =>
      Array.from({ length: n }, (_, c) => make(c));
    const host = (t: string): unknown => normalizeHost(parseJson(t));
    const shapes: Array<[string, string[], (t: string) => unknown]> = [
      ['emulator lookups', data.hosts.map((h) => JSON.stringify(hostOut(h, 'live', false))), host],
      [
        // Ten copies under other names: forty records alone hold less than the heap's noise.
        'emulator whois',
        copies(10, (c) =>
          [...data.whois.values()]
            .map((w) => JSON.stringify(w).replace(/"([a-z0-9-]+)\./g, `"$1${c}.`))
            .join('\n'),
        ).flatMap((t) => t.split('\n')),
        (t) => normalizeWhois(parseJson(t)),
      ],
      [
        '65,535 ports',
        copies(6, (c) =>
          JSON.stringify({
            ip: `198.51.100.${c}`,
            services: Array.from({ length: 65_535 }, (_, i) => ({
              port: i + 1,
              protocol: 'tcp',
              name: 'http',
            })),
          }),
        ),
        host,
      ],
      [
        '5,000 CVE records',
        copies(3, (c) =>
          JSON.stringify({
            ip: `198.51.100.${c}`,
            services: Array.from({ length: 5 }, (_, s) => ({
              port: s + 1,
              cve: Array.from({ length: 1000 }, (_, i) => ({
                id: `CVE-2024-${c}${s}${i}`,
                severity: 'high',
                score: 7.5,
                summary: `summary ${i}`,
                references: [`https://example.com/${i}`],
              })),
            })),
          }),
        ),
        host,
      ],
      [
        'module keys of its own',
        copies(3, (c) =>
          withModule(
            c,
            Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`x_${c}_h${i}`, [`v${i}`]])),
          ),
        ),
        host,
      ],
      [
        'module objects of one key each',
        copies(3, (c) =>
          withModule(
            c,
            Array.from({ length: 45_000 }, (_, i) => ({ [`k${c}_${i}`]: 1 })),
          ),
        ),
        host,
      ],
      [
        'module objects of sixteen keys of their own',
        copies(3, (c) =>
          withModule(
            c,
            Array.from({ length: 6_000 }, (_, i) =>
              Object.fromEntries(Array.from({ length: 16 }, (_, k) => [`k${c}_${i}_${k}`, k])),
            ),
          ),
        ),
        host,
      ],
      [
        'module nested lists',
        copies(3, (c) =>
          withModule(
            c,
            Array.from({ length: 45_000 }, () => [`${c}`]),
          ),
        ),
        host,
      ],
      [
        'module numbers',
        copies(3, (c) =>
          withModule(
            c,
            Array.from({ length: 90_000 }, (_, i) => i + c + 0.5),
          ),
        ),
        host,
      ],
      [
        'module empty objects',
        copies(3, (c) =>
          withModule(
            c,
            Array.from({ length: 90_000 }, () => ({})),
          ),
        ),
        host,
      ],
    ];
    const report: string[] = [];
    for (const [name, texts, read] of shapes) {
      read(texts[0]!);
      const kept: unknown[] = [];
      const k0 = heap();
      for (const t of texts) kept.push(read(t));
      const held = heap() - k0;
      const counted = kept.reduce<number>(
        (n, v, i) => n + entryBytes(`host:${i}`, { notFound: false, value: v, storedAt: 0, expiresAt: 0 }),
        0,
      );
      report.push(`${name}: counted ${counted}, held ${held} (${(counted / held).toFixed(2)})`);
      t.diagnostic(report.at(-1)!);
      assert.ok(counted >= held, report.at(-1));
      assert.ok(counted <= 4 * held, report.at(-1));
      // Nothing of this shape may still be held when the next one is measured.
      kept.length = 0;
    }
  });

  void it('a cache full of module-heavy hosts holds no more heap than its byte bound, within 10% (measured)', () => {
    const maxBytes = 24 * 1024 * 1024;
    const cache = new ResultCache({
      ttlMs: { host: 60_000, whois: 60_000, count: 60_000, notFound: 60_000 },
      maxEntries: 10_000,
      maxBytes,
    });
    const texts = Array.from({ length: 24 }, (_, c) =>
      JSON.stringify({
        ip: `198.51.100.${c}`,
        services: [
          {
            port: 80,
            modules: {
              http: {
                headers: Object.fromEntries(
                  Array.from({ length: 20_000 }, (_, i) => [`x_${c}_h${i}`, [`v${i}`]]),
                ),
              },
            },
          },
        ],
      }),
    );
    const base = heap();
    texts.forEach((t, i) => cache.set(`host:${i}`, normalizeHost(parseJson(t)), 'host'));
    // The answer set last is sized on the next turn or read (its caller holds it until then).
    const kept = cache.size;
    const held = heap() - base;
    assert.ok(kept < texts.length, `all ${kept} hosts kept: the bound did not bite`);
    assert.ok(
      held <= 1.1 * maxBytes,
      `the cache holds ${held} bytes for a bound of ${maxBytes} (${cache.size} hosts)`,
    );
    cache.dispose();
  });
});
