/**
 * The chart page: a summary's buckets as a bar chart (with its table), a page of the webview
 * kit (src/extension/webviewKit/). It knows nothing of result sets: its owner hands it a
 * `ChartSource` (charts/commands.ts builds one from a summary) and runs what a
 * bar asks for through the source, so the narrowing is the tree's own command. "Save as
 * SVG" and "Save as PNG" check what the page sends (exportFiles.ts) before a dialog writes it.
 */
import * as vscode from 'vscode';
import { chartBars, type ChartBucket } from '../../common/charts/bars';
import { fromChart, type ChartView, type FromChart, type ToChart } from '../../common/charts/protocol';
import { isTimeField, timeHistogram } from '../../common/charts/timeHistogram';
import type { Ctx } from '../ctx';
import { saveExport } from './exportFiles';
import { WebviewPage, type PageMessageOf, type PageSpec } from '../webviewKit/page';

export const CHART_VIEW_TYPE = 'odin.chartView';

const CHART_PAGE: PageSpec<FromChart, ToChart> = {
  page: 'chart',
  title: vscode.l10n.t('ODIN Chart'),
  script: 'chart-view.js',
  fromPage: fromChart,
  dataTypes: ['chart', 'empty'],
  rasterises: true,
};

/** What a chart draws and what its bars do. */
export interface ChartSource {
  /** The page's id among charts (a result set's id). */
  id: string;
  title: string;
  query: string;
  field: string;
  buckets: readonly ChartBucket[];
  sumOther: number;
  notes: readonly string[];
  /** Whether the source can still narrow (false once its result set is gone). */
  narrowable(): boolean;
  /** Narrows the search by the value of `buckets[bucket]`. */
  narrow(bucket: number): Promise<void>;
  /** The file name a saved SVG is offered under (without extension). */
  fileName: string;
}

export class ChartPage implements vscode.Disposable {
  private generation = 0;
  private readonly page: WebviewPage<FromChart, ToChart>;

  static open(ctx: Ctx, source: ChartSource, onDispose: () => void): ChartPage {
    const panel = WebviewPage.createPanel(ctx, CHART_VIEW_TYPE, source.title);
    return new ChartPage(ctx, panel, source, onDispose);
  }

  private constructor(
    private readonly ctx: Ctx,
    readonly panel: vscode.WebviewPanel,
    private readonly source: ChartSource,
    onDispose: () => void,
  ) {
    this.page = new WebviewPage(ctx, panel, CHART_PAGE, source.id, {
      onReady: () => this.postChart(),
      onMessage: (m) => this.onMessage(m),
      onDispose,
    });
  }

  /** The view model the page gets (also what the unit and host tests check). */
  view(): ChartView {
    const s = this.source;
    // A time field draws a histogram over time (its bins span many values: no narrowing by a bar).
    const time = isTimeField(s.field) ? timeHistogram(s.buckets, s.sumOther) : undefined;
    const bars = time ? time.bars : chartBars(s.buckets, s.sumOther);
    const timeNotes = time
      ? [
          time.from
            ? vscode.l10n.t(
                'A histogram over time by {0}, {1} to {2}, oldest first.',
                time.unit,
                time.from,
                time.to ?? '',
              )
            : vscode.l10n.t('A histogram over time by {0}, oldest first.', time.unit),
          ...(time.unparsed
            ? [vscode.l10n.t('{0} counted under values that are not dates ("Not a date").', time.unparsed)]
            : []),
        ]
      : [];
    return {
      title: s.title,
      query: s.query,
      field: s.field,
      bars,
      total: bars.reduce((n, b) => n + b.count, 0),
      narrowable: time ? false : s.narrowable(),
      notes: [...timeNotes, ...s.notes],
      ...(time ? { histogram: time.unit } : {}),
    };
  }

  private postChart(): void {
    this.generation++;
    this.page.post({ type: 'chart', generation: this.generation, chart: this.view() });
  }

  reveal(): void {
    this.page.reveal();
  }

  private async onMessage(m: PageMessageOf<FromChart>): Promise<void> {
    switch (m.type) {
      case 'narrow':
        // A bar of an older generation may point at another bucket: ignored (a histogram's never narrow).
        if (m.generation !== this.generation || m.bucket >= this.source.buckets.length) return;
        if (isTimeField(this.source.field)) return;
        if (!this.source.narrowable()) {
          void vscode.window.showInformationMessage(
            vscode.l10n.t(
              'ODIN: this summary is no longer in the results view; run it again to narrow from it.',
            ),
          );
          return;
        }
        await this.source.narrow(m.bucket);
        return;
      case 'saveSvg':
      case 'savePng':
        await saveExport(this.ctx, m, 'chart', this.source.fileName);
        return;
    }
  }

  dispose(): void {
    this.page.dispose();
  }
}
