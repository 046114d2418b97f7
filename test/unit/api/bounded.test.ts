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
import { MAX_LIST_ITEMS, MAX_MODULE_VALUES } from '../../../src/api/normalize/json';
import { entryBytes } from '../../../src/core/requests/cache';
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

  void it('the cache bound counts at least the heap a cached host holds (measured), and not wildly more', () => {
    // Real-shaped lookups of the emulator's hosts (banners, certificates, CVE records), and
    // a host of 65,535 small services as the size cap admits it.
    const data = generateDataset({ hosts: 150, seed: 11, now: Date.UTC(2026, 0, 1) });
    const texts = data.hosts.map((h) => JSON.stringify(hostOut(h, 'live', false)));
    const ports = JSON.stringify({
      ip: '198.51.100.7',
      services: Array.from({ length: 65_535 }, (_, i) => ({ port: i + 1, protocol: 'tcp', name: 'http' })),
    });
    for (const [name, list, reps] of [
      ['emulator lookups', texts, 2],
      ['65,535 ports', [ports], 12],
    ] as const) {
      const work = () => list.map((t) => normalizeHost(parseJson(t))!);
      work();
      const g0 = heap();
      for (let i = 0; i < reps; i++) work();
      const garbage = heap() - g0;
      const kept = [];
      const k0 = heap();
      for (let i = 0; i < reps; i++) kept.push(...work());
      const held = heap() - k0 - garbage;
      const counted = kept.reduce(
        (n, h, i) => n + entryBytes(`host:${i}`, { notFound: false, value: h, storedAt: 0, expiresAt: 0 }),
        0,
      );
      assert.ok(counted >= held, `${name}: counted ${counted}, held ${held}`);
      assert.ok(counted <= 4 * held, `${name}: counted ${counted}, held ${held}`);
    }
  });
});
