// An investigation notebook as a person sees it: a small .odinnb opened in the notebook
// editor, "Notebook: Run All", and the ODIN renderer's outputs: a hosts table with its map,
// and a summary by country as a bar chart with a shaded map. Screenshots of the table, the
// chart and the map in the light and the dark theme (notebook-{table,chart,map}-{light,dark}.png).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectUi, painted, waitUntil } from './helpers.mjs';

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
 * The part of the screen the notebook's cells show in: below the notebook's toolbar, above the
 * status bar (and the bottom of the editor).
 */
async function cellArea() {
  const vp = ui.page.viewportSize() ?? { width: 1280, height: 800 };
  const editor = await ui.page.locator('.notebook-editor').first().boundingBox();
  const toolbar = await ui.page.locator('.notebook-editor .notebook-toolbar-container').first().boundingBox();
  const status = await ui.page.locator('.part.statusbar').first().boundingBox();
  const top = Math.max(editor?.y ?? 0, toolbar ? toolbar.y + toolbar.height : 0);
  const bottom = Math.min(vp.height, editor ? editor.y + editor.height : vp.height, status?.y ?? vp.height);
  return { x: editor?.x ?? 0, top, bottom };
}

/**
 * Scrolls the notebook (the workbench's list, not the output's frame) until the whole of `loc`
 * is in the cells' area, as a person would with the wheel over the notebook: not under the
 * notebook's toolbar, not under the status bar.
 */
async function reveal(loc, frame) {
  const MARGIN = 8;
  for (let i = 0; i < 40; i++) {
    const area = await cellArea();
    const box = await loc.boundingBox();
    let delta = 0;
    if (!box) delta = 200;
    else if (box.y < area.top + MARGIN) delta = box.y - area.top - MARGIN;
    else if (box.y + box.height > area.bottom - MARGIN)
      // Taller than the area: its top at the area's top.
      delta = Math.min(box.y + box.height - area.bottom + MARGIN, box.y - area.top - MARGIN);
    if (delta === 0) break;
    await ui.page.mouse.move(area.x + 40, area.top + 40);
    await ui.page.mouse.wheel(0, Math.sign(delta) * Math.max(Math.abs(Math.round(delta)), 4));
    await painted(ui.page);
  }
  await painted(frame);
  const area = await cellArea();
  const box = await loc.boundingBox();
  assert.ok(
    box && box.y >= area.top && box.y + box.height <= area.bottom,
    `the output is whole on screen: ${JSON.stringify({ box, area })}`,
  );
}

/**
 * The text outputs drawn in this frame: a cell that fails writes its reason as stderr, which
 * VS Code's own renderer draws (a failed cell draws no table: the test says why at once).
 */
function textOutputs() {
  return [...document.querySelectorAll('.output-stream, .output-plaintext, .traceback')]
    .map((e) => e.textContent?.trim() ?? '')
    .filter(Boolean);
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
    // Two drawn outputs, or a cell's error at once (not a 90 s wait for a table that cannot come).
    const drawn = await waitUntil(
      async () => {
        for (const f of ui.page.frames()) {
          if (await f.evaluate(outputsDrawn, 2).catch(() => false)) return { frame: f };
          const errors = await f.evaluate(textOutputs).catch(() => []);
          if (errors.length) return { errors };
        }
        // VS Code draws a cell's output once the cell is on screen: with a narrower editor (the
        // side bar a full run leaves open) the first cell's map pushes the second cell below
        // the fold, so scroll the notebook down with the wheel, as a person would.
        const area = await cellArea();
        await ui.page.mouse.move(area.x + 40, area.top + 40);
        await ui.page.mouse.wheel(0, 300);
        return undefined;
      },
      { timeout: 90_000, what: 'two drawn ODIN outputs' },
    ).catch(async (e) => {
      // The workbench as it was (a picker, a dialog, an empty output), for whoever reads the failure.
      await ui.screenshot('notebook-no-output').catch(() => {});
      throw e;
    });
    assert.ok(drawn.frame, `a cell failed: ${drawn.errors?.join(' | ')}`);
    const frame = drawn.frame;
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
