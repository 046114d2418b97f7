/**
 * The map's pure parts: coordinates read once from what the service sends
 * (strings, empty, malformed, out of range: skipped and counted), points clustered on a grid,
 * coloured by the one CVE-state reader and the KEV signal and ordered by the one ordering
 * rule, a choropleth's shades, hostile labels kept as plain strings, the map page's messages
 * (host indexes only) and the check of a PNG a page asks to save.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Host } from '../../../src/api/types';
import { fromMap, isToMap } from '../../../src/common/map/protocol';
import { checkPng, MAX_PNG_BYTES, MAX_PNG_URL_CHARS } from '../../../src/core/charts/pngExport';
import type { ExploitationView } from '../../../src/core/exploitation';
import { CompactPool, compactHost } from '../../../src/core/hosts/compactHost';
import {
  clusterHosts,
  countryShades,
  isCountryField,
  mapHosts,
  SHADES,
} from '../../../src/core/map/mapModel';
import { isPoint, locationPoint, skippedText } from '../../../src/core/map/points';
import { PAYLOADS } from '../../../src/emulator/hostile';
import { realShapeHosts } from '../../support/realShape';

test('coordinates: strings and numbers, geo_point "lat, lon" when they are absent', () => {
  assert.deepEqual(locationPoint({ coordinates: { latitude: '40.7123', longitude: '-74.0068' } }), {
    lat: 40.7123,
    lon: -74.0068,
  });
  assert.deepEqual(locationPoint({ coordinates: { latitude: -4.5833, longitude: 55.6667 } }), {
    lat: -4.5833,
    lon: 55.6667,
  });
  assert.deepEqual(locationPoint({ geo_point: '52.6959, 6.1847' }), { lat: 52.6959, lon: 6.1847 });
  assert.deepEqual(locationPoint({ coordinates: { latitude: '', longitude: '' }, geo_point: '1.5,2.5' }), {
    lat: 1.5,
    lon: 2.5,
  });
  assert.deepEqual(locationPoint({ coordinates: { latitude: '0', longitude: '0' } }), { lat: 0, lon: 0 });
});

test('coordinates: empty, malformed and out of range give no point (never 0,0)', () => {
  const cases: Array<[unknown, string]> = [
    [undefined, 'missing'],
    [{}, 'missing'],
    [{ coordinates: { latitude: '', longitude: '' } }, 'missing'],
    [{ coordinates: { latitude: '  ', longitude: '' }, geo_point: '' }, 'missing'],
    [{ coordinates: { latitude: '40.7' } }, 'malformed'],
    [{ coordinates: { latitude: 'north', longitude: '3' } }, 'malformed'],
    [{ coordinates: { latitude: '1e2', longitude: '3' } }, 'malformed'],
    [{ coordinates: { latitude: Number.NaN, longitude: 3 } }, 'malformed'],
    [{ coordinates: { latitude: {}, longitude: [] } }, 'malformed'],
    [{ geo_point: '40.7' }, 'malformed'],
    [{ geo_point: '40.7, -74.0, 3' }, 'malformed'],
    [{ geo_point: 'lat, lon' }, 'malformed'],
    [{ geo_point: '<script>, 1' }, 'malformed'],
    [{ coordinates: { latitude: '91', longitude: '0' } }, 'outOfRange'],
    [{ coordinates: { latitude: 0, longitude: -180.5 } }, 'outOfRange'],
    [{ geo_point: '-90.01, 10' }, 'outOfRange'],
    [{ geo_point: '10, 999' }, 'outOfRange'],
  ];
  for (const [loc, why] of cases)
    assert.equal(locationPoint(loc as Parameters<typeof locationPoint>[0]), why, JSON.stringify(loc));
  assert.equal(skippedText(0), '');
  assert.equal(skippedText(1), '1 host without coordinates');
  assert.equal(skippedText(12), '12 hosts without coordinates');
  assert.equal(skippedText(1234), '1,234 hosts without coordinates');
});

test('the real-shaped answer: every host has a point, and the compact record of a result set keeps it', () => {
  const { hosts } = realShapeHosts();
  assert.ok(hosts.length > 0);
  const pool = new CompactPool();
  for (const h of hosts) {
    const p = locationPoint(h.location);
    assert.ok(isPoint(p), h.ip);
    assert.deepEqual(locationPoint(compactHost(h, pool).location), p, `${h.ip} after compaction`);
  }
  // A compact record of a host that has only geo_point keeps that.
  const only = { ...hosts[0]!, location: { geo_point: '10.5, 20.25', country_code: 'DE' } };
  assert.deepEqual(locationPoint(compactHost(only, pool).location), { lat: 10.5, lon: 20.25 });
});

function host(ip: string, over: Partial<Host> = {}): Host {
  return {
    ip,
    services: [],
    hostnames: [],
    domains: [],
    tags: [],
    banner: [],
    location: { coordinates: { latitude: 50, longitude: 8 }, city: 'Frankfurt', country_code: 'DE' },
    ...over,
  } as unknown as Host;
}
const withCve = (id: string, score?: number): Host['services'] =>
  [{ port: 443, cve: [{ id, score }] }] as unknown as Host['services'];

const feeds = (kev: string[], epss: Record<string, number> = {}): ExploitationView =>
  ({
    lookup: (id: string) => ({
      id,
      ...(kev.includes(id) ? { kev: { id, added: '2024-01-01', ransomware: false } } : {}),
      ...(epss[id] !== undefined ? { epss: { epss: epss[id], percentile: 0.5 } } : {}),
    }),
    kevStatus: () => ({ state: 'fresh' }),
    epssStatus: () => ({ state: 'fresh' }),
  }) as unknown as ExploitationView;

test('levels come from the CVE state and KEV; hosts are ordered by the one ordering rule', () => {
  const hosts = [
    host('10.0.0.1'),
    host('10.0.0.2', { services: withCve('CVE-2020-0002', 5) }),
    host('10.0.0.3', { services: withCve('CVE-2020-0003', 9.8) }),
    host('10.0.0.4', { services: withCve('CVE-2020-0004', 4) }),
    host('10.0.0.5', { cve_unreadable: 'the CVE list could not be read' }),
    host('10.0.0.6', { location: { geo_point: 'x' } }),
    host('10.0.0.7', { location: undefined }),
    host('10.0.0.8', { is_vuln: true }),
  ];
  const { hosts: placed, skipped } = mapHosts(hosts, feeds(['CVE-2020-0004'], { 'CVE-2020-0002': 0.9 }));
  assert.equal(skipped, 2);
  assert.deepEqual(
    placed.map((h) => [h.ip, h.level]),
    [
      ['10.0.0.4', 'exploited'], // KEV first
      ['10.0.0.2', 'vulnerable'], // then EPSS
      ['10.0.0.3', 'vulnerable'], // then CVSS
      ['10.0.0.8', 'vulnerable'],
      ['10.0.0.5', 'unknown'], // never a false all-clear
      ['10.0.0.1', 'clean'],
    ],
  );
  // Without the feeds: no host is "exploited"; CVSS orders.
  assert.deepEqual(
    mapHosts(hosts, undefined).hosts.map((h) => h.level),
    ['vulnerable', 'vulnerable', 'vulnerable', 'vulnerable', 'unknown', 'clean'],
  );
});

test('points in one grid cell are one cluster at their mean, worst level and worst host first', () => {
  const { hosts } = mapHosts(
    [
      host('10.0.0.1', { location: { coordinates: { latitude: 50.1, longitude: 8.6 } } }),
      host('10.0.0.2', {
        location: { coordinates: { latitude: 50.3, longitude: 8.8 } },
        services: withCve('CVE-1', 7),
      }),
      host('10.0.0.3', { location: { coordinates: { latitude: -33.9, longitude: 151.2 } } }),
    ],
    undefined,
  );
  const clusters = clusterHosts(hosts);
  assert.equal(clusters.length, 2);
  const [fra, syd] = clusters;
  assert.equal(fra!.level, 'vulnerable');
  assert.deepEqual(
    fra!.hosts.map((i) => hosts[i]!.ip),
    ['10.0.0.2', '10.0.0.1'],
  );
  assert.ok(Math.abs(fra!.lat - 50.2) < 1e-9 && Math.abs(fra!.lon - 8.7) < 1e-9);
  assert.equal(syd!.level, 'clean');
  assert.equal(clusterHosts(hosts, 0.1).length, 3, 'a finer grid separates them');
  // 10,000 points: every host in exactly one cluster.
  const many = Array.from({ length: 10_000 }, (_, i) => ({
    ip: `10.${i >> 8}.${i & 255}.1`,
    lat: ((i * 37) % 170) - 85,
    lon: ((i * 91) % 360) - 180,
    level: 'clean' as const,
    org: '',
    city: '',
    country: '',
    hostname: '',
  }));
  const all = clusterHosts(many);
  assert.equal(
    all.reduce((n, c) => n + c.hosts.length, 0),
    10_000,
  );
  assert.equal(new Set(all.flatMap((c) => c.hosts)).size, 10_000);
});

test('hostile org names, cities and hostnames stay the same plain strings', () => {
  const payload = Object.values(PAYLOADS).join(' ');
  const { hosts } = mapHosts(
    [
      host('10.0.0.9', {
        asn: { organization: payload },
        hostnames: [{ name: PAYLOADS.script }],
        location: {
          coordinates: { latitude: '1', longitude: '2' },
          city: PAYLOADS.img,
          country_code: PAYLOADS.jsUrl,
        },
      } as unknown as Partial<Host>),
    ],
    undefined,
  );
  const h = hosts[0]!;
  assert.equal(h.org, payload);
  assert.equal(h.city, PAYLOADS.img);
  assert.equal(h.hostname, PAYLOADS.script);
  assert.equal(h.country, PAYLOADS.jsUrl);
  for (const v of Object.values(h)) assert.ok(typeof v === 'string' || typeof v === 'number');
});

test('a summary by country: codes shaded on a log scale, other keys counted apart', () => {
  assert.ok(isCountryField('location.country_code'));
  assert.ok(isCountryField('asn.country_code'));
  assert.ok(!isCountryField('location.city'));
  const { countries, unplaced } = countryShades([
    { key: 'US', doc_count: 10_000 },
    { key: 'de', doc_count: 100 },
    { key: 'DE', doc_count: 10 },
    { key: 'NL', doc_count: 1 },
    { key: 'XX1', doc_count: 5 },
    { key: null, doc_count: 7 },
    { key: PAYLOADS.script, doc_count: 3 },
    { key: 'FR', doc_count: Number.NaN },
  ]);
  assert.equal(unplaced, 15);
  assert.deepEqual(
    countries.map((c) => [c.code, c.count, c.shade]),
    [
      ['US', 10_000, SHADES],
      ['DE', 110, 3],
      ['NL', 1, 1],
      ['FR', 0, 0],
    ],
  );
  assert.deepEqual(countryShades([]), { countries: [], unplaced: 0 });
});

test('the map page sends host indexes only; anything else is refused', () => {
  assert.ok(fromMap({ type: 'ready' }));
  assert.deepEqual(fromMap({ type: 'openHost', generation: 2, host: 0 }), {
    type: 'openHost',
    generation: 2,
    host: 0,
  });
  assert.ok(fromMap({ type: 'rendered', generation: 1, points: 3, countries: 0, ms: 1.5 }));
  for (const bad of [
    { type: 'openHost', generation: 1, host: -1 },
    { type: 'openHost', generation: 1, host: '10.0.0.1' },
    { type: 'openHost', generation: 1, ip: '10.0.0.1' },
    { type: 'openHost', generation: 1, host: 0, command: 'x' },
    { type: 'command', command: 'workbench.action.terminal.new' },
    { type: 'savePng', png: 1 },
    { type: 'savePng', png: 'data:image/svg+xml;base64,AAAA' },
    { type: 'savePng', png: `data:image/png;base64,${'A'.repeat(MAX_PNG_URL_CHARS)}` },
  ])
    assert.equal(fromMap(bad), undefined, JSON.stringify(bad).slice(0, 80));
  assert.ok(isToMap({ type: 'empty', message: 'm' }));
  assert.ok(!isToMap({ type: 'map', generation: 1, map: 'x' }));
});

/** A PNG's first bytes: the signature and an IHDR chunk of `w`×`h` (the rest is not read). */
function png(w: number, h: number, extra = 16): string {
  const b = Buffer.alloc(33 + extra);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  b[24] = 8;
  b[25] = 6;
  return `data:image/png;base64,${b.toString('base64')}`;
}

test('a saved PNG: a PNG data URL with the signature and a sane IHDR, within the byte bound', () => {
  const ok = checkPng(png(1800, 900));
  assert.ok(ok.ok && ok.width === 1800 && ok.height === 900 && ok.bytes[0] === 0x89);
  const gif = `data:image/png;base64,${Buffer.from('GIF89a'.padEnd(40, '\0')).toString('base64')}`;
  const svg = `data:image/png;base64,${Buffer.from('<svg onload="alert(1)"></svg>'.padEnd(40)).toString('base64')}`;
  for (const [bad, why] of [
    [42, 'not text'],
    ['data:image/svg+xml;base64,PHN2Zz4=', 'not a PNG data URL'],
    ['https://evil.example/x.png', 'not a PNG data URL'],
    ['data:image/png;base64,!!!!', 'not base64'],
    ['data:image/png;base64,AAA', 'not base64'],
    [gif, 'no PNG signature'],
    [svg, 'no PNG signature'],
    ['data:image/png;base64,iVBORw0KGgo=', 'no PNG signature'],
    [png(0, 10), 'an image of 0×10 pixels'],
    [png(100_000, 10), 'an image of 100000×10 pixels'],
    [`data:image/png;base64,${'A'.repeat(MAX_PNG_URL_CHARS)}`, 'too large'],
  ] as Array<[unknown, string]>) {
    const r = checkPng(bad);
    assert.ok(!r.ok && r.reason === why, `${String(bad).slice(0, 40)}: ${JSON.stringify(r).slice(0, 80)}`);
  }
  assert.ok(MAX_PNG_URL_CHARS > (MAX_PNG_BYTES * 4) / 3);
});
