// The chart page of a summary as a person uses it in the real workbench: "Summarize
// Hosts by Field…" from the palette, the summary's inline "Open Summary as Chart" in the
// Results view, a bar chart beside the editor; a click on a bar runs the narrowed search into
// the Results view; the table toggle; every value inside a narrowed chart; the hostile host's
// hostnames as bars, inert. Screenshots (media/screenshots/chart-ports.png, chart-hostile.png
// with --update-screenshots; chart-narrow.png).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectUi, painted } from './helpers.mjs';
import {
  activeContent,
  clickInline,
  HOSTILE,
  narrowPage,
  pageFrame,
  pwnedFrames,
  summarize,
} from './pages.mjs';

/** @type {import('./helpers.mjs').Ui} */
let ui;

/** The summary row's inline "Open Summary as Chart"; resolves with the chart's frame once it has drawn its bars. */
async function openChartFrom(row, title) {
  await clickInline(row, 'Open Summary as Chart');
  return pageFrame(ui, 'chart', title, 'svg.bar-chart g.bar-row');
}

describe('chart page', () => {
  before(async () => {
    ui = await connectUi();
    await ui.reset();
    await ui.openViewContainer('ODIN');
  });
  after(async () => {
    await ui?.close();
  });

  it('draws a port summary, toggles to its table, and a click on a bar narrows the search', async () => {
    const row = await summarize(ui, '*', 'services.port');
    const frame = await openChartFrom(row, 'Hosts by services.port');
    const bars = frame.locator('svg.bar-chart g.bar-row');
    assert.ok((await bars.count()) > 2);
    const other = frame.locator('svg.bar-chart g.bar-row.other');
    assert.equal(await other.count(), 1, 'one "other" bar');
    assert.match((await other.getAttribute('aria-label')) ?? '', /^Other values: [\d,]+ \(/);
    const first = frame.locator('svg.bar-chart g.bar-row.active').first();
    const label = (await first.getAttribute('aria-label')) ?? '';
    const port = /^(\d+):/.exec(label)?.[1];
    assert.ok(port, label);
    await painted(frame.locator('svg.bar-chart'));
    await ui.screenshot('chart-ports');

    // Narrowed to 200-300 px (the workbench made narrower; the page lays its chart out again):
    // every value text ends inside the chart, and the chart inside the page.
    const restore = await narrowPage(ui, frame, 250, () => {
      const svg = document.querySelector('svg.bar-chart');
      const root = /** @type {HTMLElement} */ (document.getElementById('root'));
      return !!svg && Number(svg.getAttribute('width')) === Math.max(200, root.clientWidth - 16);
    });
    try {
      const narrowWidth = await frame.evaluate(() => document.body.clientWidth);
      assert.ok(narrowWidth >= 200 && narrowWidth <= 300, `the chart page narrowed to ${narrowWidth} px`);
      const spill = await frame.evaluate(() => {
        const svg = /** @type {SVGSVGElement} */ (document.querySelector('svg.bar-chart'));
        const box = svg.getBoundingClientRect();
        return {
          svg: `${Math.round(box.left)}..${Math.round(box.right)} in a page of ${document.body.clientWidth}`,
          chartOut: box.right > document.body.clientWidth + 0.5,
          values: [...svg.querySelectorAll('g.bar-row')].map((g) => {
            const r = g.querySelector('text.bar-value').getBoundingClientRect();
            const label = g.querySelector('text.bar-label').getBoundingClientRect();
            return {
              text: g.querySelector('text.bar-value').textContent,
              out: r.right > box.right + 0.5,
              labelOut: label.left < box.left - 0.5,
              right: Math.round(r.right),
            };
          }),
        };
      });
      assert.ok(spill.values.length > 2, JSON.stringify(spill));
      assert.deepEqual(
        spill.values.filter((v) => v.out || v.labelOut),
        [],
        `value texts outside the chart (${spill.svg}): ${JSON.stringify(spill.values)}`,
      );
      assert.equal(spill.chartOut, false, `the chart wider than the page: ${spill.svg}`);
      await painted(frame.locator('svg.bar-chart'));
      await ui.screenshot('chart-narrow');
    } finally {
      await restore();
    }

    // The table: the same values, for reading and for screen readers.
    await frame.getByRole('button', { name: 'Show Table' }).click();
    await frame.locator('.chart-table table.grid tbody tr').first().waitFor({ state: 'visible' });
    assert.ok(await frame.locator('svg.bar-chart').isHidden());
    const cells = await frame.locator('.chart-table tbody tr').first().locator('th, td').allInnerTexts();
    assert.equal(cells[0].trim(), port);
    await frame.getByRole('button', { name: 'Show Chart' }).click();
    await first.waitFor({ state: 'visible' });

    // The largest bar narrows: "(*) AND services.port:<port>" appears in the Results view.
    await first.click();
    await ui
      .view('Results')
      .locator('.monaco-list-row .label-name', {
        hasText: new RegExp(`^Host search: .*services\\.port:${port}`),
      })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
  });

  it("draws the hostile host's hostnames as inert text", async () => {
    await ui.reset();
    const row = await summarize(ui, `ip:${HOSTILE}`, 'hostnames.name');
    const frame = await openChartFrom(row, 'Hosts by hostnames.name');
    const text = await frame.evaluate(() => document.body.textContent ?? '');
    assert.ok(text.includes('<script>window.__pwned=1</script>'), 'the <script> payload is visible text');
    assert.ok(text.includes('<img src=x onerror="window.__pwned=1">'), 'the <img> payload is visible text');
    assert.deepEqual(await activeContent(frame), { scripts: 0, imgs: 0, embeds: 0, handlers: 0 });
    assert.deepEqual(await pwnedFrames(ui), []);
    // Keyboard: the first bar takes focus and Enter on it is what a click does (checked above).
    await frame.locator('svg.bar-chart g.bar-row.active').first().focus();
    assert.equal(await frame.evaluate(() => document.activeElement?.getAttribute('role')), 'button');
    await painted(frame.locator('svg.bar-chart'));
    await ui.screenshot('chart-hostile');
    // Save as SVG: the SVG the page serialises passes the extension's check (the save dialog
    // opens; a refused one shows a warning instead), hostile labels and all.
    await frame.getByRole('button', { name: 'Save as SVG' }).click();
    await ui.page
      .locator('.quick-input-widget .quick-input-title', { hasText: 'ODIN: Save Chart as SVG' })
      .waitFor({ state: 'visible', timeout: 15_000 });
    await ui.page.keyboard.press('Escape');
  });
});
