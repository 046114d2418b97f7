// What the UI tests of the chart and map pages share: the prompts of a search or summary as a
// person answers them, the set's row in the Results view, its inline action and context menu,
// the page's frame once it has drawn, and what could run in a page.
import { frameWhere } from './helpers.mjs';

// Same values as src/emulator/fixtures.ts (these files run as plain Node, outside the build).
export const HOSTILE = '193.42.33.7';
export const CORP = 'acme-logistics.com';

/**
 * The frame of a chart or map page (`body[data-page]`) whose heading is `title`, once `drawn`
 * (a selector) is in it.
 * @param {import('./helpers.mjs').Ui} ui
 * @param {'chart' | 'map'} page
 */
export function pageFrame(ui, page, title, drawn) {
  return frameWhere(
    ui.page,
    ([p, t, d]) =>
      document.body?.dataset.page === p &&
      document.querySelector('h1')?.textContent === t &&
      !!document.querySelector(d),
    [page, title, drawn],
    { timeout: 90_000, what: `the ${page} page "${title}"` },
  );
}

/**
 * The quick input whose placeholder starts with `text` (the prompts reuse one widget: wait for the right one).
 * @param {import('./helpers.mjs').Ui} ui
 */
export const quickInput = (ui, text) =>
  ui.page.locator(`.quick-input-widget .quick-input-box input[placeholder^="${text}"]`);

/**
 * The row of the set titled `title` in the Results view, once it shows.
 * @param {import('./helpers.mjs').Ui} ui
 */
export async function setRow(ui, title) {
  const row = ui
    .view('Results')
    .locator('.monaco-list-row')
    .filter({ has: ui.page.locator('.label-name', { hasText: title }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  return row;
}

/**
 * Search Hosts… as a person runs it; resolves with the set's row in the Results view.
 * @param {import('./helpers.mjs').Ui} ui
 */
export async function searchHosts(ui, query) {
  await ui.runCommand('ODIN: Search Hosts\u2026');
  await quickInput(ui, 'Type a query').waitFor({ state: 'visible', timeout: 15_000 });
  await ui.answerInput(query);
  return setRow(ui, `Host search: ${query}`);
}

/**
 * Summarize Hosts by Field… as a person runs it: the field, then the query; resolves with the
 * summary's row in the Results view.
 * @param {import('./helpers.mjs').Ui} ui
 */
export async function summarize(ui, query, field) {
  await ui.runCommand('ODIN: Summarize Hosts by Field\u2026');
  await quickInput(ui, 'Field to summarise by').waitFor({ state: 'visible', timeout: 15_000 });
  await ui.answerInput(field);
  await quickInput(ui, 'Type a query').waitFor({ state: 'visible', timeout: 15_000 });
  await ui.answerInput(query);
  return setRow(ui, `Host summary: ${field} over ${query}`);
}

/** A row's inline action (the tree shows it on hover), as a person clicks it. */
export async function clickInline(row, label) {
  await row.hover();
  await row.locator(`.action-label[aria-label="${label}"]`).click();
}

/**
 * Opens the context menu of `row`, waits for its item `known`, and returns the items whose
 * text matches `re`; the menu is closed again.
 * @param {import('./helpers.mjs').Ui} ui
 */
export async function contextMenuItems(ui, row, known, re) {
  await row.click({ button: 'right' });
  const items = ui.page.locator('.monaco-menu .action-item');
  await items.filter({ hasText: known }).first().waitFor({ state: 'visible', timeout: 15_000 });
  const texts = (await items.allInnerTexts()).map((t) => t.trim()).filter((t) => re.test(t));
  await ui.page.keyboard.press('Escape');
  return texts;
}

/**
 * What could run or load in the page: nothing of it may exist.
 * @param {import('playwright-core').Frame} frame
 */
export function activeContent(frame) {
  return frame.evaluate(() => ({
    scripts: [...document.scripts].filter((s) => /pwned/.test(s.textContent ?? '') || /pwned/.test(s.src))
      .length,
    imgs: document.querySelectorAll('img, image').length,
    embeds: document.querySelectorAll('iframe, object, embed, foreignObject, a[href], form').length,
    handlers: [...document.querySelectorAll('*')].filter((el) =>
      [...el.attributes].some((a) => a.name.toLowerCase().startsWith('on')),
    ).length,
  }));
}

/**
 * No frame of the workbench has the flag a hostile payload would set.
 * @param {import('./helpers.mjs').Ui} ui
 */
export async function pwnedFrames(ui) {
  const out = [];
  for (const f of ui.page.frames())
    if ((await f.evaluate(() => /** @type {any} */ (window).__pwned).catch(() => undefined)) !== undefined)
      out.push(f.url());
  return out;
}

/**
 * Narrows the workbench until the page in `frame` is about `target` px wide and `laidOut` (a
 * function run in the page) holds; returns what restores the workbench and waits for the
 * page's width again. The page's editor group takes what the workbench loses (with a second
 * group, its share: a second step scales by what the first one did).
 * @param {import('./helpers.mjs').Ui} ui
 * @param {import('playwright-core').Frame} frame
 * @param {number} target
 * @param {() => boolean} laidOut
 */
export async function narrowPage(ui, frame, target, laidOut) {
  const vp = await ui.page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
  const pageWidth = () => frame.evaluate(() => document.body.clientWidth);
  const wide = await pageWidth();
  const resize = async (width) => {
    const before = await pageWidth();
    await ui.page.setViewportSize({ width: Math.round(width), height: vp.height });
    await frame.waitForFunction((w) => document.body.clientWidth !== w, before);
    await frame.waitForFunction(laidOut);
    return pageWidth();
  };
  const restore = async () => {
    await ui.page.setViewportSize(vp);
    await frame.waitForFunction((w) => document.body.clientWidth >= w - 1, wide);
    await frame.waitForFunction(laidOut);
  };
  try {
    const first = vp.width - (wide - target);
    const got = await resize(first);
    if (Math.abs(got - target) > 40)
      await resize(first - ((got - target) * (vp.width - first)) / (wide - got));
  } catch (e) {
    await ui.page.setViewportSize(vp);
    throw e;
  }
  return restore;
}
