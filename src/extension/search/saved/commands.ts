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
import { formatHunt, huntOf, parseHuntFile } from '../../../core/hunts/file';
import { neutraliseUiText } from '../../../core/text';
import { toAbortSignal } from '../../shared/abort';
import { defaultDir, isObj, isResultNode, isSavedNode } from '../args';
import type { SearchFeature } from '../index';
import type { RunSummary } from '../searchRunner';
import type { Change } from './snapshots';

/** A saved search written into a workspace `.odinq` file. */
export interface SavedToFile {
  file: string;
  name: string;
  index: number;
}

/** What "Re-run All Saved Searches" did (its one summary). */
export interface RerunAllSummary {
  ran: number;
  failed: number;
  /** Searches whose results changed since their previous run. */
  changed: number;
  added: number;
  removed: number;
  cancelled: boolean;
  message: string;
  results: { name: string; status: string; change?: string }[];
}

/** Kinds "Re-run All" skips: they open a details page rather than list results. */
const NOT_RERUN = new Set(['host', 'whois']);

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
      if ('error' in r) throw new Error(`Invalid search: it ${r.error}.`);
      spec = r.spec;
    } else {
      spec = this.f.resultCommands.setOf(arg)?.spec;
    }
    if (!spec) {
      void vscode.window.showInformationMessage('ODIN: run a search first, then save it.');
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
      if (!file.path.endsWith('.odinq'))
        throw new Error('Saved searches are written only into .odinq files.');
      if (!(await this.f.ctx.argumentPaths.confirm(file, 'write', 'ODIN: Save Search'))) return undefined;
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
      title: 'ODIN: Save Search',
      prompt: `Name for "${neutraliseUiText(describeSpec(spec), 100)}"`,
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
      { label: '$(account) My saved searches', description: 'only on this machine', to: 'personal' },
      ...this.f.workspaceHunts
        .list()
        .filter((f) => f.uri.toString() !== exclude)
        .map((f): Pick => ({
          label: `$(file) ${neutraliseUiText(f.label, 200)}`,
          description: `workspace file, ${f.hunts.length} quer${f.hunts.length === 1 ? 'y' : 'ies'}`,
          to: f.uri,
        })),
      {
        label: '$(new-file) New .odinq file\u2026',
        description: 'in the workspace, shared through git',
        to: 'new',
      },
    ];
    const pick = await vscode.window.showQuickPick(picks, {
      title: 'ODIN: Save Search',
      placeHolder: 'Save into your saved searches or into a workspace .odinq file',
    });
    if (!pick) return undefined;
    if (pick.to !== 'new') return pick.to;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    return vscode.window.showSaveDialog({
      title: 'ODIN: New .odinq File',
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, 'hunts.odinq') } : {}),
      filters: { 'ODIN queries': ['odinq'] },
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
      throw new Error(`A ${KINDS[spec.kind].label.toLowerCase()} cannot be written into a .odinq file.`);
    const text = formatHunt(h.kind, name, h.query, h.options);
    let doc: vscode.TextDocument | undefined;
    try {
      await vscode.workspace.fs.stat(uri);
      doc = await vscode.workspace.openTextDocument(uri);
    } catch {
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
      return vscode.commands.executeCommand('odin.runHunt', arg.file.uri.toString(), arg.hunt.index);
    const s =
      this.savedOf(arg) ?? (arg === undefined ? await this.pickSaved('Saved search to run') : undefined);
    if (!s) return undefined;
    if (s.spec.kind === 'host' || s.spec.kind === 'whois')
      return this.f.runner.searchCommand(s.spec.kind)({ ...s.spec });
    const summary = await this.f.runner.run(s.spec, { interactive: true });
    return { ...summary, ...(await this.remember(s.spec, summary)) };
  }

  /** Keeps the snapshot of a finished run (hunts that remember). */
  private async remember(spec: SearchSpec, summary: RunSummary): Promise<Change> {
    const set = summary.status === 'ready' && summary.setId ? this.f.results.get(summary.setId) : undefined;
    return set ? this.f.snapshots.record(spec, set) : {};
  }

  /**
   * Runs every saved search again (personal ones, then the workspace's `.odinq` queries),
   * one after the other with progress and cancel, and ends with one summary of what is new.
   * `{ quiet: true }` skips the closing message (tests).
   */
  async rerunAll(arg?: unknown): Promise<RerunAllSummary> {
    const quiet = isObj(arg) && arg.quiet === true;
    await this.f.workspaceHunts.start();
    type Job = { name: string; run: () => Promise<RunSummary & Change> };
    const jobs: Job[] = this.f.store
      .list()
      .filter((s) => !NOT_RERUN.has(s.spec.kind))
      .map((s) => ({
        name: s.name,
        run: async () => {
          const summary = await this.f.runner.run(s.spec, { reveal: false });
          return { ...summary, ...(await this.remember(s.spec, summary)) };
        },
      }));
    if (vscode.workspace.isTrusted) {
      for (const file of this.f.workspaceHunts.list())
        for (const h of file.hunts.filter((x) => x.kind))
          jobs.push({
            name: h.name,
            run: async () =>
              ((await vscode.commands.executeCommand('odin.runHunt', file.uri.toString(), h.index, {
                quiet: true,
              })) as (RunSummary & Change) | undefined) ?? { status: 'dismissed' },
          });
    }
    const out: RerunAllSummary = {
      ran: 0,
      failed: 0,
      changed: 0,
      added: 0,
      removed: 0,
      cancelled: false,
      message: '',
      results: [],
    };
    if (!jobs.length) {
      out.message = 'there are no saved searches to run.';
      if (!quiet) void vscode.window.showInformationMessage(`ODIN: ${out.message}`);
      return out;
    }
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: 'ODIN: Re-running saved searches',
        cancellable: true,
      },
      (progress, token) =>
        toAbortSignal(token, async (signal) => {
          for (const [i, job] of jobs.entries()) {
            if (signal.aborted) break;
            progress.report({
              message: `${i + 1}/${jobs.length}: ${neutraliseUiText(job.name, 80)}`,
              increment: 100 / jobs.length,
            });
            let r: RunSummary & Change;
            try {
              r = await job.run();
            } catch (err) {
              r = { status: 'error', error: err instanceof Error ? err.message : String(err) };
            }
            out.ran++;
            if (r.status !== 'ready') out.failed++;
            if (r.added || r.removed) out.changed++;
            out.added += r.added ?? 0;
            out.removed += r.removed ?? 0;
            out.results.push({ name: job.name, status: r.status, ...(r.change ? { change: r.change } : {}) });
          }
        }),
    );
    out.cancelled = out.ran < jobs.length;
    const parts = [`re-ran ${out.ran} of ${jobs.length} saved search${jobs.length === 1 ? '' : 'es'}`];
    parts.push(
      out.changed ? `${out.changed} changed (+${out.added} new, \u2212${out.removed} gone)` : 'nothing new',
    );
    if (out.failed) parts.push(`${out.failed} failed`);
    if (out.cancelled) parts.push('cancelled');
    out.message = `${parts.join('; ')}.`;
    if (!quiet) {
      void vscode.window
        .showInformationMessage(`ODIN: ${out.message}`, ...(out.changed ? ['Show Saved Searches'] : []))
        .then((c) => c && vscode.commands.executeCommand('odin.savedSearches.focus'));
    }
    return out;
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
    if (uri && !(await this.f.ctx.argumentPaths.confirm(uri, 'write', 'ODIN: Export Saved Searches')))
      return undefined;
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
    if (uri && !(await this.f.ctx.argumentPaths.confirm(uri, 'read', 'ODIN: Import Saved Searches')))
      return undefined;
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
