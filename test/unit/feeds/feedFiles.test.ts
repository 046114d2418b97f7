import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { exploitationText, feedNote } from '../../../src/core/exploitation';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { FeedFiles, Feeds, type FeedSettings } from '../../../src/extension/feeds/feedFiles';

let emu: Emulator;
const dirs: string[] = [];
before(async () => {
  emu = await startEmulator({ hosts: 50 });
});
after(async () => {
  await emu.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
beforeEach(() => {
  emu.clearLog();
  emu.setFeedFault('kev', 'ok');
  emu.setFeedFault('epss', 'ok');
});

const DAY = 86_400_000;

function tempDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'odin-feeds-'));
  dirs.push(d);
  return d;
}

/** A fetch that records what each request carried. */
function recordingFetch(): { fetch: typeof fetch; sent: { url: string; headers: Record<string, string> }[] } {
  const sent: { url: string; headers: Record<string, string> }[] = [];
  return {
    sent,
    fetch: (input, init) => {
      sent.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
      return fetch(input, init);
    },
  };
}

function settings(extra: Partial<FeedSettings> = {}): () => FeedSettings {
  return () => ({
    enabled: true,
    kevUrl: `${emu.url}/feeds/kev.json`,
    epssUrl: `${emu.url}/feeds/epss.csv.gz`,
    mayDownload: { ok: true },
    ...extra,
  });
}

const feedLog = (): [string, number, boolean][] =>
  emu.requests.map((r) => [r.endpoint, r.status, r.hadKey] as [string, number, boolean]);

test('feeds download on first need, carry nothing of the user, and are read from disk', async () => {
  const dir = tempDir();
  const rec = recordingFetch();
  let now = Date.now();
  const feeds = new Feeds(new FeedFiles({ dir, fetch: rec.fetch, now: () => now }), settings(), () => now);
  assert.deepEqual(feedLog(), [], 'nothing before the first need');
  const store = await feeds.ensure();
  const today = new Date(now).toISOString().slice(0, 10);
  assert.equal(feedNote(store.kevStatus()), `KEV from ${today}`);
  assert.equal(feedNote(store.epssStatus()), `EPSS from ${today}`);
  assert.match(
    exploitationText(store.lookup('CVE-2021-42013')),
    /^Known exploited \(KEV, added 2021-11-03; used by ransomware\) · EPSS /,
  );
  assert.deepEqual(feedLog(), [
    ['feeds.kev', 200, false],
    ['feeds.epss', 200, false],
  ]);
  // Only the feed URL as set, and no header but the conditional ones.
  assert.deepEqual(
    rec.sent.map((s) => s.url),
    [`${emu.url}/feeds/kev.json`, `${emu.url}/feeds/epss.csv.gz`],
  );
  for (const s of rec.sent) assert.deepEqual(Object.keys(s.headers), ['accept']);

  // Within the day: nothing is asked again, even by a new window on the same storage.
  emu.clearLog();
  const again = new Feeds(new FeedFiles({ dir, fetch: rec.fetch, now: () => now }), settings(), () => now);
  assert.ok((await again.ensure()).lookup('CVE-2021-41773').kev);
  assert.deepEqual(feedLog(), []);

  // A day later: conditional requests, answered 304, keep the copy.
  now += DAY + 1;
  const nextDay = new Feeds(new FeedFiles({ dir, fetch: rec.fetch, now: () => now }), settings(), () => now);
  assert.ok((await nextDay.ensure()).lookup('CVE-2021-41773').kev);
  assert.deepEqual(feedLog(), [
    ['feeds.kev', 304, false],
    ['feeds.epss', 304, false],
  ]);
  const conditional = rec.sent.slice(-2);
  for (const s of conditional) {
    assert.ok(s.headers['if-none-match'], 'ETag sent back');
    assert.ok(s.headers['if-modified-since'], 'Last-Modified sent back');
  }
});

test('lookups off or Restricted Mode: no feed request; a copy on disk is still read', async () => {
  const dir = tempDir();
  const refused = settings({ mayDownload: { ok: false, reason: 'lookups are off (odin.lookups.mode)' } });
  const off = new Feeds(new FeedFiles({ dir, fetch }), refused);
  const store = await off.ensure();
  assert.deepEqual(feedLog(), []);
  assert.equal(
    feedNote(store.kevStatus()),
    'KEV unavailable: not downloaded: lookups are off (odin.lookups.mode)',
  );
  assert.equal(exploitationText(store.lookup('CVE-2021-42013')), 'KEV unknown · EPSS unknown');

  await new Feeds(new FeedFiles({ dir, fetch }), settings()).ensure();
  emu.clearLog();
  const withCopy = await new Feeds(new FeedFiles({ dir, fetch }), refused).ensure();
  assert.ok(withCopy.lookup('CVE-2021-42013').kev);
  assert.deepEqual(feedLog(), [], 'the copy is read, nothing is asked');
});

test('odin.feeds.enabled false: no request, and the feeds say "off"', async () => {
  const feeds = new Feeds(new FeedFiles({ dir: tempDir(), fetch }), settings({ enabled: false }));
  const store = await feeds.ensure();
  assert.deepEqual(feedLog(), []);
  assert.equal(feedNote(store.kevStatus()), 'KEV off');
  assert.equal(exploitationText(store.lookup('CVE-2021-42013')), '');
});

test('malformed, truncated and stale downloads are said where used, never "not exploited"', async () => {
  for (const fault of ['malformed', 'truncated'] as const) {
    emu.setFeedFault('kev', fault);
    emu.setFeedFault('epss', fault);
    const store = await new Feeds(new FeedFiles({ dir: tempDir(), fetch }), settings()).ensure();
    assert.match(feedNote(store.kevStatus()), new RegExp(`^KEV unavailable: ${fault}`));
    assert.match(feedNote(store.epssStatus()), new RegExp(`^EPSS unavailable: ${fault}`));
    const x = store.lookup('CVE-2021-42013');
    assert.equal(x.kev, undefined);
    assert.equal(exploitationText(x), 'KEV unknown · EPSS unknown');
  }
  emu.setFeedFault('kev', 'stale');
  emu.setFeedFault('epss', 'stale');
  const stale = await new Feeds(new FeedFiles({ dir: tempDir(), fetch }), settings()).ensure();
  assert.match(feedNote(stale.kevStatus()), /^KEV from \d{4}-\d{2}-\d{2} \(stale: older than a week\)$/);
  assert.match(feedNote(stale.epssStatus()), /^EPSS from \d{4}-\d{2}-\d{2} \(stale: older than a week\)$/);
  emu.setFeedFault('kev', 'fail');
  emu.setFeedFault('epss', 'fail');
  const failed = await new Feeds(new FeedFiles({ dir: tempDir(), fetch }), settings()).ensure();
  assert.equal(feedNote(failed.kevStatus()), 'KEV unavailable: download failed (HTTP 503)');
});

test('feed URLs follow the API URL rule: https, or http to loopback only, on every redirect too', async () => {
  const rec = recordingFetch();
  const store = await new Feeds(
    new FeedFiles({ dir: tempDir(), fetch: rec.fetch }),
    settings({ kevUrl: 'http://feeds.example.com/kev.json', epssUrl: 'ftp://x/epss.csv.gz' }),
  ).ensure();
  assert.deepEqual(rec.sent, [], 'refused before any connection');
  assert.match(
    feedNote(store.kevStatus()),
    /plain http is only allowed to localhost; use an https:\/\/ KEV feed URL/,
  );
  assert.match(feedNote(store.epssStatus()), /the EPSS feed URL must use https/);

  // A redirect to plain http elsewhere is not followed.
  const redirecting: typeof fetch = (input) => {
    rec.sent.push({ url: String(input), headers: {} });
    return Promise.resolve(
      new Response(null, { status: 302, headers: { location: 'http://evil.example.com/kev.json' } }),
    );
  };
  const r = await new Feeds(new FeedFiles({ dir: tempDir(), fetch: redirecting }), settings()).ensure();
  assert.equal(rec.sent.length, 2, 'one request per feed, no hop to http');
  assert.match(feedNote(r.kevStatus()), /plain http is only allowed to localhost/);
});
