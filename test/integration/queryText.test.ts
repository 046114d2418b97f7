/**
 * Query text passes the one gate on every search path inside the real VS Code:
 * a palette search, a summary, a saved search and a `.odinq` hunt whose query names a
 * private address, an internal name or a denied name (Lucene escapes included) are refused
 * with a message naming the value and why, and nothing reaches the emulator.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { HuntRunSummary } from '../../src/extension/testApi';
import { clearEmulatorLog, lookupLog } from './index';
import { lookUpFreely, setUser } from './support';

interface Summary {
  status: string;
  error?: string;
}

describe('query text passes the gate in every search', function () {
  this.timeout(120_000);
  lookUpFreely();
  const file = path.join(
    vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '',
    'query-gate-it',
    'vpn.odinq',
  );

  before(function () {
    if (!vscode.workspace.isTrusted || !vscode.workspace.workspaceFolders?.length) this.skip();
  });

  after(async () => {
    await setUser('privacy.deny', undefined);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('palette search, summary, saved search and hunt refuse the value, naming it; nothing is sent', async () => {
    await setUser('privacy.deny', ['mycompany.com']);
    await clearEmulatorLog();

    const search = (await vscode.commands.executeCommand('odin.searchHosts', {
      query: 'ip:10\\.0\\.0\\.7 OR services.port:22',
    })) as Summary;
    assert.strictEqual(search.status, 'blocked', search.error);
    assert.match(search.error ?? '', /^10\.0\.0\.7 is Private-Use \(RFC 1918\): not sent to ODIN/);

    const summary = (await vscode.commands.executeCommand('odin.summarizeHosts', {
      field: 'services.port',
      query: 'hostnames:db\\.corp',
    })) as Summary;
    assert.strictEqual(summary.status, 'blocked', summary.error);
    assert.match(summary.error ?? '', /^db\.corp is Internal name/);

    const saved = (await vscode.commands.executeCommand('odin.saveSearch', {
      name: 'VPN (query gate test)',
      spec: { kind: 'hosts', query: 'services.port:443 AND vpn.mycompany\\.com' },
    })) as { id: string };
    try {
      const run = (await vscode.commands.executeCommand('odin.runSavedSearch', saved.id)) as Summary;
      assert.strictEqual(run.status, 'blocked', run.error);
      assert.match(run.error ?? '', /^vpn\.mycompany\.com is not sent to ODIN: denied by user setting/);
    } finally {
      await vscode.commands.executeCommand('odin.deleteSavedSearch', saved.id, { confirmed: true });
    }

    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '@hosts VPN\nservices.port:443 AND vpn.mycompany\\.com\n');
    const doc = await vscode.workspace.openTextDocument(file);
    const hunt = (await vscode.commands.executeCommand(
      'odin.runHunt',
      doc.uri.toString(),
      0,
    )) as HuntRunSummary;
    assert.strictEqual(hunt.status, 'blocked', hunt.error);
    assert.match(hunt.error ?? '', /vpn\.mycompany\.com is not sent to ODIN: denied by user setting/);

    // Opening the hunt file reads the hosts field catalogue (no query text; when that may
    // happen is the budget's rule, not this one): every other request is a leak.
    const sent = (await lookupLog()).filter(
      (e) => !String((e as { path?: unknown }).path ?? '').startsWith('/v1/fields/'),
    );
    assert.deepStrictEqual(sent, []);
  });

  it('a pattern over a denied name and a full-width address are refused in a search and an agent query; nothing is sent', async () => {
    await setUser('privacy.deny', ['mycompany.com']);
    await clearEmulatorLog();
    for (const [query, why] of [
      ['hostnames:*mycompany*', /^The pattern \*mycompany\* could match mycompany\.com: not sent to ODIN/],
      ['hostnames:/.*mycompany.*/', /^The pattern \/\.\*mycompany\.\*\/ could match mycompany\.com/],
      ['ip:１０．０．０．７', /^10\.0\.0\.7 is Private-Use \(RFC 1918\): not sent to ODIN/],
    ] as const) {
      const search = (await vscode.commands.executeCommand('odin.searchHosts', { query })) as Summary;
      assert.strictEqual(search.status, 'blocked', `${query}: ${search.error}`);
      assert.match(search.error ?? '', why, query);
      const cts = new vscode.CancellationTokenSource();
      await assert.rejects(
        Promise.resolve(
          vscode.lm.invokeTool(
            'odin_count_hosts',
            { input: { query }, toolInvocationToken: undefined },
            cts.token,
          ),
        ),
        (e: unknown) => {
          assert.match(
            e instanceof Error ? e.message : String(e),
            new RegExp(why.source.slice(1)),
            `agent: ${query}`,
          );
          return true;
        },
      );
      cts.dispose();
    }
    assert.deepStrictEqual(await lookupLog(), []);
  });
});
