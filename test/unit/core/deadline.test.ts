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
