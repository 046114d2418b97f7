/** "Re-run All Saved Searches": every personal saved search and workspace hunt, with one summary. */
import * as vscode from 'vscode';
import type { SearchSpec } from '../../../core/savedSearches';
import { neutraliseUiText } from '../../../core/text';
import { toAbortSignal } from '../../shared/abort';
import { isObj } from '../args';
import type { SearchFeature } from '../index';
import type { RunSummary } from '../searchRunner';
import type { Change } from './snapshots';

/** What "Re-run All Saved Searches" did (its one summary). */
export interface RerunAllSummary {
  ran: number;
  failed: number;
  /** Searches whose results changed since their previous run. */
  changed: number;
  added: number;
  removed: number;
  cancelled: boolean;
  message: string;
  results: { name: string; status: string; change?: string }[];
}

/** Kinds "Re-run All" skips: they open a details page rather than list results. */
const NOT_RERUN = new Set(['host', 'whois']);

/** Keeps the snapshot of a finished run (hunts that remember); returns what changed. */
export async function rememberRun(f: SearchFeature, spec: SearchSpec, summary: RunSummary): Promise<Change> {
  const set = summary.status === 'ready' && summary.setId ? f.results.get(summary.setId) : undefined;
  return set ? f.snapshots.record(spec, set) : {};
}

/**
 * Runs every saved search again (personal ones, then the workspace's `.odinq` queries),
 * one after the other under one progress notification whose cancel also stops the search
 * running, and ends with one summary of what is new.
 * `{ quiet: true }` skips the closing message (tests).
 */
export async function rerunAllSaved(f: SearchFeature, arg?: unknown): Promise<RerunAllSummary> {
  const quiet = isObj(arg) && arg.quiet === true;
  // "All" is what is on disk now: the files are read again (a watcher event can go missing).
  await f.workspaceHunts.rescan();
  type Job = { name: string; run: (signal: AbortSignal) => Promise<RunSummary & Change> };
  const jobs: Job[] = f.store
    .list()
    .filter((s) => !NOT_RERUN.has(s.spec.kind))
    .map((s) => ({
      name: s.name,
      run: async (signal) => {
        const summary = await f.runner.run(s.spec, { reveal: false, signal });
        return { ...summary, ...(await rememberRun(f, s.spec, summary)) };
      },
    }));
  if (vscode.workspace.isTrusted) {
    for (const file of f.workspaceHunts.list())
      for (const h of file.hunts.filter((x) => x.kind))
        jobs.push({
          name: h.name,
          run: async (signal) =>
            ((await vscode.commands.executeCommand('odin.runHunt', file.uri.toString(), h.index, {
              quiet: true,
              signal,
            })) as (RunSummary & Change) | undefined) ?? { status: 'dismissed' },
        });
  }
  const out: RerunAllSummary = {
    ran: 0,
    failed: 0,
    changed: 0,
    added: 0,
    removed: 0,
    cancelled: false,
    message: '',
    results: [],
  };
  if (!jobs.length) {
    out.message = 'there are no saved searches to run.';
    if (!quiet) void vscode.window.showInformationMessage(`ODIN: ${out.message}`);
    return out;
  }
  await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: 'ODIN: Re-running saved searches',
      cancellable: true,
    },
    (progress, token) =>
      toAbortSignal(token, async (signal) => {
        for (const [i, job] of jobs.entries()) {
          if (signal.aborted) break;
          progress.report({
            message: `${i + 1}/${jobs.length}: ${neutraliseUiText(job.name, 80)}`,
            increment: 100 / jobs.length,
          });
          let r: RunSummary & Change;
          try {
            r = await job.run(signal);
          } catch (err) {
            r = { status: 'error', error: err instanceof Error ? err.message : String(err) };
          }
          // A search stopped by the cancel neither ran nor failed: the summary says "cancelled".
          if (r.status === 'cancelled' && signal.aborted) break;
          out.ran++;
          if (r.status !== 'ready') out.failed++;
          if (r.added || r.removed) out.changed++;
          out.added += r.added ?? 0;
          out.removed += r.removed ?? 0;
          out.results.push({ name: job.name, status: r.status, ...(r.change ? { change: r.change } : {}) });
        }
      }),
  );
  out.cancelled = out.ran < jobs.length;
  const parts = [`re-ran ${out.ran} of ${jobs.length} saved search${jobs.length === 1 ? '' : 'es'}`];
  parts.push(
    out.changed ? `${out.changed} changed (+${out.added} new, \u2212${out.removed} gone)` : 'nothing new',
  );
  if (out.failed) parts.push(`${out.failed} failed`);
  if (out.cancelled) parts.push('cancelled');
  out.message = `${parts.join('; ')}.`;
  if (!quiet) {
    void vscode.window
      .showInformationMessage(`ODIN: ${out.message}`, ...(out.changed ? ['Show Saved Searches'] : []))
      .then((c) => c && vscode.commands.executeCommand('odin.savedSearches.focus'));
  }
  return out;
}
