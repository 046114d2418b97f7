/**
 * The map page: a result set's hosts as points on a world map, or a summary by country as a
 * choropleth (with the table of either), a page of the webview kit
 * (src/extension/webviewKit/). It knows nothing of result sets: its owner hands it a
 * `MapSource` (map/commands.ts builds one) and runs what a point asks for
 * through the source, so a point opens the host page by the tree's own command. "Save as
 * SVG" and "Save as PNG" check what the page sends (charts/exportFiles.ts).
 */
import * as vscode from 'vscode';
import { fromMap, type FromMap, type MapView, type ToMap } from '../../common/map/protocol';
import { saveExport } from '../charts/exportFiles';
import type { Ctx } from '../ctx';
import { WebviewPage, type PageMessageOf, type PageSpec } from '../webviewKit/page';

export const MAP_VIEW_TYPE = 'odin.mapView';

const MAP_PAGE: PageSpec<FromMap, ToMap> = {
  page: 'map',
  title: vscode.l10n.t('ODIN Map'),
  script: 'map-view.js',
  fromPage: fromMap,
  dataTypes: ['map', 'empty'],
  rasterises: true,
};

/** What a map draws and what its points do. */
export interface MapSource {
  /** The page's id among maps (a result set's id). */
  id: string;
  title: string;
  /** The map's data, read when the page (re)loads. */
  view(): MapView;
  /** Opens the host page of `ip` (the tree's command with the tree's arguments). */
  openHost(ip: string): Promise<void>;
  /** The file name a saved image is offered under (without extension). */
  fileName: string;
}

export class MapPage implements vscode.Disposable {
  private generation = 0;
  private shown: MapView | undefined;
  private readonly page: WebviewPage<FromMap, ToMap>;

  static open(ctx: Ctx, source: MapSource, onDispose: () => void): MapPage {
    const panel = WebviewPage.createPanel(ctx, MAP_VIEW_TYPE, source.title);
    return new MapPage(ctx, panel, source, onDispose);
  }

  private constructor(
    private readonly ctx: Ctx,
    readonly panel: vscode.WebviewPanel,
    private readonly source: MapSource,
    onDispose: () => void,
  ) {
    this.page = new WebviewPage(ctx, panel, MAP_PAGE, source.id, {
      onReady: () => this.postMap(),
      onMessage: (m) => this.onMessage(m),
      onDispose,
    });
  }

  /** The view model the page gets (also what the host tests check). */
  view(): MapView {
    return this.source.view();
  }

  private postMap(): void {
    this.generation++;
    this.shown = this.view();
    this.page.post({ type: 'map', generation: this.generation, map: this.shown });
  }

  reveal(): void {
    this.page.reveal();
  }

  private async onMessage(m: PageMessageOf<FromMap>): Promise<void> {
    switch (m.type) {
      case 'openHost': {
        // A point of an older generation may point at another host: ignored.
        const host = m.generation === this.generation ? this.shown?.hosts[m.host] : undefined;
        if (!host || !this.shown?.openable) return;
        await this.source.openHost(host.ip);
        return;
      }
      case 'saveSvg':
      case 'savePng':
        await saveExport(this.ctx, m, 'map', this.source.fileName);
        return;
    }
  }

  dispose(): void {
    this.page.dispose();
  }
}
