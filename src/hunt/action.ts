/**
 * The GitHub Action (action.yml at the repository's top; dist/ci/action.js): runs `odin-hunt run`
 * in-process on the runner's Node and speaks to the workflow as GitHub documents it: inputs
 * from `INPUT_*`, outputs appended to `$GITHUB_OUTPUT`, the step summary to
 * `$GITHUB_STEP_SUMMARY`, annotations as workflow commands on stdout (at most 10 on the hunts'
 * lines, then one notice). The runner's own output runs under `::stop-commands::`, so no text
 * from the service can be read as a workflow command.
 *
 * Inputs: paths, budget, baseline, api-url, fail-on (new | error | never), sarif, api-key
 * (or ODIN_API_KEY in the step's env, from a secret). Outputs: sarif, exit-code, new-findings.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from './cli';
import { EXIT } from './exit';

export const MAX_ANNOTATIONS = 10;

function input(env: NodeJS.ProcessEnv, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/** Escaping of a workflow command's message and of its properties (GitHub's toolkit rules). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Appends `name=value` to `$GITHUB_OUTPUT` in its multi-line form (a value cannot forge another). */
function setOutput(env: NodeJS.ProcessEnv, name: string, value: string): void {
  const file = env.GITHUB_OUTPUT;
  if (!file) return;
  const delimiter = `ghadelimiter_${randomBytes(12).toString('hex')}`;
  fs.appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

interface Line {
  state: string;
  file: string;
  line: number;
  hunt: string;
  level: string;
  title: string;
}

export async function runAction(env: NodeJS.ProcessEnv, write: (s: string) => void): Promise<number> {
  const cwd = env.GITHUB_WORKSPACE || process.cwd();
  const paths = input(env, 'paths')
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter(Boolean);
  const failOn = input(env, 'fail-on') || 'new';
  if (!['new', 'error', 'never'].includes(failOn)) {
    write(`::error::${escapeData(`odin-hunt: fail-on must be new, error or never, not "${failOn}"`)}\n`);
    return EXIT.usage;
  }
  const outDir = env.RUNNER_TEMP || cwd;
  const sarif = path.resolve(cwd, input(env, 'sarif') || path.join(outDir, 'odin-hunt.sarif'));
  const jsonl = path.join(outDir, `odin-hunt-${process.pid}.jsonl`);
  const args = ['run', ...(paths.length ? paths : ['.']), '--sarif', sarif, '--jsonl', jsonl];
  const budget = input(env, 'budget');
  if (budget) args.push('--budget', budget);
  const baseline = input(env, 'baseline');
  if (baseline) args.push('--baseline', baseline);
  const apiUrl = input(env, 'api-url');
  if (apiUrl) args.push('--api-url', apiUrl);
  const key = input(env, 'api-key') || env.ODIN_API_KEY?.trim() || '';
  const token = randomBytes(16).toString('hex');
  write(`::stop-commands::${token}\n`);
  let code: number;
  try {
    code = await main(
      args,
      { env: { ...env, ODIN_API_KEY: key }, cwd, out: write, err: write },
      new AbortController().signal,
    );
  } finally {
    write(`::${token}::\n`);
  }
  let lines: Line[] = [];
  if (fs.existsSync(jsonl)) {
    lines = fs
      .readFileSync(jsonl, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Line);
    fs.rmSync(jsonl, { force: true });
  }
  const fresh = lines.filter((l) => l.state !== 'baselined');
  for (const f of fresh.slice(0, MAX_ANNOTATIONS)) {
    const cmd = f.level === 'error' ? 'error' : 'warning';
    write(
      `::${cmd} file=${escapeProperty(f.file)},line=${f.line},title=${escapeProperty(`ODIN hunt: ${f.hunt}`)}::${escapeData(f.title)}\n`,
    );
  }
  if (fresh.length > MAX_ANNOTATIONS)
    write(
      `::notice::${escapeData(`${fresh.length - MAX_ANNOTATIONS} more new findings: see the step summary and the SARIF file.`)}\n`,
    );
  if (fs.existsSync(sarif)) setOutput(env, 'sarif', sarif);
  setOutput(env, 'exit-code', String(code));
  setOutput(env, 'new-findings', String(fresh.length));
  const fails = failOn === 'never' ? false : failOn === 'error' ? code >= EXIT.usage : code !== EXIT.ok;
  if (fails)
    write(`::error::${escapeData(`odin-hunt exited ${code} (fail-on: ${failOn}); see the step summary.`)}\n`);
  return fails ? code : EXIT.ok;
}

if (require.main === module) {
  runAction(process.env, (s) => process.stdout.write(s)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stdout.write(
        `::error::${escapeData(`odin-hunt: ${e instanceof Error ? e.message : String(e)}`)}\n`,
      );
      process.exitCode = EXIT.failed;
    },
  );
}
