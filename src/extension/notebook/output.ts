/** A cell's run as the renderer's payload: table rows, summary bars, a map view (src/common/notebookOutput.ts). */
import * as vscode from 'vscode';
import { chartBars } from '../../common/charts/bars';
import type { MapView } from '../../common/map/protocol';
import type { NotebookOutput } from '../../common/notebookOutput';
import { clusterHosts, countryShades, isCountryField } from '../../core/map/mapModel';
import { skippedText } from '../../core/map/points';
import type { CellRun } from '../../core/notebook/execute';
import { fmt } from '../../core/text/numbers';

export function outputPayload(run: CellRun, sidecar: string | undefined): NotebookOutput | undefined {
  const d = run.display;
  if (run.status !== 'ok' || !d) return undefined;
  const query = run.query ?? '';
  const caption = vscode.l10n.t(
    '{0} rows · {1} credits · sha256 {2}…',
    fmt(run.rowCount),
    run.spent,
    run.sha256?.slice(0, 12) ?? '',
  );
  const base = { title: query, query, field: d.field ?? '', openable: false, notes: [] as string[] };
  let map: MapView | undefined;
  if (d.view === 'hosts' && d.mapHosts.length > 0)
    map = {
      ...base,
      title: vscode.l10n.t('Hosts of {0} on a map', query),
      mode: 'points',
      hosts: d.mapHosts,
      clusters: clusterHosts(d.mapHosts),
      countries: [],
      total: d.rows.length,
      skippedText: d.unplaced ? skippedText(d.unplaced) : '',
    };
  else if (d.view === 'summary' && isCountryField(d.field)) {
    const shades = countryShades(d.buckets);
    map = {
      ...base,
      title: vscode.l10n.t('{0} by country', query),
      mode: 'countries',
      hosts: [],
      clusters: [],
      countries: shades.countries,
      total: d.buckets.reduce((s, b) => s + b.doc_count, 0),
      skippedText: '',
    };
  }
  return {
    title: query,
    view: d.view,
    columns: [...d.columns],
    rows: d.rows,
    rowCount: run.rowCount,
    ...(run.total !== undefined ? { total: run.total } : {}),
    ...(run.sha256 ? { sha256: run.sha256 } : {}),
    spent: run.spent,
    ...(sidecar ? { sidecar } : {}),
    ...(d.view === 'summary' ? { chart: chartBars(d.buckets, d.sumOther ?? 0) } : {}),
    ...(map ? { map } : {}),
    caption,
  };
}
