/**
 * The message protocol of the triage view (one row per indicator of the last triage),
 * compiled by both the extension and the view's page. Nothing here imports `vscode` or the
 * DOM. Declared once as schemas (./schema.ts), as the details pages' messages (./protocol.ts): the page says `ready`, the extension
 * posts plain view models, the page renders them with DOM APIs and answers with ids only
 * (a row's index in one generation of rows), never values, URLs or commands.
 */
import { compareRisk, type Risk } from '../../core/exploitation/order';
import type { TriageKind, TriageRowView, TriageVerdictClass } from '../../core/triage/rowView';
import type { TriageGlance } from './glance';
import {
  index,
  literal,
  message,
  ms,
  object,
  oneOf,
  optional,
  text,
  trusted,
  union,
  type Check,
  type Infer,
} from '../schema';
import { isIndex, isRec } from '../validate';
import { wordsMessage } from '../words';

export type { HostFacts, TriageKind, TriageRowView, TriageVerdictClass } from '../../core/triage/rowView';
export const VERDICT_CLASSES: readonly TriageVerdictClass[] = [
  'vulnerable',
  'known',
  'unknown',
  'local',
  'pending',
  'failed',
];
/** The header's charts (common/triage/glance.ts): each bar filters the table. */
export const GLANCE_CHARTS = ['verdict', 'band', 'country', 'asn', 'product'] as const;
export type GlanceChartId = (typeof GLANCE_CHARTS)[number];
export const TRIAGE_KINDS: readonly TriageKind[] = ['ipv4', 'ipv6', 'domain', 'cidr'];

/** What the extension posts to the triage page. */
export const toTriageView = union(
  /**
   * The rows as one JSON text of `TriageRowView[]`: a string crosses postMessage as one copy,
   * where 10,000 objects would be cloned one by one (several times slower in Chromium).
   */
  object({
    type: literal('rows'),
    generation: index,
    rowsJson: text,
    summary: text,
    glance: trusted<TriageGlance>(),
  }),
  object({ type: literal('empty'), message: text }),
  wordsMessage,
);
export type ToTriageView = Infer<typeof toTriageView>;

/** The toolbar: the Markdown report of the last triage in an editor, or "Save Report…". */
export const TRIAGE_ACTIONS = ['openReport', 'saveReport'] as const;
export type TriageAction = (typeof TRIAGE_ACTIONS)[number];

/** The rows the `rendered` report names, in the order shown (the first few: the tests read the order). */
export const TOP_ROWS = 20;
const topRows: Check<number[]> = (v) =>
  Array.isArray(v) && v.length <= TOP_ROWS && v.every((i) => index(i) !== undefined)
    ? (v as number[]).slice()
    : undefined;

/** What the triage page sends: only ids and counts. */
export const fromTriageView = message(
  union(
    object({ type: literal('ready') }),
    /**
     * First render of a generation: rows received, rows after the filter, DOM rows built, ms
     * in the page, and the indices of the first rows in the order shown.
     */
    object({
      type: literal('rendered'),
      generation: index,
      rows: index,
      shown: index,
      dom: index,
      ms,
      top: optional(topRows),
    }),
    /**
     * A bar of the header was clicked (or Enter on it): the table is filtered to its rows
     * (`bucket` absent: the filter was cleared); `shown` rows remain, `top` first.
     */
    object({
      type: literal('glanceFilter'),
      generation: index,
      chart: oneOf(GLANCE_CHARTS),
      bucket: optional(index),
      shown: index,
      top: topRows,
    }),
    /** Open the row's details page beside the editor (or reveal it when it has none). */
    object({ type: literal('open'), generation: index, index }),
    /** Reveal the row's first occurrence and highlight the others in its file. */
    object({ type: literal('reveal'), generation: index, index }),
    object({ type: literal('action'), action: oneOf(TRIAGE_ACTIONS) }),
  ),
);
export type FromTriageView = Infer<typeof fromTriageView>;

/** Validates a message from the triage page: known type, size cap, only ids and counts. */
export function parseFromTriageView(raw: unknown): FromTriageView | undefined {
  return fromTriageView(raw);
}

/** The page checks the shape of what its host posts. */
export function isToTriageView(raw: unknown): raw is ToTriageView {
  return toTriageView(raw) !== undefined;
}

/** The page side of `rowsJson`: an array of row objects, or undefined. */
export function parseRows(json: string): TriageRowView[] | undefined {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) &&
      v.every(
        (r) =>
          isRec(r) &&
          typeof r.value === 'string' &&
          isIndex(r.index) &&
          Array.isArray(r.tags) &&
          Array.isArray(r.ports),
      )
      ? (v as TriageRowView[])
      : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- sort and filter (both sides, pure)

export type SortKey =
  | 'value'
  | 'kind'
  | 'verdict'
  | 'cves'
  | 'score'
  | 'kev'
  | 'epss'
  | 'exploits'
  | 'ports'
  | 'org'
  | 'country'
  | 'count'
  | 'first';
export const SORT_KEYS: readonly SortKey[] = [
  'value',
  'kind',
  'verdict',
  'cves',
  'score',
  'kev',
  'epss',
  'exploits',
  'ports',
  'org',
  'country',
  'count',
  'first',
];

export interface TriageFilter {
  verdict?: TriageVerdictClass;
  kind?: TriageKind;
  /** Known exploited only: rows with a CVE in CISA KEV. */
  exploited?: boolean;
  /** Case-insensitive substring of the value, organisation, ASN, country, tags, registrar, file. */
  text?: string;
  /** A bar of the header (common/triage/glance.ts `glanceFilter`). */
  glance?: { chart: GlanceChartId; key: string };
}

/** Higher is worse: what a sort by verdict puts first. */
export const VERDICT_RANK: Record<TriageVerdictClass, number> = {
  vulnerable: 5,
  failed: 4,
  known: 3,
  pending: 2,
  unknown: 1,
  local: 0,
};
const SEVERITY_RANK: Record<string, number> = { critical: 4, high: 3, medium: 2, low: 1 };

/** The lower-case text a row's text filter searches. */
export function haystack(r: TriageRowView): string {
  return [r.value, r.org, r.asn, r.country, r.registrar, r.first, r.reason, ...r.tags]
    .filter(Boolean)
    .join('\u0000')
    .toLowerCase();
}

/** The rows that pass the filter (`hay[i]` is `haystack(rows[i])`, computed once). */
export function filterRows(
  rows: readonly TriageRowView[],
  hay: readonly string[],
  f: TriageFilter,
): number[] {
  const text = f.text?.trim().toLowerCase();
  const out: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (f.verdict && r.verdict !== f.verdict) continue;
    if (f.kind && r.kind !== f.kind) continue;
    if (f.exploited && !r.kev) continue;
    if (text && !hay[i]!.includes(text)) continue;
    out.push(i);
  }
  return out;
}

/** A row's place in the one ordering rule of core/exploitation (KEV, then EPSS, then CVSS). */
export function rowRisk(r: TriageRowView): Risk {
  const out: Risk = { kev: (r.kev ?? 0) > 0 };
  if (r.ransomware) out.ransomware = true;
  if (r.epss !== undefined) out.epss = r.epss;
  if (r.maxScore !== undefined) out.cvss = r.maxScore;
  return out;
}

function num(x: number | undefined): number {
  return x === undefined ? -1 : x;
}

function str(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return a < b ? -1 : 1;
}

/** Compares two rows by `key` (ascending); ties broken by verdict, score, count, value. */
export function compareRows(a: TriageRowView, b: TriageRowView, key: SortKey): number {
  let c = 0;
  switch (key) {
    case 'value':
      c = str(a.value, b.value);
      break;
    case 'kind':
      c = str(a.kind, b.kind);
      break;
    case 'verdict':
      // Worse sorts higher: the verdict class, then the one rule (KEV, EPSS, CVSS), then severity.
      c =
        VERDICT_RANK[a.verdict] - VERDICT_RANK[b.verdict] ||
        compareRisk(rowRisk(b), rowRisk(a)) ||
        (SEVERITY_RANK[a.severity ?? ''] ?? 0) - (SEVERITY_RANK[b.severity ?? ''] ?? 0);
      break;
    case 'cves':
      c = a.cves - b.cves;
      break;
    case 'score':
      c =
        num(a.maxScore) - num(b.maxScore) ||
        (SEVERITY_RANK[a.severity ?? ''] ?? 0) - (SEVERITY_RANK[b.severity ?? ''] ?? 0);
      break;
    case 'kev':
      c = compareRisk(rowRisk(b), rowRisk(a));
      break;
    case 'epss':
      c = num(a.epss) - num(b.epss);
      break;
    case 'exploits':
      c = a.exploits - b.exploits;
      break;
    case 'ports':
      c = a.ports.length - b.ports.length;
      break;
    case 'org':
      c = str(a.org ?? a.registrar, b.org ?? b.registrar);
      break;
    case 'country':
      c = str(a.country, b.country);
      break;
    case 'count':
      c = a.count - b.count;
      break;
    case 'first':
      c = str(a.first, b.first);
      break;
  }
  return c;
}

/** Sorts row positions in place by `key`; `desc` reverses; ties keep the extension's order. */
export function sortRows(
  rows: readonly TriageRowView[],
  order: number[],
  key: SortKey,
  desc: boolean,
): number[] {
  const sign = desc ? -1 : 1;
  return order.sort((i, j) => sign * compareRows(rows[i]!, rows[j]!, key) || i - j);
}
