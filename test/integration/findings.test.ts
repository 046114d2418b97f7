/**
 * Security findings of the review that are fixed, each held by a test that fails
 * without its fix (checked by reverting the fix; see SECURITY.md).
 *   - An API-supplied CVE id copied from a details page goes into a status-bar message:
 *     `$(icon)` syntax in it must not render (the text is neutralised first).
 *   - A workspace cannot turn `odin.hover.enabled` back on over the user's `false`, nor
 *     raise `odin.search.pageSize` over the user's value.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { copyText } from '../../src/extension/details/actions';
import { config } from '../../src/extension/shared/config';
import { getTestApi, testEnv, waitFor } from './index';

describe('security findings', () => {
  it('an API-supplied CVE id copied from a page goes into the status bar inert ($(icon) does not render)', async () => {
    const shown: string[] = [];
    const win = vscode.window as { setStatusBarMessage: (...a: unknown[]) => vscode.Disposable };
    const original = win.setStatusBarMessage;
    win.setStatusBarMessage = (...a: unknown[]) => {
      shown.push(String(a[0]));
      return original.apply(vscode.window, a);
    };
    try {
      await copyText('CVE-2024-0001$(alert)$(loading~spin)', 'CVE-2024-0001$(alert)$(loading~spin)');
    } finally {
      win.setStatusBarMessage = original;
    }
    assert.strictEqual(shown.length, 1, `status bar messages: ${JSON.stringify(shown)}`);
    assert.doesNotMatch(shown[0], /\$\([a-z~-]+\)/, `rendered as an icon: ${shown[0]}`);
    assert.match(shown[0], /CVE-2024-0001/);
  });

  describe('a workspace cannot loosen the user settings', function () {
    const odin = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('odin');
    const G = vscode.ConfigurationTarget.Global;
    const W = vscode.ConfigurationTarget.Workspace;
    before(function () {
      // Writes the workspace's settings: only in the sample workspace's trusted run.
      if (testEnv.run !== 'trusted' || !vscode.workspace.workspaceFolders?.length) this.skip();
    });
    afterEach(async () => {
      for (const key of ['hover.enabled', 'search.pageSize']) {
        await odin().update(key, undefined, W);
        await odin().update(key, undefined, G);
      }
    });

    it("odin.hover.enabled: the workspace's true does not override the user's false (no card)", async () => {
      const api = await getTestApi();
      await waitFor(() => api.key.has(), 10_000, 'the API key');
      await odin().update('hover.enabled', false, G);
      await odin().update('hover.enabled', true, W);
      await waitFor(() => odin().inspect('hover.enabled')?.workspaceValue === true, 5000, 'settings written');
      assert.strictEqual(config.hoverEnabled(), false);
      const doc = await vscode.workspace.openTextDocument({
        content: 'peer 8.8.8.8 connected\n',
        language: 'log',
      });
      const r = await vscode.commands.executeCommand<{ markdown?: string }>(
        'odin.test.hover',
        doc.uri.toString(),
        0,
        7,
      );
      assert.strictEqual(r?.markdown, undefined, `a hover card was shown: ${r?.markdown ?? ''}`);
    });

    it("odin.search.pageSize: the workspace may lower the user's value, never raise it", async () => {
      await odin().update('search.pageSize', 10, G);
      await odin().update('search.pageSize', 100, W);
      await waitFor(
        () => odin().inspect('search.pageSize')?.workspaceValue === 100,
        5000,
        'settings written',
      );
      assert.strictEqual(config.searchPageSize(), 10);
      await odin().update('search.pageSize', 5, W);
      await waitFor(() => odin().inspect('search.pageSize')?.workspaceValue === 5, 5000, 'settings written');
      assert.strictEqual(config.searchPageSize(), 5);
    });
  });
});
