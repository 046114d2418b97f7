import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OdinApiError } from '../../../src/api/errors';
import {
  collect,
  jsonEqual,
  pages,
  parseHostCursor,
  parseOpaqueCursor,
  toPage,
} from '../../../src/api/paging';
import type { CallOptions, Page } from '../../../src/api/types';

void describe('cursors', () => {
  void it('host cursors are arrays of finite numbers (floats allowed, as live)', () => {
    assert.deepEqual(parseHostCursor([1736905927440, 3.17]), [1736905927440, 3.17]);
    assert.deepEqual(parseHostCursor([20]), [20]);
    assert.equal(parseHostCursor(null), undefined);
    assert.equal(parseHostCursor([]), undefined);
    assert.equal(parseHostCursor(['1']), undefined);
    assert.equal(parseHostCursor({ 0: 1 }), undefined);
  });
  void it('opaque cursors are any non-empty array', () => {
    assert.deepEqual(parseOpaqueCursor([{ a: 1 }, 'x']), [{ a: 1 }, 'x']);
    assert.equal(parseOpaqueCursor(null), undefined);
    assert.equal(parseOpaqueCursor([]), undefined);
  });
  void it('jsonEqual compares structurally', () => {
    assert.ok(jsonEqual([{ a: 1, b: [2] }], [{ b: [2], a: 1 }]));
    assert.ok(!jsonEqual([{ a: 1 }], [{ a: 2 }]));
    assert.ok(!jsonEqual([1], { 0: 1 }));
  });
});

void describe('toPage', () => {
  const mk = (
    items: number[],
    pagination: Record<string, unknown>,
    start?: number[],
  ): Page<number, number[]> => toPage({ items, pagination, start, parseCursor: parseHostCursor });

  void it('gives the last cursor as next', () => {
    assert.deepEqual(mk([1, 2], { last: [5, 1.5], total: 10, limit: 2 }), {
      items: [1, 2],
      total: 10,
      limit: 2,
      next: [5, 1.5],
    });
  });
  void it('stops on an empty page, a null/absent cursor, a cursor equal to start, or total reached on page one', () => {
    assert.equal(mk([], { last: [5] }).next, undefined);
    assert.equal(mk([1], { last: null }).next, undefined);
    assert.equal(mk([1], {}).next, undefined);
    assert.equal(mk([1], { last: [5] }, [5]).next, undefined);
    assert.equal(mk([1, 2], { last: [5], total: 2 }).next, undefined);
  });
});

/** A fake search over 0..n-1 (a plain function: this is the paging logic, not the network). */
function fakeSearch(n: number, opts: { loopAt?: number; total?: number } = {}) {
  const calls: Array<number[] | undefined> = [];
  const fetchPage = async (
    p: { limit: number; start?: number[] },
    _o?: CallOptions,
  ): Promise<Page<number, number[]>> => {
    calls.push(p.start);
    const from = p.start ? p.start[0] : 0;
    const items: number[] = [];
    for (let i = from; i < Math.min(n, from + p.limit); i++) items.push(i);
    let last: number[] | null = items.length ? [from + items.length] : null;
    if (opts.loopAt !== undefined && from >= opts.loopAt) last = [0];
    return toPage({
      items,
      pagination: { last, total: opts.total ?? n },
      start: p.start,
      parseCursor: parseHostCursor,
    });
  };
  return { fetchPage, calls };
}

void describe('pages / collect', () => {
  void it('walks every page once and stops at total', async () => {
    const { fetchPage, calls } = fakeSearch(23);
    const seen: number[] = [];
    for await (const page of pages(fetchPage, { limit: 5 })) seen.push(...page.items);
    assert.deepEqual(
      seen,
      Array.from({ length: 23 }, (_, i) => i),
    );
    assert.equal(calls.length, 5);
  });

  void it('stops when a cursor comes back (server looping)', async () => {
    const { fetchPage, calls } = fakeSearch(100, { loopAt: 10, total: 1000 });
    const all = await collect(fetchPage, { limit: 5 });
    assert.equal(all.length, 20, 'pages 0,5,10 then the loop back to 0 is detected after one repeat');
    assert.ok(calls.length <= 5);
  });

  void it('collect honours maxItems exactly', async () => {
    const { fetchPage } = fakeSearch(50);
    assert.deepEqual(
      await collect(fetchPage, { limit: 7 }, { maxItems: 10 }),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert.deepEqual(await collect(fetchPage, { limit: 7 }, { maxItems: 0 }), []);
  });

  void it('cancellation between pages ends in a cancelled error', async () => {
    const { fetchPage } = fakeSearch(50);
    const ac = new AbortController();
    const it = pages(fetchPage, { limit: 5 }, ac.signal);
    assert.equal((await it.next()).done, false);
    ac.abort();
    await assert.rejects(it.next(), (e: unknown) => e instanceof OdinApiError && e.kind === 'cancelled');
  });
});
