#!/usr/bin/env node
// The English message bundle of the code: every literal message of `vscode.l10n.t` in
// src/extension and of `l10n.t` (src/core/text/l10n.ts: modules without vscode) in
// src/extension, src/core, src/common and src/webview (the pages: the webview kit posts them
// their translations, common/words.ts), written to l10n/bundle.l10n.json (the file
// translators copy to bundle.l10n.<lang>.json).
//
//   node scripts/l10n.mjs           writes l10n/bundle.l10n.json
//   node scripts/l10n.mjs --print   prints the messages as JSON (what test/unit/l10n.test.ts reads)
//
// The message is the key (VS Code's convention for `vscode.l10n.t`); only literal messages
// count, which the unit test also requires.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDirectly, scriptArgs } from './args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function tsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

const CALL = /\bl10n\.t\(\s*('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")\s*[,)]/g;

/** A TypeScript string literal's value (the escapes our messages use). */
function unquote(literal) {
  return literal
    .slice(1, -1)
    .replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, c) =>
      c.length === 5 ? String.fromCharCode(parseInt(c.slice(1), 16)) : ({ n: '\n', t: '\t' }[c] ?? c),
    );
}

/** Every literal message of `vscode.l10n.t` / `l10n.t` in those folders, sorted, each once. */
export function messages() {
  const found = new Set();
  for (const file of ['extension', 'core', 'common', 'webview'].flatMap((dir) =>
    tsFiles(path.join(root, 'src', dir)),
  )) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(CALL)) found.add(unquote(m[1]));
  }
  return [...found].sort();
}

if (runDirectly(import.meta.url)) {
  const { values } = scriptArgs(import.meta.url, { print: { type: 'boolean' } });
  const list = messages();
  if (values.print) {
    process.stdout.write(JSON.stringify(list));
  } else {
    const bundle = Object.fromEntries(list.map((m) => [m, m]));
    const file = path.join(root, 'l10n', 'bundle.l10n.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(bundle, null, 2)}\n`);
    console.log(`${list.length} messages → ${path.relative(root, file)}`);
  }
}
