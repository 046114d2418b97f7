/**
 * "Save as SVG" and "Save as PNG" of the chart and map pages: what the page sent is checked
 * (core/charts/svgExport.ts, pngExport.ts) before a save dialog offers to write it. A refused
 * file gets a short message; why, in the log.
 */
import * as vscode from 'vscode';
import { checkPng } from '../../core/charts/pngExport';
import { checkSvg } from '../../core/charts/svgExport';
import type { SaveMessage } from '../../common/exportProtocol';
import type { Ctx } from '../ctx';

/** What the page is, in the words of the dialog and the messages ("chart", "map"). */
export async function saveExport(ctx: Ctx, m: SaveMessage, what: string, fileName: string): Promise<void> {
  const png = m.type === 'savePng';
  const checked = png ? checkPng(m.png) : checkSvg(m.svg);
  if (!checked.ok) {
    ctx.log.warn(`The ${what} page sent ${png ? 'a PNG' : 'an SVG'} that was refused: ${checked.reason}.`);
    void vscode.window.showWarningMessage(`ODIN: the ${what} could not be saved (see the log).`);
    return;
  }
  const ext = png ? 'png' : 'svg';
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = `${fileName}.${ext}`;
  const uri = await vscode.window.showSaveDialog({
    title: `ODIN: Save ${what[0]!.toUpperCase()}${what.slice(1)} as ${ext.toUpperCase()}`,
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
    filters: png ? { PNG: ['png'] } : { SVG: ['svg'] },
  });
  if (!uri) return;
  const bytes = 'bytes' in checked ? checked.bytes : Buffer.from(checked.svg, 'utf8');
  await vscode.workspace.fs.writeFile(uri, bytes);
}
