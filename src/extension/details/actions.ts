import * as vscode from 'vscode';
import { neutraliseUiText } from '../../core/text/inert';
import { safeExternalUrl } from './hostModel';

/** Actions both pages offer on their JSON: copy, open as an untitled document, save to a file. */
export async function copyJson(value: unknown, what: string): Promise<void> {
  await vscode.env.clipboard.writeText(JSON.stringify(value, null, 2));
  void vscode.window.setStatusBarMessage(
    vscode.l10n.t('ODIN: copied {0} as JSON', neutraliseUiText(what, 120)),
    3000,
  );
}

export async function openJson(value: unknown): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({
    language: 'json',
    content: JSON.stringify(value, null, 2),
  });
  await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
}

export async function exportJson(value: unknown, fileName: string): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    defaultUri: folder ? vscode.Uri.joinPath(folder, fileName) : vscode.Uri.file(fileName),
    filters: { JSON: ['json'] },
    saveLabel: vscode.l10n.t('Export'),
    title: vscode.l10n.t('Export ODIN data as JSON'),
  });
  if (!target) return;
  await vscode.workspace.fs.writeFile(
    target,
    new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`),
  );
  void vscode.window.setStatusBarMessage(
    vscode.l10n.t('ODIN: exported to {0}', neutraliseUiText(target.fsPath, 200)),
    4000,
  );
}

export async function copyText(text: string, what: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
  // `what` can be API text (a CVE id): `$(icon)` must not render in the status bar.
  void vscode.window.setStatusBarMessage(
    vscode.l10n.t('ODIN: copied {0}', neutraliseUiText(what, 120)),
    3000,
  );
}

/**
 * Opens a URL from scan data in the browser, only after the user confirms: it contacts
 * the scanned host (or whoever wrote the reference). http(s) only.
 */
export async function confirmOpenExternal(text: string | undefined): Promise<void> {
  const url = safeExternalUrl(text);
  if (!url) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('ODIN: that link is not an http(s) URL, so it is not opened. You can copy it instead.'),
    );
    return;
  }
  const open = vscode.l10n.t('Open in Browser');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Open this link from scan data in your browser?'),
    {
      modal: true,
      detail: vscode.l10n.t(
        '{0}\n\nYour browser will contact this host directly.',
        neutraliseUiText(url.href, 300),
      ),
    },
    open,
  );
  if (choice === open) await vscode.env.openExternal(vscode.Uri.parse(url.href, true));
}
