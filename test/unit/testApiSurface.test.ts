/**
 * The integration tests drive the product through the test API's verbs, the public `vscode`
 * API and the emulator's own log; they do not reach into the extension's internals. The one
 * rule, written here: a file under test/integration/ imports nothing from src/extension/ but
 * types from src/extension/testApi (`import type`), and testApi.ts stays at most 120 lines
 * (a verb that grows past that is an internal leaking out).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const root = join(__dirname, '..', '..', '..');
const extensionDir = join(root, 'src', 'extension');
const testApi = join(extensionDir, 'testApi.ts');
export const MAX_TEST_API_LINES = 120;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return name.endsWith('.ts') ? [p] : [];
  });
}

/** Every import, export-from, dynamic import and require of `text`: the statement and its specifier. */
const IMPORT = /\b((?:import|export)\b[^'"`;()]*?\bfrom|import\s*\(|require\s*\(|import)\s*['"]([^'"]+)['"]/g;

/** What an integration test may not import: a reason per import, empty when it keeps the rule. */
export function breaches(file: string, text: string): string[] {
  const out: string[] = [];
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
  for (const m of code.matchAll(IMPORT)) {
    const [statement, spec] = [m[1].trim(), m[2]];
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec);
    if (target !== extensionDir && !target.startsWith(extensionDir + '/')) continue;
    const typesOfTestApi = target === testApi.replace(/\.ts$/, '') && /^import\s+type\b/.test(statement);
    if (!typesOfTestApi) out.push(`${relative(root, file)}: ${statement}'${spec}'`);
  }
  return out;
}

test('integration tests import nothing from src/extension/ but the test API types', () => {
  const files = tsFiles(join(root, 'test', 'integration'));
  assert.ok(files.length > 10, 'the integration tests are found');
  assert.deepStrictEqual(
    files.flatMap((f) => breaches(f, readFileSync(f, 'utf8'))),
    [],
    'use a verb of src/extension/testApi.ts (or the public vscode API) instead',
  );
});

test('the rule sees a value import, a type import of an internal and a dynamic import', () => {
  const f = join(root, 'test', 'integration', 'x.test.ts');
  assert.deepStrictEqual(breaches(f, "import type { TestApi } from '../../src/extension/testApi';"), []);
  assert.deepStrictEqual(breaches(f, "import { FIXTURE_HOSTS } from '../../src/emulator/fixtures';"), []);
  for (const bad of [
    "import { copyText } from '../../src/extension/details/actions';",
    "import type { Ctx } from '../../src/extension/ctx';",
    "import { createTestApi } from '../../src/extension/testApi';",
    "const m = await import('../../src/extension/search');",
    "export type { Node } from '../../src/extension/search/results/resultNodes';",
  ])
    assert.strictEqual(breaches(f, bad).length, 1, bad);
});

test(`testApi.ts is at most ${MAX_TEST_API_LINES} lines`, () => {
  const lines = readFileSync(testApi, 'utf8').trimEnd().split('\n').length;
  assert.ok(
    lines <= MAX_TEST_API_LINES,
    `testApi.ts has ${lines} lines: narrow a verb instead of adding one`,
  );
});
