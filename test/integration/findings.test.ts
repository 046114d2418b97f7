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
import * as http from 'http';
import { FIXTURE_HOSTS } from '../../src/emulator/fixtures';
import type { RunSummary } from '../../src/extension/testApi';
import { getTestApi, testEnv, waitFor } from './index';
import { feature } from './results';

describe('security findings', () => {
  it('an API-supplied CVE id copied from a page goes into the status bar inert ($(icon) does not render)', async function () {
    if (!testEnv.emulatorUrl || testEnv.run !== 'trusted') this.skip();
    const api = await getTestApi();
    await waitFor(() => api.key.has(), 10_000, 'the API key');
    // An upstream that answers as the emulator with `$(icon)` syntax after every CVE id.
    const upstream = await startCveIconUpstream(testEnv.emulatorUrl);
    const odin = vscode.workspace.getConfiguration('odin');
    const shown: string[] = [];
    const win = vscode.window as { setStatusBarMessage: (...a: unknown[]) => vscode.Disposable };
    const original = win.setStatusBarMessage;
    win.setStatusBarMessage = (...a: unknown[]) => {
      shown.push(String(a[0]));
      return original.apply(vscode.window, a);
    };
    const ip = FIXTURE_HOSTS.webServer;
    try {
      await odin.update('apiBaseUrl', upstream.url, vscode.ConfigurationTarget.Global);
      await waitFor(() => api.connection.baseUrl() === upstream.url, 10_000, 'the upstream in use');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const since = Date.now();
      await vscode.commands.executeCommand('odin.openHostDetails', ip);
      await api.pages.waitForRendered('host', ip, since);
      await waitFor(
        () => api.pages.rendered.some((e) => e.page === 'host' && e.id === ip && e.counts.cves > 0),
        30_000,
        'the CVE list on the page',
      );
      const cveId = upstream.ids[0];
      assert.ok(cveId, 'the upstream sent a CVE id');
      // The page's copy button: its message, through the page's own validation.
      api.pages.receivers.get(`host:${ip}`)!({ type: 'copyCve', cveId });
      await waitFor(() => shown.length > 0, 10_000, 'the status-bar message');
    } finally {
      win.setStatusBarMessage = original;
      await odin.update('apiBaseUrl', testEnv.emulatorUrl, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await upstream.close();
    }
    assert.strictEqual(shown.length, 1, `status bar messages: ${JSON.stringify(shown)}`);
    assert.doesNotMatch(shown[0], /\$\([a-z~-]+\)/, `rendered as an icon: ${shown[0]}`);
    assert.match(shown[0], /CVE-\d{4}-\d+/);
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
      // The page size a search from the palette uses, read from its result set.
      const pageSize = async (): Promise<number | undefined> => {
        const r = await vscode.commands.executeCommand<RunSummary>('odin.searchHosts', { query: '*' });
        assert.strictEqual(r?.status, 'ready', JSON.stringify(r));
        return (await feature()).results.get(r.setId)?.pageSize;
      };
      await odin().update('search.pageSize', 10, G);
      await odin().update('search.pageSize', 100, W);
      await waitFor(
        () => odin().inspect('search.pageSize')?.workspaceValue === 100,
        5000,
        'settings written',
      );
      assert.strictEqual(await pageSize(), 10);
      await odin().update('search.pageSize', 5, W);
      await waitFor(() => odin().inspect('search.pageSize')?.workspaceValue === 5, 5000, 'settings written');
      assert.strictEqual(await pageSize(), 5);
    });
  });
});

/**
 * A loopback upstream in front of the emulator that puts `$(alert)$(loading~spin)` after every
 * CVE id of its JSON answers (the ids it made, in `ids`).
 */
async function startCveIconUpstream(
  emulatorUrl: string,
): Promise<{ url: string; ids: string[]; close(): Promise<void> }> {
  const target = new URL(emulatorUrl);
  const ids: string[] = [];
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, host: target.host };
    delete headers['accept-encoding'];
    const fwd = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (up) => {
        const parts: Buffer[] = [];
        up.on('data', (c: Buffer) => parts.push(c));
        up.on('end', () => {
          const text = Buffer.concat(parts)
            .toString('utf8')
            .replace(/CVE-\d{4}-\d+/g, (cve) => {
              const made = `${cve}$(alert)$(loading~spin)`;
              ids.push(made);
              return made;
            });
          const out = { ...up.headers, 'content-length': String(Buffer.byteLength(text)) };
          delete out['transfer-encoding'];
          res.writeHead(up.statusCode ?? 502, out);
          res.end(text);
        });
      },
    );
    fwd.on('error', () => res.writeHead(502).end());
    req.pipe(fwd);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    ids,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
