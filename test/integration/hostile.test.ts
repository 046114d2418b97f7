/**
 * A security finding: the hostile workspace (its .vscode/settings.json points odin.* and
 * http.proxy at an attacker's server, plants a key, widens every limit), TRUSTED: the user
 * clicked Trust, so VS Code applies its settings. The key still goes to the user's endpoint
 * only; the harness (scripts/host/suite.mjs, run "trusted-hostile") then checks that the
 * attacker's server received no request at all. Only this file runs in that run.
 */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { RunSummary } from '../../src/extension/testApi';
import { clearEmulatorLog, emulatorLog, getTestApi, testEnv, waitFor } from './index';

type Entry = { method: string; path: string; body?: { limit?: number } };

/** What the attacker's server received (its own log reads left out). */
async function attackerRequests(): Promise<{ method: string; url: string }[]> {
  const res = await fetch(new URL('/__recorder/log', testEnv.attackerUrl));
  const all = (await res.json()) as { method: string; url: string }[];
  return all.filter((r) => !r.url.startsWith('/__recorder/'));
}

describe('hostile workspace, trusted', function () {
  this.timeout(120_000);
  before(function () {
    if (testEnv.run !== 'trusted-hostile') this.skip();
  });

  it('the workspace is trusted and its settings are applied', () => {
    assert.strictEqual(vscode.workspace.isTrusted, true);
    const odin = vscode.workspace.getConfiguration('odin');
    assert.strictEqual(
      odin.inspect<number>('search.pageSize')?.workspaceValue,
      100,
      'the hostile settings are loaded',
    );
    assert.strictEqual(
      odin.inspect<number>('search.pageSize')?.globalValue,
      10,
      'the user setting of this run',
    );
  });

  it("the triage's limits stay the user's: a workspace cannot raise them", async () => {
    const api = await getTestApi();
    const odin = vscode.workspace.getConfiguration('odin');
    assert.strictEqual(
      odin.inspect<number>('triage.maxFiles')?.workspaceValue,
      10_000,
      'the hostile value is loaded',
    );
    const settings = api.ui.triage().settings;
    assert.strictEqual(settings.maxFiles(), 500);
    assert.strictEqual(settings.maxFileBytes(), 100 * 1024 * 1024);
    assert.strictEqual(settings.batchSize(), 50);
  });

  it("uses the user's endpoint and key, not the workspace's", async () => {
    const api = await getTestApi();
    await waitFor(() => api.key.has(), 10_000, 'the API key');
    assert.strictEqual(new URL(api.connection.baseUrl()).origin, new URL(testEnv.emulatorUrl).origin);
    assert.ok(api.key.is(testEnv.apiKey), 'the key from the user, not the planted one');
  });

  it("a hover, a host lookup and a search reach the emulator only, with the user's page size", async () => {
    const api = await getTestApi();
    await waitFor(() => api.key.has(), 10_000, 'the API key');
    await clearEmulatorLog();
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const doc = await vscode.workspace.openTextDocument(path.join(folder, 'honeypot.log'));
    const at = doc.getText().indexOf('45.33.32.156');
    const pos = doc.positionAt(at + 2);
    let card: string | undefined;
    await waitFor(
      async () => {
        const r = await vscode.commands.executeCommand<{ markdown?: string }>(
          'odin.test.hover',
          doc.uri.toString(),
          pos.line,
          pos.character,
        );
        card = r?.markdown;
        return card && !/not answered yet/.test(card);
      },
      30_000,
      'a hover card with the answer',
    );
    assert.ok(card && /45\.33\.32\.156/.test(card), card);
    const search = (await vscode.commands.executeCommand('odin.searchHosts', { query: '*' })) as RunSummary;
    assert.strictEqual(search.status, 'ready', search.error);
    const log = (await emulatorLog()) as Entry[];
    assert.ok(
      log.some((e) => e.path === '/v1/hosts/45.33.32.156'),
      JSON.stringify(log.map((e) => e.path)),
    );
    const s = log.find((e) => e.path === '/v1/hosts/search');
    assert.strictEqual(s?.body?.limit, 10, "the user's page size (10), not the workspace's 100");
    assert.deepStrictEqual(await attackerRequests(), [], 'the attacker received nothing');
  });

  it("the workspace's hover.enabled: true does not override the user's false", async () => {
    const cfg = vscode.workspace.getConfiguration('odin');
    await cfg.update('hover.enabled', false, vscode.ConfigurationTarget.Global);
    try {
      const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
      const doc = await vscode.workspace.openTextDocument(path.join(folder, 'honeypot.log'));
      const pos = doc.positionAt(doc.getText().indexOf('185.220.101.34') + 2);
      const r = await vscode.commands.executeCommand<{ markdown?: string }>(
        'odin.test.hover',
        doc.uri.toString(),
        pos.line,
        pos.character,
      );
      assert.strictEqual(r?.markdown, undefined, `a card was shown: ${r?.markdown ?? ''}`);
    } finally {
      await cfg.update('hover.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.deepStrictEqual(await attackerRequests(), [], 'the attacker received nothing');
  });
});
