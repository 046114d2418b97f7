/**
 * The shape contract: the `live` dialect answers in the shape of the real service.
 *
 * `test/fixtures/real-shape/hosts-search.json` is the project's own hosts-search answer
 * written in the structure of the one captured answer of the real service
 * (`../shared/real/hosts-search.capture.json`): the same keys, value types and nesting,
 * with the project's own values. This test reduces answers to their shape (every key path
 * with the value types seen there; array items merged; HTTP header names, which vary, as
 * `*`) and holds the emulator to the fixture both ways: nothing the fixture does not have
 * (no invented key, no other type) and everything it has (some host shows each field).
 */
import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import type { Emulator } from '../../../src/emulator/server';
import { readRealShape } from '../../support/realShape';
import { get, post, small } from './helpers';

type Shape = Map<string, Set<string>>;

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Every key path of `v` with the types seen there (`a.b[].c`; header names as `*`). */
export function shapeOf(v: unknown, at = '', into: Shape = new Map()): Shape {
  const seen = into.get(at) ?? new Set<string>();
  seen.add(typeOf(v));
  into.set(at, seen);
  if (Array.isArray(v)) for (const x of v) shapeOf(x, `${at}[]`, into);
  else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      const key = at.endsWith('.modules.http.headers') && k !== 'unknown' ? '*' : k;
      shapeOf(x, `${at}.${key}`, into);
    }
  }
  return into;
}

/** Paths of `actual` missing from `reference` or with a type the reference does not have there. */
function extraneous(actual: Shape, reference: Shape, allowed: RegExp[] = []): string[] {
  const out: string[] = [];
  for (const [p, types] of actual) {
    if (allowed.some((re) => re.test(p))) continue;
    const ref = reference.get(p);
    if (!ref) out.push(`${p} (not in the real shape)`);
    else for (const t of types) if (!ref.has(t)) out.push(`${p}: ${t} (real: ${[...ref].join('|')})`);
  }
  return out;
}

const fixture = readRealShape();

void describe('shape contract: live dialect = real service (test/fixtures/real-shape)', () => {
  let emu: Emulator;
  let search: Shape;
  const hits: any[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  const cursors: unknown[][] = [];
  before(async () => {
    emu = await small({ dialect: 'live', hosts: 400 });
    // Every host of the dataset (named fixtures included), page by page.
    search = new Map();
    let start: unknown = null;
    for (let i = 0; i < 10; i++) {
      const r = await post(emu, '/v1/hosts/search', { query: '*', limit: 100, start });
      assert.equal(r.status, 200);
      shapeOf(r.json, '', search);
      hits.push(...(r.json.data ?? []));
      start = r.json.pagination.last;
      if (start === null) break;
      cursors.push(start as unknown[]);
    }
    // The last host of each page of one gives a cursor per host.
    for (let i = 0, s: unknown = null; i < 60; i++) {
      const r = await post(emu, '/v1/hosts/search', { query: '*', limit: 1, start: s });
      s = r.json.pagination.last;
      if (s === null) break;
      cursors.push(s as unknown[]);
    }
  });
  after(() => emu.close());

  const reference = shapeOf(fixture);

  void it('the fixture has the structure of the captured answer (every field the capture has)', () => {
    // The capture's fields, by path (checked by hand against ../shared/real when the fixture was written).
    for (const p of [
      '.pagination.last[]',
      '.data[].tags[].value',
      '.data[].location.coordinates.latitude',
      '.data[].services[].modules.http.headers.*[]',
      '.data[].services[].modules.http.headers.unknown[].value[]',
      '.data[].services[].modules.http.redirects[].status_line',
      '.data[].services[].modules.tls.certificate.subject.common_name[]',
      '.data[].services[].modules.tls.certificate.subject_alt_name.dns_names[]',
      '.data[].services[].modules.tls.certificate.extensions.subject_alt_name.ip_address[]',
      '.data[].services[].modules.tls.certificate.validity.not_after',
      '.data[].services[].modules.tls.certificate.signature.self_signed',
      '.data[].services[].modules.ssh.key.fingerprint_sha256',
      '.data[].services[].modules.ftp.banner',
      '.data[].services[].modules.smtp.banner',
      '.data[].services[].softwares[].version',
      '.data[].services[].cve[].severity',
      '.data[].services[]._meta.category',
    ])
      assert.ok(reference.has(p), p);
    assert.deepEqual([...(reference.get('.data[].location.coordinates.latitude') ?? [])], ['string']);
    assert.deepEqual([...(reference.get('.data[].services[].modules.http.headers.*') ?? [])], ['array']);
  });

  /**
   * Beyond the one captured page: later pages echo the cursor sent as `start` (numbers),
   * the page after the last answers `last: null` and `data: null` [guess], and protocols
   * the capture does not show (mysql, redis, rdp, …) carry `{banner}` as ftp and smtp do
   * [guess; the official Go SDK shows other modules exist, not their layout].
   */
  const beyondCapture = [
    /^\.pagination\.start(\[\])?$/,
    /^\.pagination\.last$/,
    /^\.data$/,
    /^\.data\[\]\.services\[\]\.modules\.(?!http|tls|ssh|ftp|smtp)[a-z0-9_]+(\.banner)?$/,
  ];

  void it('search answers carry no key and no type the real service does not send', () => {
    assert.deepEqual(extraneous(search, reference, beyondCapture), []);
    // What the allowances let through is exactly that: numbers, null, and banner strings.
    for (const [p, types] of search) {
      if (!beyondCapture.some((re) => re.test(p))) continue;
      if (/banner$/.test(p)) assert.deepEqual([...types], ['string'], p);
      else if (p === '.pagination.start[]') assert.deepEqual([...types], ['number'], p);
      else for (const t of types) assert.ok(['null', 'array', 'object'].includes(t), `${p}: ${t}`);
    }
  });

  void it('search answers carry every field of the real shape (some host shows each)', () => {
    const missing = [...reference.keys()].filter((p) => !search.has(p));
    assert.deepEqual(missing, []);
  });

  void it('values follow the real conventions (strings, "lat, lon", lower-case severities, ANY, tags mostly false)', async () => {
    const r = await post(emu, '/v1/hosts/search', { query: '*', limit: 100 });
    const hosts = r.json.data as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    const tags = hosts.flatMap((h) => h.tags);
    assert.ok(tags.filter((t) => t.value === false).length > tags.length / 2, 'most tags are false');
    assert.ok(tags.some((t) => t.value === true));
    for (const h of hosts) {
      assert.match(h.location.geo_point, /^-?\d+(\.\d+)?, -?\d+(\.\d+)?$/);
      assert.equal(
        `${h.location.coordinates.latitude}, ${h.location.coordinates.longitude}`,
        h.location.geo_point,
      );
      for (const s of h.services) {
        for (const c of s.cve ?? []) assert.match(c.severity, /^(critical|high|medium|low|none)$/);
        for (const sw of s.softwares ?? []) assert.match(sw.uri, /^cpe:\/[aho]:/);
        assert.deepEqual(s._meta, { name: '', desc: '', category: '' });
        assert.equal(s.url, undefined);
        assert.equal(s.modules?.http?.banner, undefined, 'no http.banner');
        const cert = s.modules?.tls?.certificate;
        if (cert) {
          assert.match(cert.validity.not_after, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
          assert.match(s.modules.tls.fingerprint_sha256, /^[0-9A-F]{64}$/);
        }
      }
    }
    const versions = hosts.flatMap((h) =>
      h.services.flatMap((s: { softwares?: { version: string }[] }) => s.softwares ?? []),
    );
    assert.ok(versions.some((v) => v.version === 'ANY') && versions.some((v) => /\\\./.test(v.version)));
  });

  void it('values vary as real answers do (no modules or softwares, empty banner, "" city, postal code and product, low, whole-number scores, nanoseconds, domains null, malformed certificate IPs)', async () => {
    // The named fixture hosts keep their full records (one lists 1,000 services): left out of the shares.
    const named = new Set<string>(Object.values(FIXTURE_HOSTS));
    const services = hits.filter((h) => !named.has(h.ip)).flatMap((h) => h.services as any[]); // eslint-disable-line @typescript-eslint/no-explicit-any
    const share = (n: number): number => n / services.length;
    // The capture: 28 of 61 services without modules, 5 of 61 without softwares.
    const noModules = share(services.filter((s) => s.modules === undefined).length);
    assert.ok(noModules > 0.3 && noModules < 0.6, `services without modules: ${noModules}`);
    assert.ok(
      services.some((s) => s.softwares === undefined && s.modules !== undefined),
      'no softwares',
    );
    assert.ok(
      services.some((s) => s.product === ''),
      'product ""',
    );
    assert.ok(
      hits.some((h) => Array.isArray(h.banner) && h.banner.length === 0),
      'empty banner',
    );
    assert.ok(
      hits.some((h) => h.location.city === ''),
      'city ""',
    );
    assert.ok(
      hits.some((h) => h.location.postal_code === ''),
      'postal code ""',
    );
    assert.ok(
      hits.some((h) => h.location.city !== '' && h.location.postal_code !== ''),
      'most keep them',
    );
    const severities = new Set(
      services.flatMap((s) => (s.cve ?? []).map((c: { severity: string }) => c.severity)),
    );
    assert.ok(severities.has('low') && severities.has('critical'), [...severities].join());
    const scores = cursors.map((c) => c[1] as number);
    assert.ok(scores.some((x) => Number.isInteger(x)) && scores.some((x) => !Number.isInteger(x)), 'scores');
    const ips = services.flatMap(
      (s) =>
        (s.modules?.tls?.certificate?.extensions?.subject_alt_name?.ip_address as string[] | undefined) ?? [],
    );
    assert.ok(
      ips.some((ip) => isIP(ip) === 0),
      'a cut-off address in a certificate',
    );
    assert.ok(
      services.some((s) => {
        const l = s.modules?.tls?.certificate?.extensions?.subject_alt_name?.ip_address as
          string[] | undefined;
        return l !== undefined && new Set(l).size < l.length;
      }),
      'a repeated address in a certificate',
    );
    // Lookups: nanoseconds and `domains: null`.
    const lookups = [];
    for (const h of hits.slice(0, 80)) lookups.push((await get(emu, `/v1/hosts/${h.ip}`)).json.data);
    assert.ok(
      lookups.some((d) => /\.\d{9}Z$/.test(d.last_updated_at)),
      'nanoseconds',
    );
    assert.ok(
      lookups.some((d) => /\.\d{1,3}Z$|:\d\dZ$/.test(d.last_updated_at)),
      'and milliseconds',
    );
    assert.ok(
      lookups.some((d) => d.domains === null),
      'domains null',
    );
    // The named fixture hosts keep their full records.
    const web = hits.find((h) => h.ip === FIXTURE_HOSTS.webServer);
    assert.ok(web.services.every((s: { modules?: unknown }) => s.modules !== undefined));
  });

  void it('host lookups: the search shape plus hostnames, domains and whois.raw (base64)', async () => {
    const lookups = new Map() as Shape;
    for (const ip of Object.values(FIXTURE_HOSTS)) {
      const r = await get(emu, `/v1/hosts/${ip}`);
      assert.equal(r.status, 200);
      shapeOf({ data: [r.json.data] }, '', lookups);
      const raw = Buffer.from(r.json.data.whois.raw, 'base64').toString('utf8');
      assert.match(raw, /inetnum|netname/);
    }
    const lookupOnly = [/^\.data\[\]\.(hostnames|domains)(\[\]|\.|$)/, /^\.data\[\]\.whois\.raw$/];
    // The lookup's CVEs are the full records (official SDK schema IPCVE).
    const fullCve = [
      /^\.data\[\]\.services\[\]\.cve\[\]\.(summary|score|vector_string|weakness|references|services|exploit)/,
    ];
    assert.deepEqual(extraneous(lookups, reference, [...lookupOnly, ...fullCve, ...beyondCapture]), []);
  });

  void it('credits: top level, integer expiry; hosts/count: {data: {count}}', async () => {
    const c = await get(emu, '/v1/credits/usage');
    assert.deepEqual(Object.keys(c.json).sort(), ['expires_on', 'search']);
    assert.ok(Number.isInteger(c.json.expires_on));
    const n = await post(emu, '/v1/hosts/count', { query: 'services.port:443' });
    assert.equal(typeof n.json.data.count, 'number');
  });
});
