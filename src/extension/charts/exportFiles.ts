/**
 * "Save as SVG" and "Save as PNG" of the chart and map pages: what the page sent is rebuilt or checked
 * (core/charts/svgExport.ts, pngExport.ts) before a save dialog offers to write it. A refused
 * file gets a short message; why, in the log.
 */
import * as vscode from 'vscode';
import { checkPng } from '../../core/charts/pngExport';
import { checkSvg } from '../../core/charts/svgExport';
import type { SaveMessage } from '../../common/exportProtocol';
import type { Ctx } from '../ctx';

/** The words of the save dialog and the refusal, whole sentences for translators. */
function words(what: 'chart' | 'map', ext: 'png' | 'svg'): { title: string; refused: string } {
  if (what === 'chart')
    return {
      title:
        ext === 'png' ? vscode.l10n.t('ODIN: Save Chart as PNG') : vscode.l10n.t('ODIN: Save Chart as SVG'),
      refused: vscode.l10n.t('ODIN: the chart could not be saved (see the log).'),
    };
  return {
    title: ext === 'png' ? vscode.l10n.t('ODIN: Save Map as PNG') : vscode.l10n.t('ODIN: Save Map as SVG'),
    refused: vscode.l10n.t('ODIN: the map could not be saved (see the log).'),
  };
}

/** What the page is ("chart", "map") names the dialog and the messages. */
export async function saveExport(
  ctx: Ctx,
  m: SaveMessage,
  what: 'chart' | 'map',
  fileName: string,
): Promise<void> {
  const png = m.type === 'savePng';
  const ext = png ? 'png' : 'svg';
  const checked = png ? checkPng(m.png) : checkSvg(m.svg);
  if (!checked.ok) {
    // l10n: English, for the log
    ctx.log.warn(`The ${what} page sent ${png ? 'a PNG' : 'an SVG'} that was refused: ${checked.reason}.`);
    void vscode.window.showWarningMessage(words(what, ext).refused);
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = `${fileName}.${ext}`;
  const uri = await vscode.window.showSaveDialog({
    title: words(what, ext).title,
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
    filters: png ? { PNG: ['png'] } : { SVG: ['svg'] },
  });
  if (!uri) return;
  const bytes = 'bytes' in checked ? checked.bytes : Buffer.from(checked.svg, 'utf8');
  await vscode.workspace.fs.writeFile(uri, bytes);
}
