/**
 * The import graph of `src/` has no circle longer than two files: a longer circle means a
 * part receives more than it uses (a whole feature instead of its collaborators), and the
 * next engineer cannot move or test one file without the others. Every relative import
 * counts, type-only ones and `require('./…')` included. Two files that name each other
 * (a pair) are allowed; anything larger fails with the files that form it.
 *
 * And every arrow between the folders of `src/` follows the layer table of ARCHITECTURE.md
 * ("Layers"): `LAYERS` below is that table; an arrow it does not allow fails with the files.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const root = join(__dirname, '..', '..', '..');
const src = join(root, 'src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [p] : [];
  });
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]*)['"]/gm;

/** The file a relative specifier names (`./x` → `x.ts` or `x/index.ts`), if it is in src/. */
function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const p of [`${base}.ts`, join(base, 'index.ts'), base]) {
    if (p.endsWith('.ts') && existsSync(p)) return p;
  }
  return undefined;
}

/** Each file of src/ and the files of src/ it imports. */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(src)) {
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
    const deps = new Set<string>();
    for (const m of text.matchAll(SPECIFIER)) {
      const to = resolveImport(file, m[1]);
      if (to && to !== file) deps.add(to);
    }
    graph.set(file, [...deps]);
  }
  return graph;
}

/** The strongly connected components (Tarjan): every circle lies inside one. */
export function components(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      out.push(c);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

/**
 * Which folders of src/ a folder may import (ARCHITECTURE.md, "Layers"). Arrows go down
 * only: api ← core ← common ← webview; agent and extension above the core. The core never
 * imports the pages' protocol, the extension or the agent; the emulator stands alone.
 */
export const LAYERS: Readonly<Record<string, readonly string[]>> = {
  api: [],
  core: ['api'],
  common: ['api', 'core'],
  webview: ['common', 'core'],
  agent: ['api', 'core'],
  hunt: ['api', 'core'],
  extension: ['api', 'core', 'common', 'agent', 'hunt'],
  emulator: [],
};

/**
 * Arrows the table does not allow, each named once with why it stands: the demo command
 * types the emulator bundle it requires by path (dist/emulator.js, loaded on "Try with Demo
 * Data"), so no emulator code is bundled into the extension.
 */
export const LAYER_EXCEPTIONS: readonly string[] = ['extension/keys/commands.ts -> emulator/demo.ts'];

/** The arrows between folders of src/ that `layers` does not allow, as `from -> to` (relative to src/). */
export function layerViolations(
  graph: Map<string, string[]>,
  layers: Readonly<Record<string, readonly string[]>> = LAYERS,
  exceptions: readonly string[] = LAYER_EXCEPTIONS,
  base = src,
): string[] {
  const out: string[] = [];
  for (const [from, deps] of graph) {
    const f = relative(base, from).split('\\').join('/');
    const a = f.split('/')[0];
    for (const to of deps) {
      const t = relative(base, to).split('\\').join('/');
      const b = t.split('/')[0];
      if (a === b || exceptions.includes(`${f} -> ${t}`)) continue;
      // A folder missing from the table may import nothing and be imported by nothing.
      if (!(layers[a] ?? []).includes(b)) out.push(`${f} -> ${t}`);
    }
  }
  return out.sort();
}

test('the import graph finds imports of every form, type-only and require included', () => {
  const graph = importGraph();
  const deps = (f: string): string[] => (graph.get(join(src, f)) ?? []).map((p) => relative(src, p));
  assert.ok(deps('extension/search/lazy.ts').includes('extension/search/index.ts'), 'require(./index)');
  assert.ok(deps('core/savedSearches/spec.ts').length > 0);
  assert.ok(graph.size > 100);
});

test('a circle of three files is found (the check itself)', () => {
  const g = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['e']],
    ['e', ['d']],
  ]);
  const sizes = components(g)
    .map((c) => c.length)
    .sort();
  assert.deepEqual(sizes, [2, 3]);
});

test('the import graph of src/ has no circle longer than two files', () => {
  const long = components(importGraph())
    .filter((c) => c.length > 2)
    .map((c) => c.map((f) => relative(src, f)).sort());
  assert.deepEqual(long, [], `import circles longer than two files:\n${JSON.stringify(long, null, 2)}`);
});

test('the command map imports no feature module beyond tree-node types', () => {
  const deps = (importGraph().get(join(src, 'extension', 'commands.ts')) ?? [])
    .map((p) => relative(src, p).split('\\').join('/'))
    .filter((p) => p.startsWith('extension/'))
    .sort();
  assert.deepEqual(deps, ['extension/search/results/resultNodes.ts', 'extension/search/saved/savedView.ts']);
});

test('every folder of src/ is in the layer table', () => {
  const folders = readdirSync(src).filter((n) => statSync(join(src, n)).isDirectory());
  assert.deepEqual(folders.sort(), Object.keys(LAYERS).sort());
});

test('a wrong arrow between layers is found (the check itself)', () => {
  const at = (f: string): string => join(src, f);
  const g = new Map([
    [at('core/triage/view.ts'), [at('core/triage/model.ts'), at('common/triage/protocol.ts')]],
    [at('common/triage/protocol.ts'), [at('core/exploitation/order.ts')]],
    [at('webview/main.ts'), [at('common/words.ts'), at('core/text/l10n.ts')]],
    [at('extension/keys/commands.ts'), [at('emulator/demo.ts')]],
    [at('extension/lookup/hover.ts'), [at('emulator/dataset.ts')]],
    [at('agent/tools.ts'), [at('api/client.ts')]],
  ]);
  assert.deepEqual(layerViolations(g), [
    'core/triage/view.ts -> common/triage/protocol.ts',
    'extension/lookup/hover.ts -> emulator/dataset.ts',
  ]);
});

test('every arrow between the folders of src/ follows the layer table', () => {
  const wrong = layerViolations(importGraph());
  assert.deepEqual(wrong, [], `imports against the layers of ARCHITECTURE.md:\n${wrong.join('\n')}`);
  // Each exception still names an arrow that exists (a stale one would hide a new one).
  const graph = importGraph();
  for (const e of LAYER_EXCEPTIONS) {
    const [from, to] = e.split(' -> ');
    assert.ok((graph.get(join(src, from)) ?? []).includes(join(src, to)), `stale exception: ${e}`);
  }
});

/**
 * The pages of their own (triage, charts, map) each have one home folder per layer, so a
 * reader finds a page's code under `src/<layer>/<page>/`. The agent's triage tool is one
 * file of the agent layer and stays beside the other tools.
 */
const PAGE_FOLDERS = ['triage', 'charts', 'map'];
const PAGE_FILES_OUTSIDE: readonly string[] = ['agent/triageTool.ts'];

/** Files of src/ named after a page (`triageX.ts`, `chartX.ts`, `mapX.ts`) but outside its folders. */
export function strayPageFiles(files: readonly string[]): string[] {
  return files
    .filter((f) => /(?:^|\/)(?:triage|charts?|map|geo)[A-Z.]/.test(f))
    .filter((f) => !PAGE_FOLDERS.some((p) => f.split('/').slice(0, -1).includes(p)))
    .filter((f) => !PAGE_FILES_OUTSIDE.includes(f));
}

test('a file named after a page outside its folders is found (the check itself)', () => {
  assert.deepEqual(
    strayPageFiles([
      'common/chartProtocol.ts',
      'extension/search/results/mapCommands.ts',
      'common/charts/bars.ts',
      'agent/triageTool.ts',
      'core/text/mapping.ts',
    ]),
    ['common/chartProtocol.ts', 'extension/search/results/mapCommands.ts'],
  );
});

test('each page (triage, charts, map) has one home folder per layer', () => {
  const files = tsFiles(src).map((f) => relative(src, f).split('\\').join('/'));
  assert.deepEqual(strayPageFiles(files), [], 'move these into src/<layer>/<page>/');
  assert.ok(!existsSync(join(src, 'core', 'geo')), 'the map core lives in core/map/');
});
