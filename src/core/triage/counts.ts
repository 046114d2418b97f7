/**
 * Counts in the triage's words: each a singular and a plural message ("1 unique indicator",
 * "2 unique indicators"), so that no summary, preview or report says "1 unique indicators".
 * Pure: no `vscode`; `l10n.t` is translated once the extension is activated.
 */
import { l10n } from '../text/l10n';

export const uniqueIndicatorCount = (n: number): string =>
  n === 1 ? l10n.t('1 unique indicator') : l10n.t('{0} unique indicators', n);

export const indicatorCount = (n: number): string =>
  n === 1 ? l10n.t('1 indicator') : l10n.t('{0} indicators', n);

export const occurrenceCount = (n: number): string =>
  n === 1 ? l10n.t('1 occurrence') : l10n.t('{0} occurrences', n);

export const domainCount = (n: number): string => (n === 1 ? l10n.t('1 domain') : l10n.t('{0} domains', n));

export const fileCount = (n: number): string => (n === 1 ? l10n.t('1 file') : l10n.t('{0} files', n));

export const requestCount = (n: number): string =>
  n === 1 ? l10n.t('1 request') : l10n.t('{0} requests', n);

/**
 * The triage view's headline: "1 unique indicator in app.log (1 occurrence). 1 of 1 enriched."
 * `files` is the file's short path, or the count of files (`fileCount`).
 */
export function triageHeadline(
  unique: number,
  files: string,
  occurrences: number,
  truncated: boolean,
  summary: string,
): string {
  return truncated
    ? l10n.t(
        '{0} in {1} ({2}, more than listed). {3}.',
        uniqueIndicatorCount(unique),
        files,
        occurrenceCount(occurrences),
        summary,
      )
    : l10n.t(
        '{0} in {1} ({2}). {3}.',
        uniqueIndicatorCount(unique),
        files,
        occurrenceCount(occurrences),
        summary,
      );
}
