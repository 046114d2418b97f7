/**
 * What loads at activation (dist/extension.js) registers commands, views and stand-ins, and
 * holds none of what they load on first use: no hunts code, not the query parser or its
 * `lucene` library, not detection, the gate, the request layer or the API client (the lookup
 * and connection parts), not the exploitation feeds and not the query completion. Each is in
 * a part (esbuild.mjs PARTS) or in dist/shared.js, which carries the modules two or more parts
 * share. The bundles' source files come from esbuild itself (`node esbuild.mjs --inputs`,
 * which writes nothing).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bundleInputs } from './bundleInputs';

/** A hunts module or the parser library; the hunts stand-in and its ids are activation's. */
export function huntsCode(inputs: readonly string[]): string[] {
  return inputs.filter(
    (f) =>
      /(^|\/)node_modules\/lucene\//.test(f) ||
      f.startsWith('src/core/hunts/') ||
      (f.startsWith('src/extension/hunts/') && !/\/(lazy|ids)\.ts$/.test(f)),
  );
}

/** What activation leaves to the parts loaded on first need, a module of each room. */
const NOT_AT_ACTIVATION = [
  'src/core/query/parser.ts',
  'src/core/detect/scan.ts',
  'src/core/gate/index.ts',
  'src/core/privacy/registry.ts',
  'src/core/requests/layer.ts',
  'src/api/client.ts',
  'src/api/normalize/hosts.ts',
  'src/core/cards/hoverCard.ts',
  'src/extension/lookup/hoverProvider.ts',
  'src/core/exploitation/feedFiles.ts',
  'src/core/exploitation/epss.ts',
  'src/extension/shared/feeds.ts',
  'src/core/query/completion.ts',
  'src/core/query/examples.ts',
];

const BUNDLES = ['extension', 'shared', 'hunts', 'lucene', 'lookup', 'connection', 'feeds', 'search'];

test('the activation bundle holds no hunts code, parser, detection, gate or API client; the lazy bundles do', () => {
  const inputs = bundleInputs(BUNDLES);
  assert.deepEqual(huntsCode(inputs.extension), [], 'hunts code in dist/extension.js');
  assert.deepEqual(
    NOT_AT_ACTIVATION.filter((f) => inputs.extension.includes(f)),
    [],
    'in dist/extension.js',
  );
  // The checks see them where they belong (they are not blind).
  const lazy = new Set(BUNDLES.filter((b) => b !== 'extension').flatMap((b) => inputs[b]));
  assert.deepEqual(
    NOT_AT_ACTIVATION.filter((f) => !lazy.has(f)),
    [],
    'in no part and not in dist/shared.js',
  );
  assert.ok(huntsCode(inputs.lucene).length > 0, 'dist/lucene.js has the parser library');
  assert.ok(
    huntsCode([...lazy]).some((f) => f.startsWith('src/core/hunts/')),
    'a part has the hunts',
  );
  // Built from esbuild.mjs's entry, which exports the modules the parts share (`__odinShared`).
  assert.ok(inputs.extension.includes('extension-entry.ts'), 'the entry with the shared modules');
  assert.ok(inputs.extension.includes('src/extension/lookup/lazy.ts'), "the hover's stand-in is there");
});

test('a module two parts need is carried once: by dist/extension.js or by dist/shared.js', () => {
  const inputs = bundleInputs(['extension', 'shared', 'search', 'details', 'triage', 'agent', 'notebook']);
  const parts = ['search', 'details', 'triage', 'agent', 'notebook'];
  const held = new Map<string, string[]>();
  for (const p of parts)
    for (const f of inputs[p]) if (f.startsWith('src/')) held.set(f, [...(held.get(f) ?? []), p]);
  assert.deepEqual(
    [...held].filter(([, ps]) => ps.length > 1),
    [],
    'a module in two parts',
  );
  assert.ok(inputs.shared.includes('src/core/triage/exchange.ts'), 'dist/shared.js has what parts share');
  assert.ok(
    inputs.search.some((f) => f.startsWith('odin-shared:')),
    'the parts read them from their carriers',
  );
});
