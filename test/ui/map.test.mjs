// The map page of a host search as a person uses it in the real workbench: "Search
// Hosts…" from the palette, the set's inline "Show Result Set on Map" in the Results view, the
// hosts as points on a world map beside the editor; the arrow keys move between points; a click
// on a point opens its host's page; the table toggle; the hostile host's labels inert. The port
// chart in the light theme. A summary by country shaded on the map; no map offered on a set it
// cannot draw. Screenshots (media/screenshots/map-search.png, map-countries.png,
// chart-ports-light.png with --update-screenshots).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { detailsFrame } from './detailsFrame.mjs';
import { connectUi, painted } from './helpers.mjs';
import {
  activeContent,
  clickInline,
  contextMenuItems,
  CORP,
  HOSTILE,
  pageFrame,
  pwnedFrames,
  searchHosts,
  setRow,
  summarize,
} from './pages.mjs';

/** @type {import('./helpers.mjs').Ui} */
let ui;

/** The frame of the map page whose heading is `title`, once it has drawn. */
const mapFrame = (title) => pageFrame(ui, 'map', title, 'svg.world-map path.country');

async function openMapFrom(row, query) {
  await clickInline(row, 'Show Result Set on Map');
  return mapFrame(`Hosts of ${query} on a map`);
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
    const frame = await openMapFrom(await searchHosts(ui, query), query);
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
    const frame = await openMapFrom(await searchHosts(ui, query), query);
    const label =
      (await frame.locator('svg.world-map circle.point').first().getAttribute('aria-label')) ?? '';
    assert.ok(label.includes('<script>window.__pwned=1</script>'), 'the payload is the label, as text');
    assert.deepEqual(await activeContent(frame), { scripts: 0, imgs: 0, embeds: 0, handlers: 0 });
    // The page may show an image only of a blob its own script made (for Save as PNG).
    const csp = await frame.evaluate(
      () =>
        document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '',
    );
    assert.match(csp, /(^|; )img-src blob:(;|$)/);
    assert.match(csp, /connect-src 'none'/);
    assert.deepEqual(await pwnedFrames(ui), []);
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
    const row = await summarize(ui, 'services.port:443', 'location.country_code');
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
    const whois = await setRow(ui, `Whois history: ${CORP}`);
    await whois.hover();
    await whois.locator('.action-label[aria-label="Refresh Results"]').waitFor({ state: 'visible' });
    assert.equal(await whois.locator('.action-label[aria-label="Show Result Set on Map"]').count(), 0);
    assert.deepEqual(await contextMenuItems(ui, whois, 'Export Results\u2026', /on Map/), []);

    const ports = await summarize(ui, 'services.port:22', 'services.port');
    assert.deepEqual(await contextMenuItems(ui, ports, 'Open Summary as Chart', /on Map/), []);
  });

  it('the port chart in the light theme', async () => {
    await ui.reset();
    await ui.setTheme('Light Modern');
    const row = await summarize(ui, '*', 'services.port');
    await clickInline(row, 'Open Summary as Chart');
    const frame = await pageFrame(ui, 'chart', 'Hosts by services.port', 'svg.bar-chart g.bar-row');
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
