// An investigation notebook as a person sees it: a small .odinnb opened in the notebook
// editor, "Notebook: Run All", and the ODIN renderer's outputs: a hosts table with its map,
// and a summary by country as a bar chart with a shaded map. Screenshots of the table, the
// chart and the map in the light and the dark theme (notebook-{table,chart,map}-{light,dark}.png).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectUi, frameWhere, painted } from './helpers.mjs';

/** @type {import('./helpers.mjs').Ui} */
let ui;
const NAME = 'notebook-ui.odinnb';

const NOTEBOOK = {
  version: 1,
  params: { port: '22' },
  cells: [
    { kind: 'markdown', source: '# SSH hosts' },
    {
      kind: 'query',
      source: '@hosts SSH in Germany  size=100\nservices.port:{{port}} AND location.country_code:DE',
    },
    { kind: 'query', source: '@hosts SSH by country  by=location.country_code\nservices.port:{{port}}' },
  ],
};

/** Whether this frame holds `n` drawn ODIN outputs (inside their shadow roots). */
function outputsDrawn(n) {
  const roots = [...document.querySelectorAll('*')].map((e) => e.shadowRoot).filter(Boolean);
  return roots.filter((r) => r.querySelector('.odin-nb table tbody tr')).length >= n;
}

/**
 * Scrolls the notebook (the workbench's list, not the output's frame) until `loc` is on screen,
 * as a person would with the wheel over the notebook.
 */
async function reveal(loc, frame) {
  const vp = ui.page.viewportSize() ?? { width: 1280, height: 800 };
  const list = await ui.page.locator('.notebook-editor').first().boundingBox();
  for (let i = 0; i < 40; i++) {
    const box = await loc.boundingBox();
    if (box && box.y >= (list?.y ?? 0) && box.y + Math.min(box.height, vp.height / 2) <= vp.height) break;
    await ui.page.mouse.move((list?.x ?? 0) + 40, (list?.y ?? 0) + 80);
    await ui.page.mouse.wheel(0, !box || box.y > vp.height / 2 ? 200 : -200);
    await painted(ui.page);
  }
  await painted(frame);
}

describe('notebook outputs', () => {
  before(async () => {
    ui = await connectUi();
    fs.writeFileSync(path.join(ui.info.workspace, NAME), `${JSON.stringify(NOTEBOOK, null, 2)}\n`);
  });
  after(async () => {
    await ui?.reset().catch(() => {});
    fs.rmSync(path.join(ui.info.workspace, NAME), { force: true });
    fs.rmSync(path.join(ui.info.workspace, '.odin'), { recursive: true, force: true });
    await ui?.close();
  });

  it('runs a notebook and draws a table, a chart and a map in both themes', async () => {
    // Quick Open, then the notebook editor (a notebook has no single text editor to wait for).
    await ui.page.keyboard.press('Escape');
    await ui.page.keyboard.press(process.platform === 'darwin' ? 'Meta+P' : 'Control+P');
    const input = ui.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill(NAME);
    // The row of this file, clicked: the list's first row may still be a recently opened file
    // while the file search answers (a full UI run opened many before this one).
    const row = ui.page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ has: ui.page.locator('.label-name', { hasText: /^notebook-ui\.odinnb$/ }) })
      .first();
    await row.waitFor({ state: 'visible' });
    await row.click();
    await ui.page.locator('.notebook-editor').first().waitFor({ state: 'visible', timeout: 15_000 });
    // The ODIN controller chosen (its label in the kernel picker), so Run All needs no pick.
    await ui.page
      .locator('.notebook-editor .notebook-toolbar-container')
      .filter({ hasText: 'ODIN' })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
    // The notebook toolbar's Run All, as a person clicks it.
    await ui.page
      .locator('.notebook-editor .notebook-toolbar-container a[aria-label^="Run All"]')
      .first()
      .click();
    const frame = await frameWhere(ui.page, outputsDrawn, 2, {
      timeout: 90_000,
      what: 'two drawn ODIN outputs',
    });
    const table = frame.locator('.odin-nb .table-wrap').first();
    const chart = frame.locator('.odin-nb .chart svg.bar-chart').first();
    const map = frame.locator('.odin-nb .map svg.world-map').first();
    assert.ok((await frame.locator('.odin-nb table tbody tr').count()) > 1);
    assert.ok((await frame.locator('.odin-nb .chart g.bar-row').count()) > 1, 'bars drawn');
    assert.ok((await frame.locator('.odin-nb .map svg.world-map').count()) >= 1, 'a map drawn');
    for (const [theme, suffix] of [
      ['Light Modern', 'light'],
      ['Dark Modern', 'dark'],
    ]) {
      await ui.setTheme(theme);
      await painted(frame);
      for (const [what, loc] of [
        ['table', table],
        ['chart', chart],
        ['map', map],
      ]) {
        await reveal(loc, frame);
        await ui.screenshotRegion(`notebook-${what}-${suffix}`, loc, { padding: 4 });
      }
    }
  });
});
