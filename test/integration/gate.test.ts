/**
 * The gate's findings in the real host, each checked by what reaches the emulator: opening the page of
 * a host just hovered sends no second host request; a hover answers within a few seconds
 * while the API hangs, and the answer fills the cache for the next hover.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { FIXTURE_HOSTS } from '../../src/emulator/fixtures';
import { clearEmulatorLog, emulatorAdmin, emulatorLog, getTestApi, testEnv, waitFor } from './index';
import { odinHoverOnce } from './support';

type LogEntry = { endpoint?: string; ip?: string; path?: string };

describe('gate: every entry point does what it says', function () {
  this.timeout(180_000);

  before(async function () {
    if (!testEnv.emulatorUrl || !vscode.workspace.isTrusted) this.skip();
    const api = await getTestApi();
    await waitFor(() => api.key.has(), 10_000, 'the API key');
    api.lookups().resume();
  });
  afterEach(async () => {
    await emulatorAdmin('DELETE', 'faults');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('opening the details of a host just hovered sends no second host request', async () => {
    const api = await getTestApi();
    const ip = FIXTURE_HOSTS.resolver;
    api.lookups().cache.clear();
    await clearEmulatorLog();
    const doc = await vscode.workspace.openTextDocument({ content: `dns ${ip} ok`, language: 'log' });
    const card = await odinHoverOnce(doc.uri, new vscode.Position(0, 6));
    assert.ok(card && !/not answered yet/.test(card), `hover: ${card}`);
    const since = Date.now();
    await vscode.commands.executeCommand('odin.openHostDetails', ip);
    await waitFor(
      () => api.pages.rendered.find((e) => e.page === 'host' && e.id === ip && e.at >= since),
      90_000,
      'the host page to render',
    );
    const hostGets = ((await emulatorLog()) as LogEntry[]).filter((e) => e.endpoint === 'hosts.get');
    assert.strictEqual(hostGets.length, 1, `host requests: ${JSON.stringify(hostGets)}`);
  });

  it('a hover answers within a few seconds while the API hangs, and the answer fills the cache', async () => {
    const api = await getTestApi();
    // A value no other test hovers: the slow request must not be joined by another test's hover.
    const ip = '45.79.201.77';
    await emulatorAdmin('POST', 'faults', {
      fault: { kind: 'latency', ms: 8000 },
      count: 1,
      path: '^/v1/hosts/',
    });
    const doc = await vscode.workspace.openTextDocument({ content: `web ${ip} up`, language: 'log' });
    const t0 = Date.now();
    const first = await odinHoverOnce(doc.uri, new vscode.Position(0, 6));
    const ms = Date.now() - t0;
    // The request goes on: once it is answered, the next hover shows the host from the cache.
    const filled = await waitFor(
      () => api.lookups().peek('host', ip),
      30_000,
      'the answer in the cache',
    ).then(
      () => true,
      () => false,
    );
    // Markdown escapes the colon and the dot.
    assert.ok(first && /has not answered yet\\?: hover again in a moment/.test(first), `first: ${first}`);
    assert.ok(ms < 7000, `the hover took ${ms} ms`);
    assert.ok(filled, 'the request went on and filled the cache');
    const second = await odinHoverOnce(doc.uri, new vscode.Position(0, 6));
    assert.ok(second && /Open ports|no scan data/.test(second), `second: ${second}`);
  });
});
