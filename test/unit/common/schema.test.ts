/**
 * The message schema helper: one declaration gives the type and the validator, and the
 * validator is as strict as the hand-written parsers were (known keys only, fresh objects).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  id,
  index,
  literal,
  message,
  ms,
  object,
  oneOf,
  optional,
  refine,
  requests,
  text,
  union,
  type Infer,
} from '../../../src/common/schema';
import { MAX_MESSAGE_CHARS } from '../../../src/common/validate';

const move = refine(object({ type: literal('move'), from: index, to: index }), (m) => m.from !== m.to);
const note = object({ type: literal('note'), text, tag: optional(id) });
const check = message(
  union(move, note, object({ type: literal('act'), action: oneOf(['a', 'b'] as const) })),
);
type Msg = Infer<typeof check>;

void test('the derived type and the validator agree', () => {
  const m: Msg = { type: 'note', text: 'hi' };
  assert.deepEqual(check(m), m);
  assert.deepEqual(check({ type: 'note', text: 'hi', tag: 'x' }), { type: 'note', text: 'hi', tag: 'x' });
  assert.deepEqual(check({ type: 'act', action: 'b' }), { type: 'act', action: 'b' });
  assert.deepEqual(check({ type: 'move', from: 1, to: 2 }), { type: 'move', from: 1, to: 2 });
});

void test('refuses unknown keys, wrong types, failed refinements and oversized or cyclic messages', () => {
  const bad: unknown[] = [
    null,
    [],
    'note',
    { type: 'note' },
    { type: 'note', text: 1 },
    { type: 'note', text: 'x', extra: 1 },
    JSON.parse('{"type":"note","text":"x","__proto__":{"polluted":true}}'),
    { type: 'note', text: 'x', tag: '' },
    { type: 'act', action: 'c' },
    { type: 'move', from: 1, to: 1 },
    { type: 'move', from: -1, to: 1 },
    { type: 'move', from: 1.5, to: 1 },
    { type: 'note', text: 'x'.repeat(MAX_MESSAGE_CHARS) },
    { type: 'other' },
  ];
  for (const b of bad) assert.equal(check(b), undefined, JSON.stringify(b)?.slice(0, 80));
  const cyclic: Record<string, unknown> = { type: 'note', text: 'x' };
  cyclic.self = cyclic;
  assert.equal(check(cyclic), undefined);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

void test('accepted messages are fresh objects; ms is finite and not negative', () => {
  const raw = { type: 'note', text: 'x' };
  assert.notEqual(check(raw), raw);
  assert.equal(ms(Number.NaN), undefined);
  assert.equal(ms(-1), undefined);
  assert.equal(ms(Infinity), undefined);
  assert.equal(ms(2.5), 2.5);
});

void test('requests(): one variant per method with its own parameters', () => {
  const r = requests({
    get: { params: object({ index }), result: text },
    all: { params: object({}), result: text },
  });
  assert.deepEqual(r({ type: 'request', requestId: 1, method: 'get', params: { index: 2 } }), {
    type: 'request',
    requestId: 1,
    method: 'get',
    params: { index: 2 },
  });
  assert.equal(r({ type: 'request', requestId: 1, method: 'all', params: { index: 2 } }), undefined);
  assert.equal(r({ type: 'request', requestId: 1, method: 'eval', params: {} }), undefined);
  assert.equal(r({ type: 'request', requestId: 1, method: 'get', params: { index: '2' } }), undefined);
});
