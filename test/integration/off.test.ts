/**
 * "off" is off (issue #15, item 3), in the real host: with `odin.lookups.mode: "off"` every
 * indicator of every sample file is hovered and the emulator's log must stay empty; in
 * Restricted Mode the same for the automatic paths (hovers, restored pages).
 * Not here yet: every contributed command with arguments (see docs/gate.md).
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { detect } from '../../src/core/detect';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../src/emulator/fixtures';
import { clearEmulatorLog, emulatorLog, getTestApi, testEnv } from './index';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function hoverEverySampleFile(): Promise<number> {
  const files = await vscode.workspace.findFiles('**/*', '**/node_modules/**');
  let hovered = 0;
  for (const uri of files) {
    const doc = await vscode.workspace.openTextDocument(uri);
    for (const d of detect(doc.getText(), { mode: 'text' }).slice(0, 40)) {
      await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, doc.positionAt(d.start + 1));
      hovered++;
    }
  }
  return hovered;
}

/** Restores a host and a whois page the way VS Code does after a reload (nothing is clicked). */
async function restorePages(): Promise<void> {
  const api = await getTestApi();
  await vscode.commands.executeCommand('odin.showLog'); // any command loads the extension
  for (const [viewType, id] of [
    ['odin.hostDetails', FIXTURE_HOSTS.webServer],
    ['odin.whoisDetails', FIXTURE_DOMAINS.corp],
  ] as const) {
    const panel = vscode.window.createWebviewPanel(viewType, id, vscode.ViewColumn.Active, {
      enableScripts: true,
    });
    assert.ok(api.details.restore, 'the details serializer is registered');
    api.details.restore(viewType, panel, { id });
  }
  await sleep(3000);
}

async function assertNothingSent(what: string): Promise<void> {
  await sleep(500);
  const log = await emulatorLog();
  assert.strictEqual(
    log.length,
    0,
    `${what} sent ${log.length} request(s): ${JSON.stringify(log).slice(0, 1500)}`,
  );
}

const userConfig = () => vscode.workspace.getConfiguration('odin');

describe('"off" is off', function () {
  this.timeout(600_000);

  before(async function () {
    if (!testEnv.emulatorUrl) this.skip();
    const api = await getTestApi();
    api.ctx.requests.cache.clear();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  describe('lookups off', function () {
    before(async function () {
      if (!vscode.workspace.isTrusted) this.skip();
      await userConfig().update('lookups.mode', 'off', vscode.ConfigurationTarget.Global);
    });
    after(async () => {
      await userConfig().update('lookups.mode', undefined, vscode.ConfigurationTarget.Global);
    });

    it('hovering every sample file sends nothing', async () => {
      await clearEmulatorLog();
      const n = await hoverEverySampleFile();
      assert.ok(n > 50, `hovered ${n}`);
      await assertNothingSent('hovering');
    });
  });

  describe('Restricted Mode, automatic paths', function () {
    before(function () {
      if (vscode.workspace.isTrusted) this.skip();
    });

    it('hovering every sample file and restoring pages sends nothing', async () => {
      await clearEmulatorLog();
      const n = await hoverEverySampleFile();
      // The Restricted Mode run opens the (smaller) hostile workspace.
      assert.ok(n >= 10, `hovered ${n}`);
      await restorePages();
      await assertNothingSent('hovering and restoring in Restricted Mode');
    });
  });
});
