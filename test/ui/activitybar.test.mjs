// The ODIN side bar as a person sees it in a trusted workspace with a key set.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectUi } from './helpers.mjs';

describe('activity bar and side bar', () => {
  /** @type {import('./helpers.mjs').Ui} */
  let ui;
  before(async () => (ui = await connectUi()));
  after(() => ui?.close());

  it('shows the ODIN view container in the activity bar', async () => {
    await ui.activityBarItem('ODIN').waitFor({ state: 'visible', timeout: 20_000 });
  });

  it('opens the ODIN side bar with the Results and Saved Searches views and their welcome content', async () => {
    await ui.openViewContainer('ODIN');
    const results = await ui.viewText('Results');
    assert.match(results, /Nothing searched yet/);
    assert.match(results, /Search Hosts/);
    const saved = await ui.viewText('Saved Searches');
    assert.match(saved, /No saved searches yet/);
    await ui.screenshot('sidebar-welcome');
    await ui.screenshotRegion('sidebar-welcome-views', ui.page.locator('.part.sidebar'));
  });

  it('runs "ODIN: Show Log" from the command palette and the log says it activated', async () => {
    await ui.runCommand('ODIN: Show Log');
    const output = ui.page.locator('.part.panel .monaco-editor .view-lines').first();
    await output.waitFor({ timeout: 10_000 });
    await ui.page.waitForFunction(
      () =>
        /Activated\s+in/.test(
          document.querySelector('.part.panel .monaco-editor .view-lines')?.textContent ?? '',
        ),
      undefined,
      { timeout: 10_000, polling: 100 },
    );
    const text = await output.innerText();
    assert.match(text, /Activated\s+in/);
    if (ui.info.apiKey) assert.ok(!text.includes(ui.info.apiKey), 'the log never shows the key');
    await ui.runCommand('View: Hide Panel');
  });
});
