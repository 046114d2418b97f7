// The "Get Started with ODIN" walkthrough as a person opens it: Help → Welcome's "Open
// Walkthrough…", its five steps, the first step's picture (an SVG in the theme's colours,
// shown in the walkthrough's own frame). Screenshot: walkthrough.png.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectUi, frameWhere, painted } from './helpers.mjs';

describe('walkthrough', () => {
  /** @type {import('./helpers.mjs').Ui} */
  let ui;
  before(async () => (ui = await connectUi()));
  after(() => ui?.close());

  it('opens from the command palette with its five steps and the first step picture', async () => {
    // The step's picture shows beside the steps when the editor is wide enough: without the
    // side bar (opened again after the screenshot, for the next test file).
    await ui.runCommand('View: Close Primary Side Bar');
    await ui.runCommand('Welcome: Open Walkthrough...');
    await ui.pickQuickItem('Get Started with ODIN', { timeout: 15_000 });
    const page = ui.page.locator('.gettingStartedContainer');
    await page.getByText('Get Started with ODIN').first().waitFor({ state: 'visible', timeout: 20_000 });
    const text = await page.innerText();
    for (const title of [
      'Set your API key, or try the demo data',
      'Hover an IP',
      'List the indicators of a file',
      'Triage a log',
      'Run a saved hunt',
    ])
      assert.ok(text.includes(title), `step "${title}" shown`);
    // The step's SVG is drawn in the walkthrough's media frame.
    await frameWhere(
      ui.page,
      (t) => [...document.querySelectorAll('svg text')].some((e) => e.textContent?.includes(t)),
      'or, without an account',
      { timeout: 20_000, what: "the first step's SVG" },
    );
    await ui.page.mouse.move(1, 1);
    await ui.page
      .locator('.gettingStartedContainer .getting-started-media')
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    await painted(ui.page);
    await ui.screenshot('walkthrough');
    await ui.runCommand('View: Toggle Primary Side Bar Visibility');
  });
});
