// The triage reports from the UI: the format picker, the save dialog, and the Markdown report
// opened beside (files named relative to the workspace).
import * as vscode from 'vscode';
import { report, REPORT_FORMATS, type ReportFormat, type Triage } from '../../core/triage';

/** What a report is made from: the last triage of the window (TriageState has it). */
type TriageState = { readonly last: Triage | undefined };

/** The report of the last triage in `format`, its files named relative to the workspace. */
export function reportText(state: TriageState, format: ReportFormat): string | undefined {
  if (!state.last) return undefined;
  return report(state.last, format, {
    fileLabel: (u) => vscode.workspace.asRelativePath(vscode.Uri.parse(u)),
  });
}

export async function askFormat(): Promise<ReportFormat | undefined> {
  const labels: Record<ReportFormat, string> = {
    md: vscode.l10n.t('Markdown (for a ticket, defanged)'),
    csv: 'CSV',
    json: 'JSON',
    stix: vscode.l10n.t('STIX 2.1 bundle'),
    misp: vscode.l10n.t('MISP event'),
  };
  const pick = await vscode.window.showQuickPick(
    REPORT_FORMATS.map((f) => ({ label: labels[f], format: f })),
    { title: vscode.l10n.t('ODIN: triage report format') },
  );
  return pick?.format;
}

const EXT: Record<ReportFormat, string> = {
  md: 'md',
  csv: 'csv',
  json: 'json',
  stix: 'stix.json',
  misp: 'misp.json',
};

export async function saveReport(state: TriageState, format: ReportFormat): Promise<void> {
  const text = reportText(state, format);
  if (text === undefined) return;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Save ODIN triage report'),
    defaultUri: folder ? vscode.Uri.joinPath(folder, `odin-triage.${EXT[format]}`) : undefined,
  });
  if (!target) return;
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
}

/** The Markdown report of the last triage (defanged, for a ticket) in a new editor beside. */
export async function openMarkdownReport(state: TriageState): Promise<void> {
  const content = reportText(state, 'md');
  if (content === undefined) return;
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
}
