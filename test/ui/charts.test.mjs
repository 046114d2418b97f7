// The chart page of a summary as a person uses it in the real workbench (issue 30): "Summarize
// Hosts by Field…" from the palette, the summary's inline "Open Summary as Chart" in the
// Results view, a bar chart beside the editor; a click on a bar runs the narrowed search into
// the Results view; the table toggle; the hostile host's hostnames as bars, inert. Screenshots
// (media/screenshots/chart-ports.png, chart-hostile.png with --update-screenshots).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectUi, painted } from './helpers.mjs';
import { activeContent, clickInline, HOSTILE, pageFrame, pwnedFrames, summarize } from './pages.mjs';

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
