/**
 * Investigation notebooks in the editor: the controller that runs `.odinnb` query cells
 * through the core (src/core/notebook: the same `NotebookRun` the headless runner uses), the
 * status item that shows a cell's count before it spends, the outputs (a table, chart or map
 * payload for the renderer and a Markdown fallback) and the case record beside the notebook.
 * Outputs are transient: the saved notebook keeps one summary line per cell.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CellEstimate, CellRun, NotebookSession } from '../../core/notebook/execute';
import { recordPaths, summaryLine } from '../../core/notebook/record';
import { NotebookRun } from '../../core/notebook/run';
import { readCredits } from '../../core/search/run';
import { neutraliseUiText } from '../../core/text/inert';
import { NOTEBOOK_RESULT_MIME } from '../../common/notebookOutput';
import { cellMarkdown } from '../../core/notebook/markdown';
import type { CommandsOf } from '../commands';
import type { Ctx } from '../ctx';
import { exportNotebookCase, openAllRows, sidecarOf } from './commands';
import { outputPayload } from './output';
import { toAbortSignal } from '../shared/abort';
import { NOTEBOOK_TYPE, SUMMARY_KEY } from './ids';
import { fmt } from '../../core/text/numbers';

/** The mime type of a cell's result payload (the notebook renderer draws it). */
export const RESULT_MIME = NOTEBOOK_RESULT_MIME;

/** What the status item showed, in order (the host test checks count-before-spend with it). */
export interface NotebookStatusEvent {
  notebook: string;
  cell: number;
  phase: 'estimate' | 'done';
  text: string;
  /** Requests the window's request layer had sent when this was shown. */
  requestsSent: number;
  /**
   * Credits the window's ledger had charged when this was shown: a cell's pages, never the
   * free credits reads (the credits item's own refresh may land while a cell runs).
   */
  creditsSpent: number;
}

export interface NotebookFeature {
  readonly controller: vscode.NotebookController;
  readonly status: vscode.StatusBarItem;
  readonly events: NotebookStatusEvent[];
  readonly commands: CommandsOf<'notebook'>;
}

const MAX_EVENTS = 500;

/** Shows a cell's phase on the status item and keeps it in the feature's events. */
type ShowStatus = (
  nb: vscode.NotebookDocument,
  cell: number,
  phase: NotebookStatusEvent['phase'],
  text: string,
) => void;

export function createNotebook(ctx: Ctx): NotebookFeature {
  const controller = createController(ctx);
  const status = vscode.window.createStatusBarItem('odin.notebookCount', vscode.StatusBarAlignment.Left, 50);
  status.name = vscode.l10n.t('ODIN Notebook Cell Count');
  ctx.subscriptions.add(status);
  const events: NotebookStatusEvent[] = [];
  const runs = new Map<string, { key: string; run: NotebookRun }>();
  let order = 0;
  const session = notebookSession(ctx);

  const show: ShowStatus = (nb, cell, phase, text) => {
    status.text = text;
    status.tooltip = vscode.l10n.t('ODIN notebook, cell {0}', cell);
    status.show();
    events.push({
      notebook: nb.uri.toString(),
      cell,
      phase,
      text,
      requestsSent: ctx.requests.sent,
      creditsSpent: ctx.ledger.spent,
    });
    if (events.length > MAX_EVENTS) events.splice(0, events.length - MAX_EVENTS);
  };

  const runOf = (nb: vscode.NotebookDocument): NotebookRun => {
    const meta = nb.metadata as { params?: Record<string, string>; budget?: number };
    const key = JSON.stringify([meta.params ?? {}, meta.budget, ctx.origin()]);
    const known = runs.get(nb.uri.toString());
    if (known?.key === key) return known.run;
    const run = new NotebookRun(session, nb.uri.fsPath, meta.params ?? {}, meta.budget, 'editor');
    runs.set(nb.uri.toString(), { key, run });
    return run;
  };

  const execute = async (cells: vscode.NotebookCell[], nb: vscode.NotebookDocument): Promise<void> => {
    if (nb.uri.scheme !== 'file') {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('ODIN: save the notebook to a file first: its case record goes beside it.'),
      );
      return;
    }
    if (!ctx.gate.trusted()) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('ODIN: notebook cells run only in a trusted workspace.'),
      );
      return;
    }
    const run = runOf(nb);
    for (const c of nb.getCells())
      if (c.kind === vscode.NotebookCellKind.Markup) run.markdown(c.index + 1, c.document.getText());
    let stopped = false;
    for (const cell of cells) {
      if (stopped) {
        run.notRun(cell.index + 1);
        continue;
      }
      const exec = controller.createNotebookCellExecution(cell);
      exec.executionOrder = ++order;
      const result = await runQueryCell(ctx, exec, cell, nb, run, show);
      if (result.status !== 'ok') stopped = true;
    }
    saveCase(ctx, run);
  };

  registerOpenAllRows(ctx);

  controller.executeHandler = (cells, nb) =>
    execute(cells, nb).catch((e: unknown) => {
      ctx.log.error(e instanceof Error ? e : String(e));
      void vscode.window.showErrorMessage(
        vscode.l10n.t(
          'ODIN notebook: {0}',
          neutraliseUiText(e instanceof Error ? e.message : String(e), 300),
        ),
      );
    });

  const commands: CommandsOf<'notebook'> = {
    'odin.openAllNotebookRows': (cell) => openAllRows(cell),
    'odin.exportNotebookCase': (notebook) => exportNotebookCase(ctx, notebook),
  };
  return { controller, status, events, commands };
}

/** The one controller for ODIN notebooks: preferred, so Run All needs no kernel pick. */
function createController(ctx: Ctx): vscode.NotebookController {
  const controller = vscode.notebooks.createNotebookController(
    'odin-notebook-controller',
    NOTEBOOK_TYPE,
    'ODIN',
  );
  controller.supportedLanguages = ['odinq'];
  controller.supportsExecutionOrder = true;
  controller.description = vscode.l10n.t('Runs query cells through ODIN, count first');
  ctx.subscriptions.add(controller);
  const prefer = (nb: vscode.NotebookDocument): void => {
    if (nb.notebookType === NOTEBOOK_TYPE)
      controller.updateNotebookAffinity(nb, vscode.NotebookControllerAffinity.Preferred);
  };
  ctx.subscriptions.add(vscode.workspace.onDidOpenNotebookDocument(prefer));
  for (const nb of vscode.workspace.notebookDocuments) prefer(nb);
  return controller;
}

/** The window's request parts, as a notebook run asks for them. */
function notebookSession(ctx: Ctx): NotebookSession {
  return {
    env: { client: () => ctx.client(), requests: ctx.requests },
    gate: () => ({ gate: ctx.gate.current(), consented: ctx.gate.hasRestrictedConsent() }),
    baseUrl: () => ctx.origin(),
    credits: async (signal) =>
      ctx.keys.get()
        ? (await readCredits({ client: () => ctx.client(), requests: ctx.requests }, { signal })).hostCert
            ?.left
        : undefined,
  };
}

/**
 * Runs one query cell in the editor: the estimate on the status item, the budget question, the
 * outputs, the case record and the cell's summary line in the notebook.
 */
async function runQueryCell(
  ctx: Ctx,
  exec: vscode.NotebookCellExecution,
  cell: vscode.NotebookCell,
  nb: vscode.NotebookDocument,
  run: NotebookRun,
  show: ShowStatus,
): Promise<CellRun> {
  const n = cell.index + 1;
  exec.start(Date.now());
  await exec.clearOutput();
  const left = (): number => Math.max(0, ((nb.metadata as { budget?: number }).budget ?? 0) - run.spent);
  const result: CellRun = await toAbortSignal(exec.token, (signal) =>
    run.query(n, cell.document.getText(), {
      signal,
      onEstimate: (e) =>
        show(
          nb,
          n,
          'estimate',
          vscode.l10n.t('$(pulse) ≈ {0} hosts · ≈ {1} credits', fmt(e.hosts), e.credits),
        ),
      confirm: (e) => confirmSpend(n, e, left()),
    }),
  );
  const file = recordPaths(nb.uri.fsPath);
  const sidecar =
    result.status === 'ok' && result.rowCount > 0
      ? path.relative(path.dirname(nb.uri.fsPath), file.sidecar(n))
      : undefined;
  show(
    nb,
    n,
    'done',
    result.status === 'ok'
      ? vscode.l10n.t('$(check) {0} rows · {1} credits', fmt(result.rowCount), result.spent)
      : vscode.l10n.t('$(error) cell {0}: {1}', n, neutraliseUiText(result.status, 40)),
  );
  await exec.replaceOutput(cellOutputs(result, sidecar));
  exec.end(result.status === 'ok', Date.now());
  saveCase(ctx, run);
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [
    vscode.NotebookEdit.updateCellMetadata(cell.index, {
      ...cell.metadata,
      [SUMMARY_KEY]: summaryLine(result),
    }),
  ]);
  await vscode.workspace.applyEdit(edit);
  return result;
}

/** Asks before a cell spends more than the notebook's budget has left. */
async function confirmSpend(cell: number, est: CellEstimate, left: number): Promise<boolean> {
  const go = vscode.l10n.t('Run');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      "Cell {0} would spend ≈ {1} credits (≈ {2} hosts); the notebook's budget has {3} left. Run it?",
      cell,
      est.credits,
      fmt(est.hosts),
      left,
    ),
    { modal: true },
    go,
  );
  return answer === go;
}

function cellOutputs(run: CellRun, sidecar: string | undefined): vscode.NotebookCellOutput[] {
  const payload = outputPayload(run, sidecar);
  if (!payload)
    return [new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.stderr(run.message ?? run.status)])];
  // The rich item first (package.json's `notebook.displayOrder` default puts its mime ahead
  // of Markdown), then the same result as Markdown: what "Change Presentation", a diff or a
  // view without our renderer shows. Outputs are transient: neither is saved in the file.
  return [
    new vscode.NotebookCellOutput([
      vscode.NotebookCellOutputItem.json(payload, RESULT_MIME),
      vscode.NotebookCellOutputItem.text(cellMarkdown(run, sidecar), 'text/markdown'),
    ]),
  ];
}

/** Writes the case record; a failure is logged, never stops the cells. */
function saveCase(ctx: Ctx, run: NotebookRun): void {
  try {
    run.save();
  } catch (e) {
    // l10n: English, for the log
    ctx.log.warn(`Case record not written: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * "Open all N rows" on a query cell whose full result is in its sidecar (the output draws
 * at most 1,000 of them). Asked again when the cell's outputs or metadata change.
 */
function registerOpenAllRows(ctx: Ctx): void {
  const statusItems = new vscode.EventEmitter<void>();
  ctx.subscriptions.add(statusItems);
  ctx.subscriptions.add(
    vscode.notebooks.registerNotebookCellStatusBarItemProvider(NOTEBOOK_TYPE, {
      onDidChangeCellStatusBarItems: statusItems.event,
      provideCellStatusBarItems: (cell) => {
        const side = sidecarOf(cell);
        if (!side) return [];
        const item = new vscode.NotebookCellStatusBarItem(
          vscode.l10n.t('$(go-to-file) Open all {0} rows', fmt(side.rows)),
          vscode.NotebookCellStatusBarAlignment.Right,
        );
        item.tooltip = vscode.l10n.t(
          'The full result of this cell, one JSON line per row: {0}',
          vscode.workspace.asRelativePath(side.file),
        );
        item.command = {
          title: vscode.l10n.t('Open All Rows'),
          command: 'odin.openAllNotebookRows',
          arguments: [cell],
        };
        return [item];
      },
    }),
  );
  ctx.subscriptions.add(
    vscode.workspace.onDidChangeNotebookDocument((e) => {
      if (e.notebook.notebookType === NOTEBOOK_TYPE && e.cellChanges.some((c) => c.outputs))
        statusItems.fire();
    }),
  );
}
