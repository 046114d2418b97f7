import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { poolOf } from '../../../src/emulator/budget';
import { FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { call } from './helpers';

void describe('emulator credit budget', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ hosts: 50, credits: { host: 2 } });
  });
  after(async () => {
    await emu.close();
  });

  void it('each served host request spends one credit; 402 once spent; free endpoints stay free', async () => {
    assert.equal((await call(emu, 'GET', `/v1/hosts/${FIXTURE_HOSTS.resolver}`)).status, 200);
    assert.equal(
      (
        await call(emu, 'POST', '/v1/hosts/search', {
          query: `ip:${FIXTURE_HOSTS.resolver} OR ip:${FIXTURE_HOSTS.webServer}`,
          limit: 10,
        })
      ).status,
      200,
    );
    const spent = await call(emu, 'GET', `/v1/hosts/${FIXTURE_HOSTS.resolver}`);
    assert.equal(spent.status, 402);
    assert.equal(spent.json.success, false);
    assert.equal((await call(emu, 'GET', '/v1/ping', undefined, { key: null })).status, 200);
    assert.equal((await call(emu, 'GET', '/__admin/credits')).json.host.left, 0);
  });

  void it('the admin route sets the budget (and refuses nonsense)', async () => {
    assert.equal((await call(emu, 'POST', '/__admin/credits', { host: 1 })).status, 200);
    assert.equal((await call(emu, 'GET', `/v1/hosts/${FIXTURE_HOSTS.resolver}`)).status, 200);
    assert.equal((await call(emu, 'GET', `/v1/hosts/${FIXTURE_HOSTS.resolver}`)).status, 402);
    assert.equal((await call(emu, 'POST', '/__admin/credits', { host: -1 })).status, 400);
    assert.equal((await call(emu, 'POST', '/__admin/credits', { host: 1.5 })).status, 400);
  });

  void it('knows which pool an endpoint spends', () => {
    assert.equal(poolOf('hosts.search'), 'host');
    assert.equal(poolOf('cves.list'), 'host');
    assert.equal(poolOf('buckets.search'), 'bucket');
    assert.equal(poolOf('whois.get'), undefined);
    assert.equal(poolOf('credits.usage'), undefined);
  });
});
