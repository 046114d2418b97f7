/** The saved-search commands: save, run, rename, edit, delete, duplicate, move, export, import. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  FORMAT_VERSION,
  KINDS,
  describeEntryError,
  describeSpec,
  duplicateSearch,
  mergeImported,
  moveSearch,
  nameError,
  newId,
  parseSearchesFile,
  replaceSearch,
  serializeSearches,
  uniqueName,
  validateSpec,
  type SavedSearch,
  type SearchSpec,
} from '../../../core/savedSearches';
import { neutraliseUiText } from '../../../core/text';
import { confirmArgumentPath } from '../../shared/argumentPath';
import { defaultDir, isObj, isResultNode, isSavedNode } from '../args';
import type { SearchFeature } from '../index';
import type { RunSummary } from '../searchRunner';

export class SavedSearchCommands {
  constructor(private readonly f: SearchFeature) {}
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
      void vscode.window.showInformationMessage('ODIN: there are no saved searches yet.');
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

  async saveSearch(arg?: unknown): Promise<SavedSearch | undefined> {
    const a = isObj(arg) && !isResultNode(arg) ? arg : {};
    let spec: SearchSpec | undefined;
    if (isObj(a.spec)) {
      const r = validateSpec(a.spec);
      if ('error' in r) throw new Error(`Invalid search: it ${r.error}.`);
      spec = r.spec;
    } else {
      spec = this.f.resultCommands.setOf(arg)?.spec;
    }
    if (!spec) {
      void vscode.window.showInformationMessage('ODIN: run a search first, then save it.');
      return undefined;
    }
    const taken = this.f.store.list().map((s) => s.name);
    let name = typeof a.name === 'string' ? a.name.trim() : undefined;
    if (name !== undefined && nameError(name)) throw new Error(nameError(name));
    name ??= await vscode.window.showInputBox({
      title: 'ODIN: Save Search',
      prompt: `Name for "${neutraliseUiText(describeSpec(spec), 100)}"`,
      value: uniqueName(describeSpec(spec).slice(0, 80), taken),
      ignoreFocusOut: true,
      validateInput: nameError,
    });
    if (!name) return undefined;
    const search: SavedSearch = { id: newId(), name: name.trim(), spec };
    await this.f.store.update((list) => [...list, search]);
    return search;
  }

  async runSaved(arg?: unknown): Promise<RunSummary | undefined> {
    const s =
      this.savedOf(arg) ?? (arg === undefined ? await this.pickSaved('Saved search to run') : undefined);
    if (!s) return undefined;
    if (s.spec.kind === 'host' || s.spec.kind === 'whois')
      return this.f.runner.searchCommand(s.spec.kind)({ ...s.spec });
    return this.f.runner.run(s.spec, { interactive: true });
  }

  async renameSaved(arg?: unknown, newName?: unknown): Promise<SavedSearch | undefined> {
    const s = this.savedOf(arg) ?? (await this.pickSaved('Saved search to rename'));
    if (!s) return undefined;
    let name = typeof newName === 'string' ? newName.trim() : undefined;
    if (name !== undefined && nameError(name)) throw new Error(nameError(name));
    name ??= await vscode.window.showInputBox({
      title: 'ODIN: Rename Saved Search',
      value: s.name,
      ignoreFocusOut: true,
      validateInput: nameError,
    });
    if (!name || name === s.name) return s;
    await this.f.store.update((list) => replaceSearch(list, s.id, { name: name.trim() }));
    return this.f.store.get(s.id);
  }

  async editSaved(arg?: unknown, newSpec?: unknown): Promise<SavedSearch | undefined> {
    const s = this.savedOf(arg) ?? (await this.pickSaved('Saved search to edit'));
    if (!s) return undefined;
    let spec: SearchSpec | undefined;
    if (isObj(newSpec)) {
      const r = validateSpec({ kind: s.spec.kind, ...newSpec });
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
      this.savedOf(arg) ?? (arg === undefined ? await this.pickSaved('Saved search to delete') : undefined);
    if (!one) return false;
    // Context menu on one of several selected entries: delete the selection.
    if (selected.some((s) => s.id === one.id) && selected.length > 1) targets.push(...selected);
    else targets.push(one);
    const confirmed = isObj(opts) && opts.confirmed === true;
    if (!confirmed) {
      const label =
        targets.length === 1
          ? `"${neutraliseUiText(targets[0].name, 100)}"`
          : `${targets.length} saved searches`;
      const choice = await vscode.window.showWarningMessage(
        `Delete ${label}?`,
        { modal: true, detail: 'This cannot be undone (export first to keep a copy).' },
        'Delete',
      );
      if (choice !== 'Delete') return false;
    }
    const ids = new Set(targets.map((t) => t.id));
    await this.f.store.update((list) => list.filter((x) => !ids.has(x.id)));
    return true;
  }

  async duplicateSaved(arg?: unknown): Promise<SavedSearch | undefined> {
    const s = this.savedOf(arg) ?? (await this.pickSaved('Saved search to duplicate'));
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

  async exportSaved(arg?: unknown): Promise<{ path: string; count: number } | undefined> {
    const list = this.f.store.list();
    let uri: vscode.Uri | undefined =
      isObj(arg) && typeof arg.path === 'string'
        ? vscode.Uri.file(arg.path)
        : arg instanceof vscode.Uri
          ? arg
          : undefined;
    // A file named by an argument outside the trusted workspace is written only after a yes.
    if (uri && !(await confirmArgumentPath(uri, 'write', 'ODIN: Export Saved Searches'))) return undefined;
    uri ??= await vscode.window.showSaveDialog({
      title: 'ODIN: Export Saved Searches',
      defaultUri: vscode.Uri.file(path.join(defaultDir(), 'odin-searches.json')),
      filters: { JSON: ['json'] },
    });
    if (!uri) return undefined;
    // Ids are local bookkeeping: the shared file carries names and searches only.
    const text = serializeSearches(list).replace(/^ {6}"id": "[^"]*",\n/gm, '');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    if (!isObj(arg))
      void vscode.window.showInformationMessage(
        `ODIN: exported ${list.length} saved searches (format version ${FORMAT_VERSION}) to ${path.basename(uri.fsPath)}.`,
      );
    return { path: uri.fsPath, count: list.length };
  }

  /**
   * Imports saved searches from a JSON file: adds the valid entries (never overwrites;
   * exact duplicates are skipped), and lists the invalid ones with their reasons. A file
   * that cannot be read changes nothing.
   */
  async importSaved(
    arg?: unknown,
  ): Promise<{ added: number; skipped: number; errors: string[]; fatal?: string } | undefined> {
    let uri: vscode.Uri | undefined =
      isObj(arg) && typeof arg.path === 'string'
        ? vscode.Uri.file(arg.path)
        : arg instanceof vscode.Uri
          ? arg
          : undefined;
    const quiet = isObj(arg) && arg.quiet === true;
    // A file named by an argument outside the trusted workspace is read only after a yes.
    if (uri && !(await confirmArgumentPath(uri, 'read', 'ODIN: Import Saved Searches'))) return undefined;
    if (!uri) {
      const picked = await vscode.window.showOpenDialog({
        title: 'ODIN: Import Saved Searches',
        canSelectMany: false,
        filters: { JSON: ['json'] },
        defaultUri: vscode.Uri.file(defaultDir()),
      });
      uri = picked?.[0];
    }
    if (!uri) return undefined;
    let text: string;
    try {
      const bytes = await vscode.workspace.fs.readFile(uri);
      if (bytes.byteLength > 5 * 1024 * 1024) throw new Error('the file is larger than 5 MB');
      text = Buffer.from(bytes).toString('utf8');
    } catch (err) {
      const fatal = `Could not read ${path.basename(uri.fsPath)}: ${err instanceof Error ? err.message : String(err)}`;
      if (!quiet) void vscode.window.showErrorMessage(`ODIN: ${neutraliseUiText(fatal)}`);
      return { added: 0, skipped: 0, errors: [], fatal };
    }
    const parsed = parseSearchesFile(text);
    if ('fatal' in parsed) {
      const fatal = `${path.basename(uri.fsPath)} was not imported: ${parsed.fatal} Nothing was changed.`;
      this.f.ctx.log.warn(fatal);
      if (!quiet) void vscode.window.showErrorMessage(`ODIN: ${neutraliseUiText(fatal, 600)}`);
      return { added: 0, skipped: 0, errors: [], fatal };
    }
    let added = 0;
    let skipped = 0;
    if (parsed.searches.length) {
      await this.f.store.update((list) => {
        const r = mergeImported(list, parsed.searches);
        added = r.added;
        skipped = r.skipped;
        return r.list;
      });
    }
    const errors = parsed.errors.map(describeEntryError);
    if (errors.length)
      this.f.ctx.log.warn(
        `Import of ${uri.fsPath}: ${errors.length} entries skipped:\n  ${errors.join('\n  ')}`,
      );
    if (!quiet) {
      const parts = [`imported ${added} saved search${added === 1 ? '' : 'es'}`];
      if (skipped) parts.push(`${skipped} already present`);
      if (errors.length)
        parts.push(
          `${errors.length} invalid (${neutraliseUiText(errors.slice(0, 2).join('; '), 300)}${errors.length > 2 ? '; …' : ''})`,
        );
      const show = errors.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      void show(`ODIN: ${parts.join(', ')}.`, ...(errors.length ? ['Show Log'] : [])).then(
        (c) => c && this.f.ctx.log.show(),
      );
    }
    return { added, skipped, errors };
  }
}
