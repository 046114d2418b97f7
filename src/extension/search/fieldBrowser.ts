/**
 * "ODIN: Browse Query Fields": the field catalogue of hosts, buckets or files in a pick (a
 * locked field says which plan it needs), then the query input started with the picked field.
 * `{catalogue, list: true}` returns the names without a prompt (tests, tasks).
 */
import * as vscode from 'vscode';
import type { QueryTarget } from '../../core/query';
import { KINDS, type SearchKind } from '../../core/search';
import { toAbortSignal } from '../shared/abort';
import { isObj } from './args';
import type { FieldCatalogue } from './fieldCatalogue';
import { fieldItem, promptQuery } from './prompts';
import type { SearchRunner } from './searchRunner';

/** What the field browser works with. */
export interface BrowseParts {
  catalogue: FieldCatalogue;
  runner: SearchRunner;
}

export async function browseFields(f: BrowseParts, arg?: unknown): Promise<unknown> {
  const a = isObj(arg) ? arg : {};
  let which: QueryTarget | undefined =
    a.catalogue === 'hosts' || a.catalogue === 'buckets' || a.catalogue === 'files' ? a.catalogue : undefined;
  if (which && a.list === true) {
    const list = await f.catalogue.fields(which);
    return list.map((x) => ({ name: x.name, locked: !!x.locked }));
  }
  if (!which) {
    const pick = await vscode.window.showQuickPick(
      [
        { label: vscode.l10n.t('Host fields'), which: 'hosts' as const },
        { label: vscode.l10n.t('Exposed bucket fields'), which: 'buckets' as const },
        { label: vscode.l10n.t('Exposed file fields'), which: 'files' as const },
      ],
      { title: vscode.l10n.t('ODIN: Browse Query Fields') },
    );
    if (!pick) return undefined;
    which = pick.which;
  }
  const fields = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('ODIN: loading the field list'),
      cancellable: true,
    },
    (_p, token) => toAbortSignal(token, (signal) => f.catalogue.fields(which!, signal)),
  );
  const picked = await vscode.window.showQuickPick(fields.map(fieldItem), {
    title: vscode.l10n.t('ODIN: {0} queryable fields', fields.length),
    placeHolder: vscode.l10n.t('Pick a field to start a search with it'),
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  const kind: SearchKind = which === 'hosts' ? 'hosts' : which === 'buckets' ? 'buckets' : 'fileCount';
  const query = await promptQuery({
    title: KINDS[kind].title,
    target: which,
    value: `${picked.name}:`,
    recent: f.runner.recent(which),
    catalogue: f.catalogue,
  });
  if (query === undefined) return undefined;
  return f.runner.run({ kind, query }, { interactive: true });
}
