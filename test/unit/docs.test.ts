/**
 * The documents name only files and code that are in the repository: a Markdown link
 * resolves; a path written in backticks from a top-level folder (`src/…`, `test/…`,
 * `packages/…`, …), from a folder of `src/` (`core/gate`, `extension/webviewKit/`) or as a
 * file name (`hoverCard.ts`) exists; a `dist/` bundle is one esbuild.mjs builds; and a code
 * name in backticks (`decideCard`, `WebviewPage`, `ctx.gate.decide`, `HOVER_COMMAND_IDS`,
 * `activate()`) occurs in the code. A file moved or a function renamed without its docs fails
 * here, not in a newcomer's hands.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';

const root = join(__dirname, '..', '..', '..');
const SKIP = new Set(['node_modules', 'out', 'dist', '.vscode-test', '.git', 'fixtures', '.cache']);
const TOP = ['src/', 'test/', 'scripts/', 'docs/', 'media/', '.ci/', 'syntaxes/', 'packages/', 'l10n/'];

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
const repoDirs = new Set(
  repoFiles.flatMap((f) =>
    f
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
/** The documents to check, relative to the root (the changelog names what was, on purpose). */
const markdownFiles = repoFiles.filter((f) => f.endsWith('.md') && f !== 'CHANGELOG.md');

/** A short path (`search/index.ts`, `ctx.ts`) names some file that ends with it. */
function named(short: string): boolean {
  return repoFiles.some((f) => f === short || f.endsWith(`/${short}`));
}

/** The folder names under src/ (`core`, `gate`, `webviewKit`, …): a path that starts with one is ours. */
const srcFolders = new Set([...repoDirs].filter((d) => d.startsWith('src/')).map((d) => d.split('/').pop()));

/** A media type (`text/plain`) is no path, whatever folder `text` names. */
const MIME = /^(application|text|image|audio|video|font|multipart)\/[\w.+-]+$/;

/** `core/gate`, `shared/feeds`, `api/normalize/`: a file (`.ts` may be left off) or a folder under src/. */
function namedUnderSrc(short: string): boolean {
  const p = short.replace(/\/$/, '');
  const ends = (f: string): boolean =>
    f.startsWith('src/') && (f.endsWith(`/${p}`) || f.endsWith(`/${p}.ts`));
  return repoFiles.some(ends) || [...repoDirs].some(ends);
}

/** The bundles esbuild.mjs writes to dist/: its entry point names, and the files it writes by name. */
const esbuildSource = readFileSync(join(root, 'esbuild.mjs'), 'utf8');
const bundles = new Set([
  ...[...esbuildSource.matchAll(/['"]?([\w-]+)['"]?\s*:\s*'src\//g)].map((m) => `dist/${m[1]}.js`),
  ...[...esbuildSource.matchAll(/'(dist\/[\w./-]+)'/g)].map((m) => m[1]),
]);

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
    if (p === 'dist/' || p.startsWith('dist/')) {
      if (p !== 'dist/' && !bundles.has(p)) missing.push(`bundle ${m[1]}`);
    } else if (TOP.some((t) => p.startsWith(t))) {
      if (!existsSync(join(root, p))) missing.push(`path ${m[1]}`);
    } else if (/^[\w./-]+\.(ts|mjs|css)$/.test(p)) {
      if (!named(p)) missing.push(`file ${m[1]}`);
    } else if (/^[\w-]+(\/[\w.-]+)+\/?$/.test(p) && srcFolders.has(p.split('/')[0]) && !MIME.test(p)) {
      if (!namedUnderSrc(p)) missing.push(`path ${m[1]}`);
    }
  }
  return missing;
}

test('the documents link and name only files that exist', () => {
  assert.ok(markdownFiles.includes('ARCHITECTURE.md'), 'ARCHITECTURE.md is read');
  const problems = markdownFiles.flatMap((f) => missingIn(f).map((m) => `${f}: ${m}`));
  assert.deepEqual(problems, []);
});

/**
 * Every identifier of the code: the words of src/, scripts/, test/, packages/ (Markdown and
 * test fixtures left out: a document must not vouch for itself) and of esbuild.mjs,
 * eslint.config.mjs and package.json.
 */
const codeWords = new Set(
  repoFiles
    .filter(
      (f) =>
        (/^(src|scripts|test|packages)\//.test(f) && /\.(ts|mjs|js|cjs|json|css|html)$/.test(f)) ||
        ['esbuild.mjs', 'eslint.config.mjs', 'package.json'].includes(f),
    )
    .flatMap((f) => readFileSync(join(root, f), 'utf8').match(/[A-Za-z_$][\w$]*/g) ?? []),
);

/**
 * Names the documents quote from other programs, which our code does not spell: each with
 * where it comes from. Keep this short; a name of ours never belongs here.
 */
const FOREIGN = new Set([
  '__copyProps', // esbuild's helper in a bundle (docs/benchmarks.md, the activation profile)
  'resolveTimeout', // VS Code's webview service worker (docs/benchmarks.md)
  'VSCE_PAT', // the token vsce reads (docs/publishing.md)
  'OVSX_PAT', // the token ovsx reads
  'NPM_TOKEN', // the token npm publish reads
]);

/**
 * A code name: an identifier, maybe dotted (`ctx.gate.decide`), maybe called (`activate()`),
 * that reads as code rather than as a word: camelCase, PascalCase with a second capital,
 * UPPER_SNAKE, a leading `_`, a call, or a member of a capitalised name (`Gate.query`), of `ctx`
 * or of `vscode`. File names (`mcp.test.ts`) are paths, not names.
 */
function codeName(span: string): string[] | undefined {
  if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*(\(\))?$/.test(span)) return undefined;
  if (/\.(ts|mjs|js|json|md|css|html)$/.test(span)) return undefined;
  if (!/[a-z][A-Z]|^[A-Z][a-z0-9]+[A-Z]|[A-Z0-9]_[A-Z]|^_|\(\)$|^[A-Z][\w$]*\.|^(ctx|vscode)\./.test(span))
    return undefined;
  return span.replace(/\(\)$/, '').split('.');
}

test('the documents name only code that exists', () => {
  const problems = markdownFiles.flatMap((f) =>
    [...prose(readFileSync(join(root, f), 'utf8')).matchAll(/`([^`\s]+)`/g)].flatMap((m) => {
      const parts = codeName(m[1]);
      const gone = parts?.filter((p) => !codeWords.has(p) && !FOREIGN.has(p)) ?? [];
      return gone.length ? [`${f}: ${m[1]}`] : [];
    }),
  );
  assert.deepEqual([...new Set(problems)], []);
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
