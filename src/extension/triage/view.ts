import * as vscode from 'vscode';
import { parseFromTriageView, type ToTriageView } from '../../common/triageProtocol';
import { account, rowViews, type TriageRow } from '../../core/triage';
import type { Ctx } from '../ctx';
import { detailsHtml, webviewOptions } from '../details/html';
import { openMarkdownReport } from './reportUi';
import type { TriageState } from './state';

export const TRIAGE_VIEW_TYPE = 'odin.triageView';

/** What the view reports, for the tests and the bench (through the TestApi's triage feature). */
export interface TriageViewProbe {
  rendered: Array<{ generation: number; rows: number; shown: number; dom: number; ms: number; at: number }>;
  /** Rows the page asked to open or reveal (value and what was done). */
  actions: Array<{ what: 'open' | 'reveal'; value: string; done: string }>;
  rejected: number;
}

/**
 * The triage view: one row per indicator of the last triage of this window, in a webview
 * beside the editor (the details pages' HTML shell, CSP and options; its own script and
 * message protocol, src/common/triageProtocol.ts). It shows what the triage state holds and
 * never sends a request by itself: opening a row runs `odin.openHostDetails` /
 * `odin.openWhoisDetails`, the user's explicit action through the one gate.
 */
export class TriageView implements vscode.Disposable {
  private ready = false;
  private generation = 0;
  /** The rows the page's indices point into (the generation last posted). */
  private posted: readonly TriageRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly subs: vscode.Disposable[] = [];

  /** Opens the view (or brings it forward) beside the editor. */
  static show(ctx: Ctx, state: TriageState, preserveFocus = false): TriageView {
    const open = state.view;
    if (open) {
      open.panel.reveal(undefined, preserveFocus);
      return open;
    }
    const panel = vscode.window.createWebviewPanel(
      TRIAGE_VIEW_TYPE,
      'ODIN Triage',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus },
      webviewOptions(ctx.extension.extensionUri),
    );
    state.view = new TriageView(ctx, state, panel);
    return state.view;
  }

  private constructor(
    private readonly ctx: Ctx,
    private readonly state: TriageState,
    readonly panel: vscode.WebviewPanel,
  ) {
    const extUri = ctx.extension.extensionUri;
    panel.webview.html = detailsHtml(panel.webview, extUri, 'triage', 'ODIN Triage', 'triage-view.js');
    panel.iconPath = vscode.Uri.joinPath(extUri, 'media', 'odin.svg');
    this.subs.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
      state.onDidChange(() => this.schedule()),
    );
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.postRows();
    }, 100);
  }

  private post(m: ToTriageView): void {
    if (!this.ready) return;
    void this.panel.webview.postMessage(m).then(undefined, () => undefined);
  }

  private postRows(): void {
    const t = this.state.last;
    if (!t) {
      this.posted = [];
      this.post({
        type: 'empty',
        message:
          'No triage yet in this window. Run "ODIN: Triage Indicators in File" or "ODIN: Triage Indicators in Folder…".',
      });
      return;
    }
    this.generation++;
    this.posted = t.rows;
    const acc = account(t);
    const files =
      t.files.length === 1
        ? vscode.workspace.asRelativePath(vscode.Uri.parse(t.files[0]!))
        : `${t.files.length} files`;
    const summary = `${t.rows.length} unique indicators in ${files} (${t.occurrences} occurrences${t.truncated ? ', more than listed' : ''}). ${acc.summary}.`;
    this.post({
      type: 'rows',
      generation: this.generation,
      rowsJson: JSON.stringify(rowViews(t, (u) => vscode.workspace.asRelativePath(vscode.Uri.parse(u)))),
      summary,
    });
  }

  private receive(raw: unknown): void {
    const m = parseFromTriageView(raw);
    if (!m) {
      this.state.viewProbe.rejected++;
      this.ctx.log.warn('Triage view sent a message that was refused.');
      return;
    }
    switch (m.type) {
      case 'ready':
        this.ready = true;
        this.postRows();
        return;
      case 'rendered':
        this.ctx.log.debug(
          `Triage view rendered ${m.rows} rows (${m.dom} in the DOM) in ${m.ms.toFixed(1)} ms`,
        );
        this.state.viewProbe.rendered.push({ ...m, at: Date.now() });
        if (this.state.viewProbe.rendered.length > 100) this.state.viewProbe.rendered.shift();
        return;
      case 'action':
        if (m.action === 'openReport') void openMarkdownReport(this.state);
        else void vscode.commands.executeCommand('odin.triageReport');
        return;
      case 'open':
      case 'reveal': {
        // Indices of an older generation point at rows that may have moved: ignored.
        const row = m.generation === this.generation ? this.posted[m.index] : undefined;
        if (!row) return;
        void this.act(m.type, row).catch((err: unknown) =>
          this.ctx.log.warn(`Triage view: ${err instanceof Error ? err.message : String(err)}`),
        );
        return;
      }
    }
  }

  private async act(what: 'open' | 'reveal', row: TriageRow): Promise<void> {
    let done: string;
    if (what === 'open' && (row.kind === 'ipv4' || row.kind === 'ipv6')) {
      done = 'odin.openHostDetails';
      await vscode.commands.executeCommand(done, row.value);
    } else if (what === 'open' && row.kind === 'domain') {
      done = 'odin.openWhoisDetails';
      await vscode.commands.executeCommand(done, row.value);
    } else {
      done = 'reveal';
      await revealOccurrences(row);
    }
    this.state.viewProbe.actions.push({ what, value: row.value, done });
    if (this.state.viewProbe.actions.length > 100) this.state.viewProbe.actions.shift();
  }

  dispose(): void {
    if (this.state.view === this) this.state.view = undefined;
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subs.splice(0)) s.dispose();
    this.panel.dispose();
  }
}

/**
 * Opens the row's first occurrence (in the editor group that already shows its file, else
 * the first one), selects it, and highlights every occurrence of the same text in the file.
 */
async function revealOccurrences(row: TriageRow): Promise<void> {
  const uri = vscode.Uri.parse(row.first.uri);
  const doc = await vscode.workspace.openTextDocument(uri);
  const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
  const start = doc.positionAt(row.first.offset);
  const end = doc.positionAt(row.first.offset + row.first.length);
  const editor = await vscode.window.showTextDocument(doc, {
    viewColumn: shown?.viewColumn ?? vscode.ViewColumn.One,
    selection: new vscode.Range(start, end),
    preserveFocus: false,
  });
  editor.revealRange(new vscode.Range(start, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  const searchString = doc.getText(new vscode.Range(start, end));
  if (searchString)
    await vscode.commands.executeCommand('editor.actions.findWithArgs', {
      searchString,
      isRegex: false,
      matchWholeWord: false,
      isCaseSensitive: false,
    });
}
