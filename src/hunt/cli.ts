/**
 * `odin-hunt` / `npm run --silent hunt -- <command>`: the editor's `.odinq` hunts, run without
 * anyone, for CI. Commands:
 *
 *   run <files or folders…>       run every hunt; --sarif F --junit F --jsonl F --summary F
 *                                 --baseline F [--update-baseline --reason R --expires DATE
 *                                 --added-by NAME] --advisory --budget N --config F
 *   snapshot <paths…> --out DIR   what the hunts find, one sorted JSON line per host and service
 *   diff <old> <new>              what opened or closed per host (snapshot folders or git refs)
 *
 *   ODIN_API_KEY                  the key (environment only: never a flag, never a file)
 *   --api-url URL | ODIN_API_URL  the service (https, or http on loopback)
 *   ODIN_PRIVACY_ALLOW / _DENY    the operator's lists (comma-separated); the committed
 *                                 odin-hunt.json may add deny entries, never allow ones
 *
 * Exit codes (exit.ts): 0 nothing new, 1 new findings, 2 usage or configuration, 3 not
 * scanned (budget, quota, 402/403, refused by the gate), 4 the service or network failed.
 * Log lines go to stderr with the key redacted; outputs are written atomically.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkBaseUrl } from '../api/http';
import { lowerLimit, parseRunConfig, RUN_CONFIG_FILE, type RunConfig } from '../core/ci/runConfig';
import { tempFileBeside, writeFileAtomic } from '../core/requests/cacheFile';
import { redactSecrets } from '../core/text/redact';
import {
  applyBaseline,
  baselineText,
  isDate,
  parseBaseline,
  today,
  updateBaseline,
  type Baseline,
} from './baseline';
import { diffCommand } from './diff';
import { EXIT, type ExitCode } from './exit';
import { findHuntFiles, loadHunts, UsageError } from './load';
import { jsonlChunks, toJunit, toSummary } from './reports';
import { HuntRun, type RunReport } from './run';
import { sarifChunks } from './sarif';
import { HuntSession, VERSION } from './session';
import { snapshotChunks, snapshotRows, SNAPSHOT_FILE } from './snapshot';

const DEFAULT_API_URL = 'https://api.odin.io';

export interface Io {
  env: NodeJS.ProcessEnv;
  cwd: string;
  out: (text: string) => void;
  err: (text: string) => void;
}

const VALUE_FLAGS = new Set([
  '--api-url',
  '--sarif',
  '--junit',
  '--jsonl',
  '--summary',
  '--baseline',
  '--reason',
  '--expires',
  '--added-by',
  '--budget',
  '--config',
  '--out',
  '--root',
  '--dir',
  '--feeds',
]);
const BOOL_FLAGS = new Set(['--update-baseline', '--advisory', '--help', '-h', '--json']);

export interface Args {
  command: string;
  positional: string[];
  flags: Map<string, string>;
  bools: Set<string>;
}

export function parseArgs(argv: readonly string[]): Args {
  const [command = '', ...rest] = argv;
  const positional: string[] = [];
  const flags = new Map<string, string>();
  const bools = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (VALUE_FLAGS.has(name)) {
      const v = eq > 0 ? a.slice(eq + 1) : rest[++i];
      if (v === undefined || v === '') throw new UsageError(`${name} needs a value`);
      flags.set(name, v);
    } else if (BOOL_FLAGS.has(name)) bools.add(name);
    else if (a.startsWith('-')) throw new UsageError(`unknown option ${a} (see --help)`);
    else positional.push(a);
  }
  return { command, positional, flags, bools };
}

const HELP = `odin-hunt ${VERSION}: run .odinq hunts without anyone (CI).
  odin-hunt run <files or folders…> [--sarif F] [--junit F] [--jsonl F] [--summary F]
      [--baseline F [--update-baseline --reason R --expires YYYY-MM-DD --added-by NAME]]
      [--advisory] [--budget N] [--config odin-hunt.json] [--api-url URL]
  odin-hunt snapshot <files or folders…> --out DIR [--budget N] [--api-url URL]
  odin-hunt diff <old> <new> [--dir snapshots] [--json]   (snapshot folders or git refs)
Key from ODIN_API_KEY; service from --api-url or ODIN_API_URL.
Exit: 0 nothing new, 1 new findings, 2 usage or configuration, 3 not scanned (budget,
quota, 402/403, refused), 4 the service or the network failed.
`;

function loadConfig(args: Args, io: Io, root: string): RunConfig {
  const named = args.flags.get('--config');
  const file = path.resolve(root, named ?? RUN_CONFIG_FILE);
  if (!fs.existsSync(file)) {
    if (named) throw new UsageError(`${named}: no such file`);
    return { deny: [], hunts: {} };
  }
  try {
    return parseRunConfig(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`${path.relative(io.cwd, file)}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function list(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function budgetFlag(args: Args): number | undefined {
  const b = args.flags.get('--budget');
  if (b === undefined) return undefined;
  if (!/^\d+$/.test(b)) throw new UsageError(`--budget must be a whole number of requests, not "${b}"`);
  return Number(b);
}

/** The session of a run: key, service, lists and budget; a usage error when one is missing. */
function openSession(args: Args, io: Io, config: RunConfig, log: (l: string) => void): HuntSession {
  const key = io.env.ODIN_API_KEY?.trim();
  if (!key)
    throw new UsageError('ODIN_API_KEY is not set (give the key in the environment, e.g. from a secret)');
  const raw = args.flags.get('--api-url') ?? (io.env.ODIN_API_URL?.trim() || DEFAULT_API_URL);
  const base = checkBaseUrl(raw);
  if (!base.ok) throw new UsageError(`refusing the API URL: ${base.reason}`);
  return new HuntSession({
    baseUrl: base.prefix,
    key,
    budget: lowerLimit(budgetFlag(args), config.budget),
    allow: list(io.env.ODIN_PRIVACY_ALLOW),
    deny: list(io.env.ODIN_PRIVACY_DENY),
    configDeny: config.deny,
    log,
  });
}

function plusDays(days: number): string {
  return today(Date.now() + days * 86_400_000);
}

/** The headline and exit code of a run. */
export function verdict(report: RunReport, advisory: boolean): { code: ExitCode; headline: string } {
  const fresh = report.outcomes.flatMap((o) => o.findings).filter((f) => f.state !== 'baselined').length;
  const missed = report.outcomes.filter((o) => o.status !== 'clean' && o.status !== 'found');
  const found = fresh === 1 ? '1 new finding' : `${fresh} new findings`;
  if (report.problem) {
    const names = missed.map((o) => `"${o.hunt.key}"`).join(', ');
    return {
      code: report.problem.code,
      headline: `**Not everything was scanned** (${report.problem.message})${names ? `; not scanned in full: ${names}` : ''}. ${found}.`,
    };
  }
  if (fresh === 0) return { code: EXIT.ok, headline: 'Nothing new.' };
  return {
    code: advisory ? EXIT.ok : EXIT.found,
    headline: `${found}${advisory ? ' (advisory: the run passes)' : ''}.`,
  };
}

async function runCommand(
  args: Args,
  io: Io,
  log: (l: string) => void,
  signal: AbortSignal,
): Promise<ExitCode> {
  const root = path.resolve(io.cwd, args.flags.get('--root') ?? '.');
  if (args.positional.length === 0) throw new UsageError('name the .odinq files or folders to run');
  const baselineFile = args.flags.get('--baseline');
  const updating = args.bools.has('--update-baseline');
  if (updating && !baselineFile) throw new UsageError('--update-baseline needs --baseline F');
  const expires = args.flags.get('--expires') ?? plusDays(90);
  if (!isDate(expires)) throw new UsageError(`--expires must be a date YYYY-MM-DD, not "${expires}"`);
  const config = loadConfig(args, io, root);
  let baseline: Baseline | undefined;
  if (baselineFile) {
    const abs = path.resolve(io.cwd, baselineFile);
    if (fs.existsSync(abs)) {
      try {
        baseline = parseBaseline(fs.readFileSync(abs, 'utf8'));
      } catch (e) {
        throw new UsageError(`${baselineFile}: ${e instanceof Error ? e.message : String(e)}`);
      }
    } else if (!updating)
      throw new UsageError(`${baselineFile}: no such file (create it with --update-baseline)`);
  }
  const files = loadHunts(findHuntFiles(args.positional, root), root);
  const session = openSession(args, io, config, log);
  let report: RunReport;
  try {
    report = await new HuntRun(session, config, log, signal).run(files);
  } finally {
    session.dispose();
  }
  const all = report.outcomes.flatMap((o) => o.findings);
  applyBaseline(all, baseline, today());
  if (updating && baselineFile) {
    const addedBy = args.flags.get('--added-by') ?? io.env.GITHUB_ACTOR ?? io.env.USER ?? 'unknown';
    const reason = args.flags.get('--reason') ?? 'accepted with --update-baseline';
    const next = updateBaseline(baseline, all, { reason, expires, addedBy });
    await writeFileAtomic(path.resolve(io.cwd, baselineFile), baselineText(next));
    applyBaseline(all, next, today());
    log(`odin-hunt: ${baselineFile}: ${next.entries.length} entries`);
  }
  const { code, headline } = verdict(report, args.bools.has('--advisory'));
  await writeOutputs(args, io, report, headline);
  io.out(`${headline.replace(/\*\*/g, '')}\n`);
  for (const o of report.outcomes)
    if (o.status !== 'clean' && o.status !== 'found')
      log(`${o.hunt.file}:${o.hunt.line}: ${o.hunt.key}: ${o.status}: ${o.reason ?? ''}`);
  return code;
}

/**
 * Writes `chunks` through a temporary file beside `file` and a rename: a reader (or a run cut
 * short) sees the old file or the whole new one, and no output is ever held as one string.
 */
export function writeChunksAtomic(file: string, chunks: Iterable<string>): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = tempFileBeside(file);
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, 'w', 0o644);
    for (const c of chunks) fs.writeSync(fd, c);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, file);
  } catch (e) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

async function writeOutputs(args: Args, io: Io, report: RunReport, headline: string): Promise<void> {
  const outputs: Array<[string, () => Iterable<string>]> = [
    ['--sarif', () => sarifChunks(report)],
    ['--junit', () => [toJunit(report)]],
    ['--jsonl', () => jsonlChunks(report)],
    ['--summary', () => [toSummary(report, headline)]],
  ];
  for (const [flag, chunks] of outputs) {
    const f = args.flags.get(flag);
    if (f) writeChunksAtomic(path.resolve(io.cwd, f), chunks());
  }
  const step = io.env.GITHUB_STEP_SUMMARY;
  if (step) await fs.promises.appendFile(step, toSummary(report, headline));
}

async function snapshotCommand(
  args: Args,
  io: Io,
  log: (l: string) => void,
  signal: AbortSignal,
): Promise<ExitCode> {
  const root = path.resolve(io.cwd, args.flags.get('--root') ?? '.');
  const out = args.flags.get('--out');
  if (!out) throw new UsageError('snapshot needs --out DIR');
  if (args.positional.length === 0) throw new UsageError('name the .odinq files or folders to snapshot');
  const config = loadConfig(args, io, root);
  const files = loadHunts(findHuntFiles(args.positional, root), root);
  const session = openSession(args, io, config, log);
  const rows = snapshotRows();
  let report: RunReport;
  try {
    report = await new HuntRun(session, config, log, signal, rows.visit).run(files);
  } finally {
    session.dispose();
  }
  if (report.problem) {
    // A partial snapshot committed as the truth would report every host it missed as closed.
    log(`odin-hunt: ${report.problem.message}: the snapshot was not written`);
    return report.problem.code;
  }
  const file = path.resolve(io.cwd, out, SNAPSHOT_FILE);
  writeChunksAtomic(file, snapshotChunks(rows));
  io.out(`${rows.size()} host services written to ${path.relative(io.cwd, file) || file}\n`);
  return EXIT.ok;
}

export async function main(argv: readonly string[], io: Io, signal: AbortSignal): Promise<ExitCode> {
  const key = io.env.ODIN_API_KEY?.trim();
  const secrets = key ? [key] : [];
  const log = (line: string): void => io.err(`${redactSecrets(line, secrets)}\n`);
  try {
    const args = parseArgs(argv);
    if (args.bools.has('--help') || args.bools.has('-h') || args.command === '' || args.command === 'help') {
      io.out(HELP);
      return args.command === '' ? EXIT.usage : EXIT.ok;
    }
    switch (args.command) {
      case 'run':
        return await runCommand(args, io, log, signal);
      case 'snapshot':
        return await snapshotCommand(args, io, log, signal);
      case 'diff':
        return await diffCommand(args, io);
      default:
        throw new UsageError(`unknown command "${args.command}" (run, snapshot, diff)`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      for (const i of e.issues) log(`${i.file}:${i.line}:${i.column}: ${i.message}`);
      log(`odin-hunt: ${e.message}`);
      return EXIT.usage;
    }
    log(`odin-hunt: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return EXIT.failed;
  }
}
