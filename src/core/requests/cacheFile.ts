/**
 * The lookup cache's file: one JSON document `{format, version, entries}` (least recently
 * used first), validated on read, written atomically (temporary file + rename, mode 0600).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CacheEntry } from './cache';

const FORMAT = 'odin-lookup-cache';
const VERSION = 1;
/** Entries bigger than this (serialised) are kept in memory only: one odd host must not bloat the file. */
const MAX_PERSISTED_ENTRY_CHARS = 512 * 1024;

export interface CacheFile {
  format: string;
  version: number;
  /** Least recently used first. */
  entries: Array<[string, CacheEntry]>;
}

/** The file text of the entries (least recently used first), leaving out the oversized ones. */
export function serialiseCache(entries: ReadonlyMap<string, CacheEntry>): string {
  const kept: Array<[string, CacheEntry]> = [];
  for (const [key, entry] of entries) {
    // Stale entries are still worth keeping (shown while paused) until evicted.
    const size = JSON.stringify(entry.value ?? null).length;
    if (size <= MAX_PERSISTED_ENTRY_CHARS) kept.push([key, entry]);
  }
  const file: CacheFile = { format: FORMAT, version: VERSION, entries: kept };
  return JSON.stringify(file);
}

/** A temporary file name beside `file`, this process's own: two windows may write at once. */
export function tempFileBeside(file: string): string {
  return `${file}.${process.pid}.${Math.floor(Math.random() * 1e9).toString(36)}.tmp`;
}

/** Writes `text` (or bytes) through a temporary file and a rename; the file's stat after the write. */
export async function writeFileAtomic(
  file: string,
  text: string | Uint8Array,
): Promise<fs.Stats | undefined> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = tempFileBeside(file);
  try {
    await fs.promises.writeFile(tmp, text, { encoding: 'utf8', mode: 0o600 });
    await fs.promises.rename(tmp, file);
    return await fs.promises.stat(file).catch(() => undefined);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

export function writeFileAtomicSync(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.sync.tmp`;
  try {
    fs.writeFileSync(tmp, text, { encoding: 'utf8', mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

export function statIfExistsSync(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

export function readIfExistsSync(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Validates a cache file's text; undefined when it is not one (corrupt, truncated, other format). */
export function parseCacheFile(text: string): CacheFile | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(data) || data.format !== FORMAT || data.version !== VERSION || !Array.isArray(data.entries)) {
    return undefined;
  }
  const entries: Array<[string, CacheEntry]> = [];
  for (const item of data.entries) {
    if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== 'string' || !isRecord(item[1]))
      return undefined;
    const e = item[1];
    if (typeof e.notFound !== 'boolean' || !isFiniteNumber(e.storedAt) || !isFiniteNumber(e.expiresAt))
      return undefined;
    entries.push([
      item[0],
      { notFound: e.notFound, value: e.value, storedAt: e.storedAt, expiresAt: e.expiresAt },
    ]);
  }
  return { format: FORMAT, version: VERSION, entries };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}
