import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The repository's root (this file runs from out/test/unit/package). */
export const root = join(__dirname, '..', '..', '..', '..');

/** Each named bundle's source files, from esbuild itself (`node esbuild.mjs --inputs` writes nothing). */
export function bundleInputs(names: string[]): Record<string, string[]> {
  const r = spawnSync(process.execPath, ['esbuild.mjs', `--only=${names.join(',')}`, '--inputs'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, string[]>;
}
