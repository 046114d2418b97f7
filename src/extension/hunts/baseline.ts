/**
 * "Add Finding to Baseline…" on a hunt in a `.odinq` file: a host the hunt found, accepted
 * with a reason and an expiry, written into the baseline file `odin-hunt --baseline` reads
 * (same format and fingerprint, through the runner's own baseline code; other entries kept;
 * written through a temporary file and a rename).
 *
 * The findings offered are the hosts the committed snapshot (`odin-hunt snapshot`'s
 * hosts.jsonl, the newest in the working tree) names for this hunt: what CI last saw, with
 * nothing sent. A snapshot holds hosts only, so only `@hosts` hunts are offered.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HuntFile } from '../../core/hunts';
import { writeFileAtomic } from '../../core/requests/cacheFile';
import { neutraliseUiText } from '../../core/text/inert';
import {
  baselineText,
  isDate,
  parseBaseline,
  today,
  updateBaseline,
  type Baseline,
  type BaselineEntry,
} from '../../hunt/baseline';
import { fingerprintOf, type Finding } from '../../hunt/findings';
import { parseSnapshot, SNAPSHOT_FILE } from '../../hunt/snapshot';
import type { Ctx } from '../ctx';
import type { HuntRunner } from './running';
import { DEFAULT_SNAPSHOT_DIR } from './history';
import { HUNT_LANGUAGE } from './ids';

/** The baseline file the docs' workflow commits (docs/ci.md), relative to the workspace folder. */
export const DEFAULT_BASELINE_FILE = 'odin-baseline.json';

/** The answers of the command's prompts, for keybindings, tasks and tests; missing ones are asked. */
export interface BaselineAnswers {
  subject?: string;
  reason?: string;
  /** YYYY-MM-DD, or a number of days from today. */
  expires?: string | number;
}

export interface BaselineAdded {
  file?: string;
  entry?: BaselineEntry;
  message?: string;
}

/** A `.odinq` file whose workspace folder has a snapshot (the findings the command offers). */
export function hasSnapshot(doc: vscode.TextDocument): boolean {
  const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
  if (doc.languageId !== HUNT_LANGUAGE || !folder) return false;
  // The repository's top is found with git when the command runs; here, any folder from the
  // file's up to the workspace folder's with a snapshot (no process per CodeLens pass).
  for (let dir = path.dirname(doc.uri.fsPath); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, DEFAULT_SNAPSHOT_DIR, SNAPSHOT_FILE))) return true;
    if (dir === folder.uri.fsPath || dir === path.dirname(dir)) return false;
  }
}

function plusDays(days: number, now = Date.now()): string {
  return today(now + days * 86_400_000);
}

function gitLine(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, encoding: 'utf8' }, (err, stdout) =>
      resolve(err ? undefined : stdout.trim() || undefined),
    );
  });
}

/**
 * Where `odin-hunt` runs in CI: the repository's top folder (its names of hunt files are
 * relative to it), else the workspace folder.
 */
async function repoRoot(folder: string): Promise<string> {
  const top = await gitLine(folder, ['rev-parse', '--show-toplevel']);
  return top ? path.normalize(top) : folder;
}

async function addedBy(cwd: string): Promise<string> {
  const email = await gitLine(cwd, ['config', 'user.email']);
  if (email) return email;
  try {
    return os.userInfo().username || 'unknown';
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
}

async function askExpiry(): Promise<string | undefined> {
  const days = [30, 90, 180];
  const custom = vscode.l10n.t('Another date…');
  const pick = await vscode.window.showQuickPick(
    [
      ...days.map((d) => ({ label: vscode.l10n.t('{0} days', d), description: plusDays(d), days: d })),
      { label: custom, days: 0 },
    ],
    { title: vscode.l10n.t('ODIN: the baseline entry holds until'), placeHolder: vscode.l10n.t('Expiry') },
  );
  if (!pick) return undefined;
  if (pick.days) return plusDays(pick.days);
  return vscode.window.showInputBox({
    title: vscode.l10n.t('ODIN: the baseline entry holds until'),
    prompt: vscode.l10n.t('The last day the entry holds, YYYY-MM-DD (UTC)'),
    value: plusDays(90),
    validateInput: (v) => expiryProblem(v.trim()),
  });
}

function expiryProblem(v: string): string | undefined {
  if (!isDate(v)) return vscode.l10n.t('A date YYYY-MM-DD');
  if (v < today()) return vscode.l10n.t('A date from today on');
  return undefined;
}

/** A refusal: its message is shown and returned. */
type Refused = { refused: string };

/** The hosts the committed snapshot lists for hunt `file#key`, or why there is no snapshot to read. */
function snapshotSubjects(ctx: Ctx, root: string, file: string, key: string): string[] | Refused {
  const snapshot = path.join(root, DEFAULT_SNAPSHOT_DIR, SNAPSHOT_FILE);
  try {
    const rows = parseSnapshot(fs.readFileSync(snapshot, 'utf8'), path.relative(root, snapshot));
    return [...new Set(rows.filter((r) => r.hunts.includes(`${file}#${key}`)).map((r) => r.ip))];
  } catch (e) {
    // l10n: English, for the log
    ctx.log.warn(`Add to baseline: ${snapshot}: ${e instanceof Error ? e.message : String(e)}`);
    return {
      refused: vscode.l10n.t(
        'ODIN: no snapshot to take findings from ({0}): run `odin-hunt snapshot` first.',
        path.join(DEFAULT_SNAPSHOT_DIR, SNAPSHOT_FILE),
      ),
    };
  }
}

/** Which finding, why it is accepted and until when: from `answers`, else asked; undefined when dismissed. */
async function askEntry(
  answers: BaselineAnswers,
  subjects: string[],
  huntName: string,
): Promise<{ subject: string; reason: string; expires: string } | Refused | undefined> {
  const subject =
    answers.subject ??
    (
      await vscode.window.showQuickPick(
        subjects.map((s) => ({ label: s })),
        {
          title: vscode.l10n.t(
            'ODIN: add a finding of "{0}" to the baseline',
            neutraliseUiText(huntName, 80),
          ),
        },
      )
    )?.label;
  if (!subject) return undefined;
  if (!subjects.includes(subject))
    return { refused: vscode.l10n.t('ODIN: {0} is not a finding of this hunt.', subject) };
  const reason = (
    answers.reason ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('ODIN: why {0} is accepted', subject),
      prompt: vscode.l10n.t('The reason, for the review (e.g. a ticket)'),
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('A reason is needed')),
    }))
  )?.trim();
  if (!reason) return undefined;
  const expires =
    typeof answers.expires === 'number'
      ? plusDays(answers.expires)
      : (answers.expires ?? (await askExpiry()))?.trim();
  if (!expires) return undefined;
  const bad = expiryProblem(expires);
  if (bad) return { refused: `ODIN: ${bad}` };
  return { subject, reason, expires };
}

/** The baseline file as it is (undefined when there is none), or why it cannot be read. */
function readBaseline(target: string): Baseline | undefined | Refused {
  if (!fs.existsSync(target)) return undefined;
  try {
    return parseBaseline(fs.readFileSync(target, 'utf8'));
  } catch (e) {
    // Never overwrite a file that cannot be read: the entries in it would be lost.
    return {
      refused: vscode.l10n.t(
        'ODIN: {0} is not a baseline file ({1}); nothing was written.',
        DEFAULT_BASELINE_FILE,
        e instanceof Error ? e.message : String(e),
      ),
    };
  }
}

const isRefused = (x: unknown): x is Refused => typeof x === 'object' && x !== null && 'refused' in x;

export async function addFindingToBaseline(
  ctx: Ctx,
  runner: HuntRunner,
  parse: (doc: vscode.TextDocument) => HuntFile,
  uri: unknown,
  index: unknown,
  answers: BaselineAnswers = {},
): Promise<BaselineAdded> {
  const fail = (message: string): BaselineAdded => {
    void vscode.window.showWarningMessage(message);
    return { message };
  };
  if (!ctx.gate.trusted())
    return fail(
      vscode.l10n.t('ODIN: the baseline is written only in a trusted workspace (Restricted Mode is on).'),
    );
  const t = await runner.target(uri, index);
  if (!t) return {};
  const folder = vscode.workspace.getWorkspaceFolder(t.doc.uri);
  if (!folder) return fail(vscode.l10n.t('ODIN: the hunt file is not in a workspace folder.'));
  const root = await repoRoot(path.dirname(t.doc.uri.fsPath));
  if ((t.q.kind ?? 'hosts') !== 'hosts')
    return fail(
      vscode.l10n.t('ODIN: only findings of @hosts hunts can be added here (the snapshot holds hosts).'),
    );
  // The runner's names: the file relative to the repository root, the hunt's key (name, then name#2…).
  const file = path
    .relative(fs.realpathSync(root), fs.realpathSync(t.doc.uri.fsPath))
    .split(path.sep)
    .join('/');
  const before = parse(t.doc).queries.filter((q) => q.name === t.q.name && q.index < t.q.index).length;
  const key = before === 0 ? t.q.name : `${t.q.name}#${before + 1}`;
  const subjects = snapshotSubjects(ctx, root, file, key);
  if (isRefused(subjects)) return fail(subjects.refused);
  if (subjects.length === 0)
    return fail(
      vscode.l10n.t('ODIN: "{0}" found nothing in the committed snapshot.', neutraliseUiText(t.q.name, 80)),
    );
  const asked = await askEntry(answers, subjects, t.q.name);
  if (!asked) return {};
  if (isRefused(asked)) return fail(asked.refused);
  const { subject, reason, expires } = asked;

  const target = path.join(root, DEFAULT_BASELINE_FILE);
  const baseline = readBaseline(target);
  if (isRefused(baseline)) return fail(baseline.refused);
  const finding: Finding = {
    fingerprint: fingerprintOf(file, key, 'hosts', subject),
    file,
    line: t.doc.positionAt(t.q.headerStart).line + 1,
    hunt: key,
    kind: 'hosts',
    subject,
    title: subject,
    level: 'warning',
    facts: {},
    state: 'new',
  };
  const next = updateBaseline(baseline, [finding], { reason, expires, addedBy: await addedBy(root) });
  await writeFileAtomic(target, baselineText(next));
  const entry = next.entries.find((e) => e.fingerprint === finding.fingerprint);
  void vscode.window.showInformationMessage(
    vscode.l10n.t('ODIN: {0} added to {1} until {2}.', subject, DEFAULT_BASELINE_FILE, expires),
  );
  return { file: target, ...(entry ? { entry } : {}) };
}
