/**
 * The saved-search commands: save (to the personal list or a workspace `.odinq` file), run,
 * rename, edit, delete, duplicate, move; export and import are in transfer.ts, "Re-run All"
 * in rerunAll.ts.
 */
import * as vscode from 'vscode';
import {
  KINDS,
  describeSpec,
  duplicateSearch,
  moveSearch,
  nameError,
  newId,
  replaceSearch,
  uniqueName,
  validateSpec,
  type SavedSearch,
  type SearchSpec,
} from '../../../core/savedSearches';
import { formatHunt, huntOf, parseHuntFile } from '../../../core/hunts/file';
import { neutraliseUiText } from '../../../core/text/inert';
import type { RunSummary, SavedToFile } from '../../commands';
import type { Ctx } from '../../ctx';
import { isObj, isResultNode, isSavedNode } from '../args';
import type { ResultSet } from '../results/resultSet';
import type { SearchRunner } from '../searchRunner';
import { rememberRun, type RunMemory } from './rerunAll';
import type { SavedSearchStore } from './savedStore';
import type { SavedNode } from './savedView';
import type { Change } from './snapshots';
import type { WorkspaceHunts } from './workspaceHunts';
import { runCommand } from '../../shared/runCommand';

/** What the saved-search commands work with. */
export interface SavedParts extends RunMemory {
  ctx: Ctx;
  store: SavedSearchStore;
  runner: SearchRunner;
  savedView: vscode.TreeView<SavedNode>;
  workspaceHunts: WorkspaceHunts;
  /** The result set a command argument names (a node, an id), or the newest. */
  setOf(arg: unknown): ResultSet | undefined;
}

export class SavedSearchCommands {
  constructor(private readonly f: SavedParts) {}
  // ---------------------------------------------------------------- saved searches

  private savedOf(arg: unknown): SavedSearch | undefined {
    if (isSavedNode(arg) && arg.type === 'search') return this.f.store.get(arg.search.id);
    if (typeof arg === 'string') return this.f.store.get(arg);
    if (isObj(arg) && typeof arg.id === 'string') return this.f.store.get(arg.id);
    return undefined;
  }

  private async pickSaved(placeHolder: string): Promise<SavedSearch | undefined> {
    const list = this.f.store.list();
    if (!list.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('ODIN: there are no saved searches yet.'));
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      list.map((s) => ({
        label: neutraliseUiText(s.name, 200),
        description: neutraliseUiText(`${KINDS[s.spec.kind].label} · ${describeSpec(s.spec)}`, 200),
        s,
      })),
      { placeHolder },
    );
    return pick?.s;
  }

  /**
   * Saves a search into the personal saved searches or into a workspace `.odinq` file (an
   * existing one or a new one). `target` skips the question: "personal", `{ file: path }`,
   * or "ask"; without it, a call that gives both `spec` and `name` saves personally (API
   * callers), any other asks when the workspace can hold the search.
   */
  async saveSearch(arg?: unknown): Promise<SavedSearch | SavedToFile | undefined> {
    const a = isObj(arg) && !isResultNode(arg) ? arg : {};
    let spec: SearchSpec | undefined;
    if (isObj(a.spec)) {
      const r = validateSpec(a.spec);
      // l10n: English, for a command's caller
      if ('error' in r) throw new Error(`Invalid search: it ${r.error}.`);
      spec = r.spec;
    } else {
      spec = this.f.setOf(arg)?.spec;
    }
    if (!spec) {
      void vscode.window.showInformationMessage(vscode.l10n.t('ODIN: run a search first, then save it.'));
      return undefined;
    }
    let file: vscode.Uri | 'personal' | undefined =
      a.target === 'personal'
        ? 'personal'
        : isObj(a.target) && typeof a.target.file === 'string'
          ? vscode.Uri.file(a.target.file)
          : undefined;
    if (file instanceof vscode.Uri) {
      // A file named by an argument: a .odinq file, inside the trusted workspace or after a yes.
      // l10n: English, for a command's caller
      if (!file.path.endsWith('.odinq'))
        throw new Error('Saved searches are written only into .odinq files.');
      if (!(await this.f.ctx.argumentPaths.confirm(file, 'write', vscode.l10n.t('ODIN: Save Search'))))
        return undefined;
    }
    const ask =
      a.target === 'ask' || (a.target === undefined && !(isObj(a.spec) && typeof a.name === 'string'));
    if (!file && ask && huntOf(spec) && vscode.workspace.workspaceFolders?.length) {
      file = await this.pickTarget(typeof a.exclude === 'string' ? a.exclude : undefined);
      if (!file) return undefined;
    }
    file ??= 'personal';
    const taken = file === 'personal' ? this.f.store.list().map((s) => s.name) : [];
    let name = typeof a.name === 'string' ? a.name.trim() : undefined;
    if (name !== undefined && nameError(name)) throw new Error(nameError(name));
    name ??= await vscode.window.showInputBox({
      title: vscode.l10n.t('ODIN: Save Search'),
      prompt: vscode.l10n.t('Name for "{0}"', neutraliseUiText(describeSpec(spec), 100)),
      value: uniqueName(describeSpec(spec).slice(0, 80), taken),
      ignoreFocusOut: true,
      validateInput: nameError,
    });
    if (!name) return undefined;
    if (file !== 'personal') return this.saveToFile(file, spec, name.trim(), !isObj(a.target));
    const search: SavedSearch = { id: newId(), name: name.trim(), spec };
    await this.f.store.update((list) => [...list, search]);
    return search;
  }

  /** Where to save: personal, an existing workspace file, or a new file (undefined: dismissed). */
  private async pickTarget(exclude?: string): Promise<vscode.Uri | 'personal' | undefined> {
    await this.f.workspaceHunts.start();
    type Pick = vscode.QuickPickItem & { to: vscode.Uri | 'personal' | 'new' };
    const picks: Pick[] = [
      {
        label: vscode.l10n.t('$(account) My saved searches'),
        description: vscode.l10n.t('only on this machine'),
        to: 'personal',
      },
      ...this.f.workspaceHunts
        .list()
        .filter((f) => f.uri.toString() !== exclude)
        .map((f): Pick => ({
          label: vscode.l10n.t('$(file) {0}', neutraliseUiText(f.label, 200)),
          description:
            f.hunts.length === 1
              ? vscode.l10n.t('workspace file, 1 query')
              : vscode.l10n.t('workspace file, {0} queries', f.hunts.length),
          to: f.uri,
        })),
      {
        label: vscode.l10n.t('$(new-file) New .odinq file\u2026'),
        description: vscode.l10n.t('in the workspace, shared through git'),
        to: 'new',
      },
    ];
    const pick = await vscode.window.showQuickPick(picks, {
      title: vscode.l10n.t('ODIN: Save Search'),
      placeHolder: vscode.l10n.t('Save into your saved searches or into a workspace .odinq file'),
    });
    if (!pick) return undefined;
    if (pick.to !== 'new') return pick.to;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    return vscode.window.showSaveDialog({
      title: vscode.l10n.t('ODIN: New .odinq File'),
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, 'hunts.odinq') } : {}),
      filters: { [vscode.l10n.t('ODIN queries')]: ['odinq'] },
    });
  }

  /** Appends the search to a `.odinq` file (created when missing) and opens it at the query. */
  private async saveToFile(
    uri: vscode.Uri,
    spec: SearchSpec,
    name: string,
    show: boolean,
  ): Promise<SavedToFile> {
    const h = huntOf(spec);
    if (!h)
      throw new Error(
        vscode.l10n.t('A {0} cannot be written into a .odinq file.', KINDS[spec.kind].label.toLowerCase()),
      );
    const text = formatHunt(h.kind, name, h.query, h.options);
    let doc: vscode.TextDocument | undefined;
    try {
      await vscode.workspace.fs.stat(uri);
      doc = await vscode.workspace.openTextDocument(uri);
    } catch {
      // l10n: English, a file's content (shared through git with any language)
      await vscode.workspace.fs.writeFile(
        uri,
        Buffer.from(`# ODIN hunts (shared through git)\n\n${text}`, 'utf8'),
      );
    }
    if (doc) {
      const before = doc.getText();
      const sep = !before.length ? '' : before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
      const edit = new vscode.WorkspaceEdit();
      edit.insert(uri, doc.positionAt(before.length), `${sep}${text}`);
      await vscode.workspace.applyEdit(edit);
      await doc.save();
    }
    const final = Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
    const index = parseHuntFile(final).queries.length - 1;
    await this.f.workspaceHunts.rescan();
    if (show) await this.openHunt({ uri: uri.toString(), index });
    return { file: uri.fsPath, name, index };
  }

  /** Opens a workspace query's file with the cursor on its header. */
  async openHunt(arg?: unknown): Promise<boolean> {
    let uri: vscode.Uri | undefined;
    let index: number | undefined;
    if (isSavedNode(arg) && arg.type === 'hunt') {
      uri = arg.file.uri;
      index = arg.hunt.index;
    } else if (isSavedNode(arg) && arg.type === 'huntFile') {
      uri = arg.file.uri;
    } else if (isObj(arg) && typeof arg.uri === 'string') {
      uri = vscode.Uri.parse(arg.uri);
      index = typeof arg.index === 'number' ? arg.index : undefined;
    }
    if (!uri) return false;
    const doc = await vscode.workspace.openTextDocument(uri);
    const q = index === undefined ? undefined : parseHuntFile(doc.getText()).queries[index];
    const at = doc.positionAt(q?.headerStart ?? 0);
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(at, at), preview: false });
    return true;
  }

  async runSaved(arg?: unknown): Promise<(RunSummary & Change) | undefined> {
    if (isSavedNode(arg) && arg.type === 'hunt')
      // The map types a hunt's run as `unknown` (its Change type is this feature's).
      return (await runCommand('odin.runHunt', arg.file.uri.toString(), arg.hunt.index)) as
        (RunSummary & Change) | undefined;
    const s =
      this.savedOf(arg) ??
      (arg === undefined ? await this.pickSaved(vscode.l10n.t('Saved search to run')) : undefined);
    if (!s) return undefined;
    if (KINDS[s.spec.kind].page) return this.f.runner.searchCommand(s.spec.kind)({ ...s.spec });
    const summary = await this.f.runner.run(s.spec, { interactive: true });
    return { ...summary, ...(await rememberRun(this.f, s.spec, summary)) };
  }

  async renameSaved(arg?: unknown, newName?: unknown): Promise<SavedSearch | undefined> {
    const s = this.savedOf(arg) ?? (await this.pickSaved(vscode.l10n.t('Saved search to rename')));
    if (!s) return undefined;
    let name = typeof newName === 'string' ? newName.trim() : undefined;
    if (name !== undefined && nameError(name)) throw new Error(nameError(name));
    name ??= await vscode.window.showInputBox({
      title: vscode.l10n.t('ODIN: Rename Saved Search'),
      value: s.name,
      ignoreFocusOut: true,
      validateInput: nameError,
    });
    if (!name || name === s.name) return s;
    await this.f.store.update((list) => replaceSearch(list, s.id, { name: name.trim() }));
    return this.f.store.get(s.id);
  }

  async editSaved(arg?: unknown, newSpec?: unknown): Promise<SavedSearch | undefined> {
    const s = this.savedOf(arg) ?? (await this.pickSaved(vscode.l10n.t('Saved search to edit')));
    if (!s) return undefined;
    let spec: SearchSpec | undefined;
    if (isObj(newSpec)) {
      const r = validateSpec({ kind: s.spec.kind, ...newSpec });
      // l10n: English, for a command's caller
      if ('error' in r) throw new Error(`Invalid search: it ${r.error}.`);
      spec = r.spec;
    } else {
      spec = await this.f.runner.prompt(s.spec.kind, s.spec);
    }
    if (!spec) return undefined;
    await this.f.store.update((list) => replaceSearch(list, s.id, { spec }));
    return this.f.store.get(s.id);
  }

  async deleteSaved(arg?: unknown, opts?: unknown): Promise<boolean> {
    const targets: SavedSearch[] = [];
    const selected = this.f.savedView.selection.flatMap((n) => (n.type === 'search' ? [n.search] : []));
    const one =
      this.savedOf(arg) ??
      (arg === undefined ? await this.pickSaved(vscode.l10n.t('Saved search to delete')) : undefined);
    if (!one) return false;
    // Context menu on one of several selected entries: delete the selection.
    if (selected.some((s) => s.id === one.id) && selected.length > 1) targets.push(...selected);
    else targets.push(one);
    const confirmed = isObj(opts) && opts.confirmed === true;
    if (!confirmed) {
      const label =
        targets.length === 1
          ? `"${neutraliseUiText(targets[0].name, 100)}"`
          : vscode.l10n.t('{0} saved searches', targets.length);
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Delete {0}?', label),
        { modal: true, detail: vscode.l10n.t('This cannot be undone (export first to keep a copy).') },
        vscode.l10n.t('Delete'),
      );
      if (choice !== vscode.l10n.t('Delete')) return false;
    }
    const ids = new Set(targets.map((t) => t.id));
    await this.f.store.update((list) => list.filter((x) => !ids.has(x.id)));
    return true;
  }

  async duplicateSaved(arg?: unknown): Promise<SavedSearch | undefined> {
    const s = this.savedOf(arg) ?? (await this.pickSaved(vscode.l10n.t('Saved search to duplicate')));
    if (!s) return undefined;
    let copy: SavedSearch | undefined;
    await this.f.store.update((list) => {
      const next = duplicateSearch(list, s.id);
      copy = next.find((x) => !list.some((y) => y.id === x.id));
      return next;
    });
    return copy;
  }

  async moveSaved(arg: unknown, direction: -1 | 1): Promise<void> {
    const s = this.savedOf(arg);
    if (!s) return;
    await this.f.store.update((list) => moveSearch(list, s.id, direction));
  }
}
