/**
 * What the runner's tests share: the built runner (dist/ci/hunt.js) run as a child process, the
 * way CI runs it, against the emulator on 127.0.0.1; a scratch copy of the example hunts.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ROOT = path.join(__dirname, '..', '..', '..', '..');
export const BUNDLE = path.join(ROOT, 'dist', 'ci', 'hunt.js');
export const ACTION = path.join(ROOT, 'dist', 'ci', 'action.js');
export const EXAMPLES = path.join(ROOT, 'examples', 'hunts');
export const SCHEMA = path.join(ROOT, 'test', 'fixtures', 'sarif-schema', 'sarif-schema-2.1.0.json');

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <script> ...args` and resolves when it exits (no timer: the exit event). */
export function runNode(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function hunt(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Ran> {
  return runNode(BUNDLE, args, env, cwd);
}

/** A scratch folder with a copy of examples/hunts as `hunts/`. */
export function scratch(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-hunt-test-'));
  fs.cpSync(EXAMPLES, path.join(dir, 'hunts'), { recursive: true });
  return dir;
}
