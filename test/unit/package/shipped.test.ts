/**
 * What ships in the .vsix carries no test fixture: the attacker payloads the emulator's
 * hostile hosts and the agent tests' hostile upstream use (src/emulator/hostile.ts,
 * injection.ts) exist in the tsc test build only; the shipped emulator bundle (demo data)
 * gets src/emulator/hostileShipped.ts in their place (esbuild.mjs). A registry's content scan
 * would flag them, and they are of no use to a user.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import { fixtureHosts } from '../../../src/emulator/hostFixtures';
import { PAYLOADS } from '../../../src/emulator/hostile';
import { INJECTIONS } from '../../../src/emulator/injection';

const root = join(__dirname, '..', '..', '..', '..');
const dist = join(root, 'dist');

/**
 * Each payload's longest run of characters that a bundler prints as they are (quotes and
 * control characters may come out escaped), when it is long enough to be distinctive.
 */
const PROBES = [...Object.values(PAYLOADS), ...Object.values(INJECTIONS)]
  .map((p) => p.split(/[^\w <>=()[\].:/!,?-]+/).reduce((a, b) => (b.length > a.length ? b : a), ''))
  .filter((probe) => probe.length >= 12);

test('no shipped bundle (dist/*.js) carries a test payload', () => {
  assert.ok(existsSync(join(dist, 'emulator.js')), 'dist/ is built by esbuild before the unit tests');
  const bundles = readdirSync(dist).filter((f) => f.endsWith('.js'));
  assert.ok(bundles.length >= 5, `bundles found: ${bundles.join(', ')}`);
  assert.ok(PROBES.length >= 12, `the check covers the payloads: ${PROBES.length}`);
  for (const f of bundles) {
    const text = readFileSync(join(dist, f), 'utf8');
    for (const probe of PROBES)
      assert.ok(!text.includes(probe), `dist/${f} carries the test payload ${probe}`);
  }
});

test('the test build keeps them: the hostile fixture host is still hostile', () => {
  const host = fixtureHosts(Date.now()).find((h) => h.ip === FIXTURE_HOSTS.hostile);
  assert.ok(host, 'the hostile fixture host exists');
  assert.ok(host.asn.org.includes(PAYLOADS.script));
  assert.ok(host.hostileText);
});
