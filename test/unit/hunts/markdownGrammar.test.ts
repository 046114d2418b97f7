// The injection grammar that colours ```odinq fences in Markdown
// (media/odinq.markdown.tmLanguage.json), run by the engine VS Code uses (vscode-textmate +
// vscode-oniguruma) the way VS Code runs it: injected into `text.html.markdown`. The
// Markdown grammar is a one-rule stand-in, and also VS Code's own markdown-basics grammar
// when a test host has been downloaded (~/.cache/odin-vscode-test), so the injection is
// checked against the rules it competes with.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { before, test } from 'node:test';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';

const ROOT = path.resolve(__dirname, '../../../..');

/** A Markdown grammar with only paragraphs: the injection alone must find the fence. */
const STAND_IN = JSON.stringify({
  scopeName: 'text.html.markdown',
  patterns: [{ match: '^.+$', name: 'meta.paragraph.markdown' }],
});

function vscodeMarkdownGrammar(): string | undefined {
  const cache = path.join(os.homedir(), '.cache', 'odin-vscode-test');
  if (!fs.existsSync(cache)) return undefined;
  for (const d of fs.readdirSync(cache).sort().reverse()) {
    const p = path.join(
      cache,
      d,
      'node_modules/code-server/lib/vscode/extensions/markdown-basics/syntaxes/markdown.tmLanguage.json',
    );
    if (fs.existsSync(p)) return p;
  }
  return undefined;
}

let onig: Promise<vsctm.IOnigLib>;
before(async () => {
  const wasm = fs.readFileSync(path.join(ROOT, 'node_modules/vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  onig = Promise.resolve({
    createOnigScanner: (p: string[]) => new oniguruma.OnigScanner(p),
    createOnigString: (s: string) => new oniguruma.OnigString(s),
  });
});

async function markdownGrammar(markdownText: string, file: string): Promise<vsctm.IGrammar> {
  const registry = new vsctm.Registry({
    onigLib: onig,
    loadGrammar: async (scope) => {
      if (scope === 'text.html.markdown') return vsctm.parseRawGrammar(markdownText, file);
      if (scope === 'source.odinq')
        return vsctm.parseRawGrammar(
          fs.readFileSync(path.join(ROOT, 'media/odinq.tmLanguage.json'), 'utf8'),
          'odinq.tmLanguage.json',
        );
      if (scope === 'markdown.odinq.codeblock')
        return vsctm.parseRawGrammar(
          fs.readFileSync(path.join(ROOT, 'media/odinq.markdown.tmLanguage.json'), 'utf8'),
          'odinq.markdown.tmLanguage.json',
        );
      return null;
    },
    // What package.json's `injectTo: ["text.html.markdown"]` makes VS Code do.
    getInjections: (scope) => (scope === 'text.html.markdown' ? ['markdown.odinq.codeblock'] : undefined),
  });
  const g = await registry.loadGrammar('text.html.markdown');
  assert.ok(g);
  return g;
}

/** Each line's tokens as [text, scopes]. */
function tokenize(g: vsctm.IGrammar, text: string): Array<Array<[string, string[]]>> {
  let state = vsctm.INITIAL;
  return text.split('\n').map((line) => {
    const r = g.tokenizeLine(line, state);
    state = r.ruleStack;
    return r.tokens
      .map((t): [string, string[]] => [line.slice(t.startIndex, t.endIndex), t.scopes])
      .filter(([s]) => s.trim());
  });
}

const DOC = [
  '# Incident 42',
  '',
  'Hosts that exposed RDP:',
  '',
  '```odinq',
  '@hosts RDP in NL  size=50',
  'services.port:3389 AND location.country_code:"NL"  # ours',
  '```',
  '',
  'AND this line is prose again: services.port:22',
  '',
  '~~~ OdinQ',
  'provider: aws',
  '~~~',
  '',
  '```js',
  'const AND = 1;',
  '```',
].join('\n');

async function check(g: vsctm.IGrammar): Promise<void> {
  const lines = tokenize(g, DOC);
  const scopeOf = (line: number, text: string): string[] => {
    const t = lines[line].find(([s]) => s.trim() === text);
    assert.ok(t, `"${text}" is a token of line ${line + 1}: ${JSON.stringify(lines[line].map((x) => x[0]))}`);
    return t[1];
  };
  const inner = (line: number, text: string): string => scopeOf(line, text).at(-1) ?? '';
  // The fence opens with its language name and closes.
  assert.ok(scopeOf(4, 'odinq').includes('fenced_code.block.language.markdown'));
  assert.ok(scopeOf(4, '```').includes('punctuation.definition.markdown'));
  assert.ok(scopeOf(7, '```').includes('punctuation.definition.markdown'));
  // Inside: the odinq grammar, in the embedded scope VS Code maps to the odinq language.
  assert.ok(scopeOf(5, 'hosts').includes('meta.embedded.block.odinq'));
  assert.equal(inner(5, 'hosts'), 'keyword.control.kind.odinq');
  assert.equal(inner(6, 'services.port'), 'variable.other.property.field.odinq');
  assert.equal(inner(6, 'AND'), 'keyword.operator.logical.odinq');
  assert.equal(inner(6, '3389'), 'constant.numeric.odinq');
  assert.equal(inner(6, 'ours'), 'comment.line.number-sign.odinq');
  // After the fence: Markdown again (no odinq scope leaks out).
  for (const [, scopes] of lines[9]) assert.ok(!scopes.some((s) => s.endsWith('.odinq')), scopes.join(' '));
  // A tilde fence, the language name in any case.
  assert.equal(inner(12, 'provider'), 'variable.other.property.field.odinq');
  // Another language's fence is not ours.
  for (const [, scopes] of lines[16]) assert.ok(!scopes.some((s) => s.endsWith('.odinq')), scopes.join(' '));
}

test('markdown fences: ```odinq is coloured by the odinq grammar, injected into a Markdown grammar', async () => {
  await check(await markdownGrammar(STAND_IN, 'stand-in.json'));
});

test("markdown fences: the same inside VS Code's own Markdown grammar (when a test host is present)", async (t) => {
  const file = vscodeMarkdownGrammar();
  if (!file) {
    t.skip('no VS Code test host downloaded');
    return;
  }
  await check(await markdownGrammar(fs.readFileSync(file, 'utf8'), file));
});
