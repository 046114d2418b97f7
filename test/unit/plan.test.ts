/**
 * The plan of the host runs (scripts/host/plan.mjs) names only test files that exist: a file
 * renamed or removed without its entry would drop out of the compatibility run or the quick
 * loop silently.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(__dirname, '..', '..', '..');

interface Scope {
  trusted?: string[];
  restricted?: string[];
  ui?: string[];
  uiRestricted?: string[];
}

/** plan.mjs is an ES module of the scripts: read in a child Node (this file is compiled to CommonJS). */
const plan = JSON.parse(
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(join(root, 'scripts', 'host', 'plan.mjs'))});
       console.log(JSON.stringify({ full: m.FULL, compat: m.COMPAT, folders: m.FOLDER_TESTS }));`,
    ],
    { encoding: 'utf8' },
  ),
) as { full: Scope; compat: Scope; folders: Record<string, string[]> };

const integration = (n: string): boolean => existsSync(join(root, 'test', 'integration', `${n}.test.ts`));
const ui = (n: string): boolean => existsSync(join(root, 'test', 'ui', `${n}.test.mjs`));
const uiRestricted = (n: string): boolean =>
  existsSync(join(root, 'test', 'ui', 'restricted', `${n}.test.mjs`));

test('the compatibility run names only test files that exist, each of its kind', () => {
  const c = plan.compat;
  assert.deepEqual(
    [...(c.trusted ?? []), ...(c.restricted ?? [])].filter((n) => !integration(n)),
    [],
  );
  assert.deepEqual(
    (c.ui ?? []).filter((n) => !ui(n)),
    [],
  );
  assert.deepEqual(
    (c.uiRestricted ?? []).filter((n) => !uiRestricted(n)),
    [],
  );
  assert.ok((c.trusted ?? []).includes('activation'), 'the oldest host proves activation');
});

test("the quick loop's folders exist and name test files that exist", () => {
  for (const [folder, files] of Object.entries(plan.folders)) {
    assert.ok(existsSync(join(root, folder)), `${folder} exists`);
    assert.deepEqual(
      files.filter((n) => !integration(n) && !ui(n) && !uiRestricted(n)),
      [],
      folder,
    );
  }
});
