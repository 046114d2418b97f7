/** "Re-run All Saved Searches": every personal saved search and workspace hunt, with one summary. */
import * as vscode from 'vscode';
import { RequestBudget } from '../../../core/requests/budget';
import { KINDS, type SearchSpec } from '../../../core/search';
import { neutraliseUiText } from '../../../core/text/inert';
import { toAbortSignal } from '../../shared/abort';
import type { RerunAllSummary, RunSummary } from '../../commands';
import type { Ctx } from '../../ctx';
import { isObj } from '../args';
import type { ResultsProvider } from '../results/resultsView';
import type { SearchRunner } from '../searchRunner';
import type { SavedSearchStore } from './savedStore';
import type { Change, SnapshotStore } from './snapshots';
import type { WorkspaceHunts } from './workspaceHunts';
import { runCommand } from '../../shared/runCommand';

/** Where a finished run is remembered: its result set, and the snapshots of earlier runs. */
export interface RunMemory {
  results: Pick<ResultsProvider, 'get'>;
  snapshots: Pick<SnapshotStore, 'record'>;
}

/** What "Re-run All" works with. */
export interface RerunParts extends RunMemory {
  ctx: Ctx;
  runner: SearchRunner;
  store: SavedSearchStore;
  workspaceHunts: WorkspaceHunts;
}

/** More searches than this, or any from workspace files, are confirmed first. */
export const RERUN_WITHOUT_ASKING = 5;

/**
 * What Re-run All will send, said before it sends it: each search is one request (its first
 * page). `fromFiles` searches come from how many workspace files.
 */
export function rerunPlanText(plan: {
  searches: number;
  fromFiles: number;
  files: number;
  origin: string;
}): string {
  const mine = plan.searches - plan.fromFiles;
  const parts: string[] = [];
  if (mine)
    parts.push(
      mine === 1
        ? vscode.l10n.t('1 of your saved searches')
        : vscode.l10n.t('{0} of your saved searches', mine),
    );
  if (plan.fromFiles)
    parts.push(
      plan.files === 1
        ? vscode.l10n.t(
            '{0} from 1 workspace file (.odinq, written by whoever wrote this workspace)',
            plan.fromFiles,
          )
        : vscode.l10n.t(
            '{0} from {1} workspace files (.odinq, written by whoever wrote this workspace)',
            plan.fromFiles,
            plan.files,
          ),
    );
  return plan.searches === 1
    ? vscode.l10n.t(
        '{0}. Each search sends one request to ODIN at {1}: 1 request, each using API credits.',
        parts.join(vscode.l10n.t(' and ')),
        plan.origin,
      )
    : vscode.l10n.t(
        '{0}. Each search sends one request to ODIN at {1}: {2} requests, each using API credits.',
        parts.join(vscode.l10n.t(' and ')),
        plan.origin,
        plan.searches,
      );
}

/** Keeps the snapshot of a finished run (hunts that remember); returns what changed. */
export async function rememberRun(f: RunMemory, spec: SearchSpec, summary: RunSummary): Promise<Change> {
  const set = summary.status === 'ready' && summary.setId ? f.results.get(summary.setId) : undefined;
  return set ? f.snapshots.record(spec, set) : {};
}

type Job = {
  name: string;
  run: (signal: AbortSignal, budget: RequestBudget) => Promise<RunSummary & Change>;
};

/**
 * What Re-run All runs: the personal saved searches that list results, then (in a trusted
 * window only: the gate says whether it is) each query of the workspace's hunt files.
 */
function rerunJobs(f: RerunParts): { jobs: Job[]; fromFiles: number; files: number } {
  const jobs: Job[] = f.store
    .list()
    // Kinds that open a details page (host, whois) list no results: skipped.
    .filter((s) => !KINDS[s.spec.kind].page)
    .map((s) => ({
      name: s.name,
      run: async (signal, budget) => {
        const summary = await f.runner.run(s.spec, { reveal: false, signal, budget });
        return { ...summary, ...(await rememberRun(f, s.spec, summary)) };
      },
    }));
  let fromFiles = 0;
  let files = 0;
  if (!f.ctx.gate.trusted()) return { jobs, fromFiles, files };
  for (const file of f.workspaceHunts.list()) {
    const hunts = file.hunts.filter((x) => x.kind);
    if (hunts.length) files++;
    fromFiles += hunts.length;
    for (const h of hunts)
      jobs.push({
        name: h.name,
        run: async (signal, budget) =>
          ((await runCommand('odin.runHunt', file.uri.toString(), h.index, {
            quiet: true,
            signal,
            budget,
          })) as (RunSummary & Change) | undefined) ?? { status: 'dismissed' },
      });
  }
  return { jobs, fromFiles, files };
}

/**
 * Whether the run may go: said before it is sent, how many searches and requests, and from
 * where. Searches from workspace files spend the user's credits, so they (and more than a
 * handful) need a yes that states the count: the modal, or a caller's `requests` that covers
 * it. When not, `out` says why.
 */
async function agreedToRerun(
  f: RerunParts,
  planned: { jobs: Job[]; fromFiles: number; files: number },
  agreed: number | undefined,
  out: RerunAllSummary,
  quiet: boolean,
): Promise<boolean> {
  const { jobs, fromFiles, files } = planned;
  const text = rerunPlanText({ searches: jobs.length, fromFiles, files, origin: f.ctx.origin() });
  if (agreed !== undefined && agreed < jobs.length) {
    out.cancelled = true;
    out.message = vscode.l10n.t(
      'not run: {0} requests needed, {1} agreed to. {2}',
      jobs.length,
      agreed,
      text,
    );
    if (!quiet) void vscode.window.showWarningMessage(vscode.l10n.t('ODIN: Re-run All {0}', out.message));
    return false;
  }
  if (agreed !== undefined || (fromFiles === 0 && jobs.length <= RERUN_WITHOUT_ASKING)) return true;
  const RUN =
    jobs.length === 1 ? vscode.l10n.t('Run 1 Search') : vscode.l10n.t('Run {0} Searches', jobs.length);
  // A dialog that cannot be shown (a test host refuses them) is no yes.
  const choice = await Promise.resolve(
    vscode.window.showWarningMessage(
      vscode.l10n.t('ODIN: re-run {0} saved searches ({1} requests)?', jobs.length, jobs.length),
      { modal: true, detail: text },
      RUN,
    ),
  ).catch(() => undefined);
  if (choice === RUN) return true;
  out.cancelled = true;
  out.message = vscode.l10n.t('not run: nothing was sent.');
  return false;
}

/** Runs the jobs one after the other under one cancellable progress, counting into `out`. */
async function runJobs(jobs: Job[], out: RerunAllSummary): Promise<void> {
  // The count just stated is the most this run sends (the request layer enforces it).
  const budget = new RequestBudget(jobs.length);
  await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('ODIN: Re-running saved searches'),
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
            r = await job.run(signal, budget);
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
}

/** The closing summary: how many ran, what changed, failures, a cancel. */
function rerunMessage(out: RerunAllSummary, total: number): string {
  const parts = [
    total === 1
      ? vscode.l10n.t('re-ran {0} of 1 saved search', out.ran)
      : vscode.l10n.t('re-ran {0} of {1} saved searches', out.ran, total),
  ];
  parts.push(
    out.changed
      ? vscode.l10n.t('{0} changed (+{1} new, \u2212{2} gone)', out.changed, out.added, out.removed)
      : vscode.l10n.t('nothing new'),
  );
  if (out.failed) parts.push(vscode.l10n.t('{0} failed', out.failed));
  if (out.cancelled) parts.push(vscode.l10n.t('cancelled'));
  return `${parts.join('; ')}.`;
}

/**
 * Runs every saved search again (personal ones, then the workspace's `.odinq` queries),
 * one after the other under one progress notification whose cancel also stops the search
 * running, and ends with one summary of what is new.
 * `{ quiet: true }` skips the closing message (tests).
 */
export async function rerunAllSaved(f: RerunParts, arg?: unknown): Promise<RerunAllSummary> {
  const quiet = isObj(arg) && arg.quiet === true;
  const agreed =
    isObj(arg) && typeof arg.requests === 'number' && Number.isSafeInteger(arg.requests) && arg.requests >= 0
      ? arg.requests
      : undefined;
  // "All" is what is on disk now: the files are read again (a watcher event can go missing).
  await f.workspaceHunts.rescan();
  const planned = rerunJobs(f);
  const { jobs } = planned;
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
    out.message = vscode.l10n.t('there are no saved searches to run.');
    if (!quiet) void vscode.window.showInformationMessage(vscode.l10n.t('ODIN: {0}', out.message));
    return out;
  }
  if (!(await agreedToRerun(f, planned, agreed, out, quiet))) return out;
  await runJobs(jobs, out);
  out.cancelled = out.ran < jobs.length;
  out.message = rerunMessage(out, jobs.length);
  if (!quiet) {
    void vscode.window
      .showInformationMessage(
        vscode.l10n.t('ODIN: {0}', out.message),
        ...(out.changed ? [vscode.l10n.t('Show Saved Searches')] : []),
      )
      .then((c) => c && vscode.commands.executeCommand('odin.savedSearches.focus'));
  }
  return out;
}
