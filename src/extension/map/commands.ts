/**
 * "Show Result Set on Map" on a host search (its node or `{ setId }`): the hosts loaded in
 * the set as points of a map page (extension/map/mapView.ts), one page per result set; a
 * point opens the host page through `odin.openHostDetails` with the arguments a host node of
 * the tree gives it (its IP). "Show on Map" on a summary by country: a choropleth.
 */
import * as vscode from 'vscode';
import type { MapView } from '../../common/map/protocol';
import { clusterHosts, countryShades, mapHosts, mapModeOf } from '../../core/map/mapModel';
import { skippedText } from '../../core/map/points';
import type { Host } from '../../api/types';
import { MapPage, type MapSource } from './mapView';
import type { MapSummary } from '../commands';
import { runCommand } from '../shared/runCommand';
import type { Ctx } from '../ctx';
import { setTitle } from '../search/results/resultNodes';
import type { ResultSet } from '../search/results/resultSet';
import type { ResultsProvider } from '../search/results/resultsView';
import { fmt } from '../../core/text/numbers';

/** What the map commands use: the context, the result sets, and how an argument names one. */
export interface MapParts {
  ctx: Ctx;
  results: Pick<ResultsProvider, 'get' | 'detailsAvailable' | 'exploitation'>;
  setOf(arg: unknown): ResultSet | undefined;
}

export class MapCommands {
  /** The open map pages, by result-set id. */
  private readonly open = new Map<string, MapPage>();

  constructor(private readonly f: MapParts) {}

  async showOnMap(arg?: unknown): Promise<MapSummary | undefined> {
    const set = this.f.setOf(arg);
    const mode = set && mapModeOf(set.spec);
    if (!set || !mode) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'ODIN: a host search, or a host summary by location.country_code or asn.country_code, shows on a map.',
        ),
      );
      return undefined;
    }
    if (set.status === 'loading' && set.pages === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('ODIN: the result set is still loading.'));
      return undefined;
    }
    const source = this.source(set, mode === 'countries');
    let page = this.open.get(set.id);
    if (page) page.reveal();
    else {
      page = MapPage.open(this.f.ctx, source, () => this.open.delete(set.id));
      this.open.set(set.id, page);
    }
    const v = page.view();
    return {
      setId: set.id,
      mode: v.mode,
      shown: v.mode === 'points' ? v.clusters.length : v.countries.length,
      skipped:
        v.mode === 'points'
          ? v.total - v.hosts.length
          : v.total - v.countries.reduce((n, c) => n + c.count, 0),
    };
  }

  private source(set: ResultSet, countries: boolean): MapSource {
    const query = set.spec.query ?? '*';
    return {
      id: set.id,
      title: countries
        ? vscode.l10n.t('Hosts by {0} on a map', set.spec.field ?? '')
        : vscode.l10n.t('Hosts of {0} on a map', query),
      fileName: `odin-map-${setTitle(set)
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .slice(0, 60)}`,
      view: () => (countries ? this.countryView(set, query) : this.pointView(set, query)),
      openHost: async (ip) => {
        await runCommand('odin.openHostDetails', ip);
      },
    };
  }

  private pointView(set: ResultSet, query: string): MapView {
    const hosts: Host[] = set.items.flatMap((i) => (i.t === 'host' ? [i.v] : []));
    const { hosts: placed, skipped } = mapHosts(hosts, this.f.results.exploitation);
    return {
      title: vscode.l10n.t('Hosts of {0} on a map', query),
      query,
      mode: 'points',
      hosts: placed,
      clusters: clusterHosts(placed),
      countries: [],
      field: '',
      total: hosts.length,
      skippedText: skippedText(skipped),
      openable: this.f.results.detailsAvailable,
      notes: set.done
        ? []
        : [vscode.l10n.t('Only the hosts loaded so far are drawn: "Load More" or "Load All" adds the rest.')],
    };
  }

  private countryView(set: ResultSet, query: string): MapView {
    const facets = set.items.flatMap((i) => (i.t === 'facet' ? [i.v] : []));
    const { countries, unplaced } = countryShades(facets);
    const counted = countries.reduce((n, c) => n + c.count, 0);
    const other = unplaced + (set.sumOther > 0 ? set.sumOther : 0);
    return {
      title: vscode.l10n.t('Hosts by {0} on a map', set.spec.field ?? ''),
      query,
      mode: 'countries',
      hosts: [],
      clusters: [],
      countries,
      field: set.spec.field ?? '',
      total: counted + other,
      skippedText:
        other > 0 ? vscode.l10n.t('{0} in values not listed or not a country code', fmt(other)) : '',
      openable: false,
      notes: [...set.notes],
    };
  }
}
