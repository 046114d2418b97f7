/**
 * Field names for query completion, fetched once per API origin and kept in memory. Until
 * the catalogue answers (or when it fails) the built-in field list is used, so the input
 * never waits on the network. No VS Code here.
 */
import type { FieldDescriptor } from '../../api/types';
import { BUILTIN_FIELDS, type FieldInfo } from '../../core/query';
import { searchVia, type SearchEnv } from '../../core/search';

export type Catalogue = 'hosts' | 'buckets' | 'files';

export class FieldCatalogue {
  private readonly cache = new Map<string, Promise<FieldInfo[]>>();

  constructor(
    /** The catalogue's request path (the request layer and its ledger). */
    private readonly env: SearchEnv,
    private readonly origin: () => string,
    private readonly log: (message: string) => void = () => undefined,
    /** The gate: false (lookups off, Restricted Mode) means the built-in list, nothing sent. */
    private readonly mayFetch: () => boolean = () => true,
  ) {}

  /** The catalogue for `which` (fetched on first use per origin; a failure is retried next time). */
  fields(which: Catalogue, signal?: AbortSignal): Promise<FieldInfo[]> {
    if (!this.mayFetch()) return Promise.resolve(this.builtin(which));
    const key = `${this.origin()}\n${which}`;
    let entry = this.cache.get(key);
    if (!entry) {
      entry = this.fetch(which, signal).catch((err: unknown) => {
        this.cache.delete(key);
        // l10n: English, for the log
        this.log(`field catalogue ${which}: ${err instanceof Error ? err.message : String(err)}`);
        throw err;
      });
      this.cache.set(key, entry);
    }
    return entry;
  }

  /** The catalogue when it has arrived, else the built-in list (never waits). */
  builtin(which: Catalogue): FieldInfo[] {
    return BUILTIN_FIELDS[which].map((name) => ({ name }));
  }

  clear(): void {
    this.cache.clear();
  }

  private async fetch(which: Catalogue, signal?: AbortSignal): Promise<FieldInfo[]> {
    const r = await searchVia(this.env, { kind: 'fields', field: which }, { signal, automatic: true });
    return r.status === 'ok' ? fieldInfos(r.value) : this.builtin(which);
  }
}

/** A field catalogue's answer as completion entries. */
export function fieldInfos(list: FieldDescriptor[]): FieldInfo[] {
  return list.map((f) => ({
    name: f.name,
    ...(f.is_locked ? { locked: true } : {}),
    ...(f.display_category || f.category ? { category: f.display_category || f.category } : {}),
  }));
}
