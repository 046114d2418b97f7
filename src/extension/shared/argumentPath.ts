import * as path from 'node:path';
import * as vscode from 'vscode';
import { realPathInside } from '../../core/files/insideRoots';
import { neutraliseUiText } from '../../core/text/inert';
import { config } from './config';

/** What the modal showed, and the answer to give instead of showing it (tests only). */
export interface PathPrompts {
  shown: { message: string; detail: string }[];
  answer: ((message: string, detail: string) => string | undefined) | undefined;
}

/**
 * A file named in a command argument (a keybinding, a task or launch input, a link, another
 * extension) rather than picked by the user in a file dialog. Used as given only when it is
 * inside a folder of the open workspace and the workspace is trusted; anywhere else ODIN
 * asks first, in a modal naming the file, and a "no" means nothing is read or written.
 * Links and `..` are resolved before the check, so a path cannot leave the folder by them.
 * One per window, on `Ctx` (`ctx.argumentPaths`).
 */
export class ArgumentPaths {
  /**
   * What the modal was asked to show, and the answer to give instead of showing it: set only
   * by the integration tests through the TestApi (extension test mode), never otherwise.
   */
  readonly prompts: PathPrompts = { shown: [], answer: undefined };

  async confirm(uri: vscode.Uri, access: 'write' | 'read', title: string): Promise<boolean> {
    if (config.workspaceTrusted() && insideWorkspace(uri)) return true;
    const file = uri.scheme === 'file' ? uri.fsPath : uri.toString(true);
    const name = neutraliseUiText(path.basename(file), 120);
    const shown = neutraliseUiText(file, 1000);
    const trusted = config.workspaceTrusted();
    const message =
      access === 'write'
        ? vscode.l10n.t('{0}: write {1}?', title, name)
        : vscode.l10n.t('{0}: read {1}?', title, name);
    const detail =
      access === 'write'
        ? trusted
          ? vscode.l10n.t(
              'A command argument asks ODIN to write (and replace) this file, outside the workspace folders:\n\n{0}',
              shown,
            )
          : vscode.l10n.t(
              'A command argument asks ODIN to write (and replace) this file, outside the trusted workspace:\n\n{0}',
              shown,
            )
        : trusted
          ? vscode.l10n.t(
              'A command argument asks ODIN to read this file, outside the workspace folders:\n\n{0}',
              shown,
            )
          : vscode.l10n.t(
              'A command argument asks ODIN to read this file, outside the trusted workspace:\n\n{0}',
              shown,
            );
    const go = access === 'write' ? vscode.l10n.t('Write File') : vscode.l10n.t('Read File');
    const prompts = this.prompts;
    const answer = prompts.answer
      ? (prompts.shown.push({ message, detail }), prompts.answer(message, detail))
      : await vscode.window.showWarningMessage(message, { modal: true, detail }, go);
    return answer === go;
  }
}

function insideWorkspace(uri: vscode.Uri): boolean {
  return workspaceRealPath(uri) !== undefined;
}

/**
 * The real path of a file (links and `..` resolved) when it lies inside the real path of a
 * workspace folder, else undefined: a link inside the workspace to a file outside it is
 * outside. Open the path returned, not the one given, so the check and the read name the
 * same file.
 */
export function workspaceRealPath(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== 'file') return undefined;
  const roots = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => f.uri.fsPath);
  return realPathInside(roots, uri.fsPath);
}
