/**
 * "Hunts that remember": a bounded snapshot of the result identities of a run, and what
 * changed since the previous one ("+12 new, −3 gone since 20 Nov"). Pure: no VS Code.
 */
import { l10n } from '../text/l10n';

/** At most this many identities are kept per snapshot (a run's first pages; enough to compare). */
export const SNAPSHOT_MAX_IDS = 2000;
/** At most this many snapshots are kept per API origin (oldest dropped first). */
export const SNAPSHOT_MAX_SEARCHES = 200;

export interface Snapshot {
  /** Epoch ms of the run. */
  at: number;
  ids: string[];
  /** The total the API reported, if any. */
  total?: number;
  /** The identities were cut to SNAPSHOT_MAX_IDS. */
  truncated?: boolean;
}

export interface SnapshotDiff {
  added: string[];
  removed: string[];
  /** When the previous snapshot was taken. */
  since: number;
}

/** A snapshot of `ids` (deduplicated, bounded). */
export function takeSnapshot(ids: Iterable<string>, at: number, total?: number): Snapshot {
  const unique = [...new Set(ids)];
  const snap: Snapshot = { at, ids: unique.slice(0, SNAPSHOT_MAX_IDS) };
  if (total !== undefined) snap.total = total;
  if (unique.length > SNAPSHOT_MAX_IDS) snap.truncated = true;
  return snap;
}

/**
 * What is new and gone in `current` compared with `previous`. When the current snapshot was
 * truncated, a missing identity may only lie beyond the cut, so nothing is claimed gone.
 */
export function diffSnapshots(previous: Snapshot, current: Snapshot): SnapshotDiff {
  const before = new Set(previous.ids);
  const now = new Set(current.ids);
  const added = current.ids.filter((id) => !before.has(id));
  const removed = current.truncated ? [] : previous.ids.filter((id) => !now.has(id));
  return { added, removed, since: previous.at };
}

/** The months' short names, worded when asked for (not at load). */
function months(): string[] {
  return [
    l10n.t('Jan'),
    l10n.t('Feb'),
    l10n.t('Mar'),
    l10n.t('Apr'),
    l10n.t('May'),
    l10n.t('Jun'),
    l10n.t('Jul'),
    l10n.t('Aug'),
    l10n.t('Sep'),
    l10n.t('Oct'),
    l10n.t('Nov'),
    l10n.t('Dec'),
  ];
}

/** "20 Nov" (UTC, with the year when it is not `now`'s). */
export function shortDate(at: number, now: number): string {
  const d = new Date(at);
  const y = d.getUTCFullYear() !== new Date(now).getUTCFullYear() ? ` ${d.getUTCFullYear()}` : '';
  return `${d.getUTCDate()} ${months()[d.getUTCMonth()]}${y}`;
}

/** "+12 new, −3 gone since 20 Nov", "no change since 20 Nov". */
export function describeDiff(diff: SnapshotDiff, now: number): string {
  const since = shortDate(diff.since, now);
  if (!diff.added.length && !diff.removed.length) return l10n.t('no change since {0}', since);
  const parts: string[] = [];
  if (diff.added.length) parts.push(l10n.t('+{0} new', diff.added.length));
  if (diff.removed.length) parts.push(l10n.t('\u2212{0} gone', diff.removed.length));
  return l10n.t('{0} since {1}', parts.join(', '), since);
}

/** Keeps the store bounded: the `max` most recently run keys survive. */
export function pruneSnapshots<T extends { at: number }>(
  store: Record<string, T>,
  max = SNAPSHOT_MAX_SEARCHES,
): Record<string, T> {
  const keys = Object.keys(store).sort((a, b) => store[b].at - store[a].at);
  const out: Record<string, T> = {};
  for (const k of keys.slice(0, max)) out[k] = store[k];
  return out;
}

/** The stable key of a saved search's snapshots: its origin plus a canonical form of what it runs. */
export function snapshotKey(origin: string, spec: object): string {
  const canon = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
        )
      : v;
  return `${origin}\n${JSON.stringify(canon(spec))}`;
}

/**
 * What a query of a `.odinq` file is remembered by (with snapshotKey): its kind, the query
 * as sent and the options that change the results, so the Saved Searches view (which reads
 * files without the query parser) and a run from the file agree on the key.
 */
export function huntSubject(q: {
  kind: string | undefined;
  query: string;
  options: readonly { key: string; value: string }[];
}): object {
  const opt = (k: string): string | undefined => q.options.find((o) => o.key === k)?.value;
  return {
    hunt: q.kind ?? '',
    query: q.query.trim() || '*',
    ...(opt('sort') ? { sort: opt('sort') } : {}),
    ...(opt('order') ? { order: opt('order') } : {}),
  };
}
