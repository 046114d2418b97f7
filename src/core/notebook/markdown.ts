/**
 * A cell's output as Markdown: the fallback every output carries, so a renderer-less view,
 * a diff tool or a copy shows something. Every API string is escaped (no links, no HTML).
 * Pure: no VS Code.
 */
import { escapeMarkdown } from '../text/inert';
import { l10n } from '../text/l10n';
import type { CellRun } from './execute';
import { fmt } from '../text/numbers';

/** Rows in the Markdown fallback (the rich table shows up to 1,000). */
export const MARKDOWN_ROWS = 20;

const cell = (v: unknown): string => escapeMarkdown(String(v ?? ''), 200);

export function cellMarkdown(run: CellRun, sidecar?: string): string {
  const d = run.display;
  if (run.status !== 'ok' || !d) return cell(run.message ?? run.status);
  const lines: string[] = [];
  const shown = Math.min(d.rows.length, MARKDOWN_ROWS);
  lines.push(
    l10n.t(
      '{0} rows · {1} credits · sha256 `{2}`',
      fmt(run.rowCount),
      run.spent,
      run.sha256?.slice(0, 16) ?? '',
    ),
    '',
  );
  if (shown > 0) {
    lines.push(`| ${d.columns.map(cell).join(' | ')} |`, `|${d.columns.map(() => ' --- ').join('|')}|`);
    for (const r of d.rows.slice(0, shown)) lines.push(`| ${d.columns.map((c) => cell(r[c])).join(' | ')} |`);
    lines.push('');
  }
  if (run.rowCount > shown)
    lines.push(
      sidecar
        ? l10n.t('Showing {0} of {1} rows; all of them: {2}', shown, fmt(run.rowCount), cell(sidecar))
        : l10n.t('Showing {0} of {1} rows.', shown, fmt(run.rowCount)),
    );
  return lines.join('\n');
}
