// Hovering an IP in a log file, as a person does: the mouse over the text, the hover widget's
// text read back, a screenshot of it (media/screenshots/hover.png with --update-screenshots).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectUi } from './helpers.mjs';

describe('hover cards', () => {
  /** @type {import('./helpers.mjs').Ui} */
  let ui;
  before(async () => (ui = await connectUi()));
  after(() => ui?.close());

  it('shows the ODIN card for a public IP in an nginx log', async () => {
    await ui.openFile('logs/nginx-access.log', 1, 1);
    const text = await ui.hoverText('45.33.32.156', { until: /Open details/, timeout: 20_000 });
    assert.match(text, /ODIN · 45\.33\.32\.156/);
    assert.match(text, /Open ports \(\d+\)/);
    assert.match(text, /Vulnerable: yes/);
    // Exploited first: the verdict leads with the worst exploitation signal (the emulator's KEV feed).
    assert.match(
      text,
      /Vulnerable: yes · Known exploited \(KEV, added 2021-11-03; used by ransomware\) · CVSS/,
    );
    assert.match(text, /CVE-\d{4}-\d+/);
    assert.match(text, /Similar hosts/);
    // Markdown was rendered: no escapes or link syntax visible.
    assert.ok(!/\\[.\-()]/.test(text), `escapes visible: ${text}`);
    assert.ok(!/\]\(command:/.test(text), 'raw link syntax visible');
    await ui.screenshot('hover');
    await ui.screenshotRegion('hover-card', ui.hoverWidget(), { padding: 8 });
  });

  it('shows local facts for a private address', async () => {
    const text = await ui.hoverText('10.0.4.17', { until: /not looked up/ });
    assert.match(text, /10\.0\.4\.17 is Private-Use \(RFC 1918\): not looked up/);
    await ui.screenshotRegion('hover-private', ui.hoverWidget(), { padding: 8 });
  });

  it('renders hostile scan data as text', async () => {
    // The defanged panel address in the threat report's IOC table (line 22, second occurrence).
    await ui.openFile('reports/threat-report.md', 22, 1);
    const text = await ui.hoverText('193.42.33[.]7', {
      occurrence: 1,
      until: /Open details/,
      timeout: 20_000,
    });
    assert.match(text, /ODIN · 193\.42\.33\.7 \(refanged from 193\.42\.33\[\.\]7\)/);
    // The payloads show up literally (as text), and nothing ran.
    assert.match(text, /<script>|\[click\]|\$\(alert\)/);
    assert.equal(await ui.page.evaluate(() => /** @type {any} */ (window).__pwned), undefined);
    const links = await ui
      .hoverWidget()
      .locator('a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('data-href') ?? a.getAttribute('href') ?? ''));
    for (const href of links) assert.match(href, /^command:odin\.|^$/, `unexpected link ${href}`);
    await ui.screenshotRegion('hover-hostile', ui.hoverWidget(), { padding: 8 });
  });

  it('shows the lookup state in the status bar', async () => {
    const item = ui.page.locator('.part.statusbar .statusbar-item', { hasText: 'ODIN' }).first();
    await item.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await item.innerText(), /ODIN/);
  });
});
