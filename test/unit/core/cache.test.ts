import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { cacheKey, ResultCache, type CacheTtls } from '../../../src/core/requests/cache';
import { waitFor } from '../../support/wait';

const TTL: CacheTtls = { host: 1000, whois: 5000, count: 2000, notFound: 300 };

function tmpFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'odin-cache-')), 'sub', 'cache.json');
}

void test('entries are fresh until their class TTL passes, then stale but still readable', () => {
  let now = 1_000_000;
  const cache = new ResultCache({ ttlMs: TTL, maxEntries: 10, now: () => now });
  cache.set('h', { ip: '1.1.1.1' }, 'host');
  cache.set('w', { d: 'x' }, 'whois');
  assert.equal(cache.get('h')?.fresh, true);
  now += 1500;
  assert.equal(cache.get('h')?.fresh, false);
  assert.deepEqual(cache.get('h')?.value, { ip: '1.1.1.1' });
  assert.equal(cache.get('w')?.fresh, true);
  assert.equal(cache.get('missing'), undefined);
});

void test('not-found answers are cached with their own TTL', () => {
  let now = 0;
  const cache = new ResultCache({ ttlMs: TTL, maxEntries: 10, now: () => now });
  cache.setNotFound('n');
  const hit = cache.get('n');
  assert.equal(hit?.notFound, true);
  assert.equal(hit?.fresh, true);
  now = 301;
  assert.equal(cache.get('n')?.fresh, false);
});

void test('keys separate origins, kinds and targets', () => {
  const cache = new ResultCache({ ttlMs: TTL, maxEntries: 10 });
  cache.set(cacheKey('https://api.odin.io', 'host', '8.8.8.8'), 'real', 'host');
  cache.set(cacheKey('http://127.0.0.1:9', 'host', '8.8.8.8'), 'demo', 'host');
  assert.equal(cache.get(cacheKey('https://api.odin.io', 'host', '8.8.8.8'))?.value, 'real');
  assert.equal(cache.get(cacheKey('http://127.0.0.1:9', 'host', '8.8.8.8'))?.value, 'demo');
  assert.equal(cache.get(cacheKey('https://api.odin.io', 'whois', '8.8.8.8')), undefined);
  assert.notEqual(cacheKey('a', 'b\u0000c', 'd'), cacheKey('a', 'b', 'c\u0000d') + 'x');
});

void test('size is bounded; the least recently used entry goes first', () => {
  const cache = new ResultCache({ ttlMs: TTL, maxEntries: 3 });
  cache.set('a', 1, 'host');
  cache.set('b', 2, 'host');
  cache.set('c', 3, 'host');
  cache.get('a'); // a is now the most recently used
  cache.set('d', 4, 'host');
  assert.equal(cache.size, 3);
  assert.equal(cache.peek('b'), undefined);
  assert.ok(cache.peek('a'));
  assert.ok(cache.peek('c'));
  assert.ok(cache.peek('d'));
  cache.setLimits(TTL, 1);
  assert.equal(cache.size, 1);
  assert.ok(cache.peek('d'));
});

void test('persists across instances (atomic write, debounced) and keeps recency order', async () => {
  const file = tmpFile();
  const a = new ResultCache({ file, ttlMs: TTL, maxEntries: 2, writeDelayMs: 10 });
  await a.ready;
  a.set('x', { v: 1 }, 'host');
  a.setNotFound('y');
  await a.flush();
  a.dispose();
  assert.ok(fs.existsSync(file));
  assert.deepEqual(
    fs.readdirSync(path.dirname(file)).filter((f) => f.endsWith('.tmp')),
    [],
    'no temp file left behind',
  );
  const b = new ResultCache({ file, ttlMs: TTL, maxEntries: 2 });
  await b.ready;
  assert.deepEqual(b.get('x')?.value, { v: 1 });
  assert.equal(b.get('y')?.notFound, true);
  b.set('z', 3, 'host'); // evicts x (y was used after x)
  b.dispose(); // synchronous write on dispose
  const c = new ResultCache({ file, ttlMs: TTL, maxEntries: 5 });
  await c.ready;
  assert.equal(c.peek('x'), undefined);
  assert.equal(c.peek('z')?.value, 3);
  c.dispose();
});

void test('debounce: many changes, one write after the delay', async () => {
  const file = tmpFile();
  const cache = new ResultCache({ file, ttlMs: TTL, maxEntries: 100, writeDelayMs: 30 });
  await cache.ready;
  for (let i = 0; i < 50; i++) cache.set(`k${i}`, i, 'host');
  assert.equal(fs.existsSync(file), false, 'not written synchronously');
  await waitFor(() => fs.existsSync(file), 5_000, 'the cache file written after the delay');
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: unknown[] };
  assert.equal(parsed.entries.length, 50);
  cache.dispose();
});

void test('a write waits until the changes pause, and no longer than the longest wait while they go on', async () => {
  const file = tmpFile();
  // Changes every 5 ms, each pushing the write back by the 40 ms delay: only the longest
  // wait (120 ms after the first change) writes while they go on.
  const cache = new ResultCache({
    file,
    ttlMs: TTL,
    maxEntries: 1000,
    writeDelayMs: 40,
    writeMaxWaitMs: 120,
  });
  await cache.ready;
  let i = 0;
  const changes = setInterval(() => cache.set(`k${i++}`, i, 'host'), 5);
  try {
    await waitFor(() => fs.existsSync(file), 5_000, 'a write while the changes go on');
    assert.ok(i > 0, 'changes were made');
    const written = (JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: unknown[] }).entries.length;
    assert.ok(written < i + 1, `not all changes waited for a pause (${written} of ${i})`);
  } finally {
    clearInterval(changes);
  }
  // Once they pause, the rest is written.
  const made = i;
  await waitFor(
    () => (JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: unknown[] }).entries.length === made,
    5_000,
    'every change written after the pause',
  );
  cache.dispose();
});

void test('a corrupt file is moved aside and reported; the cache starts empty and works', async () => {
  for (const junk of [
    '{not json',
    '{"format":"odin-lookup-cache","version":1,"entries":[["k",{"notFound":"x"}]]}',
    '[]',
    '',
  ]) {
    const file = tmpFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, junk);
    const problems: string[] = [];
    const cache = new ResultCache({ file, ttlMs: TTL, maxEntries: 10, onProblem: (m) => problems.push(m) });
    await cache.ready;
    assert.equal(cache.size, 0);
    assert.equal(problems.length, 1, junk);
    assert.match(problems[0], /moved aside/);
    const aside = fs.readdirSync(path.dirname(file)).filter((f) => f.includes('.corrupt-'));
    assert.equal(aside.length, 1);
    cache.set('k', 1, 'host');
    await cache.flush();
    cache.dispose();
    const again = new ResultCache({ file, ttlMs: TTL, maxEntries: 10 });
    await again.ready;
    assert.equal(again.peek('k')?.value, 1);
    again.dispose();
  }
});

void test('an unwritable location is reported, never thrown', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-cache-'));
  const blocker = path.join(dir, 'file');
  fs.writeFileSync(blocker, 'x');
  const problems: string[] = [];
  const cache = new ResultCache({
    file: path.join(blocker, 'cache.json'), // a path under a regular file
    ttlMs: TTL,
    maxEntries: 10,
    onProblem: (m) => problems.push(m),
  });
  await cache.ready;
  cache.set('k', 1, 'host');
  await cache.flush();
  assert.ok(
    problems.some((m) => /Could not save/.test(m)),
    problems.join('\n'),
  );
  assert.doesNotThrow(() => cache.dispose());
});

void test('entries set while the file loads win over the file', async () => {
  const file = tmpFile();
  const a = new ResultCache({ file, ttlMs: TTL, maxEntries: 10 });
  a.set('k', 'old', 'host');
  await a.flush();
  a.dispose();
  const b = new ResultCache({ file, ttlMs: TTL, maxEntries: 10 });
  b.set('k', 'new', 'host');
  await b.ready;
  assert.equal(b.peek('k')?.value, 'new');
  b.dispose();
});

void test('windows sharing one file merge their lookups instead of overwriting each other', async () => {
  const file = tmpFile();
  let now = 1_000;
  const a = new ResultCache({ file, ttlMs: TTL, maxEntries: 10, now: () => now, writeDelayMs: 60_000 });
  const b = new ResultCache({ file, ttlMs: TTL, maxEntries: 10, now: () => now, writeDelayMs: 60_000 });
  await Promise.all([a.ready, b.ready]);
  a.set('from-a', 'A', 'host');
  b.set('from-b', 'B', 'host');
  now += 10;
  b.set('both', 'B-older', 'host');
  now += 10;
  a.set('both', 'A-newer', 'host');
  await a.flush();
  await b.flush(); // the last writer keeps what A wrote, and the newer answer per key
  const c = new ResultCache({ file, ttlMs: TTL, maxEntries: 10 });
  await c.ready;
  assert.equal(c.peek('from-a')?.value, 'A');
  assert.equal(c.peek('from-b')?.value, 'B');
  assert.equal(c.peek('both')?.value, 'A-newer');
  assert.equal(b.peek('from-a')?.value, 'A', 'the writer took the other window’s entry in');

  // A delete or a clear is not undone by merging an older copy from the file.
  now += 10;
  b.delete('from-a');
  await b.flush();
  const d = new ResultCache({ file, ttlMs: TTL, maxEntries: 10 });
  await d.ready;
  assert.equal(d.peek('from-a'), undefined);
  now += 10;
  a.clear();
  a.set('after-clear', 1, 'host');
  await a.flush();
  const e = new ResultCache({ file, ttlMs: TTL, maxEntries: 10 });
  await e.ready;
  assert.deepEqual(
    ['from-a', 'from-b', 'both', 'after-clear'].map((k) => e.peek(k) !== undefined),
    [false, false, false, true],
  );
  a.dispose();
  b.dispose();
});

void test('an answer is sized after the turn that set it (a hover shows its card first), and before any read', async () => {
  const cache = new ResultCache({ ttlMs: TTL, maxEntries: 10, maxBytes: 1 << 20 });
  let walked = 0;
  const answer = (): object => ({
    get ip() {
      walked++;
      return '192.0.2.1';
    },
  });
  cache.set('a', answer(), 'host');
  assert.equal(walked, 0, 'set walked the answer');
  await new Promise<void>((resolve) => setImmediate(resolve));
  assert.equal(walked, 1, 'the next turn sized it');
  const sized = cache.bytes;
  cache.set('b', answer(), 'host');
  assert.equal(walked, 1);
  assert.ok(cache.bytes > sized, 'a read sizes what was set');
  assert.equal(walked, 2);
  cache.set('c', answer(), 'host');
  cache.set('d', answer(), 'host');
  assert.equal(walked, 3, 'the next set sizes the one before');
  cache.dispose();
});
