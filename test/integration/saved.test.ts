/**
 * Saved searches inside the real VS Code host: save, run, rename, edit, duplicate,
 * reorder, delete; persistence in the store file (written, re-read, changed by "another
 * window"); export and import, including a malformed file and invalid entries; a damaged
 * store kept aside without losing anything.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { parseSearchesFile, serializeSearches, type SavedSearch } from '../../src/core/savedSearches';
import type { SavedNode } from '../../src/extension/testApi';
import { getTestApi, testEnv, waitFor } from './index';
import { feature, type Views } from './results';

function readStore(f: Views): SavedSearch[] {
  const parsed = parseSearchesFile(fs.readFileSync(f.store.file, 'utf8'));
  if ('fatal' in parsed) throw new Error(parsed.fatal);
  return parsed.searches;
}

/** The personal groups (the "Workspace hunts" group has its own tests: huntsShared.test.ts). */
const groups = (f: Views): SavedNode[] => f.saved.getChildren().filter((n) => n.type === 'group');

/** Names as the view shows them, group by group. */
function viewNames(f: Views): string[] {
  return groups(f)
    .flatMap((g) => f.saved.getChildren(g))
    .map((n: SavedNode) => String(f.saved.getTreeItem(n).label));
}

describe('saved searches', function () {
  this.timeout(120_000);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-saved-it-'));

  before(async function () {
    if (testEnv.run === 'restricted') this.skip();
    const f = await feature();
    await f.store.update(() => []);
  });

  it('saves searches, persists them in the store file and shows them grouped by kind', async () => {
    const f = await feature();
    const a = (await vscode.commands.executeCommand('odin.saveSearch', {
      name: 'Web servers',
      spec: { kind: 'hosts', query: 'services.port:443' },
    })) as SavedSearch;
    await vscode.commands.executeCommand('odin.saveSearch', {
      name: 'Acme whois',
      spec: { kind: 'whois', domain: 'acme-logistics.com' },
    });
    await vscode.commands.executeCommand('odin.saveSearch', {
      name: 'RDP',
      spec: { kind: 'hosts', query: 'services.port:3389' },
    });
    assert.ok(a.id);
    assert.deepStrictEqual(
      readStore(f).map((s) => s.name),
      ['Web servers', 'Acme whois', 'RDP'],
    );
    assert.deepStrictEqual(
      groups(f).map((g) => String(f.saved.getTreeItem(g).label)),
      ['Hosts', 'Domains and whois'],
    );
    assert.deepStrictEqual(viewNames(f), ['Web servers', 'RDP', 'Acme whois']);
    assert.strictEqual((await getTestApi()).ui.contextValue('odin.hasSavedSearches'), true);
    // Reload the store from disk: the same list.
    const before = f.store.list();
    await f.store.load();
    assert.deepStrictEqual(f.store.list(), before);
  });

  it('renames, edits, duplicates, reorders and deletes (with confirmation skipped by argument)', async () => {
    const f = await feature();
    const web = f.store.list().find((s) => s.name === 'Web servers')!;
    await vscode.commands.executeCommand('odin.renameSavedSearch', web.id, 'HTTPS servers');
    await vscode.commands.executeCommand('odin.editSavedSearch', web.id, { query: 'services.port:8443' });
    assert.deepStrictEqual(f.store.get(web.id)?.spec, { kind: 'hosts', query: 'services.port:8443' });
    const copy = (await vscode.commands.executeCommand('odin.duplicateSavedSearch', web.id)) as SavedSearch;
    assert.strictEqual(copy.name, 'HTTPS servers (copy)');
    assert.deepStrictEqual(viewNames(f), ['HTTPS servers', 'HTTPS servers (copy)', 'RDP', 'Acme whois']);
    // Move down within the group (the whois entry in between belongs to another group).
    await vscode.commands.executeCommand('odin.moveSavedSearchDown', copy.id);
    assert.deepStrictEqual(viewNames(f), ['HTTPS servers', 'RDP', 'HTTPS servers (copy)', 'Acme whois']);
    await vscode.commands.executeCommand('odin.moveSavedSearchUp', copy.id);
    assert.deepStrictEqual(viewNames(f), ['HTTPS servers', 'HTTPS servers (copy)', 'RDP', 'Acme whois']);
    // Run from a tree node (the context menu passes the node).
    const node = f.saved
      .getChildren(groups(f)[0])
      .find((n) => n.type === 'search' && n.search.id === copy.id)!;
    assert.strictEqual(f.saved.getTreeItem(node).command?.command, 'odin.runSavedSearch');
    if (testEnv.emulatorUrl) {
      const r = (await vscode.commands.executeCommand('odin.runSavedSearch', node)) as { status: string };
      assert.strictEqual(r.status, 'ready');
    }
    assert.strictEqual(
      await vscode.commands.executeCommand('odin.deleteSavedSearch', copy.id, { confirmed: true }),
      true,
    );
    assert.ok(!readStore(f).some((s) => s.id === copy.id));
  });

  it('picks up a change written by another window', async () => {
    const f = await feature();
    const list = [
      ...readStore(f),
      {
        id: 'other1',
        name: 'From another window',
        spec: { kind: 'fileCount' as const, query: 'ext:".env"' },
      },
    ];
    fs.writeFileSync(f.store.file, serializeSearches(list));
    await waitFor(
      () => viewNames(f).includes('From another window'),
      5000,
      'the view to show the other window’s entry',
    );
  });

  it('exports to a versioned file and imports it back without duplicating', async () => {
    const file = path.join(tmp, 'team-searches.json');
    const out = (await vscode.commands.executeCommand('odin.exportSavedSearches', { path: file })) as {
      count: number;
    };
    const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      version: number;
      searches: Array<Record<string, unknown>>;
    };
    assert.strictEqual(doc.version, 1);
    assert.strictEqual(doc.searches.length, out.count);
    assert.ok(
      doc.searches.every(
        (s) => typeof s.name === 'string' && typeof s.kind === 'string' && s.id === undefined,
      ),
    );
    const r = (await vscode.commands.executeCommand('odin.importSavedSearches', {
      path: file,
      quiet: true,
    })) as {
      added: number;
      skipped: number;
    };
    assert.strictEqual(r.added, 0);
    assert.strictEqual(r.skipped, out.count);
  });

  it('imports the valid entries of a file and reports each invalid one', async () => {
    const f = await feature();
    const file = path.join(tmp, 'mixed.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        searches: [
          { name: 'Good', kind: 'buckets', query: 'labels:credential', sortBy: 'files', sortDir: 'desc' },
          { name: 'No kind' },
          { name: 'Bad date', kind: 'domains', domain: 'x.com', publishedAfter: '2024-13-01' },
        ],
      }),
    );
    const before = f.store.list().length;
    const r = (await vscode.commands.executeCommand('odin.importSavedSearches', {
      path: file,
      quiet: true,
    })) as {
      added: number;
      errors: string[];
    };
    assert.strictEqual(r.added, 1);
    assert.strictEqual(r.errors.length, 2);
    assert.match(r.errors[0], /Entry 2 \("No kind"\): has no "kind"/);
    assert.match(r.errors[1], /Entry 3 \("Bad date"\).*publishedAfter/);
    assert.strictEqual(f.store.list().length, before + 1);
  });

  it('refuses a malformed import file and changes nothing', async () => {
    const f = await feature();
    const file = path.join(tmp, 'broken.json');
    fs.writeFileSync(file, '{ "version": 1, "searches": [ { "name": "x", ');
    const before = fs.readFileSync(f.store.file, 'utf8');
    const r = (await vscode.commands.executeCommand('odin.importSavedSearches', {
      path: file,
      quiet: true,
    })) as { fatal?: string };
    assert.match(r.fatal ?? '', /not valid JSON.*Nothing was changed/);
    assert.strictEqual(fs.readFileSync(f.store.file, 'utf8'), before);
    const newer = path.join(tmp, 'newer.json');
    fs.writeFileSync(newer, '{"version": 2, "searches": []}');
    const r2 = (await vscode.commands.executeCommand('odin.importSavedSearches', {
      path: newer,
      quiet: true,
    })) as { fatal?: string };
    assert.match(r2.fatal ?? '', /newer version/);
  });

  it('keeps a damaged store aside and broken entries in "rejected": nothing lost', async () => {
    const f = await feature();
    const good = readStore(f);
    // One broken entry among good ones: kept in "rejected", the rest still listed.
    const raw = JSON.parse(serializeSearches(good)) as { searches: unknown[] };
    raw.searches.push({ name: 'Broken', kind: 'hostCve', ip: '1.2.3.4' });
    fs.writeFileSync(f.store.file, JSON.stringify(raw));
    await f.store.load();
    assert.strictEqual(f.store.list().length, good.length);
    const onDisk = JSON.parse(fs.readFileSync(f.store.file, 'utf8')) as { rejected?: unknown[] };
    assert.deepStrictEqual(onDisk.rejected, [{ name: 'Broken', kind: 'hostCve', ip: '1.2.3.4' }]);
    // A file that is not JSON at all: renamed aside, byte for byte.
    f.store.unwatch();
    try {
      fs.writeFileSync(f.store.file, '{ damaged');
      await f.store.load();
      const aside = fs
        .readdirSync(path.dirname(f.store.file))
        .filter((n) => n.startsWith('saved-searches.damaged-'));
      assert.ok(aside.length >= 1);
      assert.ok(
        aside.some((n) => fs.readFileSync(path.join(path.dirname(f.store.file), n), 'utf8') === '{ damaged'),
      );
      assert.strictEqual(f.store.list().length, 0);
    } finally {
      f.store.watch();
      await f.store.update(() => []);
    }
  });
});
