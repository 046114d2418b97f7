import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fmt } from '../../../src/core/text/numbers';

void test('fmt writes a count as toLocaleString("en-US") does', () => {
  for (const n of [0, 1, 999, 1000, 12_345, 1_000_000, -4321, 2.5, 1234.5678, 9_007_199_254_740_991])
    assert.equal(fmt(n), n.toLocaleString('en-US'), String(n));
  assert.equal(fmt(12_345), '12,345');
});
