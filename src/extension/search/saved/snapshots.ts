/**
 * "Hunts that remember": every run of a saved search (personal, or a query of a workspace
 * `.odinq` file) keeps a bounded snapshot of its result identities in the extension's
 * storage (globalState: local to this machine, keyed by API origin and what the search
 * runs), and the last difference: the Saved Searches view shows it ("+12 new, −3 gone since
 * 20 Nov") with a "What's new" node that lists the new results.
 */
import * as vscode from 'vscode';
import {
  describeDiff,
  diffSnapshots,
  pruneSnapshots,
  snapshotKey,
  takeSnapshot,
  type Snapshot,
} from '../../../core/hunts/snapshot';
import type { ResultItem } from '../../../core/results/resultItem';
import type { ResultSet } from '../results/resultSet';

const SLOT = 'odin.hunts.snapshots';
/** At most this many new identities are kept for the "What's new" node. */
export const NEWS_MAX = 100;

/** What changed at the last run that had an earlier one to compare with. */
export interface News {
  since: number;
  at: number;
  /** The new identities (at most NEWS_MAX). */
  added: string[];
  addedCount: number;
  removedCount: number;
  /** What the identities are (host IPs, buckets, domains, facet keys). */
  type?: ResultItem['t'];
}

export interface Remembered extends Snapshot {
  news?: News;
  type?: ResultItem['t'];
}

/** The change a run made, for the caller's message and the tests. */
export interface Change {
  change?: string;
  added?: number;
  removed?: number;
}

/** The identity of a result, for snapshots (undefined: not a listed result). */
export function identityOf(item: ResultItem): string | undefined {
  switch (item.t) {
    case 'host':
      return item.v.ip;
    case 'bucket':
      return `${item.v.provider ?? ''}/${item.v.name}`;
    case 'domain':
      return item.v.subdomain || item.v.domain;
    case 'facet':
      return String(item.v.key);
    default:
      return undefined;
  }
}

export class SnapshotStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly state: vscode.Memento,
    private readonly origin: () => string,
  ) {}

  private all(): Record<string, Remembered> {
    return this.state.get<Record<string, Remembered>>(SLOT) ?? {};
  }

  /** The snapshot of `subject` (a spec, or huntSubject of a file's query) at this origin. */
  get(subject: object): Remembered | undefined {
    return this.all()[snapshotKey(this.origin(), subject)];
  }

  /** "+12 new, −3 gone since 20 Nov" for the tree, when the subject ran twice. */
  describe(subject: object, now = Date.now()): string | undefined {
    const r = this.get(subject);
    if (!r?.news) return undefined;
    const n = r.news;
    return describeDiff(
      {
        added: new Array<string>(n.addedCount).fill(''),
        removed: new Array<string>(n.removedCount).fill(''),
        since: n.since,
      },
      now,
    );
  }

  /** Keeps the identities of a finished run of `subject`; returns what changed since the last. */
  record(subject: object, set: ResultSet): Promise<Change> {
    const run = this.queue.then(() => this.recordNow(subject, set));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async recordNow(subject: object, set: ResultSet): Promise<Change> {
    if (set.status === 'error' || set.cancelled) return {};
    const ids = set.items.map(identityOf).filter((x): x is string => x !== undefined);
    if (!ids.length && set.items.length) return {}; // counts: nothing to compare
    const type = set.items.find((i) => identityOf(i) !== undefined)?.t;
    const key = snapshotKey(this.origin(), subject);
    const store = { ...this.all() };
    const previous = store[key];
    const now = Date.now();
    const current: Remembered = takeSnapshot(ids, now, set.total);
    if (type) current.type = type;
    let change: Change = {};
    if (previous) {
      const diff = diffSnapshots(previous, current);
      current.news = {
        since: diff.since,
        at: now,
        added: diff.added.slice(0, NEWS_MAX),
        addedCount: diff.added.length,
        removedCount: diff.removed.length,
        ...(type ? { type } : {}),
      };
      change = { change: describeDiff(diff, now), added: diff.added.length, removed: diff.removed.length };
    }
    store[key] = current;
    await this.state.update(SLOT, pruneSnapshots(store));
    this.changed.fire();
    return change;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
