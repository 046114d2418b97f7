/**
 * A host's timeline from the committed snapshots: each commit that touched the snapshot file,
 * oldest first, compared with the one before it by the runner's own diff, so the editor's
 * timeline and `odin-hunt diff` say the same things in the same words.
 *
 * Plain Node: no `vscode` import, no git: the caller lists the commits and reads the files.
 */
import { diffSnapshots, diffText, type HostChange } from './diff';
import { parseSnapshot, type SnapshotRow } from './snapshot';

export interface SnapshotCommit {
  hash: string;
  /** The commit's date, ISO 8601 as git prints it (`%cI`). */
  date: string;
}

export interface TimelineEntry {
  commit: SnapshotCommit;
  change: HostChange;
}

/**
 * The changes per host, oldest first. `commits` is oldest first; `read` gives the snapshot's
 * text at a commit, or undefined where the file did not exist (deleted: every host gone).
 * The first snapshot is compared with nothing: a host's first sighting is its first entry.
 */
export async function hostTimelines(
  commits: readonly SnapshotCommit[],
  read: (commit: SnapshotCommit) => Promise<string | undefined>,
): Promise<Map<string, TimelineEntry[]>> {
  const out = new Map<string, TimelineEntry[]>();
  let before: SnapshotRow[] = [];
  for (const commit of commits) {
    const text = await read(commit);
    const now = text === undefined ? [] : parseSnapshot(text, commit.hash.slice(0, 12));
    for (const change of diffSnapshots(before, now)) {
      let list = out.get(change.ip);
      if (!list) out.set(change.ip, (list = []));
      list.push({ commit, change });
    }
    before = now;
  }
  return out;
}

/** One entry's lines, as `odin-hunt diff` prints them (without the host line). */
export function entryLines(e: TimelineEntry): string[] {
  return diffText([e.change])
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((l) => l.trim());
}
