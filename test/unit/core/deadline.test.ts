import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NOT_YET, withinDeadline } from '../../../src/core/requests/deadline';
import { turns } from '../../support/wait';

void test('withinDeadline: the value in time, NOT_YET after, and the work goes on', async () => {
  assert.equal(await withinDeadline(Promise.resolve(7), 50), 7);
  await assert.rejects(withinDeadline(Promise.reject(new Error('boom')), 50), /boom/);
  // Work that ends only when the test says so: the answer comes at the deadline, while it goes on.
  let finish!: (v: string) => void;
  const slow = new Promise<string>((r) => (finish = r));
  assert.equal(await withinDeadline(slow, 20), NOT_YET);
  finish('late');
  assert.equal(await slow, 'late');
  // A late rejection is not unhandled.
  let fail!: (e: Error) => void;
  const late = new Promise((_, reject) => (fail = reject));
  assert.equal(await withinDeadline(late, 5), NOT_YET);
  fail(new Error('late'));
  await turns();
});

void test('withinDeadline: onEnd runs once when the wait ends, answered or not', async () => {
  let ended = 0;
  assert.equal(await withinDeadline(Promise.resolve(1), 50, () => ended++), 1);
  assert.equal(ended, 1, 'answered: ended with the answer');
  await assert.rejects(
    withinDeadline(Promise.reject(new Error('boom')), 50, () => ended++),
    /boom/,
  );
  assert.equal(ended, 2, 'failed: ended with the failure');
  let finish!: (v: string) => void;
  const slow = new Promise<string>((r) => (finish = r));
  assert.equal(await withinDeadline(slow, 5, () => ended++), NOT_YET);
  assert.equal(ended, 3, 'timed out: ended at the deadline');
  finish('late');
  await slow;
  await turns();
  assert.equal(ended, 3, 'a late answer does not end it again');
});
