/**
 * What loads at activation (dist/extension.js) holds no hunts code and not the query parser:
 * the gate reads query text with core/query/parser.ts, whose `lucene` library is required
 * from dist/lucene.js on first use (src/extension/lazy/luceneLoader.ts), and the hunts
 * feature is dist/hunts.js behind its stand-in (extension/hunts/lazy.ts, ids.ts). The
 * bundles' source files come from esbuild itself (`node esbuild.mjs --inputs`, which
 * writes nothing).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(__dirname, '..', '..', '..', '..');

function bundleInputs(names: string[]): Record<string, string[]> {
  const r = spawnSync(process.execPath, ['esbuild.mjs', `--only=${names.join(',')}`, '--inputs'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, string[]>;
}

/** A hunts module or the parser library; the hunts stand-in and its ids are activation's. */
export function huntsCode(inputs: readonly string[]): string[] {
  return inputs.filter(
    (f) =>
      /(^|\/)node_modules\/lucene\//.test(f) ||
      f.startsWith('src/core/hunts/') ||
      (f.startsWith('src/extension/hunts/') && !/\/(lazy|ids)\.ts$/.test(f)),
  );
}

test('the activation bundle holds no hunts module and not the lucene parser; the lazy bundles do', () => {
  const inputs = bundleInputs(['extension', 'hunts', 'lucene']);
  assert.deepEqual(huntsCode(inputs.extension), [], 'in dist/extension.js');
  // The check sees them where they belong (it is not blind).
  assert.ok(inputs.hunts.includes('src/core/hunts/diagnostics.ts'), 'dist/hunts.js has the diagnostics');
  assert.ok(huntsCode(inputs.lucene).length > 0, 'dist/lucene.js has the parser library');
  assert.ok(
    inputs.extension.includes('src/core/query/parser.ts'),
    "the gate's query reading is at activation",
  );
  assert.ok(inputs.extension.includes('src/extension/lazy/luceneLoader.ts'), 'through the loader');
});
