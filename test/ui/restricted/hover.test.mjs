// Restricted Mode: hovering an IP shows local facts only (the harness checks separately that
// nothing reached the API emulator or the attacker's server).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connectUi } from '../helpers.mjs';

describe('hover cards in Restricted Mode', () => {
  /** @type {import('../helpers.mjs').Ui} */
  let ui;
  before(async () => (ui = await connectUi()));
  after(() => ui?.close());

  it('say that nothing is sent on hover', async () => {
    await ui.openFile('honeypot.log', 1, 1);
    const text = await ui.hoverText('45.33.32.156', { until: /not looked up/ });
    assert.match(text, /Restricted Mode/);
    assert.ok(!/Open ports/.test(text));
    await ui.screenshotRegion('hover-restricted', ui.hoverWidget(), { padding: 8 });
  });

  it('show local facts for internal names', async () => {
    const text = await ui.hoverText('db.corp.internal', { until: /not looked up/ });
    assert.match(text, /internal/i);
  });
});
