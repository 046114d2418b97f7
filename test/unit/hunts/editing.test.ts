import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRequire } from 'node:module';
import {
  completeAt,
  HOVER_MARKDOWN_OPTIONS,
  hoverAt,
  parseHuntFile,
  type HuntKind,
} from '../../../src/core/hunts';

const catalogue = (kind: HuntKind) =>
  kind === 'hosts'
    ? [
        { name: 'services.port' },
        { name: 'services.product' },
        { name: 'services.modules.http.title', locked: true, category: 'HTTP' },
      ]
    : [{ name: 'provider' }, { name: 'categories' }, { name: 'files' }];

function at(textWithCursor: string) {
  const offset = textWithCursor.indexOf('|');
  const text = textWithCursor.replace('|', '');
  return { text, offset, file: parseHuntFile(text) };
}
const labels = (s: string) => {
  const { text, offset, file } = at(s);
  return completeAt(text, file, offset, catalogue).map((c) => c.label);
};
function apply(s: string, label: string): string {
  const { text, offset, file } = at(s);
  const c = completeAt(text, file, offset, catalogue).find((x) => x.label === label);
  assert.ok(c, `no completion ${label}`);
  return text.slice(0, c.start) + c.insertText + text.slice(c.end);
}

test('header: kinds after @, options after the name, option values', () => {
  assert.deepEqual(labels('@|'), ['hosts', 'buckets', 'files', 'domains']);
  assert.deepEqual(labels('@bu|'), ['hosts', 'buckets', 'files', 'domains']);
  assert.equal(apply('@bu|', 'buckets'), '@buckets ');
  assert.deepEqual(labels('@buckets Big ones |'), ['size=', 'sort=', 'order=']);
  assert.deepEqual(labels('@buckets Big ones sort=|'), ['ins_at', 'files', 'scan_at', 'last_found_at']);
  assert.ok(labels('@hosts X by=|').includes('services.port'));
});

test('body: field names from the catalogue (locked ones last and marked), values, operators', () => {
  assert.deepEqual(labels('@hosts X\nservices.p|'), ['services.port:', 'services.product:']);
  const { text, offset, file } = at('@hosts X\nhttp|');
  const locked = completeAt(text, file, offset, catalogue).find(
    (c) => c.label === 'services.modules.http.title:',
  );
  assert.equal(locked?.locked, true);
  assert.match(locked?.detail ?? '', /higher plan/);
  assert.equal(
    apply('@hosts X\nservices.port:22 AND services.p|', 'services.product:'),
    '@hosts X\nservices.port:22 AND services.product:',
  );
  assert.equal(apply('@buckets X\nprovider: a|', 'aws'), '@buckets X\nprovider: aws');
  assert.deepEqual(labels('@hosts X\nservices.port:22 |'), [
    'AND',
    'OR',
    'services.port:',
    'services.product:',
    'services.modules.http.title:',
  ]);
  assert.deepEqual(labels('@domains X\ndom|'), [
    'domain:',
    'keyword:',
    'publishedAfter:',
    'publishedBefore:',
  ]);
  assert.deepEqual(labels('# nothing\n|'), [], 'no completion outside a query');
});

test('hover: field docs, category, lock and known values; the kind word', () => {
  const text = '@buckets X\nprovider: aws AND categories:src\n@hosts Y\nservices.modules.http.title:x';
  const file = parseHuntFile(text);
  const h = hoverAt(text, file, text.indexOf('provider') + 2, catalogue);
  assert.ok(h);
  assert.equal(text.slice(h.start, h.end), 'provider');
  assert.match(h.markdown, /Cloud provider/);
  assert.match(h.markdown, /`aws`/);
  const locked = hoverAt(text, file, text.indexOf('modules') + 1, catalogue);
  assert.match(locked?.markdown ?? '', /HTTP/);
  assert.match(locked?.markdown ?? '', /higher ODIN plan/);
  assert.match(hoverAt(text, file, 3, catalogue)?.markdown ?? '', /Exposed storage buckets/);
  assert.equal(hoverAt(text, file, text.indexOf('aws') + 1, catalogue), undefined, 'values get no hover');
});

test('hover: catalogue text from the API is inert (no image, link, HTML or theme icon)', () => {
  const hostile = (kind: HuntKind) =>
    kind === 'hosts'
      ? [
          {
            name: 'services.port',
            locked: true,
            category:
              '![x](https://evil.example/p.png) [click](https://evil.example/) <img src=x> $(zap) www.evil.example',
          },
        ]
      : [];
  const text = '@hosts Y\nservices.port:22';
  const h = hoverAt(text, parseHuntFile(text), text.indexOf('port'), hostile);
  assert.ok(h);
  // VS Code renders hovers with a Markdown renderer that links and loads images: markdown-it as a stand-in.
  const MarkdownIt = createRequire(__filename)('markdown-it') as new (o: object) => {
    render(s: string): string;
  };
  const html = new MarkdownIt({ linkify: true, html: true }).render(h.markdown);
  assert.ok(!/<(a|img)\b/.test(html), html);
  assert.ok(html.includes('https://evil.example/p.png'), 'the text is shown as text');
  assert.ok(!/(^|[^\\])\$\(/.test(h.markdown), 'no theme icon syntax');
  assert.match(h.markdown, /needs a higher ODIN plan/);
  assert.deepEqual(HOVER_MARKDOWN_OPTIONS, {
    isTrusted: false,
    supportThemeIcons: false,
    supportHtml: false,
  });
});
