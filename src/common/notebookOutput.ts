/**
 * What a notebook query cell's rich output carries to the notebook renderer
 * (src/webview/notebook/renderer.ts): at most 1,000 table rows, the bars of a summary and
 * the map view, built by the extension (src/extension/notebook/output.ts). Every string in it
 * may be scan data: the renderer writes it as text only. Shared by both sides.
 */
import type { ChartBar } from './charts/bars';
import type { MapView } from './map/protocol';

export const NOTEBOOK_RESULT_MIME = 'application/vnd.odin.notebook-result+json';

export interface NotebookOutput {
  title: string;
  view: 'hosts' | 'summary';
  columns: string[];
  rows: Array<Record<string, string | number>>;
  rowCount: number;
  total?: number;
  sha256?: string;
  spent: number;
  /** The full result, relative to the notebook ("open all"). */
  sidecar?: string;
  chart?: ChartBar[];
  map?: MapView;
  /** The line above the table: "312 rows · 4 credits · sha256 1a2b…" in the user's language. */
  caption: string;
}

/** The payload's shape, checked before drawing (an output may come from an older build). */
export function isNotebookOutput(v: unknown): v is NotebookOutput {
  const o = v as Partial<NotebookOutput> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    (o.view === 'hosts' || o.view === 'summary') &&
    Array.isArray(o.columns) &&
    Array.isArray(o.rows) &&
    typeof o.caption === 'string'
  );
}
