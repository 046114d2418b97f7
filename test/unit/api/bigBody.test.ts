/**
 * A big answer (from 512 KB: a page holding a host with a thousand services) is decoded,
 * parsed and searched for forbidden keys in tasks of their own, so Load All never holds the
 * extension host for the whole of it (`npm run bench -- --only=loadall`, "longest task"). The
 * answer comes from an in-memory `fetch`: over loopback the body's chunks arrive in turns of
 * their own, and the turns counted here would not be the client's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OdinClient } from '../../../src/api/client';

/** A search page of one host whose banner is `size` characters, with `extra` fields on the host. */
function page(size: number, extra = ''): Buffer {
  return Buffer.from(
    `{"success":true,"data":[{"ip":"192.0.2.7",${extra}"services":[{"port":80,"banner":"${'x'.repeat(size)}"}]}],"pagination":{"total":1,"limit":1}}`,
  );
}

function clientOf(body: Buffer): OdinClient {
  return new OdinClient({
    baseUrl: 'http://127.0.0.1:1',
    apiKey: () => 'k',
    fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }),
  });
}

/** How many turns of the event loop other work had while `run` ran. */
async function turnsDuring(run: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let counting = true;
  const count = (): void => {
    if (!counting) return;
    turns++;
    setImmediate(count);
  };
  setImmediate(count);
  try {
    await run();
  } finally {
    counting = false;
  }
  return turns;
}

test('a big answer gives the event loop turns between decoding, parsing and the key search; a small one none', async () => {
  const small = clientOf(page(1_000));
  const big = clientOf(page(600_000));
  assert.equal(await turnsDuring(() => small.searchHosts({ query: '*' })), 0);
  assert.ok((await turnsDuring(() => big.searchHosts({ query: '*' }))) >= 3);
});

test('a big answer loses its forbidden keys like a small one, escaped or not', async () => {
  const extra =
    '"__proto__":{"polluted":1},"location":{"\\u0063onstructor":{"prototype":{"polluted":2}},"country_code":"DE"},';
  for (const size of [10, 600_000]) {
    const { items } = await clientOf(page(size, extra)).searchHosts({ query: '*' });
    assert.equal(items.length, 1);
    const host = items[0]!;
    assert.equal(host.ip, '192.0.2.7');
    assert.equal(host.location?.country_code, 'DE');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(host), Object.prototype);
  }
});
