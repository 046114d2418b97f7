// Caches must not keep a scanned text alive: V8 keeps a slice of 13 characters or more as a
// view into its parent, so one cached name cut from a 30 MB document would hold all 30 MB until
// evicted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { detect, detectTable } from '../../../src/core/detect';
import { cacheKey, ResultCache } from '../../../src/core/requests/cache';
import { listIndicators } from '../../../src/core/detect/indicators';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/**
 * About 30 MB of log lines with long host names (cache keys of 13+ characters) and addresses.
 * Each test has its own names (`tag`): names already cached would hide a leak.
 */
function bigLog(tag: string): string {
  const lines: string[] = [];
  for (let i = 0; i < 300_000; i++) {
    lines.push(
      `${i} GET from 52.14.${i % 250}.7 for shop${i % 7}-${tag}.acme-logistics-example.com and hxxps://drop${i % 5}-${tag}-payload-site[.]xyz/x padding`,
    );
  }
  return lines.join('\n');
}

function heapMB(): number {
  // V8 remembers the subject of the last successful regular expression match (for the legacy
  // `RegExp.$_`) until the next one anywhere: in the extension host that is at once; here,
  // match something small so that it is not a slice of the text under test.
  /x/.test('x');
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1048576;
}

void describe('memory: scanned text is not retained', () => {
  for (const [name, scan] of [
    ['detectTable', (t: string) => detectTable(t, { mode: 'text' }).length],
    ['detect', (t: string) => detect(t, { mode: 'text' }).length],
    ['listIndicators', async (t: string) => (await listIndicators(t, { mode: 'text' })).items.length],
  ] as const) {
    void it(`${name} keeps nothing of a scanned text alive once its results are dropped`, async () => {
      const before = heapMB();
      let size = 0;
      let found = 0;
      await (async () => {
        const text = bigLog(name.toLowerCase());
        size = text.length / 1048576;
        found = await scan(text);
      })();
      const grown = heapMB() - before;
      assert.ok(found > 0);
      assert.ok(size > 25, `text of ${size.toFixed(1)} MB`);
      assert.ok(grown < 8, `heap grew by ${grown.toFixed(1)} MB after scanning ${size.toFixed(1)} MB`);
    });
  }

  void it('a list of indicators does not hold the text it came from', async () => {
    const before = heapMB();
    const list = await (async () => listIndicators(bigLog('values'), { mode: 'text' }))();
    const grown = heapMB() - before;
    assert.ok(list.items.some((i) => i.value === 'shop3-values.acme-logistics-example.com'));
    assert.ok(grown < 8, `heap grew by ${grown.toFixed(1)} MB with only the list alive`);
  });

  void it('a lookup cache key made from a value cut from a text does not hold the text', () => {
    const cache = new ResultCache({
      ttlMs: { host: 1e6, whois: 1e6, count: 1e6, notFound: 1e6 },
      maxEntries: 10,
    });
    const before = heapMB();
    (() => {
      const text = bigLog('cache');
      const at = text.indexOf('shop3-cache');
      cache.set(cacheKey('https://api.odin.io', 'whois', text.slice(at, at + 40)), { ok: true }, 'whois');
    })();
    const grown = heapMB() - before;
    assert.equal(cache.size, 1);
    assert.ok(grown < 8, `heap grew by ${grown.toFixed(1)} MB with one cache entry`);
  });
});
