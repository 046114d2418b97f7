/**
 * The `.odinnb` file: an investigation as JSON a person can diff. Cells (Markdown, or one
 * `.odinq` query each), the notebook's parameters and its credit budget. It never holds
 * result rows, keys or what the service answered beyond one summary line per cell: results go
 * to the case record and its sidecars under `.odin/` (record.ts). Pure: no VS Code.
 */
import { l10n } from '../text/l10n';

export const NOTEBOOK_VERSION = 1;

export type NotebookCellKind = 'markdown' | 'query';

export interface NotebookCell {
  kind: NotebookCellKind;
  /** Markdown text, or one `.odinq` query (a `@hosts <name> [options]` header line, then the query). */
  source: string;
  /** One line about the last run ("312 hosts · 4 credits · sha256 1a2b3c4d…"): never rows. */
  summary?: string;
}

export interface NotebookFile {
  version: number;
  /** `{{name}}` placeholders' values (a run may override them: `--param ip=…`). */
  params: Record<string, string>;
  /** Credits a run may spend before each further cell asks first (undefined: no limit). */
  budget?: number;
  cells: NotebookCell[];
}

/** The most a notebook file holds (a notebook of queries is small; a bigger file is not one of ours). */
export const MAX_NOTEBOOK_BYTES = 1_000_000;
/** A summary line is one line, bounded. */
const MAX_SUMMARY = 200;
const PARAM_NAME = /^[A-Za-z_][\w-]{0,63}$/;

export class NotebookFormatError extends Error {
  override readonly name = 'NotebookFormatError';
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a `.odinnb` text strictly; an empty text is an empty notebook (a new file). */
export function parseNotebook(text: string): NotebookFile {
  if (text.trim() === '') return { version: NOTEBOOK_VERSION, params: {}, cells: [] };
  if (text.length > MAX_NOTEBOOK_BYTES)
    throw new NotebookFormatError(l10n.t('The notebook file is larger than {0} bytes.', MAX_NOTEBOOK_BYTES));
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new NotebookFormatError(
      l10n.t('The notebook file is not JSON: {0}', e instanceof Error ? e.message : String(e)),
    );
  }
  if (!isObj(raw)) throw new NotebookFormatError(l10n.t('The notebook file is not a JSON object.'));
  if (raw.version !== NOTEBOOK_VERSION)
    throw new NotebookFormatError(
      l10n.t(
        'Unknown notebook version {0} (this extension reads version {1}).',
        String(raw.version),
        NOTEBOOK_VERSION,
      ),
    );
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  if (raw.params !== undefined) {
    if (!isObj(raw.params)) throw new NotebookFormatError(l10n.t('"params" must be an object of strings.'));
    for (const [k, v] of Object.entries(raw.params)) {
      if (!PARAM_NAME.test(k) || typeof v !== 'string')
        throw new NotebookFormatError(
          l10n.t('Parameter "{0}" must have a plain name and a string value.', k),
        );
      params[k] = v;
    }
  }
  let budget: number | undefined;
  if (raw.budget !== undefined) {
    if (typeof raw.budget !== 'number' || !Number.isInteger(raw.budget) || raw.budget < 0)
      throw new NotebookFormatError(l10n.t('"budget" must be a whole number of credits.'));
    budget = raw.budget;
  }
  if (!Array.isArray(raw.cells)) throw new NotebookFormatError(l10n.t('"cells" must be a list.'));
  const cells = raw.cells.map((c, i): NotebookCell => {
    if (!isObj(c) || (c.kind !== 'markdown' && c.kind !== 'query') || typeof c.source !== 'string')
      throw new NotebookFormatError(
        l10n.t('Cell {0} needs a kind ("markdown" or "query") and a source.', i + 1),
      );
    const summary = typeof c.summary === 'string' && c.summary.trim() ? oneLine(c.summary) : undefined;
    return { kind: c.kind, source: c.source, ...(summary ? { summary } : {}) };
  });
  return {
    version: NOTEBOOK_VERSION,
    params: { ...params },
    ...(budget !== undefined ? { budget } : {}),
    cells,
  };
}

/** A summary as one bounded line. */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_SUMMARY ? `${line.slice(0, MAX_SUMMARY - 1)}…` : line;
}

/** The file's text: stable key order, two-space indent, a final newline (small, clean diffs). */
export function serializeNotebook(nb: NotebookFile): string {
  const out = {
    version: NOTEBOOK_VERSION,
    params: Object.fromEntries(Object.entries(nb.params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    ...(nb.budget !== undefined ? { budget: nb.budget } : {}),
    cells: nb.cells.map((c) => ({
      kind: c.kind,
      source: c.source,
      ...(c.summary ? { summary: oneLine(c.summary) } : {}),
    })),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
