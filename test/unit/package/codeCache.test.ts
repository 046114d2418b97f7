/**
 * The activation bundle's code cache (src/extension/codeCache.ts): the bundle runs as a module
 * of its own (its `require`, its place in `require.cache`), the first activation writes the
 * cache and the next load compiles from it, and a cache is only ever read by the source and V8
 * it was made from.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { cacheFileOf, loadWithCodeCache } from '../../../src/extension/codeCache';

const BUNDLE = `
const helper = require('./helper.js');
let calls = 0;
exports.activate = (context) => ({ context, calls: ++calls, helper: helper.name, file: __filename });
exports.deactivate = () => 'bye';
Object.defineProperty(exports, '__odinShared', { get: () => ({ shared: true }), enumerable: true });
`;

function bundleDir(): { dir: string; file: string; caches: () => string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-code-cache-'));
  fs.writeFileSync(path.join(dir, 'helper.js'), "exports.name = 'helper';\n");
  const file = path.join(dir, 'main.js');
  fs.writeFileSync(file, BUNDLE);
  const caches = (): string[] => fs.readdirSync(dir).filter((f) => f.endsWith('.cache'));
  return { dir, file, caches };
}

test('the bundle runs as a module of its own; the first activation writes its cache, the next load reads it', (t) => {
  const { dir, file, caches } = bundleDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const first = loadWithCodeCache(file);
  assert.equal(
    require.cache[file]?.exports.__odinShared.shared,
    true,
    'in require.cache, as Node would put it',
  );
  assert.deepEqual(first.__odinShared, { shared: true }, 'the bundle exports pass through');
  assert.deepEqual(caches(), [], 'nothing is written before activation');
  assert.deepEqual(first.activate('ctx'), { context: 'ctx', calls: 1, helper: 'helper', file });
  assert.equal(first.deactivate?.(), 'bye');
  const source = fs.readFileSync(file, 'utf8');
  assert.deepEqual(caches(), [path.basename(cacheFileOf(file, source))]);
  const written = fs.statSync(cacheFileOf(file, source)).mtimeMs;

  delete require.cache[file];
  const second = loadWithCodeCache(file);
  assert.deepEqual(second.activate('ctx2'), { context: 'ctx2', calls: 1, helper: 'helper', file });
  assert.equal(fs.statSync(cacheFileOf(file, source)).mtimeMs, written, 'read, not written again');
  delete require.cache[file];
});

test('a changed bundle of the same length gets a cache of its own, and the old one is removed', (t) => {
  const { dir, file, caches } = bundleDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  loadWithCodeCache(file).activate(undefined);
  const before = caches();
  // V8 checks a cache against the source's length only: the name must tell them apart.
  const changed = BUNDLE.replace("'bye'", "'BYE'");
  assert.equal(changed.length, BUNDLE.length);
  assert.notEqual(cacheFileOf(file, changed), cacheFileOf(file, BUNDLE));
  fs.writeFileSync(file, changed);
  delete require.cache[file];
  const main = loadWithCodeCache(file);
  assert.equal(main.deactivate?.(), 'BYE', 'the new source runs');
  main.activate(undefined);
  const after = caches();
  assert.equal(after.length, 1);
  assert.notDeepEqual(after, before);
  assert.equal(after[0], path.basename(cacheFileOf(file, changed)));
  delete require.cache[file];
});

test('a cache V8 rejects is made again, and the bundle still runs', (t) => {
  const { dir, file, caches } = bundleDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const cache = cacheFileOf(file, BUNDLE);
  fs.writeFileSync(cache, 'not a code cache');
  const main = loadWithCodeCache(file);
  assert.equal((main.activate('x') as { calls: number }).calls, 1);
  assert.deepEqual(caches(), [path.basename(cache)]);
  assert.notEqual(fs.readFileSync(cache, 'utf8'), 'not a code cache', 'made again');
  delete require.cache[file];
});

test('a cache that cannot be read or written is no error: the bundle runs as without one', (t) => {
  const { dir, file } = bundleDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  // A directory where the cache would be: reading it and renaming onto it both fail.
  const cache = cacheFileOf(file, BUNDLE);
  fs.mkdirSync(cache);
  const main = loadWithCodeCache(file);
  assert.equal((main.activate('x') as { calls: number }).calls, 1);
  assert.ok(fs.statSync(cache).isDirectory(), 'nothing replaced it');
  assert.deepEqual(
    fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    [],
    'no temporary file left behind',
  );
  delete require.cache[file];
});
