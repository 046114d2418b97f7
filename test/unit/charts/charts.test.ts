/**
 * The chart page's pure parts: a summary's buckets as bars (share, sorting, the "other" bar,
 * hostile labels kept as plain strings), its message schema (bucket ids only, the SVG to save
 * capped) and the check of a saved SVG (no script, handler or remote link).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chartBars, noneLabel, otherLabel, shareText } from '../../../src/common/charts/bars';
import { fromChart, isToChart } from '../../../src/common/charts/protocol';
import { checkSvg, MAX_SVG_CHARS } from '../../../src/core/charts/svgExport';
import { PAYLOADS } from '../../../src/emulator/hostile';

test('buckets become bars sorted by count, with their share of everything counted and "other" last', () => {
  const bars = chartBars(
    [
      { key: 80, doc_count: 30 },
      { key: 443, doc_count: 50 },
      { key: 'b', doc_count: 10 },
      { key: 'a', doc_count: 10 },
    ],
    100,
  );
  assert.deepEqual(
    bars.map((b) => [b.label, b.count, b.bucket]),
    [
      ['443', 50, 1],
      ['80', 30, 0],
      ['a', 10, 3],
      ['b', 10, 2],
      [otherLabel(), 100, undefined],
    ],
  );
  assert.equal(bars[0]!.share, 50 / 200);
  assert.equal(bars[4]!.share, 0.5);
  assert.equal(bars[4]!.other, true);
  assert.ok(Math.abs(bars.reduce((s, b) => s + b.share, 0) - 1) < 1e-9);
});

test('no "other" bar when nothing is left out; null keys, empty and odd counts', () => {
  const bars = chartBars(
    [
      { key: null, doc_count: 3 },
      { key: true, doc_count: Number.NaN },
      { key: 'x', doc_count: -5 },
    ],
    0,
  );
  assert.equal(bars.length, 3);
  assert.ok(!bars.some((b) => b.other));
  assert.equal(bars[0]!.label, noneLabel());
  assert.deepEqual(
    bars.map((b) => b.count),
    [3, 0, 0],
  );
  assert.deepEqual(chartBars([], 0), []);
  assert.equal(chartBars([], 7)[0]!.share, 1);
  assert.equal(chartBars([{ key: 'a', doc_count: 0 }], 0)[0]!.share, 0);
});

test('hostile bucket keys stay the same plain strings (the page sets them as text)', () => {
  const keys = Object.values(PAYLOADS);
  const bars = chartBars(keys.map((key, i) => ({ key, doc_count: i + 1 })));
  for (const key of keys)
    assert.ok(
      bars.some((b) => b.label === key && typeof b.label === 'string'),
      key,
    );
  for (const b of bars) assert.deepEqual(Object.keys(b).sort(), ['bucket', 'count', 'label', 'share']);
});

test('share text', () => {
  assert.equal(shareText(0), '0%');
  assert.equal(shareText(0.0004), '<0.1%');
  assert.equal(shareText(0.0567), '5.7%');
  assert.equal(shareText(0.456), '46%');
  assert.equal(shareText(1), '100%');
});

test('the chart page sends bucket indexes only; anything else is refused', () => {
  assert.deepEqual(fromChart({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(fromChart({ type: 'narrow', generation: 1, bucket: 3 }), {
    type: 'narrow',
    generation: 1,
    bucket: 3,
  });
  assert.ok(fromChart({ type: 'rendered', generation: 1, bars: 5, ms: 2.5 }));
  for (const bad of [
    { type: 'narrow', generation: 1, bucket: -1 },
    { type: 'narrow', generation: 1, bucket: '3' },
    { type: 'narrow', generation: 1, bucket: 3, value: 'x' },
    { type: 'narrow', generation: 1, field: 'ip', key: '10.0.0.1' },
    { type: 'command', command: 'workbench.action.terminal.new' },
    { type: 'saveSvg', svg: 1 },
    { type: 'saveSvg', svg: 'x'.repeat(MAX_SVG_CHARS + 1) },
    { type: 'saveSvg', svg: '<svg></svg>', path: '/etc/passwd' },
    null,
    'ready',
  ])
    assert.equal(fromChart(bad), undefined, JSON.stringify(bad)?.slice(0, 80));
  // The SVG may exceed the kit's cap on ordinary messages; it has its own.
  assert.ok(fromChart({ type: 'saveSvg', svg: `<svg>${'x'.repeat(10_000)}</svg>` }));
  assert.ok(isToChart({ type: 'empty', message: 'm' }));
  assert.ok(!isToChart({ type: 'chart', generation: 1, chart: 'x' }));
});

const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const ok = (s: string): boolean => checkSvg(s).ok;

test('a saved SVG must be an <svg> document with no script, handler, entity or remote link', () => {
  const good =
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g role="button" aria-label="&lt;script&gt;"><title>&lt;img src=x onerror=1&gt;</title><rect fill="rgb(1, 2, 3)"/><text font-family="&quot;Segoe WPC&quot;, sans-serif">a</text></g></svg>';
  assert.ok(ok(good));
  assert.ok(ok(`<?xml version="1.0"?>\n${good}\n`));
  // Hostile labels are text (escaped by the serialiser): they do not make a chart unsavable.
  assert.ok(ok(`<svg><text>${escapeXml(Object.values(PAYLOADS).join(' '))}</text></svg>`));
  for (const bad of [
    '',
    '<html><svg></svg></html>',
    '<svg>',
    '<svg><script>alert(1)</script></svg>',
    '<svg><SCRIPT href="x"/></svg>',
    '<svg onload="alert(1)"></svg>',
    '<svg><rect ONclick=alert(1) /></svg>',
    '<svg><image href="https://evil.example/beacon.png"/></svg>',
    '<svg><a xlink:href="javascript:alert(1)">x</a></svg>',
    "<svg><use href='//evil.example/x.svg#a'/></svg>",
    '<svg><rect style="fill:url(https://evil.example/x)"/></svg>',
    '<svg><rect fill="url(https://evil.example/x)"/></svg>',
    '<svg><foreignObject><div>x</div></foreignObject></svg>',
    '<!DOCTYPE svg [<!ENTITY x "y">]><svg></svg>',
    '<svg><!ENTITY x "y"></svg>',
    '<svg><style>@import url(https://evil.example/x.css)</style></svg>',
    '<svg><text aria-label="x" onmouseover="alert(1)">a</text></svg>',
  ])
    assert.equal(ok(bad), false, bad);
  assert.equal(checkSvg(42).ok, false);
  assert.equal(ok(`<svg>${'x'.repeat(MAX_SVG_CHARS)}</svg>`), false);
});

test('a saved SVG is parsed and written again from an allow-list: a prefixed script or a handler after a quoted > never passes', () => {
  for (const bad of [
    // A script in the SVG namespace under a prefix of its own.
    '<svg xmlns="http://www.w3.org/2000/svg"><s:script xmlns:s="http://www.w3.org/2000/svg">alert(1)</s:script></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:s="http://www.w3.org/2000/svg"><g><s:script>alert(1)</s:script></g></svg>',
    // An attribute after a quoted '>' inside another attribute's value.
    '<svg><rect aria-label="a>b" onclick="alert(1)"/></svg>',
    "<svg><g aria-label='>' onfocus='alert(1)' tabindex='0'></g></svg>",
    // Elements of other namespaces under allowed names, and a second document.
    '<svg><rect xmlns="http://www.w3.org/1999/xhtml"/></svg>',
    '<svg></svg><svg><script>alert(1)</script></svg>',
    '<svg><g>text outside a label</g></svg>',
    '<svg><text>&ext;</text></svg>',
    '<svg><!-- a comment --></svg>',
    '<svg><text><![CDATA[<script>alert(1)</script>]]></text></svg>',
  ])
    assert.equal(ok(bad), false, bad);
  // What is written is our own serialisation: text escaped, the namespace declared once.
  const saved = checkSvg('<svg width="10"><text x="1">a &amp; &lt;b&gt; "c"</text></svg>');
  assert.deepEqual(saved, {
    ok: true,
    svg: '<svg xmlns="http://www.w3.org/2000/svg" width="10"><text x="1">a &amp; &lt;b&gt; "c"</text></svg>',
  });
});

test('labels that say url(, hold quotes or invisible characters save as text: a harmless chart is never refused', () => {
  const label = 'background: url(https://evil.example/x) "\u202e\u200b"';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg"><g role="img" aria-label="${escapeXml(label).replace(/"/g, '&quot;')}"><title>${escapeXml(label)}</title><text x="0" y="13" fill="rgb(204, 204, 204)">${escapeXml(label)}</text></g></svg>`;
  const saved = checkSvg(svg);
  assert.ok(saved.ok, JSON.stringify(saved));
  assert.match(
    saved.svg,
    /<title>background: url\(https:\/\/evil\.example\/x\) "&lt;U\+202E&gt;&lt;U\+200B&gt;"<\/title>/,
  );
  assert.match(saved.svg, /aria-label="background: url\(https:\/\/evil\.example\/x\) &quot;&lt;U\+202E&gt;/);
  assert.doesNotMatch(saved.svg, /[\u202e\u200b]/);
});
