/**
 * No function in src/ is over 100 lines: a longer one does several things under one name, and
 * the next reader cannot see its steps from the names. Every function-like node with a body
 * counts (declarations, methods, arrows, accessors), from its first line to its last.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const root = join(__dirname, '..', '..', '..');
const src = join(root, 'src');
const MAX_LINES = 100;

/**
 * Functions that may stay longer, each with why. Only data: a table written as a function
 * because its rows use helpers, not logic.
 */
const ALLOWED: ReadonlySet<string> = new Set([
  // The emulator's named fixture hosts: one literal row per host the tests name.
  'emulator/hostFixtures.ts fixtureHosts',
]);

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    // Generated data (world.generated.ts: country paths) is not written by hand.
    return name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.generated.ts') ? [p] : [];
  });
}

function nameOf(n: ts.SignatureDeclaration): string {
  if (n.name) return n.name.getText();
  const p = n.parent;
  if ((ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name)
    return p.name.getText();
  return '<anonymous>';
}

/** The functions of `text` over `max` lines, as `name (N lines, line L)`. */
export function longFunctions(
  file: string,
  text: string,
  max = MAX_LINES,
): Array<{ name: string; lines: number; line: number }> {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Array<{ name: string; lines: number; line: number }> = [];
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && (n as ts.FunctionLikeDeclaration).body) {
      const first = sf.getLineAndCharacterOfPosition(n.getStart()).line;
      const last = sf.getLineAndCharacterOfPosition(n.end).line;
      if (last - first + 1 > max) out.push({ name: nameOf(n), lines: last - first + 1, line: first + 1 });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

test('a function over the limit is found, named, with its length (the check itself)', () => {
  const body = Array.from({ length: 5 }, (_, i) => `  const x${i} = ${i};`).join('\n');
  const text = `export function long(): void {\n${body}\n}\nconst short = () => 1;\nclass C { m(): void {\n${body}\n} }\n`;
  assert.deepEqual(longFunctions('x.ts', text, 6), [
    { name: 'long', lines: 7, line: 1 },
    { name: 'm', lines: 7, line: 9 },
  ]);
});

test(`no function in src/ is over ${MAX_LINES} lines`, () => {
  const found: string[] = [];
  const allowedSeen = new Set<string>();
  for (const file of tsFiles(src)) {
    const rel = relative(src, file).split('\\').join('/');
    for (const f of longFunctions(file, readFileSync(file, 'utf8'))) {
      const key = `${rel} ${f.name}`;
      if (ALLOWED.has(key)) allowedSeen.add(key);
      else found.push(`${rel}:${f.line} ${f.name} (${f.lines} lines)`);
    }
  }
  assert.deepEqual(found, [], `split these into named steps:\n${found.join('\n')}`);
  // An allowance that no longer names a long function is stale: it would hide the next one.
  assert.deepEqual(
    [...ALLOWED].filter((k) => !allowedSeen.has(k)),
    [],
    'stale allowances',
  );
});
