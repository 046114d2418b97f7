/**
 * The lookup cache: results of host, whois and count lookups kept in memory and on disk,
 * so hovering the same IP twice (or after a restart) costs no request and no credit.
 *
 * - Keyed by API origin + kind + target: switching to the demo emulator or another API
 *   never shows one origin's data as another's.
 * - A TTL per class (host, whois, count, notFound); expired entries stay until evicted so
 *   they can still be shown, marked stale, while lookups are paused.
 * - "Not found" answers are cached too (negative caching), with their own TTL.
 * - Bounded: least recently used entries go first once `maxEntries` is reached.
 * - Persisted as one JSON file, written atomically (temp file + rename) and debounced.
 *   A file that cannot be read is moved aside and reported, never fatal.
 * - Shared by every window: a write first merges what other windows wrote since (the newer
 *   answer per key wins), so two windows no longer overwrite each other's lookups. Deletes
 *   and clears are remembered until the next write, so a merge does not bring them back.
 *   The file is read again only when it changed since this window last read or wrote it.
 *
 * The file format and its atomic writes are in `cacheFile.ts`. Pure Node: no `vscode`
 * import (tested in plain Node).
 */
import * as fs from 'node:fs';
import {
  parseCacheFile,
  readIfExistsSync,
  serialiseCache,
  statIfExistsSync,
  writeFileAtomic,
  writeFileAtomicSync,
} from './cacheFile';
import { heapBytes } from './heapBytes';
import { detached } from '../text/detached';

export { parseCacheFile } from './cacheFile';

export type TtlClass = 'host' | 'whois' | 'count' | 'notFound';
export type CacheTtls = Record<TtlClass, number>;

export interface CacheEntry<T = unknown> {
  /** `true` for a cached "not found" answer; `value` is then undefined. */
  notFound: boolean;
  value?: T;
  storedAt: number;
  expiresAt: number;
}

export interface CacheHit<T = unknown> extends CacheEntry<T> {
  fresh: boolean;
}

export interface CacheOptions {
  /** File to persist to; memory only when absent. */
  file?: string;
  /** Time to live per class, in milliseconds. */
  ttlMs: CacheTtls;
  maxEntries: number;
  /**
   * Bound of the memory the entries hold, in heap bytes estimated from above (`heapBytes`).
   * Default DEFAULT_CACHE_MAX_BYTES. An entry bigger than the whole bound is not kept.
   */
  maxBytes?: number;
  /** Delay before a change is written to disk (debounce). Default 1500 ms. */
  writeDelayMs?: number;
  /** While changes keep coming, the longest a change waits to be written (default 15 s). */
  writeMaxWaitMs?: number;
  now?: () => number;
  /** Receives non-fatal problems (corrupt file moved aside, write failed). */
  onProblem?: (message: string) => void;
}

/** 64 MiB: thousands of ordinary hosts, and a bound on a few hosts with megabytes of banners. */
export const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Estimated memory of one entry: the key, the entry and its map slot, and the heap its value
 * holds (`heapBytes`, an estimate from above checked against measured heap growth; its JSON
 * length was not: two entries "of 56 MiB" held 376 MiB).
 */
export function entryBytes(key: string, entry: CacheEntry): number {
  return 24 + 2 * key.length + 128 + (entry.notFound ? 0 : heapBytes(entry.value ?? null));
}

/** The cache key of one lookup. NUL never occurs in an origin, a kind or a validated target. */
export function cacheKey(origin: string, kind: string, target: string): string {
  // The target is often cut from a document (a hover's line): the key must not hold it.
  return detached(`${origin}\u0000${kind}\u0000${target}`);
}

export class ResultCache {
  /** Insertion order is recency order: the first key is the least recently used. */
  private readonly entries = new Map<string, CacheEntry>();
  /** Estimated bytes per key (see entryBytes), and their sum. */
  private readonly sizes = new Map<string, number>();
  private totalBytes = 0;
  /**
   * The key set last, when it is not sized yet: estimating an answer walks all of it (a fifth
   * of a millisecond for an ordinary host), so `set` leaves it to a turn of the event loop
   * after the caller's (a hover shows its card first); the next set and anything that reads
   * the cache size it first.
   */
  private readonly unsized = new Set<string>();
  private sizeSoon: NodeJS.Immediate | undefined;
  private ttlMs: CacheTtls;
  private maxEntries: number;
  private maxBytes: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  /** When the oldest change not yet written was made (Date.now()). */
  private unsavedSince: number | undefined;
  /** When the latest change was made (Date.now()). */
  private changedAt = 0;
  private dirty = false;
  private writing: Promise<void> = Promise.resolve();
  private disposed = false;
  /** Since the last write: when the cache was cleared, and keys deleted (with when). */
  private clearedAt = -Infinity;
  private readonly deleted = new Map<string, number>();
  /** The file as this window last read or wrote it: unchanged means no other window wrote. */
  private seen: { mtimeMs: number; size: number } | undefined;
  /** Resolves once the file (if any) has been read; `get` works before, on an empty cache. */
  readonly ready: Promise<void>;

  constructor(private readonly options: CacheOptions) {
    this.ttlMs = { ...options.ttlMs };
    this.maxEntries = Math.max(1, Math.floor(options.maxEntries));
    this.maxBytes = validBytes(options.maxBytes);
    this.now = options.now ?? Date.now;
    this.ready = options.file ? this.load(options.file) : Promise.resolve();
  }

  get size(): number {
    this.settle();
    return this.entries.size;
  }

  /** Estimated memory the entries hold now (see `entryBytes`). */
  get bytes(): number {
    this.settle();
    return this.totalBytes;
  }

  setLimits(ttlMs: CacheTtls, maxEntries: number, maxBytes?: number): void {
    this.ttlMs = { ...ttlMs };
    this.maxEntries = Math.max(1, Math.floor(maxEntries));
    if (maxBytes !== undefined) this.maxBytes = validBytes(maxBytes);
    if (this.evict()) this.scheduleWrite();
  }

  /** The entry for `key`, fresh or stale, and marks it recently used; undefined when absent. */
  get<T>(key: string): CacheHit<T> | undefined {
    this.settle();
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { ...(entry as CacheEntry<T>), fresh: this.now() < entry.expiresAt };
  }

  /** Like `get` but without touching recency (for status displays and tests). */
  peek<T>(key: string): CacheHit<T> | undefined {
    this.settle();
    const entry = this.entries.get(key);
    return entry ? { ...(entry as CacheEntry<T>), fresh: this.now() < entry.expiresAt } : undefined;
  }

  set(key: string, value: unknown, ttlClass: TtlClass): void {
    const now = this.now();
    this.put(key, { notFound: false, value, storedAt: now, expiresAt: now + this.ttlMs[ttlClass] });
  }

  setNotFound(key: string): void {
    const now = this.now();
    this.put(key, { notFound: true, storedAt: now, expiresAt: now + this.ttlMs.notFound });
  }

  delete(key: string): void {
    this.deleted.set(key, this.now());
    if (this.drop(key)) this.scheduleWrite();
  }

  clear(): void {
    this.dropAll();
    this.deleted.clear();
    this.clearedAt = this.now();
    this.scheduleWrite();
  }

  /** Writes pending changes now (waits for a write already under way). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.unsavedSince = undefined;
    await this.ready;
    this.writing = this.writing.then(() => this.write());
    await this.writing;
  }

  /** Stops the debounce timer and writes synchronously (VS Code disposal cannot wait). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.sizeSoon) clearImmediate(this.sizeSoon);
    this.sizeSoon = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.dirty && this.options.file) {
      try {
        const file = this.options.file;
        this.mergeFile(this.changedSince(statIfExistsSync(file)) ? readIfExistsSync(file) : undefined);
        writeFileAtomicSync(file, serialiseCache(this.entries));
        this.seen = statIfExistsSync(file);
        this.dirty = false;
      } catch (e) {
        this.problem(`Could not save the lookup cache: ${message(e)}`);
      }
    }
  }

  private put(key: string, entry: CacheEntry): void {
    // At most one answer waits to be sized: a loop of sets holds the bound but for its last.
    this.settle();
    this.store(key, entry, true);
    this.evict(false);
    this.scheduleWrite();
    this.sizeSoon ??= setImmediate(() => {
      this.sizeSoon = undefined;
      this.settle();
    });
  }

  /** Sets an entry as the most recently used one, keeping the byte count (or sized later). */
  private store(key: string, entry: CacheEntry, later = false): void {
    this.drop(key);
    this.entries.set(key, entry);
    if (later) {
      this.unsized.add(key);
      return;
    }
    const bytes = entryBytes(key, entry);
    this.sizes.set(key, bytes);
    this.totalBytes += bytes;
  }

  private drop(key: string): boolean {
    this.totalBytes -= this.sizes.get(key) ?? 0;
    this.sizes.delete(key);
    this.unsized.delete(key);
    return this.entries.delete(key);
  }

  private dropAll(): void {
    this.entries.clear();
    this.sizes.clear();
    this.unsized.clear();
    this.totalBytes = 0;
  }

  /** Sizes the entries set since, then holds the bounds. */
  private settle(): void {
    if (this.unsized.size > 0 && this.evict()) this.scheduleWrite();
  }

  /** Least recently used first, until both the entry count and the byte bound hold. */
  private evict(sizeFirst = true): boolean {
    if (sizeFirst) {
      for (const key of this.unsized) {
        const bytes = entryBytes(key, this.entries.get(key)!);
        this.sizes.set(key, bytes);
        this.totalBytes += bytes;
      }
      this.unsized.clear();
    }
    let removed = false;
    while (
      this.entries.size > 0 &&
      (this.entries.size > this.maxEntries || this.totalBytes > this.maxBytes)
    ) {
      const oldest = this.entries.keys().next().value as string;
      this.drop(oldest);
      removed = true;
    }
    return removed;
  }

  /**
   * A write serialises the whole cache on the thread that answers hovers, so it waits until
   * the changes pause for `writeDelayMs` (a run of cold hovers, a triage's enrichment), and
   * at most `writeMaxWaitMs` after the first change not yet written.
   */
  private scheduleWrite(): void {
    this.dirty = true;
    if (!this.options.file || this.disposed) return;
    const now = Date.now();
    this.unsavedSince ??= now;
    this.changedAt = now;
    // One timer for a run of changes (each answer of a run of cold hovers is one): it is not
    // set again per change; when it fires early for the latest change, it waits the rest.
    if (!this.timer) this.armWrite(now);
  }

  /** When the changes not yet written are due: a pause of `writeDelayMs`, at most `writeMaxWaitMs` after the first. */
  private writeDue(): number {
    return Math.min(
      this.changedAt + (this.options.writeDelayMs ?? 1500),
      (this.unsavedSince ?? this.changedAt) + (this.options.writeMaxWaitMs ?? 15_000),
    );
  }

  private armWrite(now: number): void {
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        const at = Date.now();
        if (at < this.writeDue()) {
          this.armWrite(at);
          return;
        }
        this.unsavedSince = undefined;
        this.writing = this.writing.then(() => this.write());
      },
      Math.max(0, this.writeDue() - now),
    );
    this.timer.unref?.();
  }

  private async write(): Promise<void> {
    const file = this.options.file;
    if (!file || !this.dirty) return;
    this.dirty = false;
    try {
      const before = await fs.promises.stat(file).catch(() => undefined);
      this.mergeFile(
        this.changedSince(before)
          ? await fs.promises.readFile(file, 'utf8').catch(() => undefined)
          : undefined,
      );
      this.seen = await writeFileAtomic(file, serialiseCache(this.entries));
    } catch (e) {
      this.problem(`Could not save the lookup cache: ${message(e)}`);
    }
  }

  /**
   * Takes in what the file holds now (written by another window since this one last wrote):
   * entries this window lacks or holds an older answer for, unless this window deleted or
   * cleared them after they were stored. An unreadable file is left to the next load.
   */
  private changedSince(now: fs.Stats | undefined): boolean {
    return (
      now !== undefined && !(this.seen && now.mtimeMs === this.seen.mtimeMs && now.size === this.seen.size)
    );
  }

  private mergeFile(text: string | undefined): void {
    const parsed = text === undefined ? undefined : parseCacheFile(text);
    if (parsed) {
      const theirs = new Map(parsed.entries);
      const merged = new Map<string, CacheEntry>();
      for (const [key, entry] of theirs) {
        const gone = Math.max(this.clearedAt, this.deleted.get(key) ?? -Infinity);
        if (!this.entries.has(key) && entry.storedAt > gone) merged.set(key, entry);
      }
      // Theirs first (less recent here), then ours in recency order, each with the newer answer.
      for (const [key, ours] of this.entries) {
        const other = theirs.get(key);
        merged.set(key, other && other.storedAt > ours.storedAt ? other : ours);
      }
      this.dropAll();
      for (const [key, entry] of merged) this.store(key, entry);
      this.evict();
    }
    this.deleted.clear();
    this.clearedAt = -Infinity;
  }

  private async load(file: string): Promise<void> {
    let text: string;
    try {
      this.seen = await fs.promises.stat(file);
      text = await fs.promises.readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        this.problem(`Could not read the lookup cache: ${message(e)}`);
      return;
    }
    const parsed = parseCacheFile(text);
    if (!parsed) {
      const aside = `${file}.corrupt-${new Date(this.now()).toISOString().replace(/[:.]/g, '-')}`;
      try {
        await fs.promises.rename(file, aside);
        this.problem(`The lookup cache file was unreadable and was moved aside to ${aside}; starting empty.`);
      } catch (e) {
        this.problem(`The lookup cache file was unreadable and could not be moved aside: ${message(e)}`);
      }
      return;
    }
    // Entries set before the file finished loading are newer: keep them, most recent last.
    const newer = [...this.entries];
    this.dropAll();
    for (const [key, entry] of parsed.entries) this.store(key, entry);
    for (const [key, entry] of newer) this.store(key, entry);
    this.evict();
  }

  private problem(text: string): void {
    try {
      this.options.onProblem?.(text);
    } catch {
      // A failing reporter must not break the cache.
    }
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function validBytes(v: number | undefined): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : DEFAULT_CACHE_MAX_BYTES;
}
