/**
 * The map page's view model and messages, compiled by both the extension and the page. The
 * extension posts the hosts (points, clustered) or the countries (a choropleth); the page
 * answers with a host's index in one generation of the map, never an IP, a URL or a command.
 */
import type { CountryShade, MapCluster, MapHost, MapLevel } from '../../core/map/types';
import { withSaves } from '../exportProtocol';
import { index, literal, message, ms, object, text, trusted, union, type Infer } from '../schema';
import { wordsMessage } from '../words';

export type { CountryShade, MapCluster, MapHost, MapLevel };

export interface MapView {
  /** "Hosts of services.port:443 on a map": our words and the query. */
  title: string;
  query: string;
  /** Points of hosts, or a choropleth of a summary by country. */
  mode: 'points' | 'countries';
  hosts: MapHost[];
  clusters: MapCluster[];
  countries: CountryShade[];
  /** The summary's field (choropleth). */
  field: string;
  /** Hosts loaded in the set (points), or everything counted (countries). */
  total: number;
  /** "12 hosts without coordinates", or counts of values that are not country codes. */
  skippedText: string;
  /** Whether a point opens a host page (false: the details page is not available). */
  openable: boolean;
  notes: string[];
}

export const toMap = union(
  object({ type: literal('map'), generation: index, map: trusted<MapView>() }),
  object({ type: literal('empty'), message: text }),
  wordsMessage,
);
export type ToMap = Infer<typeof toMap>;

export function isToMap(raw: unknown): raw is ToMap {
  return toMap(raw) !== undefined;
}

const smallMessages = message(
  union(
    object({ type: literal('ready') }),
    /** First render of a generation: points (clusters) or countries drawn, ms in the page. */
    object({ type: literal('rendered'), generation: index, points: index, countries: index, ms }),
    /** A point was clicked (or Enter on it), or a host's row in the table: open that host's page. */
    object({ type: literal('openHost'), generation: index, host: index }),
  ),
);

export const fromMap = withSaves(smallMessages);
export type FromMap = Infer<typeof fromMap>;
