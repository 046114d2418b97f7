/**
 * The bar chart's layout (common/charts/barLayout.ts): the usual columns at a normal width, and at
 * every width from 200 px each value text ends inside the chart (the longest bar's value ran
 * past the right edge of a narrow chart), the bars still in proportion.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BAR_PAD, barLayout, MIN_BAR, MIN_CHART_WIDTH } from '../../../src/common/charts/barLayout';

/** Value texts as the page measures them at 13 px: "80,123 (52%)" … "Other values" bar last. */
const COUNTS = [80_123, 40_000, 12_345, 900, 3, 25_000];
const VALUES = [84, 84, 84, 62, 48, 84];
/** The widest value a summary can show: "1,234,567,890 (100%)". */
const HUGE = [1_234_567_890, 1_000];
const HUGE_VALUES = [140, 70];

describe('bar chart layout', () => {
  it('keeps the usual columns at a normal width (labels 220 px, values 130 px; compact 160 / 90)', () => {
    const l = barLayout({ width: 800, counts: COUNTS, valueWidths: VALUES });
    assert.equal(l.width, 800);
    assert.equal(l.labelWidth, 220);
    assert.equal(l.bars[0], 800 - 220 - 130 - 2 * BAR_PAD);
    assert.equal(l.valueX[0], 220 + l.bars[0]! + BAR_PAD);
    const c = barLayout({ width: 330, counts: COUNTS, valueWidths: VALUES, compact: true });
    assert.equal(c.labelWidth, 160);
    assert.equal(c.bars[0], 330 - 160 - 90 - 2 * BAR_PAD);
  });

  it('ends every value text inside the chart at every width from 200 px, bars in proportion', () => {
    for (const compact of [false, true])
      for (const [counts, values] of [
        [COUNTS, VALUES],
        [HUGE, HUGE_VALUES],
      ] as const)
        for (let width = MIN_CHART_WIDTH; width <= 1200; width++) {
          const l = barLayout({ width, counts, valueWidths: values, compact });
          const where = `${width} px${compact ? ' compact' : ''}: ${JSON.stringify(l)}`;
          assert.equal(l.width, width, where);
          assert.ok(l.labelWidth >= 0 && l.labelWidth <= (compact ? 160 : 220), where);
          l.valueX.forEach((x, i) => {
            assert.ok(x + values[i]! <= width - BAR_PAD + 1e-9, `value ${i} past the edge at ${where}`);
            assert.ok(l.bars[i]! >= MIN_BAR, where);
          });
          // The longest bar is the longest; a bar's length follows its count.
          const longest = Math.max(...l.bars);
          assert.equal(l.bars[0], longest, where);
          counts.forEach((c, i) => {
            if (l.bars[i]! > MIN_BAR)
              assert.ok(Math.abs(l.bars[i]! - (c / counts[0]!) * longest) < 1e-6, where);
          });
        }
  });

  it('gives the bars room before the labels at a narrow width, the labels 30% of it', () => {
    const l = barLayout({ width: 240, counts: COUNTS, valueWidths: VALUES, compact: true });
    assert.ok(l.labelWidth < 160, JSON.stringify(l));
    assert.ok(l.labelWidth >= Math.round(240 * 0.3), JSON.stringify(l));
    assert.ok(l.bars[0]! >= 40, JSON.stringify(l));
    const narrow = barLayout({ width: 200, counts: COUNTS, valueWidths: VALUES });
    assert.equal(narrow.labelWidth, 60);
    assert.ok(narrow.valueX[0]! + VALUES[0]! <= 200 - BAR_PAD);
  });

  it('draws a narrower container at 200 px, and no bar for a zero or missing count', () => {
    const l = barLayout({ width: 120, counts: [5, 0, Number.NaN, -1], valueWidths: [40, 40, 40, 40] });
    assert.equal(l.width, MIN_CHART_WIDTH);
    assert.deepEqual(l.bars.slice(1), [0, 0, 0]);
    assert.equal(l.valueX[1], l.labelWidth + BAR_PAD);
    assert.deepEqual(barLayout({ width: 400, counts: [], valueWidths: [] }).bars, []);
    assert.deepEqual(barLayout({ width: 400, counts: [0, 0], valueWidths: [30, 30] }).bars, [0, 0]);
  });
});
