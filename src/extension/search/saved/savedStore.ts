/**
 * Where saved searches live: one JSON file in the extension's global storage
 * (`saved-searches.json`, the same versioned format as an export), shared by every window.
 *
 * Why a file and not `globalState`: globalState gives no event when another window writes
 * it, and a damaged value would be unreadable with nothing to keep aside. The file is
 * watched; every change re-reads it before writing (read-modify-write, then an atomic
 * rename), so two windows editing at once do not overwrite each other's entries.
 *
 * Damage never loses data: a file that is not valid JSON is renamed aside
 * (`saved-searches.damaged-<time>.json`) and reported once; entries that do not validate
 * are kept in the file's `rejected` list (reported once, when first found) and stay there.
 * No VS Code here: the events are plain listeners.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import {
  describeEntryError,
  parseSearchesFile,
  serializeSearches,
  type EntryError,
  type SavedSearch,
} from '../../../core/savedSearches';
import { l10n } from '../../../core/text/l10n';

export const STORE_FILE = 'saved-searches.json';

export interface StoreProblem {
  message: string;
  details: string[];
}

export class SavedSearchStore {
  private searches: SavedSearch[] = [];
  private rejectedEntries: unknown[] = [];
  private lastText: string | undefined;
  private readonly listeners = new Set<() => void>();
  private watcher: fs.FSWatcher | undefined;
  private watchTimer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  readonly file: string;

  constructor(
    readonly dir: string,
    private readonly report: (problem: StoreProblem) => void = () => undefined,
  ) {
    this.file = path.join(dir, STORE_FILE);
  }

  list(): readonly SavedSearch[] {
    return this.searches;
  }

  rejected(): readonly unknown[] {
    return this.rejectedEntries;
  }

  get(id: unknown): SavedSearch | undefined {
    return typeof id === 'string' ? this.searches.find((s) => s.id === id) : undefined;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Reads the file (again). Fires a change when what it holds differs from before. */
  load(): Promise<void> {
    return this.serial(() => this.readNow(true));
  }

  /** Applies `change` to the current list (re-read first) and writes the result. */
  update(change: (list: readonly SavedSearch[]) => SavedSearch[]): Promise<void> {
    return this.serial(async () => {
      await this.readNow(false);
      const next = change(this.searches);
      await this.write(next, this.rejectedEntries);
      this.searches = next;
      this.emit();
    });
  }

  /** Starts watching the file for writes by other windows. */
  watch(): void {
    if (this.watcher) return;
    try {
      fs.mkdirSync(this.dir, { recursive: true });
      this.watcher = fs.watch(this.dir, (_event, name) => {
        if (name && name !== STORE_FILE) return;
        if (this.watchTimer) clearTimeout(this.watchTimer);
        this.watchTimer = setTimeout(() => void this.load().catch(() => undefined), 100);
      });
      this.watcher.on('error', () => this.unwatch());
    } catch {
      // No watcher (unusual file systems): the store is still re-read before every write
      // and when the window gains focus.
      this.watcher = undefined;
    }
  }

  unwatch(): void {
    if (this.watchTimer) clearTimeout(this.watchTimer);
    this.watchTimer = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }

  dispose(): void {
    this.unwatch();
    this.listeners.clear();
  }

  private serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private emit(): void {
    for (const l of [...this.listeners]) {
      try {
        l();
      } catch {
        // A listener's failure must not stop the others.
      }
    }
  }

  private async readNow(emitOnChange: boolean): Promise<void> {
    let text: string;
    try {
      text = await fsp.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        const changed = this.searches.length > 0 || this.lastText !== undefined;
        this.searches = [];
        this.rejectedEntries = [];
        this.lastText = undefined;
        if (changed && emitOnChange) this.emit();
        return;
      }
      throw err;
    }
    if (text === this.lastText) return;
    const parsed = parseSearchesFile(text);
    if ('fatal' in parsed) {
      const aside = path.join(
        this.dir,
        `saved-searches.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
      );
      await fsp.rename(this.file, aside);
      this.report({
        message: l10n.t(
          'Your saved searches file could not be read and was kept aside as {0}. {1}',
          path.basename(aside),
          parsed.fatal,
        ),
        details: [aside],
      });
      this.lastText = undefined;
      this.searches = [];
      this.rejectedEntries = [];
      if (emitOnChange) this.emit();
      return;
    }
    this.searches = parsed.searches;
    this.rejectedEntries = parsed.rejected;
    this.lastText = text;
    if (parsed.errors.length) {
      // Keep the broken entries aside in the file (so the report happens once) and say so.
      this.rejectedEntries = [...parsed.rejected, ...parsed.errors.map((e) => e.raw)];
      await this.write(this.searches, this.rejectedEntries);
      this.report(problemFor(parsed.errors, this.file));
    }
    if (emitOnChange) this.emit();
  }

  private async write(searches: readonly SavedSearch[], rejected: readonly unknown[]): Promise<void> {
    const text = serializeSearches(searches, rejected);
    await fsp.mkdir(this.dir, { recursive: true });
    const tmp = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    await fsp.writeFile(tmp, text, 'utf8');
    await fsp.rename(tmp, this.file);
    this.lastText = text;
  }
}

function problemFor(errors: EntryError[], file: string): StoreProblem {
  return {
    message:
      errors.length === 1
        ? l10n.t(
            '1 saved search could not be read and was kept aside (in the "rejected" list of {0}).',
            path.basename(file),
          )
        : l10n.t(
            '{0} saved searches could not be read and were kept aside (in the "rejected" list of {1}).',
            errors.length,
            path.basename(file),
          ),
    details: errors.map(describeEntryError),
  };
}
