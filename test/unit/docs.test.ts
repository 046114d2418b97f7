/**
 * The documents name only files that are in the repository: a Markdown link resolves, and a
 * path written in backticks from a top-level folder (`src/…`, `test/…`, `docs/…`, …) exists.
 * A file moved without its docs fails here, not in a newcomer's hands.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';

const root = join(__dirname, '..', '..', '..');
const SKIP = new Set(['node_modules', 'out', 'dist', '.vscode-test', '.git', 'fixtures', '.cache']);
const TOP = ['src/', 'test/', 'scripts/', 'docs/', 'media/', '.ci/', 'syntaxes/'];

/** Fenced code blocks are examples, not references. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const p = join(dir, name);
    return statSync(p).isDirectory() ? allFiles(p) : [relative(root, p).split('\\').join('/')];
  });
}
const repoFiles = allFiles(root);
/** The documents to check, relative to the root (the changelog names files that are gone, on purpose). */
const markdownFiles = repoFiles.filter((f) => f.endsWith('.md') && f !== 'CHANGELOG.md');

/** A short path (`search/index.ts`, `ctx.ts`) names some file that ends with it. */
function named(short: string): boolean {
  return repoFiles.some((f) => f === short || f.endsWith(`/${short}`));
}

function missingIn(rel: string): string[] {
  const file = join(root, rel);
  const text = prose(readFileSync(file, 'utf8'));
  const missing: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1].split('#')[0];
    if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, command:, mailto:
    if (!existsSync(join(dirname(file), decodeURI(target)))) missing.push(`link ${m[1]}`);
  }
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    const p = m[1].replace(/:\d+(-\d+)?$/, '');
    if (/[*<>{}$…]|\.\.\./.test(p)) continue; // a pattern or a placeholder, not a path
    if (TOP.some((t) => p.startsWith(t))) {
      if (!existsSync(join(root, p))) missing.push(`path ${m[1]}`);
    } else if (/^[\w./-]+\.(ts|mjs|css)$/.test(p) && !named(p)) {
      missing.push(`file ${m[1]}`);
    }
  }
  return missing;
}

test('the documents link and name only files that exist', () => {
  assert.ok(markdownFiles.includes('ARCHITECTURE.md'), 'ARCHITECTURE.md is read');
  const problems = markdownFiles.flatMap((f) => missingIn(f).map((m) => `${f}: ${m}`));
  assert.deepEqual(problems, []);
});

test('the documents the guide requires are in the repository', () => {
  for (const f of ['README.md', 'SECURITY.md', 'ARCHITECTURE.md', 'docs/benchmarks.md', 'CHANGELOG.md']) {
    assert.ok(existsSync(join(root, f)), f);
  }
});

/** The README's section under `## <title>`, up to the next `## `. */
function readmeSection(title: string): string {
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  const start = text.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `README has a "## ${title}" section`);
  const end = text.indexOf('\n## ', start + 4);
  return text.slice(start, end < 0 ? undefined : end);
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string }[]; configuration: { properties: Record<string, unknown> } };
};

test("the README's settings table has a row for each setting package.json contributes, and no other", () => {
  const table = readmeSection('Settings');
  const rows = [...table.matchAll(/^\|\s*`(odin\.[\w.]+)`/gm)].map((m) => m[1]);
  const settings = Object.keys(manifest.contributes.configuration.properties);
  assert.deepEqual(
    settings.filter((s) => !rows.includes(s)),
    [],
    'settings without a README row',
  );
  assert.deepEqual(
    rows.filter((r) => !settings.includes(r)),
    [],
    'README rows for settings that do not exist',
  );
});

test("the README's commands table names each command package.json contributes, and no other", () => {
  const table = readmeSection('Commands');
  const named = new Set([...table.matchAll(/`(odin\.[A-Za-z]+)`/g)].map((m) => m[1]));
  const commands = manifest.contributes.commands.map((c) => c.command);
  assert.deepEqual(
    commands.filter((c) => !named.has(c)),
    [],
    'commands the README does not name',
  );
  assert.deepEqual(
    [...named].filter((n) => !commands.includes(n)),
    [],
    'README names commands that do not exist',
  );
});
