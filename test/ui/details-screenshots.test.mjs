// Screenshots of the host and whois details pages in a dark and a light theme (written to
// media/screenshots when ODIN_UPDATE_SCREENSHOTS=1). The theme is switched the way a person
// does it (Preferences: Color Theme), which writes `workbench.colorTheme` to user settings.
import { after, before, describe, it } from 'node:test';
import { detailsFrame } from './detailsFrame.mjs';
import { connectUi } from './helpers.mjs';

const WEB_SERVER = '45.33.32.156';
const CORP = 'acme-logistics.com';

/** @type {import('./helpers.mjs').Ui} */
let ui;

async function setTheme(label) {
  await ui.runCommand('Preferences: Color Theme');
  await ui.pickQuickItem(new RegExp(`^\\s*${label}\\s*$`));
  await ui.page.waitForTimeout(800);
}

async function shoot(suffix) {
  await ui.reset();
  await ui.runCommand('ODIN: Look Up Host by IP\u2026');
  await ui.answerInput(WEB_SERVER);
  const host = await detailsFrame(ui, 'host', WEB_SERVER);
  await host.waitForSelector('.cve-table tbody tr.row', { timeout: 30_000 });
  // The top of the page with the first service opened.
  await host.locator('.services-table tbody tr.row button').first().click();
  await host.evaluate(() => window.scrollTo(0, 0));
  await ui.page.waitForTimeout(600);
  await ui.screenshotRegion(`host-${suffix}`, ui.page.locator('.part.editor').first());

  await ui.reset();
  await ui.runCommand('ODIN: Show Whois of a Domain\u2026');
  await ui.answerInput(CORP);
  const whois = await detailsFrame(ui, 'whois', CORP);
  await whois.waitForSelector('.timeline .timeline-item', { timeout: 30_000 });
  // Contacts folded so the history timeline shows in the viewport.
  await whois.locator('#contacts .section-toggle').click();
  await whois.evaluate(() => window.scrollTo(0, 0));
  await ui.page.waitForTimeout(600);
  await ui.screenshotRegion(`whois-${suffix}`, ui.page.locator('.part.editor').first());
  await ui.reset();
}

describe('details pages (screenshots)', () => {
  before(async () => {
    ui = await connectUi();
  });
  after(async () => {
    await setTheme('Dark Modern').catch(() => {});
    await ui?.close();
  });

  it('dark theme', async () => {
    await setTheme('Dark Modern');
    await shoot('dark');
  });

  it('light theme', async () => {
    await setTheme('Light Modern');
    await shoot('light');
  });
});
