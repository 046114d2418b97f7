import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Host, Service, WhoisRecord } from '../../../src/api/types';
import { PAYLOADS, hostile } from '../../../src/emulator/hostile';
import {
  asWritten,
  cidrCard,
  commandLink,
  domainCard,
  errorCard,
  HOVER_COMMAND_IDS,
  hostCard,
  hostNotFoundCard,
  localCard,
  topCves,
} from '../../../src/core/cards/hoverCard';

import { ExploitationStore, parseKev } from '../../../src/core/exploitation';
import { cveAt } from '../../support/exploitation';

const NOW = Date.parse('2026-01-15T00:00:00Z');

function service(port: number, extra: Partial<Service> = {}): Service {
  return { port, cve: [], softwares: [], modules: {}, ...extra };
}

function host(extra: Partial<Host> = {}): Host {
  return { ip: '45.33.32.156', banner: [], domains: [], hostnames: [], services: [], tags: [], ...extra };
}

const OUR_LINK = /\[[^\]\\]*\]\(command:(odin\.[A-Za-z]+)\?[A-Za-z0-9%._-]* "[^"()\\]*"\)/g;

/**
 * Checks that a card built from attacker strings has no live Markdown/HTML syntax besides
 * our own command links: every `[`, `]`, `<`, `>` and backtick left is escaped (so no `](`,
 * no autolink, no HTML, no code span can form; bare parentheses are inert on their own).
 */
function assertInert(card: string): void {
  const ours = [...card.matchAll(OUR_LINK)];
  for (const m of ours) assert.ok(HOVER_COMMAND_IDS.includes(m[1]), `unexpected command ${m[1]}`);
  const rest = card.replace(OUR_LINK, '');
  assert.ok(!/command:/i.test(rest.replace(/command\\:/gi, '')), `a command: outside our links:\n${rest}`);
  // Every syntax character must be preceded by a backslash (an odd run of them).
  for (const m of rest.matchAll(/[[\]<>`]/g)) {
    const before = rest.slice(0, m.index);
    const slashes = /\\*$/.exec(before)?.[0].length ?? 0;
    assert.equal(
      slashes % 2,
      1,
      `unescaped ${m[0]} at ${m.index}: …${rest.slice(Math.max(0, m.index - 40), m.index + 20)}…`,
    );
  }
  // Invisible controls are shown, not interpreted.
  assert.ok(!/[\u0000\u001b\u202e\u200b\ufeff]/.test(card), 'invisible characters left in');
}

const evilHost = host({
  ip: '193.42.33.7',
  asn: { number: hostile('AS1'), organization: hostile('Org'), country_code: hostile('CC') },
  location: { city: hostile('City'), country_name: hostile('Country') },
  tags: [{ name: hostile('tag') }, { name: 'x', pretty_name: PAYLOADS.commandLink }],
  is_vuln: true,
  last_updated_at: hostile('date'),
  services: [
    service(22, {
      protocol: hostile('tcp'),
      name: hostile('ssh'),
      product: PAYLOADS.mdLink,
      version: PAYLOADS.fence,
      cve: [
        {
          id: hostile('CVE-1'),
          severity: 'CRITICAL',
          score: 9.8,
          references: [],
          services: [],
          exploit: [{ id: PAYLOADS.script }],
        },
      ],
    }),
  ],
});

void test('a host card from hostile scan data is inert', () => {
  const card = hostCard('193.42.33.7', evilHost, { now: NOW, defangedFrom: '193.42.33[.]7 ' + PAYLOADS.img });
  assertInert(card);
  assert.ok(card.includes('Open details'));
  assert.ok(card.includes('command:odin.openHostDetails?%5B%22193.42.33.7%22%5D'));
});

void test('domain, CIDR, local, error and not-found cards are inert', () => {
  const whois: WhoisRecord = {
    domain_name: hostile('d'),
    domain_status: [],
    name_servers: [hostile('ns1'), PAYLOADS.commandLink],
    registrar: { name: hostile('Registrar') },
    created_date: '2020-01-01T00:00:00Z',
    expires_date: '2026-01-20T00:00:00Z',
  };
  const opts = { now: NOW, expiryWarningDays: 30 };
  assertInert(domainCard('evil-payload.xyz', { ok: whois }, { ok: 12 }, opts));
  assertInert(domainCard('evil-payload.xyz', { error: hostile('err') }, { error: hostile('err') }, opts));
  assertInert(cidrCard('193.42.33.0/24', { error: hostile('e') }, { now: NOW }));
  assertInert(
    localCard(hostile('v'), { what: hostile('what'), why: hostile('why'), lookupLink: true }, { now: NOW }),
  );
  assertInert(errorCard(hostile('v'), hostile('msg'), { now: NOW }));
  assertInert(hostNotFoundCard('151.101.1.69', { now: NOW, defangedFrom: hostile('x') }));
});

void test('command links encode their arguments so nothing can end the link early', () => {
  const link = commandLink('Copy', 'odin.copyValue', ['a) [x](command:evil) "q'], 'tip (x) "y"');
  assert.match(link, /^\[Copy\]\(command:odin\.copyValue\?[A-Za-z0-9%._-]+ "[^"()]*"\)$/);
  const args = JSON.parse(decodeURIComponent(/\?([^ ]+)/.exec(link)![1])) as unknown;
  assert.deepEqual(args, ['a) [x](command:evil) "q']);
  assert.throws(() => commandLink('x', 'workbench.action.terminal.new', [], ''));
});

void test('host card: organisation, ASN, place, ports, tags, top CVEs by score, exploits, last seen', () => {
  const h = host({
    asn: { number: 'AS63949', organization: 'Akamai Connected Cloud' },
    location: { city: 'Fremont', country_name: 'United States' },
    tags: [{ name: 'cloud' }, { name: 'web', pretty_name: 'Web server' }],
    is_vuln: true,
    last_updated_at: '2026-01-10T08:00:00.123456789Z',
    services: [
      service(443, { protocol: 'tcp', name: 'https', product: 'nginx', version: '1.18.0' }),
      service(22, {
        protocol: 'tcp',
        name: 'ssh',
        product: 'OpenSSH',
        cve: [
          {
            id: 'CVE-2023-38408',
            severity: 'CRITICAL',
            score: 9.8,
            references: [],
            services: [],
            exploit: [{ id: 'E1' }],
          },
          { id: 'CVE-2021-41617', severity: 'HIGH', score: 7, references: [], services: [], exploit: [] },
        ],
      }),
      service(80, {
        cve: [
          {
            id: 'CVE-2021-23017',
            severity: 'HIGH',
            score: 7.7,
            references: [],
            services: [],
            exploit: [{ id: 'E2' }, { id: 'E1' }],
          },
          { id: 'CVE-2000-0001', severity: 'LOW', score: 1, references: [], services: [], exploit: [] },
        ],
      }),
    ],
  });
  const card = hostCard('45.33.32.156', h, { now: NOW, cachedAt: NOW - 5 * 60_000 });
  assert.ok(card.includes('AS63949 Akamai Connected Cloud'), card);
  assert.ok(card.includes('Fremont, United States'));
  assert.ok(
    card.includes('**Open ports (3):** 22/tcp ssh OpenSSH · 80 · 443/tcp https nginx 1\\.18\\.0'),
    card,
  );
  assert.ok(card.includes('**Tags:** **cloud** · **Web server**'));
  assert.ok(card.includes('**Vulnerable:** yes · 4 CVEs · 2 known exploits'), card);
  assert.ok(
    card.includes(
      '**Top CVEs:** CVE\\-2023\\-38408 CRITICAL 9.8 · CVE\\-2021\\-23017 HIGH 7.7 · CVE\\-2021\\-41617 HIGH 7.0',
    ),
    card,
  );
  assert.ok(card.includes('last seen 2026-01-10'));
  assert.ok(card.includes('cached 5 min ago'));
  assert.equal(topCves(h).total, 4);
});

void test('host card without CVEs says so; unset dates are left out', () => {
  const card = hostCard(
    '8.8.8.8',
    host({ ip: '8.8.8.8', services: [service(53)], last_updated_at: '0001-01-01T00:00:00Z' }),
    {
      now: NOW,
    },
  );
  assert.ok(card.includes('no known CVEs'));
  assert.ok(!card.includes('last seen'));
});

void test('domain card warns about expiry within the configured days, and about an expired domain', () => {
  const base: WhoisRecord = {
    domain_name: 'x.net',
    domain_status: [],
    name_servers: ['NS1.EXAMPLE.NET'],
    registrar: { name: 'Reg' },
  };
  const soon = domainCard(
    'x.net',
    { ok: { ...base, expires_date: '2026-01-25T00:00:00Z' } },
    { ok: 1234 },
    { now: NOW, expiryWarningDays: 30 },
  );
  assert.match(soon, /⚠ expires 2026-01-25 \(in 10 days\)/);
  assert.ok(soon.includes('**Known subdomains:** 1,234'));
  assert.ok(soon.includes('ns1\\.example\\.net'));
  const later = domainCard(
    'x.net',
    { ok: { ...base, expires_date: '2026-01-25T00:00:00Z' } },
    { ok: 0 },
    { now: NOW, expiryWarningDays: 5 },
  );
  assert.ok(!later.includes('⚠'));
  const expired = domainCard(
    'x.net',
    { ok: { ...base, expires_date: '2025-12-01T00:00:00Z' } },
    { notFound: true },
    { now: NOW, expiryWarningDays: 5 },
  );
  assert.ok(expired.includes('⚠ expired 2025-12-01'));
});

void test('local card says what the value is and that nothing was sent', () => {
  const card = localCard(
    '10.0.0.1',
    { what: 'Private-Use (RFC 1918)', why: 'Not globally reachable.' },
    { now: NOW },
  );
  assert.ok(
    card.startsWith('**ODIN · 10\\.0\\.0\\.1** is Private\\-Use \\(RFC 1918\\): not looked up'),
    card,
  );
});

void test('CIDR card shows the capped total', () => {
  assert.ok(cidrCard('1.2.3.0/24', { ok: 17 }, { now: NOW }).includes('**Known hosts in this block:** 17'));
  assert.ok(cidrCard('1.0.0.0/8', { ok: 10000 }, { now: NOW }).includes('10,000 or more'));
});

void test('domain card for a subdomain: whois of the registrable domain, links carry that domain', () => {
  const whois: WhoisRecord = { domain_name: 'acme-logistics.com', domain_status: [], name_servers: [] };
  const card = domainCard(
    'acme-logistics.com',
    { ok: whois },
    { ok: 3 },
    {
      now: NOW,
      expiryWarningDays: 30,
      hovered: 'api.acme-logistics.com',
    },
  );
  assert.ok(
    card.startsWith('**ODIN · api\\.acme\\-logistics\\.com** (whois of acme\\-logistics\\.com)'),
    card,
  );
  assert.ok(card.includes('command:odin.openWhoisDetails?%5B%22acme-logistics.com%22%5D'), card);
  assert.ok(card.includes('command:odin.copyValue?%5B%22acme-logistics.com%22%5D'), card);
});

test('a name written in Unicode is named as written; the card is about its punycode', () => {
  const ind = { kind: 'domain', raw: 'bücher-login.de', value: 'xn--bcher-login-thb.de', defanged: false };
  const opts = { now: NOW, ...asWritten(ind) };
  const card = localCard(ind.value, { why: 'test' }, opts);
  assert.ok(card.includes('thb\\.de** (written bücher\\-login\\.de)'), card);
  assert.deepEqual(asWritten({ ...ind, raw: 'bücher-login[.]de', defanged: true }), {
    defangedFrom: 'bücher-login[.]de',
  });
  assert.deepEqual(
    asWritten({ kind: 'domain', raw: 'Example.COM', value: 'example.com', defanged: false }),
    {},
  );
});

test("a malformed feed quoted in the card is inert: the parser's snippet of its body makes no link", () => {
  // JSON.parse quotes the first characters of the body in its message, and the message is
  // the feed's problem detail.
  const kev = parseKev('[a](//e.z) <b>x</b>');
  const broken = new ExploitationStore(kev as never, undefined, () => NOW);
  const h = host({ is_vuln: true, services: [service(80, { cve: [cveAt('CVE-2021-41773', 7.5)] })] });
  const card = hostCard(h.ip, h, { now: NOW, exploitation: broken });
  assert.match(card, /KEV unavailable: malformed/);
  assert.doesNotMatch(card, /\]\(\/\/e\.z\)/);
  assertInert(card);
});
