import * as vscode from 'vscode';
import { WHOIS_SCHEME } from './ids';

/**
 * Read-only virtual documents of whois snapshots (`odin-whois:/<domain>/<n>-<date>.txt`)
 * for VS Code's diff editor. The text is set by the whois page before it opens a diff;
 * documents are read-only because content providers are.
 */
export class WhoisSnapshotDocs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(domain: string, index: number, label: string, text: string): vscode.Uri {
    const safeLabel = label.replace(/[^0-9A-Za-z.-]+/g, '_').slice(0, 40);
    const uri = vscode.Uri.from({
      scheme: WHOIS_SCHEME,
      path: `/${domain}/${index}${safeLabel ? `-${safeLabel}` : ''}.txt`,
    });
    const key = uri.toString();
    const prev = this.texts.get(key);
    this.texts.set(key, text);
    if (prev !== undefined && prev !== text) this.changed.fire(uri);
    // Keep the map small: old snapshots of closed diffs are not needed.
    if (this.texts.size > 200) this.texts.delete(this.texts.keys().next().value as string);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.texts.get(uri.toString()) ??
      vscode.l10n.t('This whois snapshot is no longer loaded. Open the whois page again.')
    );
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
  }
}
