// A hostile repository opened in Restricted Mode, no key set yet.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectUi } from '../helpers.mjs';

describe('Restricted Mode, no API key', () => {
  /** @type {import('../helpers.mjs').Ui} */
  let ui;
  before(async () => (ui = await connectUi()));
  after(() => ui?.close());

  it('the workbench is in Restricted Mode', async () => {
    assert.equal(ui.info.trusted, false);
    await ui.page.locator('.part.statusbar', { hasText: 'Restricted Mode' }).waitFor({ timeout: 15_000 });
  });

  it('the Results view offers to set a key or try demo data', async () => {
    await ui.openViewContainer('ODIN');
    const text = await ui.viewText('Results');
    assert.match(text, /No API key is set/);
    assert.match(text, /Set API Key/);
    assert.match(text, /Try with Demo Data/);
    await ui.screenshot('welcome-no-key');
  });
});
