/**
 * Shared hunts, hunts that remember and facets that drill, inside the real VS Code host:
 * the workspace's `.odinq` files in the Saved Searches view (followed as they change),
 * saving into a workspace file, "+N new since …" with a "What's new" node after the
 * emulator's seeded data change, Re-run All with one summary, and a summary narrowed by a
 * facet then summarised by another field.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { kindOf } from '../../src/core/results/nodeMenus';
import type { SavedSearch } from '../../src/core/savedSearches';
import type { SavedToFile, RerunAllSummary, SavedNode, RunSummary } from '../../src/extension/testApi';
import { clearEmulatorLog, emulatorAdmin, lookupLog, testEnv, waitFor } from './index';
import { feature, type Views } from './results';

function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return folder.uri.fsPath;
}

// An existing folder of the sample workspace: a folder made by the test just before its first
// file is one the host's file watcher may not yet watch (inotify), and the file's event is lost.
const DIR = 'infra';
const PREFIX = 'hunts-it-';
const label = (f: Views, n: SavedNode): string => {
  const l = f.saved.getTreeItem(n).label;
  return typeof l === 'string' ? l : (l?.label ?? '');
};
const description = (f: Views, n: SavedNode): string => String(f.saved.getTreeItem(n).description ?? '');

/** The "Workspace hunts" file node of `rel`, once the view lists it with `count` queries. */
async function fileNode(f: Views, rel: string, count: number): Promise<SavedNode> {
  return (await waitFor(
    () => {
      const group = f.saved.getChildren().find((n) => n.type === 'hunts');
      const file = group && f.saved.getChildren(group).find((n) => label(f, n) === rel);
      return file && f.saved.getChildren(file).length === count ? file : undefined;
    },
    45_000, // a file watcher late in a long host run (the live run once missed 15 s)
    `${rel} with ${count} queries in the Saved Searches view`,
  )) as SavedNode;
}

describe('hunts: shared in the workspace, remembered, drilled', function () {
  this.timeout(180_000);
  const restricted = testEnv.run === 'restricted';
  const dir = (): string => path.join(workspaceDir(), DIR);

  before(async function () {
    if (restricted) this.skip();
    const f = await feature();
    await f.store.update(() => []);
  });

  after(async () => {
    if (restricted) return;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const name of fs.readdirSync(dir()))
      if (name.startsWith(PREFIX)) fs.rmSync(path.join(dir(), name), { force: true });
    await emulatorAdmin('DELETE', 'change').catch(() => undefined);
    const f = await feature();
    await f.store.update(() => []);
  });

  it("the workspace's .odinq files appear as a group of their own, followed as they change", async () => {
    const f = await feature();
    const file = path.join(dir(), `${PREFIX}team.odinq`);
    fs.writeFileSync(
      file,
      '# Team hunts\n@hosts Exposed RDP\nservices.port:3389\n\n@buckets Big dumps sort=files\n*\n',
    );
    const node = await fileNode(f, `${DIR}/${PREFIX}team.odinq`, 2);
    const group = f.saved.getChildren().find((n) => n.type === 'hunts')!;
    assert.strictEqual(label(f, group), 'Workspace hunts');
    const queries = f.saved.getChildren(node);
    assert.deepStrictEqual(
      queries.map((n) => label(f, n)),
      ['Exposed RDP', 'Big dumps'],
    );
    const item = f.saved.getTreeItem(queries[0]);
    assert.strictEqual(item.command?.command, 'odin.runHunt');
    assert.deepStrictEqual(item.command?.arguments, [vscode.Uri.file(file).toString(), 0]);
    assert.strictEqual(kindOf(item.contextValue), 'odin.hunt');

    // Opening the file at the query.
    assert.strictEqual(await vscode.commands.executeCommand('odin.openHuntInFile', queries[1]), true);
    const editor = vscode.window.activeTextEditor;
    assert.strictEqual(editor?.document.uri.fsPath, file);
    assert.strictEqual(editor?.selection.active.line, 4, 'the cursor is on the second header');

    // A change on disk (a git pull) shows without a reload.
    fs.appendFileSync(file, '\n@domains Example subdomains\ndomain: example.com\n');
    await fileNode(f, `${DIR}/${PREFIX}team.odinq`, 3);
  });

  it('"Save" writes into a workspace .odinq file (existing or new) as well as into personal saved searches', async () => {
    const f = await feature();
    const file = path.join(dir(), `${PREFIX}team.odinq`);
    const saved = (await vscode.commands.executeCommand('odin.saveSearch', {
      spec: { kind: 'buckets', query: 'provider: aws', sortBy: 'files', sortDir: 'desc' },
      name: 'AWS by files',
      target: { file },
    })) as SavedToFile;
    assert.strictEqual(saved.file, file);
    assert.strictEqual(saved.index, 3);
    assert.match(
      fs.readFileSync(file, 'utf8'),
      /\n\n@buckets AWS by files sort=files order=desc\nprovider: aws\n$/,
    );
    await fileNode(f, `${DIR}/${PREFIX}team.odinq`, 4);
    const fresh = path.join(dir(), `${PREFIX}new.odinq`);
    await vscode.commands.executeCommand('odin.saveSearch', {
      spec: { kind: 'fileSummary', query: 'ext: sql', field: 'provider' },
      name: 'SQL dumps',
      target: { file: fresh },
    });
    assert.match(fs.readFileSync(fresh, 'utf8'), /@files SQL dumps by=provider\next: sql\n/);
    await fileNode(f, `${DIR}/${PREFIX}new.odinq`, 1);
    // Not a .odinq file: refused with a message, nothing written.
    const refused = await vscode.commands.executeCommand('odin.saveSearch', {
      spec: { kind: 'hosts', query: 'x' },
      name: 'Not a hunt file',
      target: { file: path.join(dir(), `${PREFIX}notes.txt`) },
    });
    assert.strictEqual(refused, undefined);
    assert.ok(!fs.existsSync(path.join(dir(), `${PREFIX}notes.txt`)));
    const personal = (await vscode.commands.executeCommand('odin.saveSearch', {
      spec: { kind: 'hosts', query: 'services.port:22' },
      name: 'SSH',
      target: 'personal',
    })) as SavedSearch;
    assert.ok(f.store.get(personal.id));
    await f.store.update(() => []);
  });

  describe('with the emulator', () => {
    before(function () {
      if (!testEnv.emulatorUrl) this.skip();
    });

    it('"what\'s new" after a seeded change: the node says "+N new", a "What\'s new" node lists them; Re-run All ends with one summary', async () => {
      const f = await feature();
      const s = (await vscode.commands.executeCommand('odin.saveSearch', {
        spec: { kind: 'hosts', query: '*' },
        name: 'Everything',
        target: 'personal',
      })) as SavedSearch;
      const first = (await vscode.commands.executeCommand('odin.runSavedSearch', s.id)) as RunSummary;
      assert.strictEqual(first.status, 'ready', first.error);
      const hunt = path.join(dir(), `${PREFIX}remember.odinq`);
      fs.writeFileSync(hunt, '@hosts Everything, a hundred  size=100\n*\n');
      const huntFile = await fileNode(f, `${DIR}/${PREFIX}remember.odinq`, 1);
      const r0 = (await vscode.commands.executeCommand(
        'odin.runHunt',
        vscode.Uri.file(hunt).toString(),
        0,
      )) as RunSummary;
      assert.strictEqual(r0.status, 'ready', r0.error);

      await emulatorAdmin('POST', 'change', { seed: 11 });
      const second = (await vscode.commands.executeCommand('odin.runSavedSearch', s.id)) as RunSummary & {
        added?: number;
        change?: string;
      };
      assert.strictEqual(second.status, 'ready', second.error);
      assert.ok((second.added ?? 0) > 0, `added ${second.added}`);
      const node = f.saved.getChildren(f.saved.getChildren().find((n) => n.type === 'group')!)[0];
      assert.match(description(f, node), /^\+\d+ new(, \u2212\d+ gone)? since \d+ \w{3}/);
      assert.strictEqual(
        f.saved.getTreeItem(node).collapsibleState,
        vscode.TreeItemCollapsibleState.Collapsed,
      );
      const [news] = f.saved.getChildren(node);
      assert.strictEqual(label(f, news), "What's new");
      const fresh = f.saved.getChildren(news);
      assert.strictEqual(fresh.length, Math.min(second.added ?? 0, 100));
      assert.match(label(f, fresh[0]), /^\d+\.\d+\.\d+\.\d+$|:/, 'a host IP');
      const cmd = f.saved.getTreeItem(fresh[0]).command;
      if (cmd)
        assert.deepStrictEqual([cmd.command, cmd.arguments], ['odin.openHostDetails', [label(f, fresh[0])]]);

      // Re-run All: the personal search and the workspace query, one summary.
      const all = (await vscode.commands.executeCommand('odin.rerunAllSavedSearches', {
        quiet: true,
        requests: 100,
      })) as RerunAllSummary;
      assert.ok(all.ran >= 2, JSON.stringify(all));
      assert.strictEqual(all.cancelled, false);
      const mine = all.results.find((x) => x.name === 'Everything, a hundred');
      assert.match(mine?.change ?? '', /^\+\d+ new/, 'the workspace query saw the change');
      assert.match(
        all.message,
        /^re-ran \d+ of \d+ saved searches; \d+ changed \(\+\d+ new, \u2212\d+ gone\)/,
      );
      const q = f.saved.getChildren(huntFile)[0];
      assert.match(description(f, q), /^\+\d+ new/);
      assert.strictEqual(label(f, f.saved.getChildren(q)[0]), "What's new");

      // Back to the original data: what was new is gone.
      await emulatorAdmin('DELETE', 'change');
      const back = (await vscode.commands.executeCommand('odin.rerunAllSavedSearches', {
        quiet: true,
        requests: 100,
      })) as RerunAllSummary;
      assert.ok(back.removed > 0, back.message);
    });

    it('facets that drill: a facet value summarised by another field, then narrowed again, keeps both conditions', async () => {
      const f = await feature();
      const sum = (await vscode.commands.executeCommand('odin.summarizeHosts', {
        query: 'services.port:443',
        field: 'location.country_code',
      })) as RunSummary;
      assert.strictEqual(sum.status, 'ready', sum.error);
      const set = f.results.get(sum.setId!)!;
      const facet = set.items.find((i) => i.t === 'facet' && i.v.key !== null);
      assert.ok(facet && facet.t === 'facet', 'a facet value');
      const node = { type: 'item', set, item: facet };
      const drilled = (await vscode.commands.executeCommand(
        'odin.summarizeResultsBy',
        node,
        'asn.number',
      )) as RunSummary;
      assert.strictEqual(drilled.status, 'ready', drilled.error);
      const inner = f.results.get(drilled.setId!)!;
      assert.deepStrictEqual(inner.spec, {
        kind: 'hostSummary',
        query: `(services.port:443) AND location.country_code:"${String(facet.v.key)}"`,
        field: 'asn.number',
      });
      const innerFacet = inner.items.find((i) => i.t === 'facet' && i.v.key !== null);
      assert.ok(innerFacet && innerFacet.t === 'facet', 'a facet inside the facet');
      const narrowed = (await vscode.commands.executeCommand(
        'odin.narrowByFacet',
        inner.id,
        'asn.number',
        innerFacet.v.key,
      )) as RunSummary;
      assert.strictEqual(narrowed.status, 'ready', narrowed.error);
      const q = f.results.get(narrowed.setId!)!.spec.query ?? '';
      assert.match(q, /services\.port:443/);
      assert.match(q, /location\.country_code:/);
      assert.match(q, /asn\.number:/);
      // The summary itself summarised again by another field (same query).
      const again = (await vscode.commands.executeCommand(
        'odin.summarizeResultsBy',
        set.id,
        'services.port',
      )) as RunSummary;
      assert.deepStrictEqual(f.results.get(again.setId!)!.spec, {
        kind: 'hostSummary',
        query: 'services.port:443',
        field: 'services.port',
      });
    });

    it('Re-run All states its searches and requests first: workspace files need a yes that names the count, and it sends no more', async () => {
      const f = await feature();
      fs.writeFileSync(
        path.join(dir(), `${PREFIX}budget.odinq`),
        [80, 443, 8080].map((p) => `@hosts Port ${p}\nservices.port:${p}\n`).join('\n'),
      );
      await fileNode(f, `${DIR}/${PREFIX}budget.odinq`, 3);
      // A count too small: nothing runs, and the answer says how many it needs.
      await clearEmulatorLog();
      const short = (await vscode.commands.executeCommand('odin.rerunAllSavedSearches', {
        quiet: true,
        requests: 0,
      })) as RerunAllSummary;
      const needed = Number(/^not run: (\d+) requests needed, 0 agreed to\./.exec(short.message)?.[1]);
      assert.ok(needed >= 3, short.message);
      assert.match(short.message, /from \d+ workspace files? \(\.odinq/);
      assert.strictEqual(short.ran, 0);
      // No count: the confirmation (a modal; the test host dismisses it) and nothing is sent.
      const asked = (await vscode.commands.executeCommand('odin.rerunAllSavedSearches', {
        quiet: true,
      })) as RerunAllSummary;
      assert.strictEqual(asked.message, 'not run: nothing was sent.');
      assert.deepStrictEqual(await lookupLog(), []);
      // The count it named: exactly that many requests.
      const ran = (await vscode.commands.executeCommand('odin.rerunAllSavedSearches', {
        quiet: true,
        requests: needed,
      })) as RerunAllSummary;
      assert.strictEqual(ran.ran, needed, ran.message);
      assert.ok((await lookupLog()).length <= needed, `at most ${needed} requests`);
      fs.rmSync(path.join(dir(), `${PREFIX}budget.odinq`));
    });
  });
});
