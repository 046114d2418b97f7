import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkQuery, domainFilterOf, normalise } from '../../../src/core/hunts';

const fields = [
  { name: 'services.port' },
  { name: 'services.product' },
  { name: 'services.modules.http.title', locked: true },
  { name: 'location.country_code' },
];
const codes = (text: string, kind: 'hosts' | 'domains' = 'hosts') =>
  checkQuery(text, kind, { fields }).map((d) => [d.code, text.slice(d.start, d.end), d.fix?.text]);

test('normalise keeps every offset while adapting single quotes and quoted range bounds', () => {
  const q = `a:'United "S" States' AND t:["2024-07-08T02:41:15.528Z" TO *]`;
  const n = normalise(q);
  assert.equal(n.text.length, q.length);
  assert.deepEqual(n.problems, []);
  assert.ok(n.text.startsWith(`a:"United 'S' States"`));
  assert.ok(n.text.includes('[_2024-07-08T02:41:15.528Z_ TO *]'));
});

test('unknown fields (with the nearest as a fix) and locked fields', () => {
  assert.deepEqual(codes('servces.port:22 AND services.modules.http.title:x'), [
    ['unknownField', 'servces.port', 'services.port'],
    ['lockedField', 'services.modules.http.title', undefined],
  ]);
  assert.deepEqual(
    codes('-services.port:22 AND +location.country_code:NL'),
    [],
    'prefix operators are not part of the name',
  );
  assert.deepEqual(codes('nginx AND services.*:x'), [], 'free text and wildcard fields pass');
  assert.deepEqual(checkQuery('nosuch:1', 'hosts'), [], 'without a catalogue nothing is called unknown');
});

test('syntax errors come with a plain fix where there is one', () => {
  assert.deepEqual(codes('services.product:"nginx'), [['unclosedQuote', '"', '"']]);
  const q = 'services.product:"nginx   \nAND services.port:1';
  const d = checkQuery(q, 'hosts')[0];
  assert.equal(
    d.fix?.start,
    q.indexOf('   \n'),
    'the quote closes at the end of its line, before trailing blanks',
  );
  assert.deepEqual(codes('(services.port:22 OR services.port:23  '), [['unclosedGroup', '(', ')']]);
  assert.equal(checkQuery('(a:1  ', 'hosts')[0].fix?.start, 4);
  assert.deepEqual(codes('services.port:22)'), [['unmatchedClose', ')', '']]);
  assert.deepEqual(codes('services.port:22 OR'), [['danglingOperator', 'OR', '']]);
  assert.deepEqual(
    codes('services.product:"x AND" OR services.port:1'),
    [],
    'operators inside phrases are text',
  );
  assert.equal(codes('services.port:')[0][0], 'syntax');
});

test('empty queries are flagged; "*" is the fix', () => {
  assert.deepEqual(codes('   \n '), [['emptyQuery', '', '*']]);
  assert.equal(checkQuery('', 'domains')[0].code, 'emptyQuery');
});

test('domain queries take the four filters joined by AND', () => {
  assert.deepEqual(codes('domain: example.com AND keyword: api', 'domains'), []);
  assert.deepEqual(codes('domian: example.com', 'domains'), [['unknownField', 'domian', 'domain']]);
  assert.deepEqual(codes('domain: a.com OR domain: b.com', 'domains'), [['domainSyntax', 'OR', undefined]]);
  assert.deepEqual(codes('example.com', 'domains'), [['domainSyntax', 'example.com', 'domain: ']]);
  assert.equal(codes('publishedAfter: yesterday', 'domains')[0][0], 'domainSyntax');
  assert.deepEqual(
    domainFilterOf('domain: example.com AND keyword: "two words" AND publishedAfter: 2024-01-02'),
    {
      domain: 'example.com',
      keyword: 'two words',
      publishedAfter: '2024-01-02',
    },
  );
});
