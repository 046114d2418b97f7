/**
 * The context rules' shortcuts against the rules themselves: what a shortcut skips could never
 * have changed the answer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { numberingBefore, versionBefore, versionOrNumberingBefore } from '../../../src/core/detect/context';
import { NUMBERING_WORDS, VERSION_WORDS } from '../../../src/core/detect/rules';

void describe('context: version or numbering before an address', () => {
  void it('answers as the two rules do, whatever character ends the text before the gap', () => {
    const words = [...VERSION_WORDS, ...NUMBERING_WORDS];
    // Each word, cut short, in capitals, abbreviated, after a product token or a section sign,
    // and words that are not context at all: the last character comes from the loop below.
    const heads = [
      '',
      'x',
      'from',
      'via',
      'Chrome/',
      'AssemblyVersion("',
      '§',
      ...words.map((w) => w.slice(0, -1)),
      ...words.map((w) => w.toUpperCase().slice(0, -1)),
      ...words.map((w) => `${w}.`),
      ...words.map((w) => `my${w.slice(0, -1)}`),
    ];
    const gaps = [' ', '  ', '   ', '\t', '=', ': "', '', '/'];
    let agreed = 0;
    let shortcut = 0;
    for (const head of heads) {
      for (let c = 0; c < 0x180; c++) {
        for (const gap of gaps) {
          const text = `${head}${String.fromCharCode(c)}${gap}10.0.0.1`;
          const st = text.length - '10.0.0.1'.length;
          const want = versionBefore(text, st) || numberingBefore(text, st);
          assert.equal(versionOrNumberingBefore(text, st), want, JSON.stringify(text));
          agreed++;
          if (!want && gap === ' ' && /[a-z]/i.test(String.fromCharCode(c))) shortcut++;
        }
      }
    }
    // The cases the shortcut decides alone are among them, and the rules still find their words.
    assert.ok(shortcut > 1000, String(shortcut));
    assert.ok(versionOrNumberingBefore('Section 10.0.0.1', 8));
    assert.ok(versionOrNumberingBefore('version 10.0.0.1', 8));
    assert.ok(!versionOrNumberingBefore('from 10.0.0.1', 5));
    assert.ok(agreed > 100_000, String(agreed));
  });
});
