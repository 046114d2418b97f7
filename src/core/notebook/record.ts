/**
 * The case record: what the last run of a notebook did, per cell, written beside it as
 * `.odin/<name>.record.json` (with the full rows of each cell in `.odin/<name>.cell<N>.jsonl`,
 * whose SHA-256 the record carries). The notebook file stays free of rows; the record is what
 * a reviewer, a CI job or an agent reads. It holds no key: the base URL is an origin.
 * Pure: no VS Code (node:fs only).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { l10n } from '../text/l10n';
import type { CellEstimate, CellRun, CellStatus } from './execute';
import { oneLine } from './format';
import type { TableRow } from './rows';
import { fmt } from '../text/numbers';

export const RECORD_VERSION = 1;
/** The most a record file may be for a reader to take it (rows are bounded per cell). */
export const MAX_RECORD_BYTES = 5_000_000;

export interface RecordQueryCell {
  cell: number;
  kind: 'query';
  status: CellStatus | 'notRun';
  message?: string;
  query?: string;
  ranAt?: string;
  baseUrl?: string;
  estimate?: CellEstimate;
  /** Requests the cell's pages spent (one credit each). */
  spent?: number;
  creditsBefore?: number;
  creditsAfter?: number;
  rowCount?: number;
  total?: number;
  truncated?: boolean;
  sha256?: string;
  firstRows?: TableRow[];
  /** The full rows, relative to the record's folder. */
  sidecar?: string;
}

export type RecordCell = { cell: number; kind: 'markdown' } | RecordQueryCell;

export interface CaseRecord {
  version: number;
  notebook: string;
  runner: 'editor' | 'headless';
  updatedAt: string;
  params: Record<string, string>;
  cells: RecordCell[];
}

/** Where a notebook's record and sidecars go: `.odin/` beside it. */
export function recordPaths(notebookFile: string): {
  dir: string;
  record: string;
  sidecar(cell: number): string;
} {
  const dir = path.join(path.dirname(notebookFile), '.odin');
  const base = path.basename(notebookFile).replace(/\.odinnb$/i, '');
  return {
    dir,
    record: path.join(dir, `${base}.record.json`),
    sidecar: (cell) => path.join(dir, `${base}.cell${cell}.jsonl`),
  };
}

/** The record entry of a run. */
export function recordCellOf(cell: number, run: CellRun, sidecar?: string): RecordQueryCell {
  return {
    cell,
    kind: 'query',
    status: run.status,
    ...(run.message ? { message: run.message } : {}),
    ...(run.query !== undefined ? { query: run.query } : {}),
    ranAt: run.ranAt,
    baseUrl: run.baseUrl,
    ...(run.estimate ? { estimate: run.estimate } : {}),
    spent: run.spent,
    ...(run.creditsBefore !== undefined ? { creditsBefore: run.creditsBefore } : {}),
    ...(run.creditsAfter !== undefined ? { creditsAfter: run.creditsAfter } : {}),
    rowCount: run.rowCount,
    ...(run.total !== undefined ? { total: run.total } : {}),
    ...(run.truncated ? { truncated: true } : {}),
    ...(run.sha256 ? { sha256: run.sha256 } : {}),
    firstRows: run.firstRows,
    ...(sidecar && run.status === 'ok' ? { sidecar } : {}),
  };
}

/** A cell's one line in the notebook file: counts and the hash prefix, never rows. */
export function summaryLine(run: CellRun): string {
  if (run.status !== 'ok') return oneLine(`${run.status}: ${run.message ?? ''}`);
  const est = run.estimate ? l10n.t('≈ {0} hosts', fmt(run.estimate.hosts)) : '';
  return oneLine(
    [
      l10n.t('{0} rows', fmt(run.rowCount)),
      est,
      l10n.t('{0} credits', run.spent),
      run.sha256 ? `sha256 ${run.sha256.slice(0, 12)}…` : '',
      run.ranAt,
    ]
      .filter(Boolean)
      .join(' · '),
  );
}

/** Writes the record (and the folder's `.gitignore` that keeps the large sidecars out of git). */
export function writeRecord(notebookFile: string, record: CaseRecord): string {
  const p = recordPaths(notebookFile);
  fs.mkdirSync(p.dir, { recursive: true });
  const ignore = path.join(p.dir, '.gitignore');
  if (!fs.existsSync(ignore))
    fs.writeFileSync(ignore, '# Full results of notebook cells: large, and scan data\n*.jsonl\n');
  const tmp = `${p.record}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`);
  fs.renameSync(tmp, p.record);
  return p.record;
}

/** Reads a notebook's last record, or undefined when there is none; a damaged one is an error. */
export function readRecord(notebookFile: string): CaseRecord | undefined {
  const file = recordPaths(notebookFile).record;
  let text: string;
  try {
    if (fs.statSync(file).size > MAX_RECORD_BYTES)
      throw new Error(l10n.t('The case record is larger than {0} bytes.', MAX_RECORD_BYTES));
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  return parseRecord(text, file);
}

/**
 * A record's text as a record, or an error when it is not one this extension wrote. Only the
 * outline is checked: a record in a cloned workspace may be written by anyone, so readers
 * still check each field they use.
 */
export function parseRecord(text: string, file: string): CaseRecord {
  let raw: Partial<CaseRecord> | null;
  try {
    raw = JSON.parse(text) as Partial<CaseRecord> | null;
  } catch {
    raw = null;
  }
  if (!raw || typeof raw !== 'object' || raw.version !== RECORD_VERSION || !Array.isArray(raw.cells))
    throw new Error(l10n.t('The case record {0} is not one this extension wrote.', file));
  return raw as CaseRecord;
}

/** A sink that writes a cell's full rows to its sidecar. */
export function sidecarSink(file: string): { write(lines: string): void; close(): void } {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w');
  let open = true;
  return {
    write: (lines) => {
      if (open) fs.writeSync(fd, lines);
    },
    close: () => {
      if (open) fs.closeSync(fd);
      open = false;
    },
  };
}
