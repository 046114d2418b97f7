/** The query language: parser cases, errors, pathological input, evaluation. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { QueryError, compile, globMatch, parseQuery, type Schema } from '../../../src/emulator/query';
import type { Emulator } from '../../../src/emulator/server';
import { post, small } from './helpers';

interface Rec {
  name: string;
  port: number[];
  country: string;
  seen: string;
  tags: { name: string }[];
  score?: number;
}

const schema: Schema<Rec> = {
  aliases: { p: 'port' },
  freeText: (r) => [r.name, r.country, ...r.tags.map((t) => t.name)].join('\n').toLowerCase(),
};

const recs: Rec[] = [
  {
    name: 'nginx web',
    port: [80, 443],
    country: 'United States',
    seen: '2024-07-10T00:00:00Z',
    tags: [{ name: 'cdn' }],
    score: 9.8,
  },
  { name: 'OpenSSH box', port: [22], country: 'Germany', seen: '2024-06-01T00:00:00Z', tags: [] },
  {
    name: 'prod.db',
    port: [3306, 22],
    country: "Cote d'Ivoire",
    seen: '2024-08-01T12:00:00Z',
    tags: [{ name: 'database' }],
    score: 5,
  },
];

function run(q: string): string[] {
  const pred = compile(parseQuery(q), schema);
  return recs.filter(pred).map((r) => r.name);
}

void describe('query parser and evaluator', () => {
  void it('matches everything for *, empty and whitespace', () => {
    for (const q of ['', '   ', '*']) assert.equal(run(q).length, 3);
  });

  void it('field:value with whitespace after the colon, numbers and aliases', () => {
    assert.deepEqual(run('port:22'), ['OpenSSH box', 'prod.db']);
    assert.deepEqual(run('port: 443'), ['nginx web']);
    assert.deepEqual(run('p:3306'), ['prod.db']);
  });

  void it('double and single quoted phrases, escapes inside quotes', () => {
    assert.deepEqual(run('country:"United States"'), ['nginx web']);
    assert.deepEqual(run("country:'United States'"), ['nginx web']);
    assert.deepEqual(run('country:"Cote d\'Ivoire"'), ['prod.db']);
    assert.deepEqual(run("country:'Cote d\\'Ivoire'"), ['prod.db']);
  });

  void it('AND, OR, NOT, implicit AND, precedence and parentheses', () => {
    assert.deepEqual(run('port:22 AND country:Germany'), ['OpenSSH box']);
    assert.deepEqual(run('port:22 country:Germany'), ['OpenSSH box']);
    assert.deepEqual(run('port:80 OR country:Germany'), ['nginx web', 'OpenSSH box']);
    assert.deepEqual(run('port:22 AND NOT country:Germany'), ['prod.db']);
    assert.deepEqual(run('port:22 -country:Germany'), ['prod.db']);
    assert.deepEqual(run('port:80 OR port:22 AND country:Germany'), ['nginx web', 'OpenSSH box']);
    assert.deepEqual(run('(port:80 OR port:22) AND NOT (country:Germany)'), ['nginx web', 'prod.db']);
    assert.deepEqual(run('port:(80 OR 3306)'), ['nginx web', 'prod.db']);
    assert.deepEqual(run('port:22 && !name:prod'), ['OpenSSH box']);
    assert.deepEqual(run('port:80 || port:3306'), ['nginx web', 'prod.db']);
  });

  void it('ranges: inclusive, exclusive, open ends, quoted ISO dates', () => {
    assert.deepEqual(run('port:[443 TO *]'), ['nginx web', 'prod.db']);
    assert.deepEqual(run('port:{80 TO 443]'), ['nginx web']);
    assert.deepEqual(run('port:[* TO 22}'), []);
    assert.deepEqual(run('score:[5 TO 9.8}'), ['prod.db']);
    assert.deepEqual(run('seen:["2024-07-08T02:41:15.528Z" TO *]'), ['nginx web', 'prod.db']);
    assert.deepEqual(run('seen:[2024-01-01 TO 2024-07-01]'), ['OpenSSH box']);
  });

  void it('wildcards * and ? in values, field exists', () => {
    assert.deepEqual(run('name:ngi*'), ['nginx web']);
    assert.deepEqual(run('name:open?sh'), ['OpenSSH box']);
    assert.deepEqual(run('name:open?h'), []);
    assert.deepEqual(run('name:openss?'), ['OpenSSH box']);
    assert.deepEqual(run('country:*many'), ['OpenSSH box']);
    assert.deepEqual(run('score:*'), ['nginx web', 'prod.db']);
    assert.deepEqual(run('port:4*'), ['nginx web']);
  });

  void it('bare terms search free text on word boundaries', () => {
    assert.deepEqual(run('nginx'), ['nginx web']);
    assert.deepEqual(run('database'), ['prod.db']);
    assert.deepEqual(run('"united states"'), ['nginx web']);
    assert.deepEqual(run('ngin'), []);
    assert.deepEqual(run('prod'), ['prod.db']);
    assert.deepEqual(run('data*'), ['prod.db']);
  });

  void it('case-insensitive values, words inside text values, unknown fields match nothing', () => {
    assert.deepEqual(run('name:NGINX'), ['nginx web']);
    assert.deepEqual(run('name: prod'), ['prod.db']);
    assert.deepEqual(run('tags.name:cdn'), ['nginx web']);
    assert.deepEqual(run('nosuchfield:x'), []);
    assert.deepEqual(run('NOT nosuchfield:x').length, 3);
  });

  void it('rejects malformed queries with a QueryError', () => {
    for (const q of [
      '(',
      'port:22 AND (',
      ')',
      'port:',
      'port:22 )',
      '"unterminated',
      'port:[1 TO',
      'port:[1 2]',
      'port:[1 TO 2',
      '[1 TO 2]',
      '()',
      'a\\',
      'bad field!:x',
      'AND',
      'port:22 OR',
      'NOT',
    ]) {
      assert.throws(() => parseQuery(q), QueryError, q);
    }
  });

  // Catastrophic backtracking or a runaway recursion shows as this test's timeout, not as a
  // wall-clock assertion (speed belongs to `npm run bench`).
  void it('pathological input fails fast, without stack overflow', { timeout: 20_000 }, () => {
    const cases = [
      '('.repeat(100_000),
      '('.repeat(5000) + 'a' + ')'.repeat(5000),
      'NOT '.repeat(5000) + 'a',
      'a '.repeat(50_000),
      'x'.repeat(100_000),
      Array.from({ length: 600 }, (_, i) => `f:${i}`).join(' OR '),
    ];
    for (const q of cases) assert.throws(() => parseQuery(q), QueryError, q.slice(0, 20));
    // Deep but within the limit is fine.
    assert.deepEqual(run('('.repeat(20) + 'port:22' + ')'.repeat(20)), ['OpenSSH box', 'prod.db']);
  });

  void it('glob matching is linear-ish on adversarial patterns', { timeout: 20_000 }, () => {
    assert.equal(globMatch('a'.repeat(5000), '*a*a*a*a*a*a*a*a*b'), false);
    assert.equal(globMatch('abc', 'a?c'), true);
    assert.equal(globMatch('abc', 'a*'), true);
    assert.equal(globMatch('abc', '*d'), false);
  });
});

void describe('query language over HTTP', () => {
  let emu: Emulator;
  before(async () => {
    emu = await small();
  });
  after(() => emu.close());

  const total = async (query: string): Promise<number> => {
    const r = await post(emu, '/v1/hosts/search', { query, limit: 1 });
    assert.equal(r.status, 200, `${query}: ${r.text.slice(0, 200)}`);
    return r.json.pagination.total;
  };

  void it('documented real examples parse and filter', async () => {
    const all = await total('*');
    assert.ok(all >= 50);
    for (const q of [
      'services.port:443 AND asn.number:AS13335',
      "banner:tls AND location.country_name:'United States'",
      '(last_updated_at:["2024-07-08T02:41:15.528Z" TO *] AND services.port:80) OR asn.number:AS63949',
      'services.product:nginx',
      'services.cve.id:CVE-2021-41773',
      'tags.name:is_anonymous_proxy',
      'services.modules.http.title:"Welcome to nginx!"',
      'location.country_code:US',
      'nginx',
    ]) {
      const n = await total(q);
      assert.ok(n > 0 && n <= all, `${q} → ${n}`);
    }
    assert.equal(await total('asn.number:AS13335'), await total('asn.number:13335'));
    assert.equal(await total('ip:"45.33.32.156"'), 1);
    // CIDR terms on the ip field match the whole block (Elasticsearch ip semantics).
    assert.equal(await total('ip:"45.33.32.156/32"'), 1);
    assert.ok((await total('ip:"45.33.32.0/24"')) >= 1);
    assert.equal(await total('ip:"0.0.0.0/0"'), await total('is_ipv4:true'));
    const buckets = await post(emu, '/v1/exposed/buckets/search', {
      query: 'provider: aws AND file_cat_count.src: [10 TO *]',
      sort_by: 'ins_at',
      sort_dir: 'desc',
    });
    assert.equal(buckets.status, 200);
    assert.ok(
      buckets.json.data.every(
        (b: { provider: string; file_cat_count: { src?: number } }) =>
          b.provider === 'aws' && (b.file_cat_count.src ?? 0) >= 10,
      ),
    );
  });

  void it('answers 400 quickly to a 100 KB query and to deep nesting, then keeps serving', async () => {
    for (const query of ['x'.repeat(100_000), '('.repeat(10_000), 'a AND '.repeat(20_000) + 'b']) {
      const t = performance.now();
      const r = await post(emu, '/v1/hosts/search', { query });
      assert.equal(r.status, 400);
      assert.equal(r.json.success, false);
      assert.equal(typeof r.json[' error'], 'string');
      assert.ok(performance.now() - t < 10_000, 'no catastrophic parse');
    }
    const bad = await post(emu, '/v1/exposed/files/count', { query: 'name:(' });
    assert.equal(bad.status, 400);
    assert.equal(bad.json[' error'], undefined);
    assert.equal((await post(emu, '/v1/hosts/search', { query: 42 })).status, 400);
    assert.ok((await total('*')) > 0);
  });
});
