/**
 * Trust and the lookups mode are read in one place (one rule, no second reader): the settings module
 * (src/extension/shared/config.ts) reads them from VS Code, the gate (src/core/gate,
 * src/extension/shared/gate.ts) decides on them, display code asks `ctx.gate.trusted()` /
 * `ctx.gate.mode()`. A new reader anywhere else is a second copy of the rule: this fails.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

// Compiled to out/test/unit/gate/: the repository is four folders up.
const root = join(__dirname, '..', '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') ? [relative(root, p).split('\\').join('/')] : [];
  });
}
const files = sources(join(root, 'src'));

const RULES: { what: string; pattern: RegExp; allowed: string[] }[] = [
  {
    what: 'workspace trust (vscode.workspace.isTrusted)',
    pattern: /workspace\s*\.\s*isTrusted\b/,
    allowed: ['src/extension/shared/config.ts'],
  },
  {
    what: 'the lookups mode setting (inspect / get of lookups.mode)',
    pattern: /\b(?:inspect|get)\s*(?:<[^>]*>)?\(\s*['"](?:odin\.)?lookups\.mode['"]/,
    allowed: ['src/extension/shared/config.ts'],
  },
  {
    what: 'the lookups mode getter (config.lookupMode())',
    pattern: /\blookupMode\s*\(/,
    allowed: ['src/extension/shared/config.ts', 'src/extension/shared/gate.ts'],
  },
  {
    what: "the gate's settings outside the gate (settings.mode / settings.trusted)",
    pattern: /\bsettings\s*\.\s*(?:mode|trusted)\b/,
    allowed: ['src/extension/shared/gate.ts'],
  },
];

for (const rule of RULES) {
  void test(`only the settings module and the gate read ${rule.what}`, () => {
    const readers = files.filter(
      (f) => !f.startsWith('src/core/gate/') && rule.pattern.test(readFileSync(join(root, f), 'utf8')),
    );
    const extra = readers.filter((f) => !rule.allowed.includes(f));
    assert.deepEqual(
      extra,
      [],
      `ask ctx.gate (decide, mayRun, trusted(), mode()) instead, in: ${extra.join(', ')}`,
    );
  });
}

void test('the rules see a reader when there is one (the patterns are not dead)', () => {
  const config = readFileSync(join(root, 'src/extension/shared/config.ts'), 'utf8');
  for (const rule of RULES.slice(0, 3)) assert.match(config, rule.pattern, rule.what);
});
