/**
 * "off" is off, in the real host: with `odin.lookups.mode: "off"` every
 * contributed command is run with an IP, a domain and an argument object, every indicator of
 * every sample file is hovered, and a host and a whois page are restored: the emulator's log
 * must stay empty. In Restricted Mode the same holds for the automatic paths (hovers,
 * restored pages), whatever the mode.
 *
 * The command list is read from package.json, so a new command is covered without a change
 * here. Commands that change the key or the demo state, or read and write files, are left
 * out (they are not lookups, and running them would change what the other tests see).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { detect } from '../../src/core/detect';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../src/emulator/fixtures';
import { clearEmulatorLog, emulatorLog, extension, getTestApi, testEnv, waitFor, within } from './index';
import { feedNote, type ExploitationStore } from '../../src/core/exploitation';
import { promptMark, promptSince } from './prompts';

const NOT_LOOKUPS = new Set([
  'odin.setApiKey',
  'odin.clearApiKey',
  'odin.useDemoData',
  'odin.stopDemoData',
  'odin.exportSavedSearches',
  'odin.importSavedSearches',
  'odin.deleteSavedSearch',
]);

/**
 * Runs a command to its end: each prompt it opens is closed as a person would (Escape), a modal
 * is dismissed by the test host. Then every details page it opened has made its decision (the
 * `data` mark: what it shows was posted), so a page that would load has sent by now.
 */
async function runBriefly(id: string, ...args: unknown[]): Promise<void> {
  const api = await getTestApi();
  const since = Date.now();
  const opened = new Set(detailsOpen(api));
  let ended = false;
  // The mark is taken before the command runs: it may prompt before its first await.
  let mark = promptMark();
  const done = Promise.resolve(vscode.commands.executeCommand(id, ...args)).then(
    () => (ended = true),
    () => (ended = true),
  );
  for (let i = 0; i < 5 && !ended; i++) {
    if (!(await within(promptSince(mark, done), 60_000, `${id} to end or prompt`))) break;
    mark = promptMark();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
  }
  await within(done, 30_000, `${id} to end once its prompts were closed`);
  await vscode.commands.executeCommand('notifications.clearAll');
  await pagesDecided(api, since, opened);
}

/** The open details pages (`host:…`, `whois:…`): the test API records every page. */
function detailsOpen(api: Awaited<ReturnType<typeof getTestApi>>): string[] {
  return [...api.pages.open].filter((k) => k.startsWith('host:') || k.startsWith('whois:'));
}

/**
 * Waits until every details page opened since `since` (not among `opened` before) has posted
 * what it shows (the `data` mark).
 */
async function pagesDecided(
  api: Awaited<ReturnType<typeof getTestApi>>,
  since: number,
  opened: ReadonlySet<string> = new Set(),
): Promise<void> {
  await waitFor(
    () =>
      detailsOpen(api).every(
        (key) =>
          opened.has(key) ||
          api.pages.marks.some((m) => `${m.page}:${m.id}` === key && m.phase === 'data' && m.at >= since),
      ),
    // Generous: the workbench sometimes takes ~30 s to load a webview (a host stall, not ours).
    90_000,
    'every open details page to show its data or why not',
  ).catch((e: unknown) => {
    const waiting = detailsOpen(api).filter((k) => !opened.has(k));
    const marks = api.pages.marks
      .filter((m) => m.at >= since)
      .map((m) => `${m.page}:${m.id} ${m.phase}`)
      .join(', ');
    throw new Error(`${String(e)}; pages: ${waiting.join(', ')}; marks since: ${marks || 'none'}`);
  });
}

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
  // One after the other, each in the active column: a webview in a background tab does not
  // load until it is shown, and on VS Code 1.100 the first of two webviews created at once
  // side by side was seen never to load (its webview frame registers a service worker per
  // webview: docs/benchmarks.md).
  for (const [viewType, id] of [
    ['odin.hostDetails', FIXTURE_HOSTS.webServer],
    ['odin.whoisDetails', FIXTURE_DOMAINS.corp],
  ] as const) {
    const since = Date.now();
    const key = `${viewType === 'odin.hostDetails' ? 'host' : 'whois'}:${id}`;
    const before = new Set(detailsOpen(api).filter((k) => k !== key));
    const panel = vscode.window.createWebviewPanel(viewType, id, vscode.ViewColumn.Active, {
      enableScripts: true,
    });
    assert.ok(await api.pages.restore(viewType, panel, { id }), 'the details serializer is registered');
    // The restored page decides what it shows once it is ready (cached data and a Load
    // button); pages open before (other tests') are not waited for.
    await pagesDecided(api, since, before);
  }
}

/** The feeds with no copy on disk and nothing in memory, asked for (what a first hover does). */
async function feedsFromScratch(): Promise<ExploitationStore> {
  const api = await getTestApi();
  fs.rmSync(path.join(api.connection.storage, 'feeds'), { recursive: true, force: true });
  await clearEmulatorLog();
  api.connection.feeds.invalidate();
  return api.connection.feeds.ensure();
}

async function assertNothingSent(what: string): Promise<void> {
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
    api.lookups().cache.clear();
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

    it('every contributed command, with an IP, a domain and an argument object, sends nothing', async () => {
      const manifest = JSON.parse(
        fs.readFileSync(path.join(extension().extensionPath, 'package.json'), 'utf8'),
      ) as { contributes: { commands: Array<{ command: string }> } };
      const ids = manifest.contributes.commands.map((c) => c.command).filter((id) => !NOT_LOOKUPS.has(id));
      assert.ok(ids.length >= 30, `commands: ${ids.length}`);
      const ip = FIXTURE_HOSTS.webServer;
      const domain = FIXTURE_DOMAINS.corp;
      const object = { ip, domain, query: 'services.port:22', cidr: '45.33.32.0/24', field: 'services.port' };
      // Every command runs; the ones that sent are listed together.
      const sent: string[] = [];
      for (const id of ids) {
        await clearEmulatorLog();
        for (const arg of [ip, domain, object]) await runBriefly(id, arg);
        const log = (await emulatorLog()) as Array<{ method: string; path: string }>;
        if (log.length) sent.push(`${id}: ${log.map((e) => `${e.method} ${e.path}`).join(', ')}`);
      }
      assert.deepStrictEqual(sent, [], `with lookups off, commands sent:\n${sent.join('\n')}`);
    });

    it('hovering every sample file sends nothing', async () => {
      await clearEmulatorLog();
      const n = await hoverEverySampleFile();
      assert.ok(n > 50, `hovered ${n}`);
      await assertNothingSent('hovering');
    });

    it('a restored host or whois page sends nothing and offers to load', async () => {
      await clearEmulatorLog();
      await restorePages();
      await assertNothingSent('restoring pages');
    });

    it('the exploitation feeds are not downloaded', async () => {
      const store = await feedsFromScratch();
      await assertNothingSent('the exploitation feeds');
      assert.match(feedNote(store.kevStatus()), /KEV unavailable: not downloaded: lookups are off/);
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

    it('the exploitation feeds are not downloaded', async () => {
      const store = await feedsFromScratch();
      await assertNothingSent('the exploitation feeds in Restricted Mode');
      assert.match(
        feedNote(store.kevStatus()),
        /KEV unavailable: not downloaded: the workspace is in Restricted Mode/,
      );
    });
  });
});
