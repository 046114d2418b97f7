/**
 * The notebook's two file commands (part of dist/notebook.js): "Open All Rows" opens a query
 * cell's full result (its sidecar, at most 1,000 rows of which the output draws), offered as
 * the cell's status bar item; "Export Case" writes the case record with the STIX 2.1 bundle
 * and MISP event of what the cells found (src/core/notebook/export.ts). Both read and write
 * only beside the notebook (`.odin/`) and send nothing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isNotebookOutput, NOTEBOOK_RESULT_MIME, type NotebookOutput } from '../../common/notebookOutput';
import { realPathInside } from '../../core/files/insideRoots';
import { exportCase } from '../../core/notebook/export';
import { recordPaths } from '../../core/notebook/record';
import type { ExportedCase, OpenedNotebookRows } from '../commands';
import type { Ctx } from '../ctx';
import { NOTEBOOK_TYPE } from './ids';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The ODIN notebook open in this window with this URI (never an object a caller made up). */
function openNotebook(uri: unknown): vscode.NotebookDocument | undefined {
  const key = uri instanceof vscode.Uri ? uri.toString() : typeof uri === 'string' ? uri : undefined;
  return vscode.workspace.notebookDocuments.find(
    (d) => d.notebookType === NOTEBOOK_TYPE && d.uri.toString() === key,
  );
}

/**
 * The cell an argument names: a cell (the status bar item passes its own), or none: the
 * active ODIN notebook's selected cell. Read back from the open notebook by URI and index.
 */
function cellOf(arg: unknown): vscode.NotebookCell | undefined {
  if (isObj(arg) && isObj(arg.notebook) && typeof arg.index === 'number') {
    const nb = openNotebook((arg.notebook as { uri?: unknown }).uri);
    return nb && arg.index >= 0 && arg.index < nb.cellCount ? nb.cellAt(arg.index) : undefined;
  }
  if (arg !== undefined) return undefined;
  const editor = vscode.window.activeNotebookEditor;
  if (editor?.notebook.notebookType !== NOTEBOOK_TYPE) return undefined;
  const index = editor.selection.start;
  return index < editor.notebook.cellCount ? editor.notebook.cellAt(index) : undefined;
}

/** A query cell's result payload (its rich output item), when it has one. */
export function payloadOf(cell: vscode.NotebookCell): NotebookOutput | undefined {
  for (const out of cell.outputs)
    for (const item of out.items) {
      if (item.mime !== NOTEBOOK_RESULT_MIME) continue;
      try {
        const v: unknown = JSON.parse(new TextDecoder().decode(item.data));
        return isNotebookOutput(v) ? v : undefined;
      } catch {
        return undefined;
      }
    }
  return undefined;
}

/** The sidecar a cell's output names, when it is a `.jsonl` file in the notebook's `.odin/`. */
export function sidecarOf(cell: vscode.NotebookCell): { file: string; rows: number } | undefined {
  const p = payloadOf(cell);
  if (!p?.sidecar || cell.notebook.uri.scheme !== 'file') return undefined;
  const nbFile = cell.notebook.uri.fsPath;
  const target = path.resolve(path.dirname(nbFile), p.sidecar);
  const real = target.endsWith('.jsonl') ? realPathInside([recordPaths(nbFile).dir], target) : undefined;
  return real ? { file: real, rows: p.rowCount } : undefined;
}

/** The notebook an argument names: its toolbar's context, a URI, or none: the active one. */
function notebookOf(arg: unknown): vscode.NotebookDocument | undefined {
  if (arg === undefined) {
    const nb = vscode.window.activeNotebookEditor?.notebook;
    return nb?.notebookType === NOTEBOOK_TYPE ? nb : undefined;
  }
  // The notebook toolbar passes `{ notebookEditor: { notebookUri } }` (the editor's JSON form);
  // a notebook document passes itself; a URI names one.
  if (isObj(arg) && isObj(arg.notebookEditor)) return openNotebook(arg.notebookEditor.notebookUri);
  if (isObj(arg) && !(arg instanceof vscode.Uri) && 'notebookType' in arg) return openNotebook(arg.uri);
  return openNotebook(arg);
}

export async function openAllRows(arg: unknown): Promise<OpenedNotebookRows | undefined> {
  const cell = cellOf(arg);
  const side = cell && sidecarOf(cell);
  if (!side) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('ODIN: this cell has no full result to open: run it first.'),
    );
    return undefined;
  }
  if (!fs.existsSync(side.file))
    throw new Error(vscode.l10n.t('The full result of this cell is gone: run the cell again.'));
  // Opened as a file, not a document the extension holds: a 10,000-host result is hundreds of
  // MB, over what VS Code hands an extension (the editor offers its own large-file view).
  await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(side.file), { preview: false });
  return { file: side.file, rows: side.rows };
}

export async function exportNotebookCase(ctx: Ctx, arg: unknown): Promise<ExportedCase | undefined> {
  const nb = notebookOf(arg);
  if (!nb || nb.uri.scheme !== 'file') {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('ODIN: open a saved ODIN notebook (.odinnb) to export its case.'),
    );
    return undefined;
  }
  const done = await exportCase(nb.uri.fsPath);
  // l10n: English, for the log
  ctx.log.info(
    `Case exported to ${done.dir}: ${done.hosts} hosts from cells ${done.cells.join(', ') || '-'}` +
      (done.skipped.length
        ? `; left out: ${done.skipped.map((s) => `cell ${s.cell} (${s.why})`).join(', ')}`
        : ''),
  );
  const open = vscode.l10n.t('Open STIX Bundle');
  const left = done.skipped.length;
  void vscode.window
    .showInformationMessage(
      left
        ? vscode.l10n.t(
            'ODIN: case exported ({0} hosts; {1} cells left out, see the log) to {2}',
            done.hosts,
            left,
            vscode.workspace.asRelativePath(done.dir),
          )
        : vscode.l10n.t(
            'ODIN: case exported ({0} hosts) to {1}',
            done.hosts,
            vscode.workspace.asRelativePath(done.dir),
          ),
      open,
    )
    .then(async (choice) => {
      if (choice === open) await vscode.window.showTextDocument(vscode.Uri.file(done.files.stix));
    });
  return done;
}
