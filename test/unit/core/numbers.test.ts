import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fmt } from '../../../src/core/text/numbers';

void test('fmt writes a count as toLocaleString("en-US") does', () => {
  for (const n of [0, 1, 999, 1000, 12_345, 1_000_000, -4321, 2.5, 1234.5678, 9_007_199_254_740_991])
    assert.equal(fmt(n), n.toLocaleString('en-US'), String(n));
  assert.equal(fmt(12_345), '12,345');
});

void test('fmt groups every whole number as Intl does (its own path), and leaves the rest to Intl', () => {
  const intl = new Intl.NumberFormat('en-US');
  const cases = [-0, NaN, Infinity, -Infinity, 0.1, -999.5, 999.9999, 1e21, 2 ** 53, -(2 ** 53) + 1];
  for (let n = 1; n < Number.MAX_SAFE_INTEGER; n = n * 10 + 7) cases.push(n - 1, n, n + 1, -n);
  for (let n = 0; n < 5000; n++) cases.push(n, -n, n * 997);
  for (const n of cases) assert.equal(fmt(n), intl.format(n), String(n));
});
