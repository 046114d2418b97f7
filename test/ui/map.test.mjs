// The map page of a host search as a person uses it in the real workbench (issue 30): "Search
// Hosts…" from the palette, the set's inline "Show Result Set on Map" in the Results view, the
// hosts as points on a world map beside the editor; the arrow keys move between points; a click
// on a point opens its host's page; the table toggle; the hostile host's labels inert. The port
// chart in the light theme. A summary by country shaded on the map; no map offered on a set it
// cannot draw. Screenshots (media/screenshots/map-search.png, map-countries.png,
// chart-ports-light.png with --update-screenshots).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { detailsFrame } from './detailsFrame.mjs';
import { connectUi, frameWhere, painted } from './helpers.mjs';

// Same value as src/emulator/fixtures.ts (this file runs as plain Node, outside the build).
const HOSTILE = '193.42.33.7';
const CORP = 'acme-logistics.com';

/** @type {import('./helpers.mjs').Ui} */
let ui;

/** The frame of the map page whose heading is `title`, once it has drawn. */
function mapFrame(title) {
  return frameWhere(
    ui.page,
    (t) =>
      document.body?.dataset.page === 'map' &&
      document.querySelector('h1')?.textContent === t &&
      !!document.querySelector('svg.world-map path.country'),
    title,
    { timeout: 90_000, what: `the map page "${title}"` },
  );
}

const quickInput = (text) =>
  ui.page.locator(`.quick-input-widget .quick-input-box input[placeholder^="${text}"]`);

/** Search Hosts… as a person runs it; resolves with the set's row in the Results view. */
async function searchHosts(query) {
  await ui.runCommand('ODIN: Search Hosts\u2026');
  await quickInput('Type a query').waitFor({ state: 'visible', timeout: 15_000 });
  await ui.answerInput(query);
  const row = ui
    .view('Results')
    .locator('.monaco-list-row')
    .filter({ has: ui.page.locator('.label-name', { hasText: `Host search: ${query}` }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  return row;
}

async function openMapFrom(row, query) {
  await row.hover();
  await row.locator('.action-label[aria-label="Show Result Set on Map"]').click();
  return mapFrame(`Hosts of ${query} on a map`);
}

/** The row of the set titled `title` in the Results view, once it shows. */
async function setRow(title) {
  const row = ui
    .view('Results')
    .locator('.monaco-list-row')
    .filter({ has: ui.page.locator('.label-name', { hasText: title }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  return row;
}

/**
 * Opens the context menu of `row`, waits for its item `known`, and returns the items whose
 * text matches `re`; the menu is closed again.
 */
async function contextMenu(row, known, re) {
  await row.click({ button: 'right' });
  const items = ui.page.locator('.monaco-menu .action-item');
  await items.filter({ hasText: known }).first().waitFor({ state: 'visible', timeout: 15_000 });
  const texts = (await items.allInnerTexts()).map((t) => t.trim()).filter((t) => re.test(t));
  await ui.page.keyboard.press('Escape');
  return texts;
}

/** The IP a point opens: its own, or the worst of its cluster ("…; opens 203.0.113.7"). */
const ipOf = (label) => /opens (\S+)$/.exec(label)?.[1] ?? /^(\S+)/.exec(label)?.[1];

describe('map page', () => {
  before(async () => {
    ui = await connectUi();
    await ui.reset();
    await ui.openViewContainer('ODIN');
  });
  after(async () => {
    await ui?.setTheme('Dark Modern').catch(() => {});
    await ui?.close();
  });

  it("draws a search's hosts, toggles to its table, and a click on a point opens its host page", async () => {
    const query = 'services.port:443';
    const frame = await openMapFrom(await searchHosts(query), query);
    const points = frame.locator('svg.world-map circle.point');
    assert.ok((await points.count()) > 0);
    const status = await frame.locator('.map-header .status').first().innerText();
    assert.match(status, /loaded hosts in \d+ points/);
    // The mouse off the tree and the page (a tooltip or a hovered point would show in the picture).
    await ui.page.mouse.move(1000, 51);
    await painted(frame.locator('svg.world-map'));
    await ui.screenshot('map-search');

    // The table: the same hosts, worst first, for reading and for screen readers.
    await frame.getByRole('button', { name: 'Show Table' }).click();
    await frame.locator('.map-table table.grid tbody tr').first().waitFor({ state: 'visible' });
    assert.ok(await frame.locator('svg.world-map').isHidden());
    await frame.getByRole('button', { name: 'Show Map' }).click();
    await points.first().waitFor({ state: 'visible' });

    // Keyboard: a point takes focus and is a button; the arrow keys move the focus to another
    // point (the nearest that way), shown by its focus ring; Home goes back to the worst.
    const point = points.last();
    await point.focus();
    assert.equal(await frame.evaluate(() => document.activeElement?.getAttribute('role')), 'button');
    const focusedPoint = () =>
      frame.evaluate(() => {
        const el = document.activeElement;
        return el?.matches('circle.point:focus-visible') ? el.getAttribute('data-cluster') : null;
      });
    const n = await points.count();
    if (n > 1) {
      await ui.page.keyboard.press('End');
      assert.equal(
        await focusedPoint(),
        String(n - 1),
        'End: the last point in list order, its focus visible',
      );
      await ui.page.keyboard.press('Home');
      assert.equal(await focusedPoint(), '0', 'Home: the worst point');
      for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) {
        await ui.page.keyboard.press(key);
        if ((await focusedPoint()) !== '0') break;
      }
      assert.match((await focusedPoint()) ?? '', /^[1-9]\d*$/, 'an arrow moved the focus to another point');
      await ui.page.keyboard.press('Home');
    }
    const ip = ipOf((await point.getAttribute('aria-label')) ?? '');
    assert.ok(ip, 'the point names its host');
    await point.click();
    await detailsFrame(ui, 'host', ip);
  });

  it("draws the hostile host's labels as inert text", async () => {
    await ui.reset();
    const query = `ip:${HOSTILE}`;
    const frame = await openMapFrom(await searchHosts(query), query);
    const label =
      (await frame.locator('svg.world-map circle.point').first().getAttribute('aria-label')) ?? '';
    assert.ok(label.includes('<script>window.__pwned=1</script>'), 'the payload is the label, as text');
    const counts = await frame.evaluate(() => ({
      scripts: [...document.scripts].filter((s) => /pwned/.test(s.textContent ?? '') || /pwned/.test(s.src))
        .length,
      imgs: document.querySelectorAll('img, image').length,
      embeds: document.querySelectorAll('iframe, object, embed, foreignObject, a[href], form').length,
      handlers: [...document.querySelectorAll('*')].filter((el) =>
        [...el.attributes].some((a) => a.name.toLowerCase().startsWith('on')),
      ).length,
    }));
    assert.deepEqual(counts, { scripts: 0, imgs: 0, embeds: 0, handlers: 0 });
    // The page may show an image only of a blob its own script made (for Save as PNG).
    const csp = await frame.evaluate(
      () =>
        document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '',
    );
    assert.match(csp, /(^|; )img-src blob:(;|$)/);
    assert.match(csp, /connect-src 'none'/);
    for (const f of ui.page.frames())
      assert.equal(
        await f.evaluate(() => /** @type {any} */ (window).__pwned).catch(() => undefined),
        undefined,
      );
    // Save as PNG: the page draws its SVG into a canvas (img-src blob:), the PNG passes the
    // extension's check and the save dialog opens (a refused one shows a warning instead).
    await frame.getByRole('button', { name: 'Save as PNG' }).click();
    await ui.page
      .locator('.quick-input-widget .quick-input-title', { hasText: 'ODIN: Save Map as PNG' })
      .waitFor({ state: 'visible', timeout: 15_000 });
    await ui.page.keyboard.press('Escape');
  });

  it('shades the countries of a summary by country (screenshot)', async () => {
    await ui.reset();
    await ui.runCommand('ODIN: Summarize Hosts by Field\u2026');
    await quickInput('Field to summarise by').waitFor({ state: 'visible', timeout: 15_000 });
    await ui.answerInput('location.country_code');
    await quickInput('Type a query').waitFor({ state: 'visible', timeout: 15_000 });
    await ui.answerInput('services.port:443');
    const row = ui
      .view('Results')
      .locator('.monaco-list-row')
      .filter({
        has: ui.page.locator('.label-name', {
          hasText: 'Host summary: location.country_code over services.port:443',
        }),
      })
      .first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    // "Show on Map" is in the summary node's context menu, as a person finds it.
    await row.click({ button: 'right' });
    // The menu ignores a click that comes as soon as it opens (a right-click's release must not
    // pick an item): the item is pointed at, then chosen with Enter, as a keyboard user does.
    const item = ui.page.locator('.monaco-menu .action-item', { hasText: /^Show on Map$/ }).first();
    await item.hover();
    await ui.page.waitForFunction(
      () => /Show on Map/.test(document.activeElement?.textContent ?? ''),
      undefined,
      {
        timeout: 15_000,
      },
    );
    await ui.page.keyboard.press('Enter');
    const frame = await mapFrame('Hosts by location.country_code on a map');
    const shaded = frame.locator('svg.world-map.countries path.country[class*="shade-"]');
    assert.ok((await shaded.count()) > 0, 'countries shaded by their count');
    assert.equal(await frame.locator('svg.world-map circle.point').count(), 0, 'no points');
    await ui.page.mouse.move(1000, 51);
    await painted(frame.locator('svg.world-map'));
    await ui.screenshot('map-countries');
  });

  it('offers no map where it cannot draw one: a whois history, a summary by port', async () => {
    await ui.reset();
    await ui.runCommand('ODIN: Show Whois History of a Domain\u2026');
    await ui.answerInput(CORP);
    const whois = await setRow(`Whois history: ${CORP}`);
    await whois.hover();
    await whois.locator('.action-label[aria-label="Refresh Results"]').waitFor({ state: 'visible' });
    assert.equal(await whois.locator('.action-label[aria-label="Show Result Set on Map"]').count(), 0);
    assert.deepEqual(await contextMenu(whois, 'Export Results\u2026', /on Map/), []);

    await ui.runCommand('ODIN: Summarize Hosts by Field\u2026');
    await quickInput('Field to summarise by').waitFor({ state: 'visible', timeout: 15_000 });
    await ui.answerInput('services.port');
    await quickInput('Type a query').waitFor({ state: 'visible', timeout: 15_000 });
    await ui.answerInput('services.port:22');
    const ports = await setRow('Host summary: services.port over services.port:22');
    assert.deepEqual(await contextMenu(ports, 'Open Summary as Chart', /on Map/), []);
  });

  it('the port chart in the light theme', async () => {
    await ui.reset();
    await ui.setTheme('Light Modern');
    await ui.runCommand('ODIN: Summarize Hosts by Field\u2026');
    await quickInput('Field to summarise by').waitFor({ state: 'visible', timeout: 15_000 });
    await ui.answerInput('services.port');
    await quickInput('Type a query').waitFor({ state: 'visible', timeout: 15_000 });
    await ui.answerInput('*');
    const row = ui
      .view('Results')
      .locator('.monaco-list-row')
      .filter({ has: ui.page.locator('.label-name', { hasText: 'Host summary: services.port over *' }) })
      .first();
    await row.waitFor({ state: 'visible', timeout: 30_000 });
    await row.hover();
    await row.locator('.action-label[aria-label="Open Summary as Chart"]').click();
    const frame = await frameWhere(
      ui.page,
      () => document.body?.dataset.page === 'chart' && !!document.querySelector('svg.bar-chart g.bar-row'),
      undefined,
      { timeout: 90_000, what: 'the chart page' },
    );
    assert.ok(await frame.evaluate(() => document.body.classList.contains('vscode-light')));
    await ui.page.mouse.move(1000, 51);
    await painted(frame.locator('svg.bar-chart'));
    await ui.screenshotRegion('chart-ports-light', ui.page.locator('.part.editor').first());
    // Save as PNG on a chart: the same check, the same dialog.
    await frame.getByRole('button', { name: 'Save as PNG' }).click();
    await ui.page
      .locator('.quick-input-widget .quick-input-title', { hasText: 'ODIN: Save Chart as PNG' })
      .waitFor({ state: 'visible', timeout: 15_000 });
    await ui.page.keyboard.press('Escape');
  });
});
