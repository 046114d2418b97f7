import * as vscode from 'vscode';
import { triageGlance, type TriageGlance } from '../../common/triage/glance';
import { fromTriageView, type FromTriageView, type ToTriageView } from '../../common/triage/protocol';
import { account, fileCount, rowViews, triageHeadline, type TriageRow } from '../../core/triage';
import type { Ctx } from '../ctx';
import { runCommand } from '../shared/runCommand';
import { WebviewPage, type PageMessageOf, type PageSpec } from '../webviewKit/page';
import { openMarkdownReport } from './reportUi';
import type { TriageState } from './state';

export const TRIAGE_VIEW_TYPE = 'odin.triageView';

/** The triage page for the webview kit: its script, its message schema, its data messages. */
const TRIAGE_PAGE: PageSpec<FromTriageView, ToTriageView> = {
  page: 'triage',
  title: vscode.l10n.t('ODIN Triage'),
  script: 'triage-view.js',
  fromPage: fromTriageView,
  dataTypes: ['rows', 'empty'],
};

/**
 * The triage view: one row per indicator of the last triage of this window, in a webview
 * beside the editor (a page of the webview kit, with its own script and message protocol,
 * src/common/triage/protocol.ts). It shows what the triage state holds and never sends a
 * request by itself: opening a row runs `odin.openHostDetails` / `odin.openWhoisDetails`,
 * the user's explicit action through the one gate.
 */
export class TriageView implements vscode.Disposable {
  private generation = 0;
  /** The rows the page's indices point into (the generation last posted). */
  private posted: readonly TriageRow[] = [];
  /** The header's charts of the generation last posted. */
  private postedGlance: TriageGlance = { charts: [] };
  /** What the page last said of the header's filter (a bar, the rows left, the first of them). */
  private filterReport: Extract<FromTriageView, { type: 'glanceFilter' }> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly page: WebviewPage<FromTriageView, ToTriageView>;
  private readonly sub: vscode.Disposable;

  /** Opens the view (or brings it forward) beside the editor. */
  static show(ctx: Ctx, state: TriageState, preserveFocus = false): TriageView {
    const open = state.view;
    if (open) {
      open.panel.reveal(undefined, preserveFocus);
      return open;
    }
    const panel = WebviewPage.createPanel(ctx, TRIAGE_VIEW_TYPE, vscode.l10n.t('ODIN Triage'), {
      viewColumn: vscode.ViewColumn.Beside,
      preserveFocus,
    });
    state.view = new TriageView(ctx, state, panel);
    return state.view;
  }

  private constructor(
    private readonly ctx: Ctx,
    private readonly state: TriageState,
    readonly panel: vscode.WebviewPanel,
  ) {
    this.page = new WebviewPage(ctx, panel, TRIAGE_PAGE, 'triage', {
      onReady: () => this.postRows(),
      onMessage: (m) => this.onMessage(m),
      onDispose: () => this.dispose(),
    });
    this.sub = state.onDidChange(() => this.schedule());
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.postRows();
    }, 100);
  }

  private postRows(): void {
    const t = this.state.last;
    if (!t) {
      this.posted = [];
      this.page.post({
        type: 'empty',
        message: vscode.l10n.t(
          'No triage yet in this window. Run "ODIN: Triage Indicators in File" or "ODIN: Triage Indicators in Folder…".',
        ),
      });
      return;
    }
    this.generation++;
    this.posted = t.rows;
    const acc = account(t);
    const files =
      t.files.length === 1
        ? vscode.workspace.asRelativePath(vscode.Uri.parse(t.files[0]!))
        : fileCount(t.files.length);
    const summary = triageHeadline(t.rows.length, files, t.occurrences, t.truncated, acc.summary);
    const views = rowViews(t, (u) => vscode.workspace.asRelativePath(vscode.Uri.parse(u)));
    this.postedGlance = triageGlance(views);
    this.filterReport = undefined;
    this.page.post({
      type: 'rows',
      generation: this.generation,
      rowsJson: JSON.stringify(views),
      summary,
      glance: this.postedGlance,
    });
  }

  /** The header's charts as posted (the test API reads them). */
  glance(): TriageGlance {
    return this.postedGlance;
  }

  /** The header filter the page last reported for the current generation: the chart, its key, the rows left. */
  glanceFilter(): { chart: string; key?: string; shown: number; top: string[] } | undefined {
    const f = this.filterReport;
    if (!f || f.generation !== this.generation) return undefined;
    const chart = this.postedGlance.charts.find((c) => c.id === f.chart);
    const key = f.bucket === undefined ? undefined : chart?.keys[f.bucket];
    return {
      chart: f.chart,
      ...(key !== undefined ? { key } : {}),
      shown: f.shown,
      top: f.top.flatMap((i) => (this.posted[i] ? [this.posted[i].value] : [])),
    };
  }

  private async onMessage(m: PageMessageOf<FromTriageView>): Promise<void> {
    switch (m.type) {
      case 'glanceFilter':
        // The filter is the page's own: the extension only notes it (the log, the tests).
        this.filterReport = m;
        // l10n: English, for the log
        this.ctx.log.debug(
          `Triage view: header filter ${m.chart}${m.bucket === undefined ? ' cleared' : ` bar ${m.bucket}`}, ${m.shown} rows shown.`,
        );
        return;
      case 'action':
        if (m.action === 'openReport') await openMarkdownReport(this.state);
        else await runCommand('odin.triageReport');
        return;
      case 'open':
      case 'reveal': {
        // Indices of an older generation point at rows that may have moved: ignored.
        const row = m.generation === this.generation ? this.posted[m.index] : undefined;
        if (row) await this.act(m.type, row);
        return;
      }
    }
  }

  private async act(what: 'open' | 'reveal', row: TriageRow): Promise<void> {
    if (what === 'open' && (row.kind === 'ipv4' || row.kind === 'ipv6')) {
      await runCommand('odin.openHostDetails', row.value);
    } else if (what === 'open' && row.kind === 'domain') {
      await runCommand('odin.openWhoisDetails', row.value);
    } else {
      await revealOccurrences(row);
    }
  }

  dispose(): void {
    if (this.state.view === this) this.state.view = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.sub.dispose();
    this.page.dispose();
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
