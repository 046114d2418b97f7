import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  EXAMPLES,
  complete,
  cveError,
  domainError,
  ipError,
  isIp,
  narrowQuery,
  pushRecent,
  querySyntaxWarning,
  quoteValue,
  readRecent,
  refang,
  similarHostsQuery,
  tokenAt,
} from '../../../src/core/query';

const fields = [
  { name: 'services.port' },
  { name: 'services.product' },
  { name: 'services.modules.http.title', locked: true },
  { name: 'location.country_code' },
  { name: 'provider' },
  { name: 'labels' },
  { name: 'categories' },
];

void test('field names complete the token under construction, the whole query is the value', () => {
  const out = complete('services.p', { fields });
  assert.deepEqual(
    out.map((c) => c.value),
    ['services.port:', 'services.product:'],
  );
  const after = complete('asn.number:AS1 AND serv', { fields });
  assert.ok(after.some((c) => c.value === 'asn.number:AS1 AND services.port:'));
  const paren = complete('(loc', { fields });
  assert.equal(paren[0].value, '(location.country_code:');
});

void test('locked fields are marked and come after unlocked ones', () => {
  const out = complete('services.', { fields });
  const locked = out.find((c) => c.label === 'services.modules.http.title:');
  assert.equal(locked?.locked, true);
  assert.equal(out[out.length - 1].label, 'services.modules.http.title:');
});

void test('enumerations complete after categories:, labels:, provider: (also with a space or a quote)', () => {
  assert.deepEqual(
    complete('provider:', { fields }).map((c) => c.label),
    ['aws', 'gcp', 'do', 'linode'],
  );
  assert.deepEqual(
    complete('provider: g', { fields }).map((c) => c.value),
    ['provider: gcp'],
  );
  assert.deepEqual(
    complete('labels:cr', { fields }).map((c) => c.value),
    ['labels:credential'],
  );
  assert.deepEqual(
    complete('x:1 AND categories:"db', { fields }).map((c) => c.value),
    ['x:1 AND categories:"dbdump"'],
  );
  assert.deepEqual(complete('services.port:4', { fields }), []);
});

void test('operators are offered after a complete term, not inside quotes', () => {
  assert.deepEqual(
    complete('services.port:443 ', { fields })
      .filter((c) => c.kind === 'operator')
      .map((c) => c.value),
    ['services.port:443 AND ', 'services.port:443 OR '],
  );
  assert.deepEqual(
    complete('services.port:443 O', { fields })
      .filter((c) => c.kind === 'operator')
      .map((c) => c.value),
    ['services.port:443 OR '],
  );
  const inQuote = tokenAt("location.country_name:'United St");
  assert.equal(inQuote.position, 'value');
  assert.equal(inQuote.field, 'location.country_name');
  assert.equal(inQuote.prefix, 'United St');
});

void test('completion never throws and values always start with the text before the token', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 60 }), (text) => {
      for (const c of complete(text, { fields })) {
        const ctx = tokenAt(text);
        assert.ok(c.value.startsWith(text.slice(0, ctx.start)));
      }
    }),
  );
});

void test('a field named like an object property (valueOf:, constructor:) completes nothing and never throws', () => {
  for (const text of ['valueOf:', 'constructor:', '__proto__:', 'toString: a']) {
    assert.deepEqual(
      complete(text, { fields }).filter((c) => c.kind === 'value'),
      [],
      text,
    );
  }
});

void test('narrowing a query by a facet', () => {
  assert.equal(
    narrowQuery('services.port:443', 'location.country_code', 'US'),
    '(services.port:443) AND location.country_code:"US"',
  );
  assert.equal(narrowQuery('', 'services.port', 80), 'services.port:80');
  assert.equal(narrowQuery('*', 'x', 'a "b" \\c'), 'x:"a \\"b\\" \\\\c"');
  assert.equal(quoteValue('nginx'), 'nginx');
  assert.equal(quoteValue('United States'), '"United States"');
  assert.equal(quoteValue('AND'), '"AND"');
});

void test('similar hosts: same ASN and ports', () => {
  assert.equal(
    similarHostsQuery({ asn: { number: 'AS13335' }, services: [{ port: 80 }, { port: 443 }, { port: 80 }] }),
    'asn.number:AS13335 AND (services.port:80 OR services.port:443)',
  );
  assert.equal(
    similarHostsQuery({ location: { country_code: 'DE' }, services: [{ port: 22 }] }),
    'location.country_code:DE AND services.port:22',
  );
  assert.equal(similarHostsQuery({}), '*');
});

void test('strict IP, CVE and domain inputs; defanged forms refanged', () => {
  for (const ok of ['8.8.8.8', '2001:db8::1', '::1', '::ffff:1.2.3.4', '1:2:3:4:5:6:7:8'])
    assert.ok(isIp(ok), ok);
  for (const bad of [
    '012.0.0.1',
    '127.1',
    '0x7f.0.0.1',
    '017700000001',
    '1.2.3.256',
    '1:2:3:4:5:6:7:8:9',
    'a::b::c',
    '',
  ]) {
    assert.ok(!isIp(bad), bad);
  }
  assert.equal(ipError(refang('1.2.3[.]4')), undefined);
  assert.equal(cveError('CVE-2021-44228'), undefined);
  assert.ok(cveError('2021-44228'));
  assert.equal(domainError(refang('example(.)com')), undefined);
  assert.ok(domainError('https://example.com/x'));
  assert.ok(domainError('localhost'));
});

void test('local syntax warnings: quotes, parentheses, ranges', () => {
  assert.equal(querySyntaxWarning('a:1 AND (b:2 OR c:"x)")'), undefined);
  assert.ok(querySyntaxWarning('(a:1'));
  assert.ok(querySyntaxWarning('a:"x'));
  assert.ok(querySyntaxWarning('a:[1 TO *'));
  for (const ex of [...EXAMPLES.hosts, ...EXAMPLES.buckets, ...EXAMPLES.files])
    assert.equal(querySyntaxWarning(ex.query), undefined, ex.query);
});

void test('recent queries: newest first, unique, bounded, defensive on read', () => {
  let list: string[] = [];
  for (let i = 0; i < 30; i++) list = pushRecent(list, `q${i % 25}`);
  assert.equal(list.length, 20);
  assert.equal(list[0], 'q4');
  assert.deepEqual(pushRecent(['a', 'b'], 'b'), ['b', 'a']);
  assert.deepEqual(readRecent({ x: 1 }), []);
  assert.deepEqual(readRecent(['a', 3, '', 'b']), ['a', 'b']);
});
