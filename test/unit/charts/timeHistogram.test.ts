// A summary over a time field as a histogram over time (common/charts/timeHistogram.ts): the unit
// from the range, empty bins kept, keys that are not dates counted in their own bar.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isTimeField,
  keyTime,
  MAX_BINS,
  notADateLabel,
  timeHistogram,
  timeUnit,
} from '../../../src/common/charts/timeHistogram';
import { otherLabel } from '../../../src/common/charts/bars';

const DAY = 86_400_000;

void describe('time histogram', () => {
  void it('knows the time fields of the summaries', () => {
    for (const f of [
      'last_updated_at',
      'services.last_updated_at',
      'created_at',
      'audited_fields.expires_date',
    ])
      assert.ok(isTimeField(f), f);
    for (const f of ['services.port', 'location.country_code', 'asn.organization', 'ip'])
      assert.ok(!isTimeField(f), f);
  });

  void it('is empty for no buckets, and says so of "other" alone', () => {
    assert.deepEqual(timeHistogram([]), { unit: 'day', bars: [], unparsed: 0 });
    const h = timeHistogram([], 7);
    assert.deepEqual(
      h.bars.map((b) => [b.label, b.count, b.other]),
      [[otherLabel(), 7, true]],
    );
  });

  void it('puts one date in one bucket of a day', () => {
    const h = timeHistogram([{ key: '2026-11-20T10:11:12.123456789Z', doc_count: 3 }]);
    assert.equal(h.unit, 'day');
    assert.deepEqual(
      h.bars.map((b) => [b.label, b.count, b.share]),
      [['2026-11-20', 3, 1]],
    );
    assert.equal(h.from, '2026-11-20');
  });

  void it('bins by day, week or month from the range, oldest first, gaps kept', () => {
    const days = timeHistogram([
      { key: '2026-11-20T01:00:00Z', doc_count: 1 },
      { key: '2026-11-18T23:00:00Z', doc_count: 2 },
      { key: '2026-11-20T23:59:59Z', doc_count: 4 },
    ]);
    assert.deepEqual(
      days.bars.map((b) => [b.label, b.count]),
      [
        ['2026-11-18', 2],
        ['2026-11-19', 0],
        ['2026-11-20', 5],
      ],
    );
    const t0 = Date.parse('2026-01-05T00:00:00Z'); // a Monday
    const weeks = timeHistogram([
      { key: t0, doc_count: 1 },
      { key: t0 + 100 * DAY, doc_count: 1 },
    ]);
    assert.equal(weeks.unit, 'week');
    assert.equal(weeks.bars[0]!.label, 'week of 2026-01-05');
    assert.equal(weeks.bars.length, 15);
    assert.equal(
      weeks.bars.reduce((n, b) => n + b.count, 0),
      2,
    );
    assert.equal(timeUnit(t0, t0 + 3 * 365 * DAY), 'month');
    assert.equal(timeUnit(t0, t0 + 30 * 365 * DAY), 'year');
    const long = timeHistogram([
      { key: '2001-03-04', doc_count: 1 },
      { key: '2026-11-20', doc_count: 1 },
    ]);
    assert.ok(long.bars.length <= MAX_BINS, String(long.bars.length));
  });

  void it('counts keys that are not dates in their own bar (never dropped), and "other" last', () => {
    const h = timeHistogram(
      [
        { key: '2026-11-20T10:00:00Z', doc_count: 5 },
        { key: 'yesterday', doc_count: 2 },
        { key: null, doc_count: 1 },
        { key: '2026-13-45T99:00:00Z', doc_count: 1 },
      ],
      3,
    );
    assert.equal(h.unparsed, 4);
    assert.deepEqual(
      h.bars.map((b) => [b.label, b.count]),
      [
        ['2026-11-20', 5],
        [notADateLabel(), 4],
        [otherLabel(), 3],
      ],
    );
    assert.equal(
      h.bars.reduce((n, b) => n + b.count, 0),
      12,
      'everything counted',
    );
    assert.equal(keyTime(1_763_000_000), 1_763_000_000_000, 'seconds read as seconds');
    assert.equal(keyTime(Number.NaN), undefined);
  });
});
