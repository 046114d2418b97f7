// The emulator's seeded data change: what "what's new" is tested against.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { FIXTURE_HOSTS } from '../../../src/emulator/fixtures';

const JSON_TYPE = { 'content-type': 'application/json' };

let emu: Emulator;
before(async () => {
  emu = await startEmulator({ hosts: 400 });
});
after(() => emu.close());

async function hostIps(query: string): Promise<string[]> {
  const r = await fetch(`${emu.url}/v1/hosts/search`, {
    method: 'POST',
    headers: { 'X-API-Key': emu.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, limit: 100 }),
  });
  const body = (await r.json()) as { ' data'?: Array<{ ip: string }> };
  return (body[' data'] ?? []).map((h) => h.ip);
}

test('a seeded change adds and removes hosts and buckets, deterministically, and resets', async () => {
  const base = emu.dataset.hosts.map((h) => h.ip);
  const r = await fetch(`${emu.url}/__admin/change`, {
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify({ seed: 7 }),
  });
  assert.equal(r.status, 200);
  const summary = (await r.json()) as {
    hostsAdded: string[];
    hostsRemoved: string[];
    bucketsAdded: string[];
  };
  assert.ok(
    summary.hostsAdded.length > 0 && summary.hostsRemoved.length > 0,
    JSON.stringify(summary).slice(0, 200),
  );
  const now = new Set(emu.dataset.hosts.map((h) => h.ip));
  for (const ip of summary.hostsAdded) assert.ok(now.has(ip) && !base.includes(ip));
  for (const ip of summary.hostsRemoved) assert.ok(!now.has(ip));
  for (const ip of Object.values(FIXTURE_HOSTS)) assert.ok(now.has(ip), `fixture ${ip} stays`);
  const first = await hostIps('*');
  assert.ok(first.includes(summary.hostsAdded[0]) || first.length === 100, 'new hosts are searchable');
  assert.equal(emu.dataset.hostByIp.get(summary.hostsAdded[0])?.ip, summary.hostsAdded[0]);

  await fetch(`${emu.url}/__admin/change`, { method: 'DELETE' });
  assert.deepEqual(
    emu.dataset.hosts.map((h) => h.ip),
    base,
  );
  const again = emu.applyChange(7);
  assert.deepEqual(again.hostsAdded, summary.hostsAdded, 'the same seed gives the same change');
  emu.resetChange();
  const bad = await fetch(`${emu.url}/__admin/change`, {
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify({ seed: 'x' }),
  });
  assert.equal(bad.status, 400);
});
