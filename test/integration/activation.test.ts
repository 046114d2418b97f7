import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { english } from '../../src/core/text/l10n';
import { waitFor } from '../support/wait';
import { extension, getTestApi, testEnv } from './index';

interface Manifest {
  main?: string;
  activationEvents?: string[];
  contributes?: { commands?: { command: string }[] };
}

/** package.json as shipped with the extension in this host, read at run time. */
function manifest(): Manifest {
  return JSON.parse(
    fs.readFileSync(path.join(extension().extensionPath, 'package.json'), 'utf8'),
  ) as Manifest;
}

/** The installed .vsix runs in Production mode: it returns no TestApi (tests that need it skip). */
const installed = testEnv.run === 'vsix';

describe('activation', () => {
  it('an installed extension hands nothing to other extensions, even with ODIN_EXTENSION_TEST=1', async function () {
    if (!installed) this.skip();
    assert.strictEqual(process.env.ODIN_EXTENSION_TEST, '1', 'the harness set the variable');
    const exported: unknown = await extension().activate();
    assert.strictEqual(exported, undefined, 'activate() returned an object to any caller');
    assert.strictEqual(extension().exports, undefined);
  });

  it('the test API (extension test mode only) never holds the API key or SecretStorage', async function () {
    if (installed || !testEnv.apiKey) this.skip();
    const api = await getTestApi();
    assert.ok(api.key.is(testEnv.apiKey), 'the run has its key');
    assert.strictEqual((api.key as unknown as Record<string, unknown>).get, undefined, 'api.key.get');
    // Nothing reachable in two steps from the API is the key, SecretStorage or a store that reads it.
    const seen = new Set<unknown>();
    const walk = (v: unknown, depth: number, at: string): void => {
      if (v === testEnv.apiKey) assert.fail(`the key is at ${at}`);
      if (!v || typeof v !== 'object' || seen.has(v) || depth > 2) return;
      seen.add(v);
      const o = v as Record<string, unknown>;
      assert.ok(!('secrets' in o), `SecretStorage at ${at}`);
      for (const k of Object.keys(v)) walk(o[k], depth + 1, `${at}.${k}`);
    };
    walk(api, 0, 'api');
  });

  it('activates and returns the test API', async function () {
    if (installed) this.skip();
    const api = await getTestApi();
    assert.ok(extension().isActive, 'extension is active');
    assert.strictEqual(typeof api.pages.waitForRendered, 'function', 'the test API');
  });

  it('registers every command contributed in package.json', async () => {
    await extension().activate();
    const contributed = (manifest().contributes?.commands ?? []).map((c) => c.command);
    assert.ok(contributed.length > 0, 'package.json contributes commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c));
    assert.deepStrictEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('does not activate on every start-up event ("*")', () => {
    assert.ok(!(manifest().activationEvents ?? []).includes('*'));
  });

  it('runs in the workspace trust mode the harness asked for', () => {
    const expectTrusted = testEnv.run !== 'restricted';
    assert.strictEqual(vscode.workspace.isTrusted, expectTrusted);
  });

  it('uses the API base URL from user settings, never the workspace', async function () {
    if (!testEnv.emulatorUrl || installed) this.skip();
    const api = await getTestApi();
    assert.strictEqual(new URL(api.connection.baseUrl()).origin, new URL(testEnv.emulatorUrl).origin);
    if (testEnv.attackerUrl)
      assert.notStrictEqual(new URL(api.connection.baseUrl()).origin, new URL(testEnv.attackerUrl).origin);
  });

  it('has the API key from the source the harness used', async function () {
    if (!testEnv.apiKey || installed) this.skip();
    const api = await getTestApi();
    assert.strictEqual(api.key.source(), testEnv.keyVia === 'testApi' ? 'stored' : 'env');
  });

  it('loads the search and details features from their own bundles on first use', async () => {
    const dist = path.join(fs.realpathSync(extension().extensionPath), 'dist');
    // A whois snapshot document loads the details feature (without any UI).
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse('odin-whois:/example.com/0.txt'));
    assert.match(doc.getText(), /no longer loaded/);
    assert.ok(require.cache[path.join(dist, 'details.js')], 'dist/details.js loaded');
    if (installed) return; // no TestApi to load the search feature through
    assert.ok((await getTestApi()).tree('results'), 'the search feature loads');
    assert.ok(require.cache[path.join(dist, 'search.js')], 'dist/search.js loaded');
  });

  it('lists every indicator of a large file', async () => {
    const line = 'Nov 21 03:12:45 bastion sshd[2345]: Failed password for root from 185.220.101.34 port 22\n';
    const doc = await vscode.workspace.openTextDocument({ content: line.repeat(2000), language: 'log' });
    await vscode.window.showTextDocument(doc);
    const list = await vscode.commands.executeCommand<{ items: { value: string; count: number }[] }>(
      'odin.listIndicators',
    );
    try {
      const ip = list?.items.find((i) => i.value === '185.220.101.34');
      assert.strictEqual(ip?.count, 2000, JSON.stringify(list?.items.slice(0, 3)));
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it("loads the exploitation feeds' code once an editor shows an IP address, before any hover", async () => {
    const feeds = path.join(fs.realpathSync(extension().extensionPath), 'dist', 'feeds.js');
    // A file of its own (an untitled document's name is reused by the next one).
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'odin-feeds-')), 'blocked.log');
    fs.writeFileSync(file, 'blocked 185.220.101.34\n');
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(doc);
    try {
      await waitFor(() => require.cache[feeds], 5000, 'dist/feeds.js in the module cache');
    } finally {
      // Closed before the next test reads the active editor.
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await waitFor(
        () => !vscode.window.visibleTextEditors.some((e) => e.document === doc),
        5000,
        'the document closed',
      );
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it('is the installed .vsix when the harness says so', function () {
    if (testEnv.run !== 'vsix') this.skip();
    const extensionsDir = process.env.ODIN_TEST_EXTENSIONS_DIR ?? '';
    assert.ok(
      extensionsDir && extension().extensionPath.startsWith(extensionsDir),
      extension().extensionPath,
    );
    assert.ok(fs.existsSync(path.join(extension().extensionPath, manifest().main ?? 'dist/extension.js')));
  });
});

/** Localisation as the real host applies it (the unit test holds the files complete). */
describe('localisation', () => {
  it('the manifest reaches the workbench with its package.nls.json words, not %keys%', () => {
    const pkg = extension().packageJSON as {
      displayName: string;
      contributes: { commands: Array<{ title: string }>; views: Record<string, Array<{ name: string }>> };
    };
    const words = [
      pkg.displayName,
      ...pkg.contributes.commands.map((c) => c.title),
      ...Object.values(pkg.contributes.views).flatMap((v) => v.map((x) => x.name)),
    ];
    assert.deepStrictEqual(
      words.filter((w) => /^%.+%$/.test(w)),
      [],
    );
  });

  const bundleFile = (): string =>
    path.join(extension().extensionPath, 'l10n', `bundle.l10n.${vscode.env.language.toLowerCase()}.json`);

  it('in English no bundle is loaded and vscode.l10n.t returns the message with its arguments', function () {
    if (fs.existsSync(bundleFile())) this.skip();
    assert.strictEqual(vscode.l10n.bundle, undefined);
    assert.strictEqual(vscode.l10n.t('Show Log'), 'Show Log');
    assert.strictEqual(vscode.l10n.t('ODIN: {0}', 'x'), 'ODIN: x');
    // So the core's words are formatted by the core's own `english` (extension.ts): the same text.
    for (const [m, ...args] of [
      ['**Open ports ({0}):** {1}', 1234, '22/tcp'],
      ['{0} CVEs', '5,000+'],
      ['+{0} more', 3],
      ['{1} of {0}, {2}', 'a', true],
      ['no arguments {0}'],
    ] as const)
      assert.strictEqual(english(m, ...args), vscode.l10n.t(m, ...args));
  });

  it('under a display language the extension has a bundle for, vscode.l10n uses it', function () {
    // These hosts (code-server without a language pack) run in English: skipped there.
    if (!fs.existsSync(bundleFile())) this.skip();
    const bundle = JSON.parse(fs.readFileSync(bundleFile(), 'utf8')) as Record<string, string>;
    assert.ok(vscode.l10n.bundle, `no bundle loaded for ${vscode.env.language}`);
    assert.strictEqual(vscode.l10n.t('Show Log'), bundle['Show Log']);
  });
});
