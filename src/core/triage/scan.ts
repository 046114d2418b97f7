// The first step of a triage: scan the texts and merge their indicators into one row per
// unique value (counts, first location and line, what may never be sent), and carry the
// answers of an earlier triage over. Pure: no `vscode` import.
import type { DetectionKind } from '../detect';
import { listIndicators } from '../detect/indicators';
import type { ListLog } from '../detect/types';
import { lookupKind, type Triage, type TriageRow } from './model';
import { l10n } from '../text/l10n';

export interface SourceText {
  uri: string;
  text: string;
}

/** The privacy decision for one value (today's check, later the one gate). */
export type SendCheck = (kind: DetectionKind, value: string) => { allowed: boolean; reason: string };

export interface BuildOptions {
  signal?: AbortSignal;
  /** At most this many unique values (the rest are counted only). Default 50,000. */
  maxUnique?: number;
  onProgress?: (filesDone: number, files: number) => void;
  /** Why a large text was not read on worker threads (listIndicators). */
  log?: ListLog;
}

/** Scans the texts and merges their indicators: one row per unique value. */
export async function buildTriage(
  texts: readonly SourceText[],
  check: SendCheck,
  opts: BuildOptions = {},
): Promise<Triage> {
  const maxUnique = opts.maxUnique ?? 50_000;
  const byValue = new Map<string, TriageRow>();
  let occurrences = 0;
  let truncated = false;
  for (let i = 0; i < texts.length; i++) {
    opts.signal?.throwIfAborted();
    const { uri, text } = texts[i]!;
    const list = await listIndicators(text, { mode: 'text', signal: opts.signal, maxUnique, log: opts.log });
    occurrences += list.total;
    truncated ||= list.truncated;
    const firstHere: TriageRow[] = [];
    for (const it of list.items) {
      const known = byValue.get(it.value);
      if (known) {
        known.count += it.count;
        known.defanged ||= it.defanged;
        continue;
      }
      if (byValue.size >= maxUnique) {
        truncated = true;
        continue;
      }
      const row: TriageRow = {
        value: it.value,
        kind: it.kind,
        count: it.count,
        first: { uri, offset: it.first, length: it.firstLength },
        defanged: it.defanged,
        private: false,
        status: 'pending',
        sent: false,
        fromCache: false,
      };
      const lk = lookupKind(row);
      const decision = check(it.kind, it.value);
      if (!decision.allowed) {
        row.private = true;
        row.status = 'local';
        row.localReason = decision.reason;
      } else if (!lk) {
        row.status = 'local';
        row.localReason = l10n.t('CIDR blocks are not looked up one by one');
      }
      byValue.set(it.value, row);
      firstHere.push(row);
    }
    addLines(text, firstHere);
    opts.onProgress?.(i + 1, texts.length);
  }
  // Rows sorted once: most occurrences first, then by value (stable across runs).
  const rows = [...byValue.values()].sort(
    (a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
  );
  return { rows, occurrences, truncated, files: texts.map((t) => t.uri) };
}

/** Sets `first.line` of rows first seen in `text`: one pass over the text's newlines. */
function addLines(text: string, rows: TriageRow[]): void {
  rows.sort((a, b) => a.first.offset - b.first.offset);
  let line = 0;
  let at = 0;
  for (const r of rows) {
    for (;;) {
      const nl = text.indexOf('\n', at);
      if (nl === -1 || nl >= r.first.offset) break;
      line++;
      at = nl + 1;
    }
    r.first.line = line;
  }
}

/**
 * Takes the answers of an earlier triage for the same values (rows answered there are
 * answered here, without a request): a re-run sends only what is missing even when the
 * bounded lookup cache has since let some answers go.
 */
export function carryOver(triage: Triage, previous: Triage | undefined): number {
  if (!previous) return 0;
  const known = new Map<string, TriageRow>();
  for (const r of previous.rows) if (r.status === 'enriched' || r.status === 'unknown') known.set(r.value, r);
  let n = 0;
  for (const r of triage.rows) {
    if (r.status !== 'pending') continue;
    const p = known.get(r.value);
    if (!p) continue;
    r.status = p.status;
    r.verdict = p.verdict;
    r.fromCache = true;
    n++;
  }
  return n;
}
