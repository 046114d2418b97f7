import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import {
  ACTIONS,
  blankComments,
  checkQuery,
  formatHunt,
  huntOf,
  nearest,
  pageSizeOf,
  parseHuntFile,
  parseMarkdownHunts,
  queryAt,
  queryOffsetToFile,
  specFor,
} from '../../../src/core/hunts';

const FIX = path.resolve(__dirname, '../../../../test/fixtures/hunts');
const read = (name: string): string => fs.readFileSync(path.join(FIX, name), 'utf8');

test('parseHuntFile: names, kinds, options and multi-line queries of the example file', () => {
  const text = read('team.odinq');
  const file = parseHuntFile(text);
  assert.deepEqual(file.problems, []);
  assert.deepEqual(
    file.queries.map((q) => [q.kind, q.name]),
    [
      ['hosts', 'Exposed RDP in the Netherlands'],
      ['hosts', 'Log4Shell on web ports'],
      ['hosts', 'Cloudflare TLS in the US'],
      ['hosts', 'Seen since July'],
      ['buckets', 'Big source dumps on AWS'],
      ['files', 'Production databases'],
      ['domains', 'Subdomains of example.com'],
    ],
  );
  const rdp = file.queries[0];
  assert.equal(rdp.query, 'services.port:3389 AND location.country_code:NL', 'comment dropped, lines joined');
  assert.equal(pageSizeOf(rdp), 50);
  assert.equal(rdp.body.length, rdp.bodyEnd - rdp.bodyStart, 'the blanked body keeps offsets');
  assert.equal(text.slice(rdp.bodyStart, rdp.bodyStart + 17), 'services.port:338');
  for (const q of file.queries) assert.deepEqual(checkQuery(q.body, q.kind ?? 'hosts'), [], q.name);
});

test('parseHuntFile: CRLF files give the same queries', () => {
  const text = read('team.odinq');
  const crlf = parseHuntFile(text.replace(/\n/g, '\r\n'));
  assert.deepEqual(
    crlf.queries.map((q) => q.query),
    parseHuntFile(text).queries.map((q) => q.query),
  );
  assert.deepEqual(crlf.problems, []);
});

test('parseHuntFile: problems of a broken file, each with its place and a plain fix', () => {
  const text = read('broken.odinq');
  const file = parseHuntFile(text);
  const got = file.problems.map((p) => [p.code, text.slice(p.start, p.end), p.fix?.text]);
  assert.deepEqual(got, [
    ['unknownKind', '@hots', 'hosts'],
    ['noName', '@hosts', ' Untitled hunt'],
    ['badOption', 'sort=nope', undefined],
    ['noHeader', 'stray text before any header', '@hosts Untitled hunt\n'],
  ]);
  assert.equal(file.queries[1].kind, undefined);
  assert.equal(file.queries[3].name, 'Query 4');
});

test('blankComments: # starts a comment at a line start or after a space, never inside a phrase or word', () => {
  assert.equal(blankComments('a:1 # x'), 'a:1    ');
  assert.equal(blankComments('# all\na:1'), '     \na:1');
  assert.equal(blankComments('title:"#1 # not a comment"'), 'title:"#1 # not a comment"');
  assert.equal(blankComments("name:'a # b'"), "name:'a # b'");
  assert.equal(blankComments('tag:a#b'), 'tag:a#b');
});

test('queryAt: the query of a header or body offset', () => {
  const text = read('team.odinq');
  const file = parseHuntFile(text);
  assert.equal(queryAt(file, 0), undefined, 'the leading comment belongs to no query');
  assert.equal(queryAt(file, text.indexOf('CVE-2021'))?.name, 'Log4Shell on web ports');
  assert.equal(queryAt(file, text.length)?.kind, 'domains');
});

test('specFor: the spec each CodeLens runs', () => {
  const file = parseHuntFile(read('team.odinq'));
  const [rdp, , , , buckets, files, domains] = file.queries;
  assert.deepEqual(specFor(rdp, 'run'), {
    kind: 'hosts',
    query: 'services.port:3389 AND location.country_code:NL',
  });
  assert.deepEqual(specFor(rdp, 'summarize', 'asn.number'), {
    kind: 'hostSummary',
    query: 'services.port:3389 AND location.country_code:NL',
    field: 'asn.number',
  });
  assert.equal(specFor(rdp, 'count'), undefined, 'hosts have no count endpoint');
  assert.deepEqual(specFor(buckets, 'run'), {
    kind: 'buckets',
    query: 'provider: aws AND file_cat_count.src: [10 TO *]',
    sortBy: 'files',
    sortDir: 'desc',
  });
  assert.deepEqual(specFor(files, 'summarize'), { kind: 'fileSummary', query: files.query, field: 'ext' });
  assert.deepEqual(specFor(domains, 'count'), { kind: 'domainCount', domain: 'example.com', keyword: 'api' });
  assert.deepEqual(ACTIONS.files, ['count', 'summarize']);
});

test('formatHunt + huntOf: a saved search written into a file reads back as the same spec', () => {
  const specs = [
    { kind: 'hosts' as const, query: 'services.port:22' },
    { kind: 'buckets' as const, query: 'provider: aws', sortBy: 'files', sortDir: 'asc' as const },
    { kind: 'domains' as const, domain: 'example.com', keyword: 'two words' },
  ];
  for (const spec of specs) {
    const h = huntOf(spec);
    assert.ok(h);
    const text = formatHunt(h.kind, 'My hunt a=b', h.query, h.options);
    const file = parseHuntFile(text);
    assert.deepEqual(file.problems, [], text);
    assert.equal(file.queries[0].name, 'My hunt a-b');
    assert.deepEqual(specFor(file.queries[0], 'run'), spec, text);
  }
  assert.equal(huntOf({ kind: 'whois', domain: 'example.com' }), undefined);
});

test('nearest: a likely typo, or nothing', () => {
  assert.equal(nearest('servces.port', ['services.port', 'services.product']), 'services.port');
  assert.equal(nearest('zzz', ['services.port']), undefined);
});

test('queryOffsetToFile: a position in the sent query maps back onto the file', () => {
  const text = '@hosts X\n  services.port:22   # c\n\n  AND   bad:"x\n';
  const q = parseHuntFile(text).queries[0];
  assert.equal(q.query, 'services.port:22 AND   bad:"x');
  for (const word of ['services', 'AND', 'bad', '"x']) {
    assert.equal(text.slice(queryOffsetToFile(q, q.query.indexOf(word))).slice(0, word.length), word);
  }
});

test('parseMarkdownHunts: fences with and without headers, offsets into the Markdown', () => {
  const md = [
    '# Incident 42',
    '',
    '```odinq',
    'services.port:3389 AND location.country_code:NL',
    '```',
    '',
    '```js',
    'const x = 1;',
    '```',
    '',
    '~~~odinq',
    '@buckets Leaky  sort=files',
    'provider: aws',
    '@hots Typo',
    'x',
    '~~~',
    '',
  ].join('\n');
  const f = parseMarkdownHunts(md);
  assert.deepEqual(
    f.queries.map((q) => [q.kind, q.name, q.query]),
    [
      ['hosts', 'Query at line 3', 'services.port:3389 AND location.country_code:NL'],
      ['buckets', 'Leaky', 'provider: aws'],
      [undefined, 'Typo', 'x'],
    ],
  );
  assert.equal(md.slice(f.queries[0].bodyStart, f.queries[0].bodyStart + 13), 'services.port');
  assert.equal(md.slice(f.queries[0].headerStart, f.queries[0].headerStart + 8), '```odinq');
  assert.equal(md.slice(f.queries[1].headerStart, f.queries[1].headerEnd), '@buckets Leaky  sort=files');
  assert.equal(md.slice(f.problems[0].start, f.problems[0].end), '@hots');
  assert.deepEqual(parseMarkdownHunts('```odinq\nnever closed').queries, []);
});
