/**
 * A short smoke over the emulator's `live` dialect (the real service's shapes; the unit tier
 * holds the client, the emulator and the view models to both dialects): inside the trusted
 * run, the emulator is switched to `live` and a person's first minute is replayed (a hover, a
 * host page, a whois page, a search with a second page), then switched back.
 */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../src/emulator/fixtures';
import type { RunSummary } from '../../src/extension/testApi';
import { emulatorAdmin, getTestApi, testEnv } from './index';
import { lookUpFreely, odinHover } from './support';

describe('live dialect smoke', function () {
  this.timeout(180_000);
  lookUpFreely();

  /** The dialect the run started in (ODIN_EMULATOR_DIALECT=live puts every run on live). */
  let startDialect: string | undefined;
  before(async function () {
    if (!testEnv.emulatorUrl || testEnv.run !== 'trusted' || !vscode.workspace.isTrusted) this.skip();
    const res = await fetch(new URL('/__admin/dialect', testEnv.emulatorUrl));
    startDialect = ((await res.json()) as { dialect?: string }).dialect;
    await emulatorAdmin('POST', 'dialect', { dialect: 'live' });
    (await getTestApi()).lookups().cache.clear();
    // A page another file left open would be revealed, not rendered again.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(async () => {
    if (startDialect) await emulatorAdmin('POST', 'dialect', { dialect: startDialect });
    (await getTestApi()).lookups().cache.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a hover card over a live answer', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a workspace folder');
    const uri = vscode.Uri.file(path.join(folder.uri.fsPath, 'logs', 'nginx-access.log'));
    const doc = await vscode.workspace.openTextDocument(uri);
    const at = doc.getText().indexOf(FIXTURE_HOSTS.webServer);
    assert.ok(at >= 0);
    const card = await odinHover(uri, doc.positionAt(at + 1));
    assert.ok(card, 'an ODIN hover');
    assert.match(card, /Open ports \(\d+\)/);
    assert.doesNotMatch(card, /undefined|\[object Object\]|NaN/);
  });

  it('a host page and a whois page render live answers', async () => {
    const api = await getTestApi();
    for (const [command, page, id] of [
      ['odin.openHostDetails', 'host', FIXTURE_HOSTS.webServer],
      ['odin.openWhoisDetails', 'whois', FIXTURE_DOMAINS.corp],
    ] as const) {
      const since = Date.now();
      await vscode.commands.executeCommand(command, id);
      const e = await api.pages.waitForRendered(page, id, since, 90_000);
      assert.ok(
        page === 'host' ? e.counts.services > 0 : e.counts.contacts + e.counts.snapshots > 0,
        JSON.stringify(e),
      );
    }
  });

  it('a search and its second page over live cursors', async () => {
    const r = (await vscode.commands.executeCommand('odin.searchHosts', {
      query: 'services.port:22',
      pageSize: 5,
    })) as RunSummary;
    assert.strictEqual(r.status, 'ready', r.error);
    assert.strictEqual(r.count, 5);
    const more = (await vscode.commands.executeCommand('odin.loadMore', r.setId)) as RunSummary;
    assert.strictEqual(more.status, 'ready', more.error);
    assert.strictEqual(more.count, 10, 'the second page, through the live cursor');
  });
});
