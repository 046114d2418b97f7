/**
 * mapInSlices: a page of hosts is normalised in slices with turns of the event loop between
 * them (the "longest task" of Load All in `npm run bench -- --only=loadall`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mapInSlices } from '../../../src/api/slices';

const cancelled = (): Error => new Error('cancelled here');

test('mapInSlices is flatMap over one-or-none: order kept, undefined left out', async () => {
  const out = await mapInSlices([1, 2, 3, 4, 5], (n) => (n % 2 ? n * 10 : undefined), { cancelled });
  assert.deepEqual(out, [10, 30, 50]);
});

test('mapInSlices gives the event loop a turn between slices', async () => {
  let turns = 0;
  let counting = true;
  const count = (): void => {
    turns++;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  // A zero-length slice: a turn before every item but the first.
  const out = await mapInSlices(
    Array.from({ length: 20 }, (_, i) => i),
    (n) => n,
    { cancelled, sliceMs: 0 },
  );
  counting = false;
  assert.equal(out.length, 20);
  assert.ok(turns >= 19, `other work ran ${turns} times while 20 items were mapped`);
});

test("mapInSlices stops with the caller's error once the signal is aborted between slices", async () => {
  const ac = new AbortController();
  let seen = 0;
  await assert.rejects(
    mapInSlices(
      Array.from({ length: 10 }, (_, i) => i),
      (n) => {
        seen++;
        if (n === 2) ac.abort();
        return n;
      },
      { signal: ac.signal, cancelled, sliceMs: 0 },
    ),
    /cancelled here/,
  );
  assert.equal(seen, 3, 'no item is mapped after the abort');
});

test('mapInSlices with spend drops each item from the list once mapped (a spent page holds nothing)', async () => {
  const page = Array.from({ length: 5 }, (_, i) => ({ i }));
  const seenLeft: number[] = [];
  const out = await mapInSlices(
    page,
    (item) => {
      seenLeft.push(page.filter((x) => x !== undefined).length);
      return item.i * 2;
    },
    { cancelled, sliceMs: 0, spend: true },
  );
  assert.deepEqual(out, [0, 2, 4, 6, 8]);
  assert.deepEqual(seenLeft, [4, 3, 2, 1, 0], 'the item being mapped is already out of the list');
  assert.ok(page.every((x) => x === undefined));
  const kept = [{ i: 1 }];
  await mapInSlices(kept, (item) => item.i, { cancelled });
  assert.deepEqual(kept, [{ i: 1 }], 'without spend the list is left as it was');
});

test('mapInSlices starts a slice for a heavy item once the slice has run a while', async () => {
  const order: string[] = [];
  let counting = true;
  const count = (): void => {
    order.push('turn');
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  const busy = (ms: number): void => {
    const end = performance.now() + ms;
    while (performance.now() < end);
  };
  await mapInSlices(
    ['a', 'b', 'HEAVY'],
    (x) => {
      order.push(x);
      if (x === 'b') busy(2);
    },
    { cancelled, sliceMs: 1_000, heavy: (x) => x === 'HEAVY' },
  );
  counting = false;
  // With a slice of a second, only the heavy item's rule can give the turn before it.
  const at = order.indexOf('HEAVY');
  assert.equal(order[at - 1], 'turn', order.join(' '));
  assert.deepEqual(
    order.filter((x) => x !== 'turn'),
    ['a', 'b', 'HEAVY'],
  );
});
