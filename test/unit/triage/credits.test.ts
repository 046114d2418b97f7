// The credits item's timing and warning, with an injected clock: nothing read before the
// first lookup, at most one read a minute after spending, none without spending.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CREDITS_REFRESH_MS, CreditsSchedule, isLow } from '../../../src/core/triage/credits';

void describe('credits item', () => {
  void it('reads nothing before the first lookup of the session', () => {
    let now = 1_000_000;
    const s = new CreditsSchedule(0, () => now);
    assert.equal(s.due(0), false);
    now += 10 * CREDITS_REFRESH_MS;
    assert.equal(s.due(0), false, 'time alone never makes a read due');
    assert.equal(s.due(1), true, 'the first lookup does');
  });

  void it('reads at most once a minute after spending, and only after new lookups', () => {
    let now = 0;
    const s = new CreditsSchedule(0, () => now);
    assert.equal(s.due(3), true);
    s.reading(3);
    assert.equal(s.due(3), false, 'nothing spent since');
    now += 15_000;
    assert.equal(s.due(9), false, '15 s later: too soon');
    now += CREDITS_REFRESH_MS - 15_001;
    assert.equal(s.due(9), false, 'a millisecond short of a minute');
    now += 1;
    assert.equal(s.due(9), true, 'a minute after the last read');
    s.reading(9);
    now += 5 * CREDITS_REFRESH_MS;
    assert.equal(s.due(9), false, 'nothing spent: no read however long it waits');
  });

  void it('a click reads at once and restarts the minute', () => {
    let now = 0;
    const s = new CreditsSchedule(5, () => now);
    now += 1000;
    s.reading(5);
    now += 30_000;
    assert.equal(s.due(6), false);
  });

  void it('forgets what was sent under the previous key or API', () => {
    const s = new CreditsSchedule(0, () => 0);
    s.reset(7);
    assert.equal(s.due(7), false);
    assert.equal(s.due(8), true);
  });

  void it('warns below 100 credits or below a tenth of the plan', () => {
    assert.equal(isLow(99, undefined), true);
    assert.equal(isLow(100, undefined), false);
    assert.equal(isLow(999, 10_000), true);
    assert.equal(isLow(1000, 10_000), false);
    assert.equal(isLow(500, 0), false);
  });
});
