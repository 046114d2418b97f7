// A host details page survives a window reload: VS Code restores the webview panel through
// the extension's WebviewPanelSerializer (view type odin.hostDetails, page state {id} only),
// and the page renders its host again without the command being run a second time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { detailsFrame } from './detailsFrame.mjs';
import { connectUi, waitUntil } from './helpers.mjs';

// Same value as src/emulator/fixtures.ts (this file runs as plain Node, outside the build).
const WEB_SERVER = '45.33.32.156';

/** @type {import('./helpers.mjs').Ui} */
let ui;

/** Runs "Developer: Reload Window" and waits until a new document has loaded and the workbench is back. */
async function reloadWindow({ timeout = 90_000 } = {}) {
  const { page } = ui;
  // A marker on the old document: gone once the reload has replaced it.
  await page.evaluate(() => {
    /** @type {any} */ (window).__odinBeforeReload = true;
  });
  await ui.runCommand('Developer: Reload Window');
  const deadline = Date.now() + timeout;
  await waitUntil(
    async () =>
      !(await page.evaluate(() => /** @type {any} */ (window).__odinBeforeReload === true).catch(() => true)),
    { timeout, what: 'the window to reload' },
  );
  // As the harness does at start-up (scripts/host/host.mjs waitForWorkbench).
  const left = () => Math.max(1, deadline - Date.now());
  await page.waitForSelector('.monaco-workbench .part.activitybar', { timeout: left() });
  await page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: left() });
}

/** Host details frames on the page whose heading names `ip`. */
async function hostFrameCount(ip) {
  let n = 0;
  for (const frame of ui.page.frames()) {
    const ok = await frame
      .evaluate(
        (want) =>
          document.body?.dataset.page === 'host' &&
          (document.querySelector('h1')?.textContent ?? '').includes(want),
        ip,
      )
      .catch(() => false);
    if (ok) n++;
  }
  return n;
}

describe('details page restore', () => {
  before(async () => {
    ui = await connectUi();
  });
  after(async () => {
    // Leave a calm workbench (and the extension active again) for the next file.
    await ui?.reset().catch(() => {});
    await ui?.close();
  });

  it('restores the host page after the window reloads', async () => {
    await ui.runCommand('ODIN: Look Up Host by IP\u2026');
    await ui.answerInput(WEB_SERVER);
    const before = await detailsFrame(ui, 'host', WEB_SERVER);
    await before.waitForSelector('.services-table tbody tr.row', { timeout: 30_000 });
    const rowsBefore = await before.locator('.services-table tbody tr.row').count();
    assert.ok(rowsBefore > 0, 'the host page shows services before the reload');

    await reloadWindow();

    // No command this time: only VS Code's restore (and the serializer) can bring it back.
    const tab = ui.page.locator('.tabs-container .tab', { hasText: WEB_SERVER }).first();
    await tab.waitFor({ state: 'visible', timeout: 60_000 });
    const after = await detailsFrame(ui, 'host', WEB_SERVER);
    await after.waitForSelector('.services-table tbody tr.row', { timeout: 60_000 });
    assert.equal(
      await after.locator('.services-table tbody tr.row').count(),
      rowsBefore,
      'the restored page lists the same services',
    );
    assert.equal(await hostFrameCount(WEB_SERVER), 1, 'exactly one host page for the IP');
  });
});
