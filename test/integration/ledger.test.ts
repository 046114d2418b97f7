/**
 * One ledger per window: every surface (hover, the palette's search and its next page, a
 * details page, the triage, a language-model tool, the credits item) spends through it, its
 * count is the emulator's request log, and a session budget of N stops every surface at N,
 * with nothing more sent. The status bar's credits item shows spent / budget.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { FIXTURE_HOSTS } from '../../src/emulator/fixtures';
import type { RunSummary, TriageResult } from '../../src/extension/testApi';
import { clearEmulatorLog, emulatorLog, getTestApi, waitFor } from './index';
import { lookUpFreely, odinHover, setUser } from './support';

/** What reached the service: the emulator's log, feed downloads aside (no API request). */
async function served(): Promise<number> {
  return (await emulatorLog()).filter(
    (e) => !String((e as { path?: unknown }).path ?? '').startsWith('/feeds/'),
  ).length;
}

function workspaceFile(rel: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return vscode.Uri.joinPath(folder.uri, rel);
}

async function lmTool(name: string, input: Record<string, unknown>): Promise<string> {
  const cts = new vscode.CancellationTokenSource();
  try {
    const r = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cts.token);
    return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
  } finally {
    cts.dispose();
  }
}

describe('one ledger per window', function () {
  this.timeout(120_000);
  // Restricted Mode asks before a search: its own tests (gate, off) cover that; here the surfaces spend.
  before(function () {
    if (!vscode.workspace.isTrusted) this.skip();
  });
  lookUpFreely();
  after(async () => {
    await setUser('sessionBudget', undefined);
    // The host page this file opened would answer a later test's open of the same host
    // without a new render.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("every surface spends through the window's ledger: its count is the emulator's request log", async () => {
    const api = await getTestApi();
    const ledger = api.ledger;
    api.lookups().cache.clear();
    await clearEmulatorLog();
    const base = ledger.requests;
    // Hover.
    const doc = await vscode.workspace.openTextDocument({
      content: `seen ${FIXTURE_HOSTS.scanner} today`,
      language: 'log',
    });
    await odinHover(doc.uri, new vscode.Position(0, 8));
    // The palette's search and its next page.
    const r = (await vscode.commands.executeCommand('odin.searchHosts', {
      query: 'services.port:22',
      pageSize: 2,
    })) as RunSummary;
    assert.ok(r.setId, JSON.stringify(r));
    await vscode.commands.executeCommand('odin.loadMore', r.setId);
    // A details page (the host, its CVE list and its exploits).
    await vscode.commands.executeCommand('odin.openHostDetails', FIXTURE_HOSTS.webServer);
    const ip = FIXTURE_HOSTS.webServer;
    await waitFor(
      async () => {
        const answered = (await emulatorLog()) as { endpoint?: string; path?: string; status?: number }[];
        const asked = (endpoint: string): boolean =>
          answered.some((e) => e.endpoint === endpoint && e.status !== 0 && String(e.path).includes(ip));
        return (asked('hosts.exploits') && asked('cves.list')) || undefined;
      },
      30_000,
      'the host page asked for its CVE list and exploits',
    );
    // The triage of a log, a language-model tool, the credits item.
    const t = await vscode.commands.executeCommand<TriageResult>('odin.triage', {
      uris: [workspaceFile('logs/auth.log').toString()],
      send: true,
    });
    assert.ok(t);
    await lmTool('odin_count_hosts', { query: 'services.port:3389' });
    await vscode.commands.executeCommand('odin.refreshCredits');
    const spent = await waitFor(
      async () => {
        const n = await served();
        return n === ledger.requests - base ? n : undefined;
      },
      30_000,
      'the ledger and the request log agree',
    );
    assert.ok(spent !== undefined && spent >= 8, `every surface sent: ${String(spent)}`);
  });

  it('a session budget of N stops every surface at N: nothing past it is sent', async () => {
    const api = await getTestApi();
    const ledger = api.ledger;
    api.lookups().cache.clear();
    await setUser('sessionBudget', ledger.spent + 2);
    await waitFor(() => ledger.budget === ledger.spent + 2 || undefined, 5000, 'the budget set');
    await clearEmulatorLog();
    // Two credits: a hover and a palette search.
    const doc = await vscode.workspace.openTextDocument({
      content: `seen ${FIXTURE_HOSTS.resolver} today`,
      language: 'log',
    });
    await odinHover(doc.uri, new vscode.Position(0, 8));
    const r = (await vscode.commands.executeCommand('odin.searchHosts', {
      query: 'services.port:25',
      pageSize: 2,
    })) as RunSummary;
    assert.ok(r.setId, JSON.stringify(r));
    assert.strictEqual(ledger.left, 0);
    const sent = await served();
    assert.strictEqual(sent, 2);
    // Every other surface now sends nothing.
    const more = (await vscode.commands.executeCommand('odin.searchHosts', {
      query: 'services.port:21',
      pageSize: 2,
    })) as RunSummary;
    assert.notStrictEqual(more.status, 'ok', JSON.stringify(more));
    await vscode.commands.executeCommand('odin.loadMore', r.setId);
    const tool = await lmTool('odin_count_hosts', { query: 'services.port:110' });
    assert.match(tool, /^Not spent: /);
    await vscode.commands.executeCommand('odin.triage', {
      uris: [workspaceFile('logs/auth.log').toString()],
      send: true,
    });
    const doc2 = await vscode.workspace.openTextDocument({
      content: `seen ${FIXTURE_HOSTS.webServer} today`,
      language: 'log',
    });
    await odinHover(doc2.uri, new vscode.Position(0, 8));
    // The free credits check still reads the balance.
    await vscode.commands.executeCommand('odin.refreshCredits');
    const log = (await emulatorLog()).map((e) => String((e as { path?: unknown }).path));
    assert.deepStrictEqual(
      log.filter((p) => !p.startsWith('/feeds/') && !p.endsWith('/credits/usage')).length,
      2,
      JSON.stringify(log),
    );
    assert.strictEqual(ledger.left, 0);
    const item = api.ui.statusItems().get('odin.credits');
    assert.ok(item);
    await waitFor(
      () =>
        item.text.includes(
          `${ledger.spent.toLocaleString('en-US')}/${ledger.budget!.toLocaleString('en-US')}`,
        ) || undefined,
      5000,
      `spent/budget in ${item.text}`,
    );
  });
});
