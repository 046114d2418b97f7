// What every report format of a triage shares: the options, the rows a report lists (private
// values left out unless asked for), and a row's status in words. Pure: no `vscode` import.
import type { Triage, TriageRow } from './model';
import { verdictLine } from './verdict';
import { l10n } from '../text/l10n';

export interface ReportOptions {
  /** Include private/internal values (default false). */
  includePrivate?: boolean;
  /** Write indicators defanged (`1.2.3[.]4`). Default true for Markdown, false otherwise. */
  defang?: boolean;
  /** Fixed time for reproducible output (tests); default now. */
  now?: Date;
  /** Fixed ids for reproducible output (tests); default random UUIDs where STIX wants v4. */
  uuid?: () => string;
  title?: string;
  /** What the exchange formats' report says it holds (default: the triage's counts). */
  description?: string;
  /** Display names of the scanned files (default their URIs). */
  fileLabel?: (uri: string) => string;
}

/** The rows a report lists: private and internal values only when asked for. */
export function rowsOf(triage: Triage, opts: ReportOptions): TriageRow[] {
  return opts.includePrivate ? triage.rows : triage.rows.filter((r) => !r.private);
}

/** A row's status in words (enriched: its verdict line). */
export function statusText(r: TriageRow): string {
  switch (r.status) {
    case 'enriched':
      return verdictLine(r.verdict) || l10n.t('known to ODIN');
    case 'unknown':
      return l10n.t('unknown to ODIN');
    case 'local':
      return r.private ? l10n.t('private/internal, not sent') : (r.localReason ?? l10n.t('not looked up'));
    case 'pending':
      return r.reason ? l10n.t('not sent: {0}', r.reason) : l10n.t('not sent');
    case 'failed':
      return l10n.t('failed: {0}', r.reason ?? l10n.t('error'));
  }
}
