/** Run-time checks of command arguments, which come from menus, keybindings, tasks and other extensions. */
import * as vscode from 'vscode';
import type { Node } from './results/resultNodes';
import type { SavedNode } from './saved/savedView';

export type Args = Record<string, unknown>;

export function isObj(v: unknown): v is Args {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isResultNode(v: unknown): v is Node {
  return isObj(v) && typeof v.type === 'string' && isObj(v.set) && typeof (v.set as Args).id === 'string';
}

export function isSavedNode(v: unknown): v is SavedNode {
  return (
    isObj(v) &&
    (v.type === 'search' ||
      v.type === 'group' ||
      v.type === 'hunts' ||
      v.type === 'huntFile' ||
      v.type === 'hunt' ||
      v.type === 'news' ||
      v.type === 'new')
  );
}

/** Where export and import dialogs open: the first workspace folder, else the home folder. */
export function defaultDir(): string {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.env.HOME ?? '/';
}
