/**
 * A host's timeline from committed snapshots: each commit compared with the one before it by
 * the runner's diff, dated by its commit, oldest first; a deleted snapshot file closes every host.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffSnapshots } from '../../../src/hunt/diff';
import { entryLines, hostTimelines, type SnapshotCommit } from '../../../src/hunt/history';
import { parseSnapshot, type SnapshotRow } from '../../../src/hunt/snapshot';

const row = (ip: string, port: number, cves: string[] = [], sha?: string): SnapshotRow => ({
  ip,
  port,
  transport: 'tcp',
  service: port === 443 ? 'https' : 'ssh',
  ...(sha ? { cert: { sha256: sha.repeat(64).slice(0, 64) } } : {}),
  cves: cves.map((id) => ({ id, cvss: 7.5 })),
  hunts: ['hunts/a.odinq#A'],
});
const text = (rows: SnapshotRow[]): string => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

const C = (n: number): SnapshotCommit => ({ hash: `${n}`.repeat(40), date: `2026-11-0${n}T00:00:00Z` });

void describe('hostTimelines', () => {
  const states = [
    text([row('1.2.3.4', 22), row('5.6.7.8', 443, [], 'a')]),
    text([row('1.2.3.4', 22), row('1.2.3.4', 443, ['CVE-2024-1'], 'b'), row('5.6.7.8', 443, [], 'c')]),
    text([row('1.2.3.4', 443, ['CVE-2024-1'], 'b')]),
    undefined,
  ];
  const commits = [C(1), C(2), C(3), C(4)];
  const read = (c: SnapshotCommit): Promise<string | undefined> =>
    Promise.resolve(states[commits.indexOf(c)]);

  void it('dates each change by its commit, oldest first, in the diff’s own words', async () => {
    const t = await hostTimelines(commits, read);
    const host = t.get('1.2.3.4') ?? [];
    assert.deepEqual(
      host.map((e) => [e.commit.date.slice(0, 10), e.change.status, entryLines(e)]),
      [
        ['2026-11-01', 'new', ['+ port 22/tcp ssh']],
        ['2026-11-02', 'changed', ['+ CVE CVE-2024-1 (CVSS 7.5)', '+ port 443/tcp https']],
        ['2026-11-03', 'changed', ['- port 22/tcp ssh']],
        ['2026-11-04', 'gone', ['- port 443/tcp https', '- CVE CVE-2024-1 (CVSS 7.5)']],
      ],
    );
    const other = t.get('5.6.7.8') ?? [];
    assert.deepEqual(
      other.map((e) => e.commit.hash[0]),
      ['1', '2', '3'],
    );
    assert.match(
      entryLines(other[1]).join('\n'),
      /^~ certificate 443\/tcp: aaaaaaaaaaaaaaaa… → cccccccccccccccc…$/,
    );
  });

  void it('says the same as `odin-hunt diff` between two commits', async () => {
    const t = await hostTimelines(commits.slice(0, 2), read);
    const d = diffSnapshots(parseSnapshot(states[0] ?? '', 'a'), parseSnapshot(states[1] ?? '', 'b'));
    assert.ok(d.length > 0);
    for (const c of d) {
      const entries = t.get(c.ip) ?? [];
      assert.deepEqual(entries[entries.length - 1], { commit: commits[1], change: c });
    }
    const atSecond = [...t.values()].filter((l) => l[l.length - 1].commit === commits[1]);
    assert.equal(atSecond.length, d.length, 'no host changed that the diff does not name');
  });

  void it('names the commit of a malformed snapshot', async () => {
    await assert.rejects(
      hostTimelines([C(1)], () => Promise.resolve('{oops\n')),
      /^Error: 111111111111:1: not a JSON line$/,
    );
  });
});
