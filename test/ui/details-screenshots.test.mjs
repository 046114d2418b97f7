// Screenshots of the whois details page in a dark and a light theme (written to
// media/screenshots when ODIN_UPDATE_SCREENSHOTS=1). The theme is switched as a person can
// (Preferences: Toggle between Light/Dark Themes), which writes `workbench.colorTheme` to user
// settings.
// The host page's screenshots come from details-realshape.test.mjs (the real service's shapes).
import { after, before, describe, it } from 'node:test';
import { openDetails } from './detailsFrame.mjs';
import { connectUi, painted } from './helpers.mjs';

const CORP = 'acme-logistics.com';

/** @type {import('./helpers.mjs').Ui} */
let ui;

async function shoot(suffix) {
  await ui.reset();
  const whois = await openDetails(ui, 'whois', CORP);
  await whois.waitForSelector('.timeline .timeline-item', { timeout: 30_000 });
  // Contacts folded so the history timeline shows in the viewport.
  await whois.locator('#contacts .section-toggle').click();
  await whois.evaluate(() => window.scrollTo(0, 0));
  await painted(whois);
  await ui.screenshotRegion(`whois-${suffix}`, ui.page.locator('.part.editor').first());
  await ui.reset();
}

describe('whois page (screenshots)', () => {
  before(async () => {
    ui = await connectUi();
  });
  after(async () => {
    await ui?.setTheme('Dark Modern').catch(() => {});
    await ui?.close();
  });

  it('dark theme', async () => {
    await ui.setTheme('Dark Modern');
    await shoot('dark');
  });

  it('light theme', async () => {
    await ui.setTheme('Light Modern');
    await shoot('light');
  });
});
