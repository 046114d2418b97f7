import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CVES } from '../../../src/emulator/catalog';
import { EMULATOR_KEV } from '../../../src/emulator/feeds';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { isProblem, parseEpssGzip, parseKev } from '../../../src/core/exploitation';

let emu: Emulator;
before(async () => {
  emu = await startEmulator({ hosts: 50 });
});
after(() => emu.close());

async function kev(): Promise<ReturnType<typeof parseKev>> {
  return parseKev(await (await fetch(`${emu.url}/feeds/kev.json`)).text());
}
async function epss(): Promise<Awaited<ReturnType<typeof parseEpssGzip>>> {
  const res = await fetch(`${emu.url}/feeds/epss.csv.gz`);
  return parseEpssGzip([new Uint8Array(await res.arrayBuffer())]);
}

test('the emulator serves a KEV catalogue and an EPSS feed consistent with its CVEs, without a key', async () => {
  emu.clearLog();
  const k = await kev();
  assert.ok(!isProblem(k), JSON.stringify(k));
  assert.equal(k.date, new Date().toISOString().slice(0, 10));
  for (const id of k.entries.keys()) assert.ok(CVES[id], `${id} is a catalogue CVE`);
  assert.ok([...k.entries.values()].some((e) => e.ransomware));
  assert.ok([...k.entries.values()].some((e) => !e.ransomware));
  const e = await epss();
  assert.ok(!isProblem(e), JSON.stringify(e));
  assert.ok(e.size > 3000, 'a tail beyond the catalogue');
  for (const id of Object.keys(CVES)) assert.ok(e.get(id), `${id} has an EPSS score`);
  for (const id of Object.keys(EMULATOR_KEV)) assert.ok(e.get(id)!.epss >= 0.6, `${id} (KEV) scores high`);
  assert.deepEqual(
    emu.requests.map((r) => [r.endpoint, r.status, r.hadKey]),
    [
      ['feeds.kev', 200, false],
      ['feeds.epss', 200, false],
    ],
  );
});

test('feeds answer conditional requests with 304 (ETag and Last-Modified)', async () => {
  for (const path of ['/feeds/kev.json', '/feeds/epss.csv.gz']) {
    const first = await fetch(`${emu.url}${path}`);
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    const modified = first.headers.get('last-modified');
    assert.ok(etag && modified, path);
    const byTag = await fetch(`${emu.url}${path}`, { headers: { 'if-none-match': etag } });
    assert.equal(byTag.status, 304, path);
    const byDate = await fetch(`${emu.url}${path}`, { headers: { 'if-modified-since': modified } });
    assert.equal(byDate.status, 304, path);
    const other = await fetch(`${emu.url}${path}`, { headers: { 'if-none-match': '"other"' } });
    assert.equal(other.status, 200, path);
    await other.arrayBuffer();
  }
});

test('feed faults: malformed, truncated and stale copies read as such, a failure as 503', async () => {
  try {
    const expect: [string, string][] = [
      ['malformed', 'malformed'],
      ['truncated', 'truncated'],
    ];
    for (const [fault, kind] of expect) {
      emu.setFeedFault('kev', fault as 'malformed');
      emu.setFeedFault('epss', fault as 'malformed');
      const k = await kev();
      assert.ok(isProblem(k) && k.problem === kind, `KEV ${fault}: ${JSON.stringify(k)}`);
      const e = await epss();
      assert.ok(isProblem(e) && e.problem === kind, `EPSS ${fault}: ${JSON.stringify(e)}`);
    }
    emu.setFeedFault('kev', 'stale');
    emu.setFeedFault('epss', 'stale');
    const old = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const k = await kev();
    assert.ok(!isProblem(k) && k.date === old);
    const e = await epss();
    assert.ok(!isProblem(e) && e.date === old);
    emu.setFeedFault('kev', 'fail');
    assert.equal((await fetch(`${emu.url}/feeds/kev.json`)).status, 503);
    assert.throws(() => emu.setFeedFault('kev', 'nonsense' as 'ok'));
  } finally {
    emu.setFeedFault('kev', 'ok');
    emu.setFeedFault('epss', 'ok');
  }
});
