// The TextMate grammar of `.odinq`, run by the same engine VS Code uses (vscode-textmate +
// vscode-oniguruma) over the example files.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, test } from 'node:test';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';

const ROOT = path.resolve(__dirname, '../../../..');
let grammar: vsctm.IGrammar;

before(async () => {
  const wasm = fs.readFileSync(path.join(ROOT, 'node_modules/vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (p: string[]) => new oniguruma.OnigScanner(p),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) =>
      scope === 'source.odinq'
        ? vsctm.parseRawGrammar(
            fs.readFileSync(path.join(ROOT, 'media/odinq.tmLanguage.json'), 'utf8'),
            'odinq.tmLanguage.json',
          )
        : null,
  });
  const g = await registry.loadGrammar('source.odinq');
  assert.ok(g);
  grammar = g;
});

/** [text, innermost scope] of every token of `text`. */
function tokens(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let state = vsctm.INITIAL;
  for (const line of text.split('\n')) {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) {
      const s = line.slice(t.startIndex, t.endIndex);
      if (s.trim()) out.push([s.trim(), t.scopes[t.scopes.length - 1]]);
    }
    state = r.ruleStack;
  }
  return out;
}
const scopeOf = (text: string, token: string): string | undefined =>
  tokens(text).find(([s]) => s === token)?.[1];

test('grammar: header, comment, fields, operators, phrases, ranges and wildcards', () => {
  const text = fs.readFileSync(path.join(ROOT, 'test/fixtures/hunts/team.odinq'), 'utf8');
  const all = tokens(text);
  const find = (tok: string) => all.find(([s]) => s === tok)?.[1];
  assert.equal(find('hosts'), 'keyword.control.kind.odinq');
  assert.equal(find('size'), 'variable.parameter.option.odinq');
  assert.equal(find('50'), 'constant.other.option-value.odinq');
  assert.equal(find('only our country'), 'comment.line.number-sign.odinq');
  assert.equal(find('services.port'), 'variable.other.property.field.odinq');
  assert.equal(find('AND'), 'keyword.operator.logical.odinq');
  assert.equal(find('United States'), 'string.quoted.single.odinq');
  assert.equal(find('.db'), 'string.quoted.double.odinq');
  assert.equal(find('TO'), 'keyword.operator.range.odinq');
  assert.equal(find('['), 'punctuation.definition.range.begin.odinq');
  assert.equal(scopeOf('@hosts X\nservices.product:ngin*', '*'), 'keyword.operator.wildcard.odinq');
  assert.equal(scopeOf('@hosts X\nservices.port:443', '443'), 'constant.numeric.odinq');
  assert.equal(
    scopeOf('@hosts X\ntitle:"a # b"', 'a # b'),
    'string.quoted.double.odinq',
    '# inside a phrase is text',
  );
  assert.equal(scopeOf('@hosts X\ntag:a#b', '#b'), undefined, '# inside a word starts no comment');
  assert.match(scopeOf('@hosts Exposed RDP', 'Exposed') ?? '', /^entity\.name\.section/);
});

test('grammar: the language configuration is valid JSON with # comments and closing quotes', () => {
  const conf = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'media/odinq.language-configuration.json'), 'utf8'),
  ) as {
    comments: { lineComment: string };
    autoClosingPairs: Array<{ open: string }>;
  };
  assert.equal(conf.comments.lineComment, '#');
  assert.deepEqual(conf.autoClosingPairs.map((p) => p.open).sort(), ['"', "'", '(', '[', '{']);
});
