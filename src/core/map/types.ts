/**
 * The map's plain data (core/map/mapModel.ts builds it; the map page draws it): no imports,
 * so the page's bundle takes nothing else of the core.
 */

/** A point's colour, worst first: a CVE in KEV, a CVE, the CVE data unreadable, none. */
export type MapLevel = 'exploited' | 'vulnerable' | 'unknown' | 'clean';
export const LEVELS: readonly MapLevel[] = ['exploited', 'vulnerable', 'unknown', 'clean'];
export const LEVEL_TEXT: Record<MapLevel, string> = {
  exploited: 'Known exploited CVE',
  vulnerable: 'Vulnerable',
  unknown: 'CVEs unknown',
  clean: 'No known CVEs',
};

export interface MapHost {
  ip: string;
  lat: number;
  lon: number;
  level: MapLevel;
  /** Scan data, text only. */
  org: string;
  city: string;
  country: string;
  hostname: string;
}

export interface MapCluster {
  lat: number;
  lon: number;
  /** Indices into the hosts of the view, worst first (the first is the one a click opens). */
  hosts: number[];
  /** The worst level among them. */
  level: MapLevel;
}

/** A country of a choropleth: its ISO 3166-1 alpha-2 code, its count, its shade 1..SHADES. */
export interface CountryShade {
  code: string;
  count: number;
  shade: number;
}

export const SHADES = 5;
