/**
 * What a person reads is the same over both dialects of the emulator: the interface document's
 * `spec` and the real service's `live` shapes (ODIN-FACTS). The client fetches the same hosts
 * and domains from each, and the pure view models (hover cards, the host and whois pages'
 * views, the CSV export) must say the same facts, with nothing unreadable in them. (The host
 * tier keeps a short smoke over `live`: test/integration/live.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Host, WhoisRecord } from '../../../src/api/types';
import { toCsv, toTable } from '../../../src/core/results/export';
import { domainCard, hostCard } from '../../../src/core/cards/hoverCard';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import { type Emulator, startEmulator } from '../../../src/emulator/server';
import { hostView } from '../../../src/extension/details/hostModel';
import { whoisView } from '../../../src/extension/details/whoisModel';
import { makeClient } from '../api/support';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const IPS = [FIXTURE_HOSTS.webServer, FIXTURE_HOSTS.resolver, FIXTURE_HOSTS.mail, FIXTURE_HOSTS.rdp];
const UNREADABLE = /undefined|\[object Object\]|NaN|Invalid Date/;

interface Seen {
  hosts: Host[];
  search: Host[];
  whois: WhoisRecord;
  snapshots: WhoisRecord[];
}

async function read(dialect: 'spec' | 'live'): Promise<{ emu: Emulator; seen: Seen }> {
  const emu = await startEmulator({ dialect, seed: 1 });
  const { client } = makeClient(emu.url, emu.apiKey, { timeoutMs: 10_000 });
  const hosts = await Promise.all(IPS.map((ip) => client.getHost(ip)));
  const search = (await client.searchHosts({ query: 'services.port:22', limit: 20 })).items;
  const whois = await client.getWhois(FIXTURE_DOMAINS.corp);
  const snapshots = (await client.getWhoisHistory(FIXTURE_DOMAINS.corp)).records;
  return { emu, seen: { hosts, search, whois, snapshots } };
}

void describe('view models over both dialects', () => {
  const seen: Partial<Record<'spec' | 'live', Seen>> = {};
  const emus: Emulator[] = [];
  before(async () => {
    for (const d of ['spec', 'live'] as const) {
      const r = await read(d);
      emus.push(r.emu);
      seen[d] = r.seen;
    }
  });
  after(async () => {
    for (const e of emus) await e.close();
  });

  void it('hover cards say the same facts, nothing unreadable', () => {
    for (const [i, ip] of IPS.entries()) {
      const cards = (['spec', 'live'] as const).map((d) => hostCard(ip, seen[d]!.hosts[i], { now: NOW }));
      for (const c of cards) assert.doesNotMatch(c, UNREADABLE, c);
      const facts = (c: string) => (c.match(/Open ports \(\d+\)|Vulnerable:\*\* \w+|AS\d+/g) ?? []).join(' ');
      assert.equal(facts(cards[1]), facts(cards[0]), `${ip}: spec and live cards differ`);
    }
  });

  void it("the host page's view: the same ports, CVEs and location", () => {
    for (const [i] of IPS.entries()) {
      const [spec, live] = (['spec', 'live'] as const).map((d) => hostView(seen[d]!.hosts[i]));
      assert.doesNotMatch(JSON.stringify(live), UNREADABLE);
      assert.deepEqual(
        live.services.map((s) => s.port),
        spec.services.map((s) => s.port),
      );
      assert.equal(JSON.stringify(live).length > 100, true);
    }
  });

  void it('the whois page and the domain card', () => {
    for (const d of ['spec', 'live'] as const) {
      const s = seen[d]!;
      const view = whoisView({ record: s.whois, snapshots: s.snapshots }, 30, NOW);
      assert.doesNotMatch(JSON.stringify(view), UNREADABLE, d);
      const card = domainCard(
        FIXTURE_DOMAINS.corp,
        { ok: s.whois },
        { ok: 3 },
        { now: NOW, expiryWarningDays: 30 },
      );
      assert.doesNotMatch(card, UNREADABLE, card);
      assert.match(card, /Registrar:/);
    }
  });

  void it('a search page exports to the same CSV columns', () => {
    const [spec, live] = (['spec', 'live'] as const).map((d) =>
      toCsv(toTable(seen[d]!.search.map((v) => ({ t: 'host' as const, v })))),
    );
    assert.equal(live.split('\r\n')[0], spec.split('\r\n')[0]);
    assert.doesNotMatch(live, UNREADABLE);
    assert.equal(live.split('\r\n').length, spec.split('\r\n').length);
  });
});
