/**
 * "Open as Chart" on a summary (its node, one of its facet values, or `{ setId }`): the
 * summary's buckets on a chart page (extension/charts/chartView.ts), one page per result
 * set. A bar narrows through `odin.narrowByFacet` with the arguments a facet node gives it.
 */
import * as vscode from 'vscode';
import { ChartPage, type ChartSource } from './chartView';
import { runCommand } from '../shared/runCommand';
import type { Ctx } from '../ctx';
import { setTitle } from '../search/results/resultNodes';
import type { ResultSet } from '../search/results/resultSet';
import type { ResultsProvider } from '../search/results/resultsView';

/** What the chart commands use: the context, the result sets, and how an argument names one. */
export interface ChartParts {
  ctx: Ctx;
  results: Pick<ResultsProvider, 'get'>;
  setOf(arg: unknown): ResultSet | undefined;
}

export class ChartCommands {
  /** The open chart pages, by result-set id. */
  private readonly open = new Map<string, ChartPage>();

  constructor(private readonly f: ChartParts) {}

  async openChart(arg?: unknown): Promise<{ setId: string; bars: number } | undefined> {
    const set = this.f.setOf(arg);
    if (!set || (set.spec.kind !== 'hostSummary' && set.spec.kind !== 'fileSummary')) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('ODIN: only a summary (hosts or exposed files by a field) opens as a chart.'),
      );
      return undefined;
    }
    if (set.status === 'loading' && set.pages === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('ODIN: the summary is still loading.'));
      return undefined;
    }
    const source = this.source(set);
    let page = this.open.get(set.id);
    if (page) page.reveal();
    else {
      page = ChartPage.open(this.f.ctx, source, () => this.open.delete(set.id));
      this.open.set(set.id, page);
    }
    return { setId: set.id, bars: page.view().bars.length };
  }

  private source(set: ResultSet): ChartSource {
    const facets = set.items.flatMap((i) => (i.t === 'facet' ? [i] : []));
    return {
      id: set.id,
      title:
        set.spec.kind === 'fileSummary'
          ? vscode.l10n.t('Exposed files by {0}', set.spec.field ?? '')
          : vscode.l10n.t('Hosts by {0}', set.spec.field ?? ''),
      query: set.spec.query ?? '*',
      field: set.spec.field ?? '',
      buckets: facets.map((i) => i.v),
      sumOther: set.sumOther,
      notes: set.notes,
      fileName: `odin-${setTitle(set)
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .slice(0, 60)}`,
      narrowable: () => this.f.results.get(set.id) !== undefined,
      narrow: async (bucket) => {
        const facet = facets[bucket];
        if (facet) await runCommand('odin.narrowByFacet', set.id, facet.field, facet.v.key);
      },
    };
  }
}
