import * as vscode from 'vscode';
import type { HuntKind } from '../../core/hunts';
import { BUILTIN_FIELDS, type FieldInfo } from '../../core/query';
import { peekSearch, searchVia } from '../../core/search';
import { fieldInfos } from '../search/fieldCatalogue';
import type { Ctx } from '../ctx';

type CatalogueKind = 'hosts' | 'buckets' | 'files';

/** Field catalogues through the shared request layer (cached per API origin, on disk). */
export class Catalogues {
  private readonly loaded = new Map<string, FieldInfo[]>();
  private readonly pending = new Set<string>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidLoad = this.changed.event;

  constructor(private readonly ctx: Ctx) {}

  private key(kind: CatalogueKind): string {
    return `${this.ctx.origin()}\n${kind}`;
  }

  /** The live catalogue when it has arrived (diagnostics only judge fields against this). */
  live(kind: HuntKind): FieldInfo[] | undefined {
    if (kind === 'domains') return undefined;
    const k = this.key(kind);
    const have = this.loaded.get(k);
    if (have) return have;
    const cached = peekSearch(this.ctx, { kind: 'fields', field: kind });
    if (cached?.status === 'ok') {
      const infos = fieldInfos(cached.value);
      this.loaded.set(k, infos);
      return infos;
    }
    this.fetch(kind);
    return undefined;
  }

  /** For completion and hover: the live catalogue, else the built-in list (never waits). */
  fields(kind: HuntKind): FieldInfo[] {
    if (kind === 'domains') return [];
    return this.live(kind) ?? BUILTIN_FIELDS[kind].map((name) => ({ name }));
  }

  /**
   * Fetches in the background only when the gate lets automatic requests go (a trusted
   * workspace, lookups `onHover`): opening a hunt file is no act of the user, so in
   * `onCommand` mode (and `off`, and Restricted Mode) nothing uses the key; the built-in
   * field list serves. And only with a key (a keyless request would answer 401 and pause
   * lookups).
   */
  private fetch(kind: CatalogueKind): void {
    const k = this.key(kind);
    if (this.pending.has(k) || 'refusal' in this.ctx.gate.mayRun({ trigger: 'automatic' })) return;
    if (this.ctx.keys.get() === undefined) return;
    this.pending.add(k);
    searchVia(this.ctx, { kind: 'fields', field: kind }, { automatic: true })
      .then(
        (r) => {
          if (r.status === 'ok') {
            this.loaded.set(k, fieldInfos(r.value));
            this.changed.fire();
          }
        },
        (err: unknown) =>
          // l10n: English, for the log
          this.ctx.log.debug(`field catalogue ${kind}: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => this.pending.delete(k));
  }

  clear(): void {
    this.loaded.clear();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
