/** Export Saved Searches to a JSON file, and Import them from one. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  FORMAT_VERSION,
  describeEntryError,
  mergeImported,
  parseSearchesFile,
  serializeSearches,
} from '../../../core/savedSearches';
import { neutraliseUiText } from '../../../core/text/inert';
import type { Ctx } from '../../ctx';
import { defaultDir, isObj } from '../args';
import type { SavedSearchStore } from './savedStore';

/** What export and import work with. */
export interface TransferParts {
  ctx: Pick<Ctx, 'argumentPaths' | 'log'>;
  store: SavedSearchStore;
}

/** The file a command argument names (`{ path }` or a Uri), if any. */
function fileArgument(arg: unknown): vscode.Uri | undefined {
  if (isObj(arg) && typeof arg.path === 'string') return vscode.Uri.file(arg.path);
  return arg instanceof vscode.Uri ? arg : undefined;
}

export async function exportSavedSearches(
  f: TransferParts,
  arg?: unknown,
): Promise<{ path: string; count: number } | undefined> {
  const list = f.store.list();
  let uri = fileArgument(arg);
  // A file named by an argument outside the trusted workspace is written only after a yes.
  if (uri && !(await f.ctx.argumentPaths.confirm(uri, 'write', vscode.l10n.t('ODIN: Export Saved Searches'))))
    return undefined;
  uri ??= await vscode.window.showSaveDialog({
    title: vscode.l10n.t('ODIN: Export Saved Searches'),
    defaultUri: vscode.Uri.file(path.join(defaultDir(), 'odin-searches.json')),
    filters: { JSON: ['json'] },
  });
  if (!uri) return undefined;
  // Ids are local bookkeeping: the shared file carries names and searches only.
  const text = serializeSearches(list).replace(/^ {6}"id": "[^"]*",\n/gm, '');
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  if (!isObj(arg))
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'ODIN: exported {0} saved searches (format version {1}) to {2}.',
        list.length,
        FORMAT_VERSION,
        path.basename(uri.fsPath),
      ),
    );
  return { path: uri.fsPath, count: list.length };
}

/**
 * Imports saved searches from a JSON file: adds the valid entries (never overwrites;
 * exact duplicates are skipped), and lists the invalid ones with their reasons. A file
 * that cannot be read changes nothing.
 */
export async function importSavedSearches(
  f: TransferParts,
  arg?: unknown,
): Promise<{ added: number; skipped: number; errors: string[]; fatal?: string } | undefined> {
  let uri = fileArgument(arg);
  const quiet = isObj(arg) && arg.quiet === true;
  // A file named by an argument outside the trusted workspace is read only after a yes.
  if (uri && !(await f.ctx.argumentPaths.confirm(uri, 'read', vscode.l10n.t('ODIN: Import Saved Searches'))))
    return undefined;
  if (!uri) {
    const picked = await vscode.window.showOpenDialog({
      title: vscode.l10n.t('ODIN: Import Saved Searches'),
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
    if (bytes.byteLength > 5 * 1024 * 1024) throw new Error(vscode.l10n.t('the file is larger than 5 MB'));
    text = Buffer.from(bytes).toString('utf8');
  } catch (err) {
    const fatal = vscode.l10n.t(
      'Could not read {0}: {1}',
      path.basename(uri.fsPath),
      err instanceof Error ? err.message : String(err),
    );
    if (!quiet) void vscode.window.showErrorMessage(vscode.l10n.t('ODIN: {0}', neutraliseUiText(fatal)));
    return { added: 0, skipped: 0, errors: [], fatal };
  }
  const parsed = parseSearchesFile(text);
  if ('fatal' in parsed) {
    const fatal = vscode.l10n.t(
      '{0} was not imported: {1} Nothing was changed.',
      path.basename(uri.fsPath),
      parsed.fatal,
    );
    f.ctx.log.warn(fatal);
    if (!quiet) void vscode.window.showErrorMessage(vscode.l10n.t('ODIN: {0}', neutraliseUiText(fatal, 600)));
    return { added: 0, skipped: 0, errors: [], fatal };
  }
  let added = 0;
  let skipped = 0;
  if (parsed.searches.length) {
    await f.store.update((list) => {
      const r = mergeImported(list, parsed.searches);
      added = r.added;
      skipped = r.skipped;
      return r.list;
    });
  }
  const errors = parsed.errors.map(describeEntryError);
  if (errors.length)
    // l10n: English, for the log
    f.ctx.log.warn(`Import of ${uri.fsPath}: ${errors.length} entries skipped:\n  ${errors.join('\n  ')}`);
  if (!quiet) {
    const parts = [
      added === 1
        ? vscode.l10n.t('imported 1 saved search')
        : vscode.l10n.t('imported {0} saved searches', added),
    ];
    if (skipped) parts.push(vscode.l10n.t('{0} already present', skipped));
    if (errors.length)
      parts.push(
        vscode.l10n.t(
          '{0} invalid ({1})',
          errors.length,
          `${neutraliseUiText(errors.slice(0, 2).join('; '), 300)}${errors.length > 2 ? '; …' : ''}`,
        ),
      );
    const show = errors.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const showLog = vscode.l10n.t('Show Log');
    void show(vscode.l10n.t('ODIN: {0}.', parts.join(', ')), ...(errors.length ? [showLog] : [])).then(
      (c) => c && f.ctx.log.show(),
    );
  }
  return { added, skipped, errors };
}
