import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  describeDiff,
  diffSnapshots,
  pruneSnapshots,
  SNAPSHOT_MAX_IDS,
  shortDate,
  snapshotKey,
  takeSnapshot,
} from '../../../src/core/hunts';

const NOV20 = Date.UTC(2026, 10, 20, 9);
const NOV23 = Date.UTC(2026, 10, 23, 9);

test('diff: new and gone identities, described the way the tree shows them', () => {
  const a = takeSnapshot(['1.1.1.1', '2.2.2.2', '3.3.3.3', '3.3.3.3'], NOV20, 3);
  assert.deepEqual(a.ids, ['1.1.1.1', '2.2.2.2', '3.3.3.3']);
  const b = takeSnapshot(['2.2.2.2', '4.4.4.4', '5.5.5.5'], NOV23);
  const d = diffSnapshots(a, b);
  assert.deepEqual(d.added, ['4.4.4.4', '5.5.5.5']);
  assert.deepEqual(d.removed, ['1.1.1.1', '3.3.3.3']);
  assert.equal(describeDiff(d, NOV23), '+2 new, \u22122 gone since 20 Nov');
  assert.equal(describeDiff(diffSnapshots(b, b), NOV23), 'no change since 23 Nov');
  assert.equal(shortDate(Date.UTC(2025, 0, 2), NOV23), '2 Jan 2025');
});

test('snapshots are bounded; a truncated run claims nothing gone', () => {
  const many = Array.from({ length: SNAPSHOT_MAX_IDS + 5 }, (_, i) => `id${i}`);
  const big = takeSnapshot(many, NOV23);
  assert.equal(big.ids.length, SNAPSHOT_MAX_IDS);
  assert.equal(big.truncated, true);
  const before = takeSnapshot(['gone-or-beyond-the-cut'], NOV20);
  assert.deepEqual(diffSnapshots(before, big).removed, []);
  const store: Record<string, { at: number }> = {};
  for (let i = 0; i < 10; i++) store[`k${i}`] = { at: i };
  assert.deepEqual(Object.keys(pruneSnapshots(store, 3)).sort(), ['k7', 'k8', 'k9']);
});

test('snapshotKey: per origin, independent of key order', () => {
  assert.equal(
    snapshotKey('https://api.odin.io', { kind: 'hosts', query: 'a' }),
    snapshotKey('https://api.odin.io', { query: 'a', kind: 'hosts' }),
  );
  assert.notEqual(
    snapshotKey('http://127.0.0.1:1', { kind: 'hosts' }),
    snapshotKey('https://api.odin.io', { kind: 'hosts' }),
  );
});
