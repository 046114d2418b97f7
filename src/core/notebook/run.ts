/**
 * A run of a notebook: the facts each cell leaves for the later ones' placeholders, the
 * credits spent against the notebook's budget, and the case record kept up to date after
 * every cell. The editor's controller and the headless runner both run cells through this
 * class (and so through `executeCell`): same query, same pages, same hashes.
 * Pure: no VS Code.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { codeFence } from '../text/inert';
import { l10n } from '../text/l10n';
import { cellMarkdown } from './markdown';
import { executeCell, type CellEstimate, type CellRun, type NotebookSession } from './execute';
import { parseNotebook, type NotebookFile } from './format';
import type { CellFacts } from './placeholders';
import { recordCellOf, recordPaths, sidecarSink, writeRecord, type CaseRecord } from './record';

export interface RunCellOptions {
  signal?: AbortSignal;
  confirm?(estimate: CellEstimate): Promise<boolean>;
  onEstimate?(estimate: CellEstimate): void;
}

export class NotebookRun {
  private readonly facts = new Map<number, CellFacts>();
  private spentSoFar = 0;
  /** Each cell's Markdown (the record's readable twin, `.odin/<name>.record.md`). */
  private readonly markdownOf = new Map<number, string>();
  readonly record: CaseRecord;

  /**
   * @param notebookFile where the notebook is (the record goes to `.odin/` beside it)
   * @param params the notebook's parameters with the run's overrides applied
   */
  constructor(
    private readonly session: NotebookSession,
    readonly notebookFile: string,
    private readonly params: Readonly<Record<string, string>>,
    private readonly budget: number | undefined,
    runner: CaseRecord['runner'],
  ) {
    this.record = {
      version: 1,
      notebook: path.basename(notebookFile),
      runner,
      updatedAt: new Date().toISOString(),
      params: { ...params },
      cells: [],
    };
  }

  /** Credits the notebook's cells spent in this run. */
  get spent(): number {
    return this.spentSoFar;
  }

  /** Records a Markdown cell (its place in the record: one entry per cell). */
  markdown(cell: number, source?: string): void {
    this.put({ cell, kind: 'markdown' });
    if (source !== undefined) this.markdownOf.set(cell, source);
  }

  /** Runs query cell `cell` (1-based) and records it. */
  async query(cell: number, source: string, opts: RunCellOptions = {}): Promise<CellRun> {
    const sidecar = recordPaths(this.notebookFile).sidecar(cell);
    fs.rmSync(sidecar, { force: true });
    const run = await executeCell(this.session, {
      index: cell,
      source,
      params: this.params,
      facts: this.facts,
      signal: opts.signal,
      ...(this.budget !== undefined ? { budgetLeft: Math.max(0, this.budget - this.spentSoFar) } : {}),
      confirm: opts.confirm,
      onEstimate: opts.onEstimate,
      sink: () => sidecarSink(sidecar),
    });
    this.spentSoFar += run.spent;
    if (run.status === 'ok' && run.facts) this.facts.set(cell, run.facts);
    else this.facts.delete(cell);
    const rel = path.relative(path.dirname(recordPaths(this.notebookFile).record), sidecar);
    this.put(recordCellOf(cell, run, run.status === 'ok' && run.rowCount > 0 ? rel : undefined));
    this.markdownOf.set(
      cell,
      [
        `#### ${l10n.t('Cell {0}', cell)}`,
        '',
        codeFence(run.query ?? source, 'odinq'),
        '',
        cellMarkdown(run, rel),
      ].join('\n'),
    );
    return run;
  }

  /** A query cell not reached (a Run All stopped before it). */
  notRun(cell: number): void {
    this.put({ cell, kind: 'query', status: 'notRun' });
  }

  private put(entry: CaseRecord['cells'][number]): void {
    const cells = this.record.cells.filter((c) => c.cell !== entry.cell);
    cells.push(entry);
    cells.sort((a, b) => a.cell - b.cell);
    this.record.cells = cells;
    this.record.updatedAt = new Date().toISOString();
  }

  /** Writes the record file; returns its path. */
  save(): string {
    const file = writeRecord(this.notebookFile, this.record);
    const cells = [...this.markdownOf.entries()].sort(([a], [b]) => a - b).map(([, md]) => md);
    fs.writeFileSync(file.replace(/\.json$/, '.md'), `${cells.join('\n\n')}\n`);
    return file;
  }
}

export interface HeadlessResult {
  record: CaseRecord;
  recordFile: string;
  /** False when a cell failed, was refused or declined: the run stopped there. */
  ok: boolean;
  /** The first problem, for the runner's message. */
  message?: string;
}

export interface HeadlessOptions {
  signal?: AbortSignal;
  /** Whether a cell over the notebook's budget may run anyway (no one to ask: default no). */
  overBudget?: boolean;
  /** Each cell's estimate as it is known (the runner may print it). */
  onEstimate?(cell: number, estimate: CellEstimate): void;
}

/**
 * Runs a `.odinnb` file without an editor (the hunt runner's `run case.odinnb --param k=v`):
 * every cell in order, stopping at the first that does not run to the end, then writes the
 * same record an editor run writes. `params` override the notebook's own.
 */
export async function runNotebookHeadless(
  file: string,
  params: Readonly<Record<string, string>>,
  session: NotebookSession,
  opts: HeadlessOptions = {},
): Promise<HeadlessResult> {
  let nb: NotebookFile;
  try {
    nb = parseNotebook(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(
      l10n.t('Cannot read the notebook {0}: {1}', file, e instanceof Error ? e.message : String(e)),
    );
  }
  const run = new NotebookRun(session, file, { ...nb.params, ...params }, nb.budget, 'headless');
  let message: string | undefined;
  for (const [i, c] of nb.cells.entries()) {
    const cell = i + 1;
    if (c.kind === 'markdown') {
      run.markdown(cell, c.source);
      continue;
    }
    if (message !== undefined) {
      run.notRun(cell);
      continue;
    }
    const r = await run.query(cell, c.source, {
      signal: opts.signal,
      confirm: () => Promise.resolve(opts.overBudget === true),
      onEstimate: (e) => opts.onEstimate?.(cell, e),
    });
    if (r.status !== 'ok') message = l10n.t('Cell {0}: {1}', cell, r.message ?? r.status);
  }
  const recordFile = run.save();
  return { record: run.record, recordFile, ok: message === undefined, ...(message ? { message } : {}) };
}
