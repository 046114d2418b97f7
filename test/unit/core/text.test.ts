import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  codeFence,
  codePoint,
  escapeMarkdown,
  escapeMarkdownSyntax,
  INVISIBLE,
  neutraliseUiText,
  showInvisibles,
  truncate,
} from '../../../src/core/text/inert';
import { redactDeep, redactSecrets } from '../../../src/core/text/redact';

test('showInvisibles makes bidi, zero-width, NUL and ANSI escapes visible', () => {
  assert.equal(showInvisibles('a\u202Eb'), 'a<U+202E>b');
  assert.equal(showInvisibles('x\u200By'), 'x<U+200B>y');
  assert.equal(showInvisibles('\u0000'), '<U+0000>');
  assert.equal(showInvisibles('\u001b[31mred'), '<U+001B>[31mred');
  assert.equal(showInvisibles('tab\tand\nnewline'), 'tab\tand\nnewline');
});

test('neutraliseUiText defuses icon syntax and notification links', () => {
  const out = neutraliseUiText('$(alert) click [here](command:workbench.action.terminal.new)\nnext');
  assert.ok(!out.includes('$('), out);
  assert.ok(!out.includes(']('), out);
  assert.ok(!out.includes('\n'));
  assert.ok(out.includes('alert'));
});

test('escapeMarkdown leaves no active Markdown or HTML syntax', () => {
  const payloads = [
    '<script>window.__pwned=1</script>',
    '<img src=x onerror="window.__pwned=1">',
    '[click](command:workbench.action.terminal.new)',
    '![img](https://attacker.example/x.png)',
    '```\nfence break\n```',
    'javascript:alert(1)',
    '# heading *bold* _it_ ~~s~~ | table |',
    'https://attacker.example/autolink www.attacker.example',
  ];
  for (const p of payloads) {
    const out = escapeMarkdown(p);
    // Every syntax character is backslash-escaped.
    assert.doesNotMatch(out, /(^|[^\\])[<>[\]()`*_#|~]/, `${p} -> ${out}`);
    assert.doesNotMatch(out, /https:\/\//);
    assert.doesNotMatch(out, /\n/);
  }
});

test("escapeMarkdown's shortcut for plain words answers as its four passes do", () => {
  // The passes, spelled out: the oracle the shortcut (letters, digits, spaces, commas) is held to.
  const passes = (text: string, max: number): string =>
    escapeMarkdownSyntax(showInvisibles(truncate(text.replace(/\r\n?/g, '\n'), max))).replace(/\n+/g, ' ');
  const alphabet = [
    'a',
    'Z',
    '7',
    ' ',
    ',',
    '.',
    '-',
    '\n',
    '\r',
    '\u200b',
    '\u202e',
    'é',
    '😀',
    '[',
    '*',
    '\\',
  ];
  let seed = 42;
  const next = (n: number): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
  for (let i = 0; i < 3000; i++) {
    // Half the strings from the plain characters alone, so the shortcut is taken often.
    const chars = i % 2 ? alphabet : alphabet.slice(0, 5);
    const text = Array.from({ length: next(24) }, () => chars[next(chars.length)]).join('');
    for (const max of [2000, 12, 5])
      assert.equal(escapeMarkdown(text, max), passes(text, max), JSON.stringify([text, max]));
  }
  assert.equal(escapeMarkdown('Frankfurt am Main, Germany'), 'Frankfurt am Main, Germany');
  assert.equal(escapeMarkdown('nginx 1.18.0'), 'nginx 1\\.18\\.0');
});

test('codeFence uses a fence longer than any backtick run inside', () => {
  const text = 'a ``` b ```` c';
  const out = codeFence(text);
  assert.ok(out.startsWith('`````text\n'), out);
  assert.ok(out.endsWith('\n`````'));
  assert.ok(codeFence('plain').startsWith('```text\n'));
});

test('truncate marks the cut and never splits a surrogate pair', () => {
  assert.equal(truncate('abcdef', 10), 'abcdef');
  assert.equal(truncate('abcdef', 4), 'abc…');
  const emoji = '😀😀😀😀';
  const cut = truncate(emoji, 3);
  assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(cut), 'no lone high surrogate');
});

test('redactSecrets blanks the key and header-looking values', () => {
  const key = 'sk-live-0123456789';
  assert.equal(redactSecrets(`failed with ${key}`, [key]), 'failed with ‹redacted›');
  assert.equal(redactSecrets('X-API-Key: abcdef123', []), 'X-API-Key: ‹redacted›');
  assert.equal(redactSecrets('{"x-api-key":"abcdef123"}', []), '{"x-api-key":"‹redacted›"}');
});

test('redactDeep redacts the key in every string and key, copies only what changed', () => {
  const key = 'k3y-0123456789abcdef';
  const clean = { ports: [22, 443], org: 'Example' };
  const answer = {
    clean,
    banner: `welcome ${key}`,
    list: ['a', `x${key}y`],
    [`by-${key}`]: 1,
    nested: { deep: [{ title: key }] },
  };
  const out = redactDeep(answer, [key]);
  assert.ok(!JSON.stringify(out).includes(key.slice(0, 8)));
  assert.equal(out.banner, 'welcome ‹redacted›');
  assert.deepEqual(out.list, ['a', 'x‹redacted›y']);
  assert.equal(out.clean, clean, 'an unchanged part is shared, not copied');
  assert.equal(answer.banner, `welcome ${key}`, 'the input (a cached answer) is not changed');
  assert.equal(redactDeep(clean, [key]), clean);
  const proto = JSON.parse(`{"__proto__": {"polluted": "${key}"}}`) as Record<string, unknown>;
  const p = redactDeep(proto, [key]);
  assert.equal(Object.getPrototypeOf(p), Object.prototype);
  assert.deepEqual(Object.keys(p), ['__proto__']);
});

test('one list of invisible characters: what the pages mark is what the editor surfaces mark', () => {
  // The union of the two lists that once stood apart (the pages had U+00AD, U+180E, U+FFF9–FFFB more).
  const union = [
    ...['\u0000', '\u0008', '\u000b', '\u000c', '\u000e', '\u001f', '\u007f', '\u009f'],
    ...['\u00ad', '\u061c', '\u180e', '\u200b', '\u200f', '\u2028', '\u202e', '\u2060', '\u2064'],
    ...['\u2066', '\u2069', '\ufeff', '\ufff9', '\ufffa', '\ufffb'],
  ];
  for (const ch of union) {
    assert.ok(INVISIBLE.test(ch), `U+${ch.charCodeAt(0).toString(16)} is in the list`);
    assert.equal(showInvisibles(`a${ch}b`), `a<${codePoint(ch)}>b`);
  }
  for (const ch of ['\t', '\n', '\r', ' ', 'a', '\u00e9', '\u2010', '\ufffc'])
    assert.ok(!INVISIBLE.test(ch), `U+${ch.charCodeAt(0).toString(16)} is shown as it is`);
  // The pages' text() and visibleTitle() read the same list: no class of characters of their own.
  const dom = readFileSync(join(__dirname, '..', '..', '..', '..', 'src', 'webview', 'dom.ts'), 'utf8');
  assert.match(dom, /import \{ codePoint, INVISIBLE \} from '\.\.\/core\/text\/inert'/);
  assert.doesNotMatch(dom, /\\u200b/i, 'dom.ts lists invisible characters of its own');
});
