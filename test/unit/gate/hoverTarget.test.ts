/**
 * What a hover sends is the gate's canonical value: a zoned global IPv6 address
 * (`2606:4700::1111%eth0`) is looked up as the address without its zone, so the card is about
 * the address; the zone (a local interface name) is no valid path segment and never sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OdinClient } from '../../../src/api/client';
import { OdinApiError } from '../../../src/api/errors';
import { detect } from '../../../src/core/detect';
import { Gate } from '../../../src/core/gate';
import { FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { targetIndicator } from '../../../src/extension/lookup/policy';
import type { Detection } from '../../../src/core/detect';

/** What the hover does: one ask of the gate, then the indicator for its target. */
function canonicalIndicator(g: Gate, ind: Detection): Detection {
  const v = g.decide(ind.value, { trigger: 'automatic', source: 'hover' });
  return targetIndicator(ind, v.target);
}

const gate = new Gate({ mode: 'onHover', trusted: true });

void describe('hover target: the gate canonical value', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: 3, hosts: 40 });
  });
  after(async () => {
    await emu.close();
  });

  void it('a zoned global IPv6 address is looked up without its zone: a card, not an error', async () => {
    const [ind] = detect(`ping ${FIXTURE_HOSTS.ipv6}%eth0 ok`);
    assert.equal(ind.value, `${FIXTURE_HOSTS.ipv6}%eth0`, 'the detector keeps the zone as written');
    const target = canonicalIndicator(gate, ind);
    assert.equal(target.value, FIXTURE_HOSTS.ipv6);
    assert.equal(target.kind, 'ipv6');
    assert.equal(target.raw, ind.raw, 'what was written is kept for the card');
    const client = new OdinClient({ baseUrl: emu.url, apiKey: () => emu.apiKey, timeoutMs: 5000 });
    emu.clearLog();
    const host = await client.getHost(target.value);
    assert.equal(host.ip, FIXTURE_HOSTS.ipv6);
    // The value as the detector wrote it is what made the error card.
    await assert.rejects(client.getHost(ind.value), OdinApiError);
    for (const r of emu.requests) assert.doesNotMatch(JSON.stringify(r), /eth0|%25/);
  });

  void it('values already canonical, and names, are left as they are', () => {
    for (const text of ['45.33.32.156', 'fe80::1%eth0', 'www.example.org', '10.0.0.0/8']) {
      const [ind] = detect(`x ${text} y`);
      const out = canonicalIndicator(gate, ind);
      assert.equal(out.kind, ind.kind, text);
      assert.equal(out.value, gate.privacy(ind.value).target?.value, text);
    }
  });
});
