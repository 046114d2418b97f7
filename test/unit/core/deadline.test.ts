import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NOT_YET, withinDeadline } from '../../../src/core/deadline';

void test('withinDeadline: the value in time, NOT_YET after, and the work goes on', async () => {
  assert.equal(await withinDeadline(Promise.resolve(7), 50), 7);
  await assert.rejects(withinDeadline(Promise.reject(new Error('boom')), 50), /boom/);
  let finished = false;
  const slow = new Promise<string>((r) =>
    setTimeout(() => {
      finished = true;
      r('late');
    }, 300),
  );
  assert.equal(await withinDeadline(slow, 20), NOT_YET);
  // No clock read: the answer came while the work was still going.
  assert.equal(finished, false, 'answered at the deadline, not when the work ended');
  assert.equal(await slow, 'late');
  assert.ok(finished);
  // A late rejection is not unhandled.
  const late = new Promise((_, reject) => setTimeout(() => reject(new Error('late')), 30));
  assert.equal(await withinDeadline(late, 5), NOT_YET);
  await new Promise((r) => setTimeout(r, 50));
});
