// The search commands' prompts and the ODIN side bar with results, as a person uses them:
// the query input completes field names, a rejected query comes back with its error, the
// results tree shows hosts with services and CVEs, the search is saved, and the date
// filter of the domain search validates what is typed. Screenshot: sidebar.png.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectUi } from './helpers.mjs';

const quickTitle = (ui) => ui.page.locator('.quick-input-widget .quick-input-title');
const quickMessage = (ui) => ui.page.locator('.quick-input-widget .quick-input-message');
const quickInput = (ui) => ui.page.locator('.quick-input-widget .quick-input-box input');

describe('search prompts and the results side bar', () => {
  /** @type {import('./helpers.mjs').Ui} */
  let ui;
  before(async () => (ui = await connectUi()));
  after(() => ui?.close());

  it('completes field names in the query input and runs the query into the Results view', async () => {
    await ui.openViewContainer('ODIN');
    await ui.runCommand('ODIN: Search Hosts\u2026');
    await quickInput(ui).waitFor({ state: 'visible', timeout: 10_000 });
    await quickInput(ui).fill('services.p');
    await ui.quickPickRow('services.port:').waitFor({ state: 'visible', timeout: 10_000 });
    // Accepting a completion fills the query and keeps the input open.
    await ui.pickQuickItem('services.port:');
    await ui.page.waitForFunction(
      () => document.querySelector('.quick-input-widget .quick-input-box input')?.value === 'services.port:',
      undefined,
      { timeout: 15_000, polling: 100 },
    );
    await quickInput(ui).fill('services.port:443');
    await ui.page.keyboard.press('Enter');
    const row = ui
      .view('Results')
      .locator('.monaco-list-row .label-name', { hasText: /^Host search: services\.port:443$/ });
    await row.first().waitFor({ state: 'visible', timeout: 20_000 });
    // The count is always visible in the view's title bar ("25 of 2,095"), even when the
    // "Load more" row is scrolled out of sight.
    const description = ui.view('Results').locator('.pane-header .description');
    // 'attached', not 'visible': in the full UI run the workbench sometimes lays the header
    // out with the description hidden although it holds the count (seen after the details
    // pages moved beside the editor); the count itself is what this checks.
    await description.filter({ hasText: /^\d+ of [\d,]+$/ }).waitFor({ state: 'attached', timeout: 20_000 });
    // The last row is "Load N more" with "N of TOTAL shown".
    await row.first().click(); // focuses the tree (and toggles the set: expand it again)
    const setRow = ui.view('Results').locator('.monaco-list-row[aria-level="1"]').first();
    const more = ui.view('Results').locator('.monaco-list-row', { hasText: /Load \d+ more/ });
    // The click's toggle can land after the check on a loaded machine, also after the row
    // showed (the set collapses again and the row goes): check, expand and go to the end
    // again until the row shows, and read its text while it does.
    let moreText = '';
    for (const deadline = Date.now() + 30_000; ;) {
      if ((await setRow.getAttribute('aria-expanded')) === 'false')
        await ui.page.keyboard.press('ArrowRight');
      await ui.page.keyboard.press('End');
      try {
        await more.first().waitFor({ state: 'visible', timeout: 2_000 });
        moreText = await more.first().innerText({ timeout: 2_000 });
        break;
      } catch (e) {
        if (Date.now() > deadline) throw e;
      }
    }
    assert.match(moreText, /\d+ of [\d,]+ shown/);
    await ui.page.keyboard.press('Home');
  });

  it('brings a rejected query back with the service\u2019s error next to it', async () => {
    await ui.runCommand('ODIN: Search Hosts\u2026');
    await ui.answerInput('services.port:(443');
    await quickTitle(ui)
      .filter({ hasText: /rejected/i })
      .waitFor({ state: 'visible', timeout: 20_000 });
    assert.equal(await quickInput(ui).inputValue(), 'services.port:(443');
    await ui.page.keyboard.press('Escape');
  });

  it('expands a host to its services, saves the search, and shows both views (screenshot)', async () => {
    // The twistie expands a host; a click on the row itself would open its details page.
    const hostRow = ui.view('Results').locator('.monaco-list-row[aria-level="2"]').first();
    await hostRow.waitFor({ state: 'visible', timeout: 10_000 });
    await hostRow.locator('.monaco-tl-twistie').click();
    await ui
      .view('Results')
      .locator('.monaco-list-row[aria-level="3"]')
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });

    await ui.runCommand('ODIN: Save Search\u2026');
    // With a workspace open, Save first asks where: personal or a workspace .odinq file.
    await ui.pickQuickItem(/My saved searches/);
    await ui.answerInput('HTTPS hosts');
    const saved = ui
      .view('Saved Searches')
      .locator('.monaco-list-row .label-name', { hasText: /^HTTPS hosts$/ });
    await saved.first().waitFor({ state: 'visible', timeout: 10_000 });
    await ui.page.mouse.move(1, 1);
    await ui.screenshotRegion('sidebar', ui.page.locator('.part.sidebar'));
  });

  it('validates the date filters of the domain search as they are typed', async () => {
    // Each answer waits for its own step's title: the input box stays on screen between two
    // prompts (VS Code 1.139 reuses it without hiding it), so "visible" alone does not say
    // that the next prompt is there yet.
    const step = (n) =>
      quickTitle(ui)
        .filter({ hasText: `(${n}/4)` })
        .waitFor({ state: 'visible', timeout: 10_000 });
    await ui.runCommand('ODIN: Search Domains and Subdomains\u2026');
    await step(1);
    await ui.answerInput('acme-logistics.com');
    await step(2);
    await ui.answerInput('');
    await step(3);
    await quickInput(ui).fill('2024-02-30');
    await quickMessage(ui)
      .filter({ hasText: /not a calendar date/ })
      .waitFor({ state: 'visible', timeout: 5_000 });
    await quickInput(ui).fill('2024-02-29');
    await quickMessage(ui)
      .filter({ hasText: /not a calendar date/ })
      .waitFor({ state: 'hidden', timeout: 5_000 });
    await ui.page.keyboard.press('Escape');
  });
});
