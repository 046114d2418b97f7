import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  dateError,
  duplicateSearch,
  mergeImported,
  moveBefore,
  moveSearch,
  parseSearchesFile,
  serializeSearches,
  uniqueName,
  validateEntry,
  validateSpec,
  type SavedSearch,
} from '../../../src/core/savedSearches';

const s = (
  id: string,
  name: string,
  kind: SavedSearch['spec']['kind'],
  extra: Record<string, unknown> = {},
): SavedSearch => ({
  id,
  name,
  spec: { kind, ...extra },
});

void test('spec validation: required parameters, dates, sort, unknown keys dropped', () => {
  assert.deepEqual(validateSpec({ kind: 'hosts', query: 'a:1', ip: 'dropped' }), {
    spec: { kind: 'hosts', query: 'a:1' },
  });
  assert.match((validateSpec({ kind: 'hostCve', ip: '1.2.3.4' }) as { error: string }).error, /cve/);
  assert.match((validateSpec({ kind: 'nope' }) as { error: string }).error, /unknown kind/);
  assert.match(
    (validateSpec({ kind: 'domains', publishedAfter: '2024-02-30' }) as { error: string }).error,
    /calendar/,
  );
  assert.match(
    (
      validateSpec({ kind: 'domains', publishedAfter: '2024-05-01', publishedBefore: '2024-01-01' }) as {
        error: string;
      }
    ).error,
    /later/,
  );
  assert.match((validateSpec({ kind: 'buckets', sortDir: 'up' }) as { error: string }).error, /sortDir/);
  assert.match(
    (validateSpec({ kind: 'hostSummary', field: 'x', limit: 0 }) as { error: string }).error,
    /limit/,
  );
  assert.equal(dateError('2024-02-29'), undefined);
  assert.ok(dateError('2023-02-29'));
  assert.ok(dateError('24-1-1'));
});

void test('entries: flat form and the older nested form; names required', () => {
  const flat = validateEntry({ name: ' Prod ', kind: 'hosts', query: 'x' });
  assert.ok('search' in flat && flat.search.name === 'Prod' && flat.search.spec.query === 'x');
  const nested = validateEntry({ name: 'N', spec: { kind: 'whois', domain: 'example.com' } });
  assert.ok('search' in nested && nested.search.spec.domain === 'example.com');
  assert.match((validateEntry({ kind: 'hosts' }) as { error: string }).error, /name/);
});

void test('file format: round trip, bare-array migration, per-entry errors keep the raw entry', () => {
  const list = [
    s('a', 'One', 'hosts', { query: 'services.port:443' }),
    s('b', 'Two', 'buckets', { query: 'provider:aws', sortBy: 'files', sortDir: 'desc' }),
  ];
  const text = serializeSearches(list);
  const back = parseSearchesFile(text);
  assert.ok(!('fatal' in back));
  assert.deepEqual(back.searches, list);
  assert.deepEqual(back.errors, []);

  const v0 = parseSearchesFile(JSON.stringify([{ name: 'Old', kind: 'hosts', query: 'q' }]));
  assert.ok(!('fatal' in v0) && v0.searches.length === 1);

  const bad = { name: 'Broken', kind: 'hostCve', ip: '1.2.3.4' };
  const mixed = parseSearchesFile(
    JSON.stringify({ version: 1, searches: [{ name: 'Ok', kind: 'hosts' }, bad, 42], rejected: ['kept'] }),
  );
  assert.ok(!('fatal' in mixed));
  assert.equal(mixed.searches.length, 1);
  assert.deepEqual(
    mixed.errors.map((e) => [e.index, e.name]),
    [
      [1, 'Broken'],
      [2, undefined],
    ],
  );
  assert.deepEqual(mixed.errors[0].raw, bad);
  assert.deepEqual(mixed.rejected, ['kept']);
});

void test('file format: malformed files are fatal with a clear message', () => {
  assert.match((parseSearchesFile('{ nope') as { fatal: string }).fatal, /not valid JSON/);
  assert.match(
    (parseSearchesFile('{"version": 9, "searches": []}') as { fatal: string }).fatal,
    /newer version/,
  );
  assert.match(
    (parseSearchesFile('{"version": 1, "searches": {}}') as { fatal: string }).fatal,
    /not a list/,
  );
  assert.match((parseSearchesFile('"text"') as { fatal: string }).fatal, /saved-search list/);
  const proto = parseSearchesFile(
    '{"version":1,"searches":[{"name":"x","kind":"hosts","__proto__":{"polluted":1}}]}',
  );
  assert.ok(!('fatal' in proto));
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

void test('duplicate ids in a file get fresh ones', () => {
  const r = parseSearchesFile(
    JSON.stringify({
      version: 1,
      searches: [
        { id: 'x', name: 'a', kind: 'hosts' },
        { id: 'x', name: 'b', kind: 'hosts' },
      ],
    }),
  );
  assert.ok(!('fatal' in r));
  assert.notEqual(r.searches[0].id, r.searches[1].id);
});

void test('list operations: duplicate, move within group, drag and drop, unique names', () => {
  const list = [
    s('a', 'A', 'hosts'),
    s('d', 'D', 'whois', { domain: 'x.com' }),
    s('b', 'B', 'hostCves', { ip: '1.1.1.1' }),
  ];
  const dup = duplicateSearch(list, 'a');
  assert.equal(dup.length, 4);
  assert.equal(dup[1].name, 'A (copy)');
  assert.equal(uniqueName('A (2)', ['A (2)', 'A (3)']), 'A (4)');
  assert.equal(uniqueName('A (copy)', ['A (copy)']), 'A (copy) (2)');
  // Move down skips the entry of another group.
  assert.deepEqual(
    moveSearch(list, 'a', 1).map((x) => x.id),
    ['b', 'd', 'a'],
  );
  assert.deepEqual(
    moveSearch(list, 'a', -1).map((x) => x.id),
    ['a', 'd', 'b'],
  );
  assert.deepEqual(
    moveBefore(list, ['b'], 'a').map((x) => x.id),
    ['b', 'a', 'd'],
  );
  assert.deepEqual(
    moveBefore(list, ['a'], undefined).map((x) => x.id),
    ['d', 'b', 'a'],
  );
});

void test('import merges without overwriting: id clash renumbered, name clash suffixed, exact duplicates skipped', () => {
  const list = [s('a', 'A', 'hosts', { query: 'q' })];
  const r = mergeImported(list, [
    s('a', 'A', 'hosts', { query: 'q' }),
    s('a', 'A', 'hosts', { query: 'other' }),
    s('z', 'Z', 'fileCount'),
  ]);
  assert.equal(r.added, 2);
  assert.equal(r.skipped, 1);
  assert.deepEqual(
    r.list.map((x) => x.name),
    ['A', 'A (2)', 'Z'],
  );
  assert.equal(new Set(r.list.map((x) => x.id)).size, 3);
});
