// "ODIN: List Indicators in File" as a person uses it: open the threat report, run the command
// from the palette, read the picker, pick the top entry and land on it in the editor. A
// screenshot of the picker (media/screenshots/indicators.png with --update-screenshots).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectUi, painted } from './helpers.mjs';

describe('indicator list', () => {
  /** @type {import('./helpers.mjs').Ui} */
  let ui;
  before(async () => (ui = await connectUi()));
  after(() => ui?.close());

  it('lists the threat report’s indicators refanged, marks the private ones, and goes to a pick', async () => {
    await ui.openFile('reports/threat-report.md', 1, 1);
    await ui.runCommand('ODIN: List Indicators in File');
    const list = ui.page.locator('.quick-input-widget .quick-input-list');
    await list.waitFor({ state: 'visible', timeout: 15_000 });
    await ui.page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row', {
        hasText: 'secure-login-paypa1.com',
      })
      .first()
      .waitFor({ timeout: 15_000 });
    const labels = await ui.quickPickLabels();
    assert.ok(
      labels.some((l) => /secure-login-paypa1\.com/.test(l)),
      labels.join(' | '),
    );
    assert.ok(
      labels.some((l) => /185\.220\.101\.34/.test(l)),
      labels.join(' | '),
    );
    assert.ok(!labels.some((l) => /\[\.\]|\(\.\)/.test(l)), `shown refanged: ${labels.join(' | ')}`);
    const title = await ui.page.locator('.quick-input-widget .quick-input-title').innerText();
    assert.match(title, /Indicators in reports\/threat-report\.md/);
    await ui.page.mouse.move(1, 1);
    await painted(ui.page);
    await ui.screenshotRegion('indicators', ui.page.locator('.quick-input-widget'), { padding: 8 });
    // The private address is listed and marked, whatever the list's height shows of it: filtered to it.
    const input = ui.page.locator('.quick-input-widget .quick-input-box input');
    await input.fill('10.0.22');
    const privateRow = ui.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', {
      hasText: '10.0.22.114',
    });
    await privateRow.first().waitFor({ timeout: 10_000 });
    assert.match(await privateRow.first().innerText(), /never sent/);
    // Filter to one value and accept it: the editor selects its first occurrence as written.
    await input.fill('159.89');
    await ui.page.keyboard.press('Enter');
    const status = ui.page.locator('.part.statusbar', { hasText: /Ln \d+, Col \d+ \(\d+ selected\)/ });
    await status.waitFor({ timeout: 10_000 });
    assert.match(await status.innerText(), /Ln 22, Col 31 \(15 selected\)/);
  });
});
