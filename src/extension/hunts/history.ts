/**
 * A host's timeline in the editor, read from the committed snapshots (`odin-hunt snapshot`'s
 * hosts.jsonl) in the workspace's git history: each commit that touched the file, compared with
 * the one before by the runner's own diff (src/hunt/history.ts), shown as a quick pick, one
 * item per change, dated by its commit. git runs through execFile (no shell), only in a
 * trusted workspace: a repository's own config can make git run programs.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { neutraliseUiText } from '../../core/text/inert';
import { entryLines, hostTimelines, type SnapshotCommit } from '../../hunt/history';
import { SNAPSHOT_FILE } from '../../hunt/snapshot';
import type { Ctx } from '../ctx';

/** The runner's default `--dir` (odin-hunt diff), relative to the workspace folder. */
export const DEFAULT_SNAPSHOT_DIR = 'snapshots';

export interface TimelineArg {
  ip?: string;
  /** The snapshot folder: absolute, or relative to the first workspace folder. */
  dir?: string;
}

export interface TimelineSummary {
  ip: string;
  /** Oldest first: the commit, its date, and the diff's lines for this host. */
  entries: { hash: string; date: string; status: string; lines: string[] }[];
  /** Why there is no timeline (not a git repository, no snapshots, git missing). */
  message?: string;
}

class GitError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) {
        const code = (err as NodeJS.ErrnoException).code;
        reject(new GitError(err.message, String(stderr), typeof code === 'string' ? code : undefined));
      } else resolve(stdout);
    });
  });
}

/** Why git could not read the history, for a person; undefined for the unexpected. */
function gitProblem(e: unknown, dir: string): string | undefined {
  if (!(e instanceof GitError)) return undefined;
  if (e.code === 'ENOENT')
    return vscode.l10n.t('ODIN: git was not found on the PATH; the timeline is read from git.');
  if (/not a git repository/i.test(e.stderr))
    return vscode.l10n.t(
      'ODIN: {0} is not in a git repository; the timeline is read from the commits of its {1}.',
      dir,
      SNAPSHOT_FILE,
    );
  if (/does not have any commits/i.test(e.stderr))
    return vscode.l10n.t('ODIN: no committed snapshots in {0} ({1}).', dir, SNAPSHOT_FILE);
  return undefined;
}

function snapshotDir(arg: TimelineArg | undefined): string | undefined {
  const dir = arg?.dir ?? DEFAULT_SNAPSHOT_DIR;
  if (path.isAbsolute(dir)) return dir;
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? path.join(folder.uri.fsPath, dir) : undefined;
}

/** The timeline of every host in the snapshots at `dir`, oldest change first. */
async function readTimelines(dir: string): Promise<Awaited<ReturnType<typeof hostTimelines>>> {
  const log = await git(dir, ['log', '--reverse', '--format=%H%x09%cI', '--', SNAPSHOT_FILE]);
  const commits: SnapshotCommit[] = log
    .split('\n')
    .filter((l) => l.includes('\t'))
    .map((l) => {
      const [hash, date] = l.split('\t');
      return { hash, date };
    });
  return hostTimelines(commits, async (c) => {
    try {
      return await git(dir, ['show', `${c.hash}:./${SNAPSHOT_FILE}`]);
    } catch (e) {
      // The commit deleted the file: every host it held is gone.
      if (e instanceof GitError && /does not exist|exists on disk, but not in/.test(e.stderr))
        return undefined;
      throw e;
    }
  });
}

export async function showHostTimeline(ctx: Ctx, arg?: string | TimelineArg): Promise<TimelineSummary> {
  const a: TimelineArg = typeof arg === 'string' ? { ip: arg } : (arg ?? {});
  const fail = (ip: string, message: string): TimelineSummary => {
    void vscode.window.showWarningMessage(message);
    return { ip, entries: [], message };
  };
  if (!ctx.gate.trusted())
    return fail(
      a.ip ?? '',
      vscode.l10n.t(
        'ODIN: the host timeline reads git, only in a trusted workspace (Restricted Mode is on).',
      ),
    );
  const ip =
    a.ip ??
    (
      await vscode.window.showInputBox({
        title: vscode.l10n.t('ODIN: Show Host Timeline'),
        prompt: vscode.l10n.t('The IP address of a host in the committed snapshots'),
      })
    )?.trim();
  if (!ip) return { ip: '', entries: [] };
  const dir = snapshotDir(a);
  if (!dir) return fail(ip, vscode.l10n.t('ODIN: open a folder with committed snapshots first.'));
  if (!fs.existsSync(dir))
    return fail(ip, vscode.l10n.t('ODIN: no committed snapshots in {0} ({1}).', dir, SNAPSHOT_FILE));
  let timelines;
  try {
    timelines = await readTimelines(dir);
  } catch (e) {
    const why = gitProblem(e, dir);
    const detail = e instanceof GitError ? e.stderr.trim() || e.message : String(e);
    // l10n: English, for the log
    ctx.log.warn(`Host timeline for ${ip} in ${dir}: ${detail}`);
    if (why) return fail(ip, why);
    return fail(
      ip,
      vscode.l10n.t(
        'ODIN: the snapshots in {0} could not be read: {1}',
        dir,
        neutraliseUiText(e instanceof Error ? e.message : String(e), 200),
      ),
    );
  }
  if (timelines.size === 0)
    return fail(
      ip,
      vscode.l10n.t(
        'ODIN: no committed snapshots in {0} ({1}): commit the output of `odin-hunt snapshot`.',
        dir,
        SNAPSHOT_FILE,
      ),
    );
  const entries = (timelines.get(ip) ?? []).map((e) => ({
    hash: e.commit.hash,
    date: e.commit.date,
    status: e.change.status,
    lines: entryLines(e),
  }));
  if (entries.length === 0)
    return fail(ip, vscode.l10n.t('ODIN: {0} is in none of the committed snapshots in {1}.', ip, dir));
  // Newest first to read; every string from the snapshot is shown as text.
  const items: vscode.QuickPickItem[] = [...entries].reverse().map((e) => ({
    label: `${e.date.slice(0, 10)} ${e.hash.slice(0, 8)}${e.status === 'new' ? ` ${vscode.l10n.t('(first seen)')}` : e.status === 'gone' ? ` ${vscode.l10n.t('(gone)')}` : ''}`,
    detail: neutraliseUiText(e.lines.join(' · '), 400),
  }));
  void vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('ODIN: timeline of {0} ({1} changes)', ip, entries.length),
    matchOnDetail: true,
  });
  return { ip, entries };
}
