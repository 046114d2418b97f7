/**
 * What loads at activation (dist/extension.js) holds no hunts code, not the query parser's
 * library, not the exploitation feeds' files and parsers and not the query completion: the gate
 * reads query text with core/query/parser.ts, whose `lucene` library is required from
 * dist/lucene.js on first use (src/extension/lazy/luceneLoader.ts); the hunts feature is
 * dist/hunts.js behind its stand-in (extension/hunts/lazy.ts, ids.ts); the feeds are
 * dist/feeds.js, required by ctx.ts on first need; completion is the search and hunts
 * features'. The bundles' source files come from esbuild itself (`node esbuild.mjs --inputs`,
 * which writes nothing).
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
  // Built from esbuild.mjs's entry, which exports the modules the parts share (`__odinShared`).
  assert.ok(inputs.extension.includes('extension-entry.ts'), 'the entry with the shared modules');
});

/** What activation leaves to the parts loaded on first need (esbuild.mjs PARTS). */
const NOT_AT_ACTIVATION = [
  'src/core/exploitation/feedFiles.ts',
  'src/core/exploitation/epss.ts',
  'src/core/exploitation/kev.ts',
  'src/extension/shared/feeds.ts',
  'src/core/query/completion.ts',
  'src/core/query/examples.ts',
];

test('the feeds and the query completion load with their first use, not at activation', () => {
  const inputs = bundleInputs(['extension', 'feeds', 'search']);
  assert.deepEqual(
    NOT_AT_ACTIVATION.filter((f) => inputs.extension.includes(f)),
    [],
    'in dist/extension.js',
  );
  assert.ok(inputs.feeds.includes('src/core/exploitation/feedFiles.ts'), 'dist/feeds.js has the feeds');
  assert.ok(inputs.search.includes('src/core/query/completion.ts'), 'dist/search.js has the completion');
});
