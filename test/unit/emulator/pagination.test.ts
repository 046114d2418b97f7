/** Paging walks a whole small result set with no duplicates and no gaps, in both dialects. */
/* eslint-disable @typescript-eslint/no-explicit-any -- wire shapes */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FIXTURE_DOMAINS } from '../../../src/emulator/fixtures';
import type { Emulator } from '../../../src/emulator/server';
import { post, small } from './helpers';

for (const dialect of ['spec', 'live'] as const) {
  void describe(`pagination (${dialect})`, () => {
    let emu: Emulator;
    before(async () => {
      emu = await small({ dialect });
    });
    after(() => emu.close());

    const hits = (r: any): any[] => (dialect === 'spec' ? r.json[' data'] : r.json.data) ?? [];

    void it('host search: every host exactly once, newest first, then an empty page', async () => {
      const seen: string[] = [];
      let start: unknown = dialect === 'spec' ? [] : null;
      let total = -1;
      for (let page = 0; page < 100; page++) {
        const r = await post(emu, '/v1/hosts/search', { query: '*', limit: 7, start });
        assert.equal(r.status, 200);
        total = r.json.pagination.total;
        const h = hits(r);
        if (h.length === 0) {
          if (dialect === 'live') {
            assert.equal(r.json.data, null);
            assert.equal(r.json.pagination.last, null);
          } else assert.deepEqual(r.json.pagination.last, []);
          break;
        }
        assert.ok(h.length <= 7);
        seen.push(...h.map((x) => x.ip));
        start = r.json.pagination.last;
      }
      assert.equal(total, emu.dataset.hosts.length);
      assert.equal(seen.length, total, 'no gaps');
      assert.equal(new Set(seen).size, seen.length, 'no duplicates');
      assert.deepEqual(
        seen,
        emu.dataset.hosts.map((h) => h.ip),
      );
    });

    void it('host search with a filter pages through the filtered set', async () => {
      const first = await post(emu, '/v1/hosts/search', {
        query: 'services.port:22 OR services.port:80',
        limit: 100,
      });
      const expected = hits(first).map((h) => h.ip);
      const seen: string[] = [];
      let start: unknown;
      for (;;) {
        const r = await post(emu, '/v1/hosts/search', {
          query: 'services.port:22 OR services.port:80',
          limit: 3,
          start,
        });
        const h = hits(r);
        if (h.length === 0) break;
        seen.push(...h.map((x) => x.ip));
        start = r.json.pagination.last;
      }
      assert.deepEqual(seen, expected);
    });

    void it('limit defaults to 10 and is capped at 100', async () => {
      const d = await post(emu, '/v1/hosts/search', { query: '*' });
      assert.equal(hits(d).length, 10);
      assert.equal(d.json.pagination.limit, 10);
      const big = await post(emu, '/v1/hosts/search', { query: '*', limit: 5000 });
      assert.equal(big.json.pagination.limit, 100);
      assert.equal((await post(emu, '/v1/hosts/search', { query: '*', limit: -1 })).status, 400);
      assert.equal((await post(emu, '/v1/hosts/search', { query: '*', start: 'x' })).status, 400);
    });

    void it('domain search: all records once; last is null on the last page in live', async () => {
      const seen: string[] = [];
      let start: unknown;
      let total = 0;
      for (let i = 0; i < 100; i++) {
        const r = await post(emu, '/v1/domain/search', { domain: FIXTURE_DOMAINS.corp, limit: 6, start });
        assert.equal(r.status, 200);
        total = r.json.pagination.total;
        seen.push(...r.json.data.map((d: any) => d.subdomain));
        const last = r.json.pagination.last;
        if (r.json.data.length === 0) break;
        if (dialect === 'live' && seen.length === total) {
          assert.equal(last, null);
          break;
        }
        // Spec: one object; live: plain values (`[added_at_ms, position]`, numbers).
        if (dialect === 'spec') assert.ok(Array.isArray(last) && last.length === 1);
        else
          assert.ok(
            Array.isArray(last) && last.length === 2 && last.every((x: unknown) => typeof x === 'number'),
          );
        start = last;
      }
      assert.ok(total > 30);
      assert.equal(seen.length, total);
      assert.equal(new Set(seen).size, total);
    });

    for (const [sortBy, sortDir] of [
      ['ins_at', 'desc'],
      ['files', 'asc'],
      ['name', 'desc'],
    ] as const) {
      void it(`bucket search sorted by ${sortBy} ${sortDir}: every bucket once, in order`, async () => {
        const seen: any[] = [];
        let start: unknown;
        let total = 0;
        for (let i = 0; i < 200; i++) {
          const r = await post(emu, '/v1/exposed/buckets/search', {
            query: '*',
            limit: 9,
            start,
            sort_by: sortBy,
            sort_dir: sortDir,
          });
          assert.equal(r.status, 200, r.text);
          total = r.json.pagination.total;
          seen.push(...r.json.data);
          if (r.json.data.length === 0 || r.json.pagination.last === null) break;
          start = r.json.pagination.last;
        }
        assert.equal(total, emu.dataset.buckets.length);
        assert.equal(seen.length, total);
        assert.equal(new Set(seen.map((b) => b.name)).size, total);
        const keys = seen.map((b) => b[sortBy]);
        const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        assert.deepEqual(keys, sortDir === 'asc' ? sorted : sorted.reverse());
      });
    }

    void it('bucket search rejects unknown sort fields and directions', async () => {
      assert.equal(
        (await post(emu, '/v1/exposed/buckets/search', { query: '*', sort_by: 'evil' })).status,
        400,
      );
      assert.equal(
        (await post(emu, '/v1/exposed/buckets/search', { query: '*', sort_dir: 'up' })).status,
        400,
      );
    });
  });
}
