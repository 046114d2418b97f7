/**
 * A result set's hosts as the points of a map, and a summary by country as the shades of a
 * choropleth. Pure: no VS Code, no DOM. Every label (organisations, cities, hostnames) is
 * scan data kept as a plain string; the page puts it in the document as text only.
 *
 * The colour of a point is what the one reader of a host's CVE state says
 * (hosts/vulnerability.ts) and whether a CVE of it is known exploited (exploitation/host.ts);
 * the order of hosts, and so the host a cluster opens, is the one ordering rule
 * (exploitation/order.ts: KEV, then EPSS, then CVSS).
 */
import type { Host } from '../../api/types';
import { hostExploitation, type ExploitationView } from '../exploitation/host';
import { compareRisk, type Risk } from '../exploitation/order';
import { vulnerability } from '../hosts/vulnerability';
import { isPoint, locationPoint } from './points';
import {
  LEVELS,
  LEVEL_TEXT,
  SHADES,
  type CountryShade,
  type MapCluster,
  type MapHost,
  type MapLevel,
} from './types';

export { LEVELS, LEVEL_TEXT, SHADES, type CountryShade, type MapCluster, type MapHost, type MapLevel };

type MapInput = Pick<
  Host,
  'ip' | 'is_vuln' | 'services' | 'cve_unreadable' | 'location' | 'asn' | 'hostnames'
>;

export function hostLevel(host: MapInput, risk: Risk): MapLevel {
  const v = vulnerability(host);
  if (v.state === 'vulnerable') return risk.kev ? 'exploited' : 'vulnerable';
  return v.state;
}

/**
 * The hosts that have a point, worst first by the ordering rule (then by level, then IP),
 * and how many were skipped for want of coordinates.
 */
export function mapHosts(
  hosts: readonly MapInput[],
  x: ExploitationView | undefined,
): { hosts: MapHost[]; skipped: number } {
  let skipped = 0;
  const keyed: Array<{ h: MapHost; risk: Risk }> = [];
  for (const host of hosts) {
    const p = locationPoint(host.location);
    if (!isPoint(p)) {
      skipped++;
      continue;
    }
    const cves = host.services.flatMap((s) => s.cve.map((c) => ({ id: c.id, score: c.score })));
    const risk = hostExploitation(cves, x).risk;
    keyed.push({
      risk,
      h: {
        ip: host.ip,
        lat: p.lat,
        lon: p.lon,
        level: hostLevel(host, risk),
        org: host.asn?.organization ?? '',
        city: host.location?.city ?? '',
        country: host.location?.country_code ?? '',
        hostname: host.hostnames[0]?.name ?? '',
      },
    });
  }
  keyed.sort(
    (a, b) =>
      compareRisk(a.risk, b.risk) ||
      LEVELS.indexOf(a.h.level) - LEVELS.indexOf(b.h.level) ||
      (a.h.ip < b.h.ip ? -1 : a.h.ip > b.h.ip ? 1 : 0),
  );
  return { hosts: keyed.map((k) => k.h), skipped };
}

/** Degrees of one grid cell: points within one cell draw as one cluster. */
export const CLUSTER_CELL_DEGREES = 2.5;

/**
 * Points that overlap as clusters: one per cell of a `cell`-degree grid, at the mean of its
 * points, its hosts in the order given (worst first), its level the worst of theirs.
 * Clusters are returned worst level first, then largest (the page draws them in reverse so
 * the worst are on top).
 */
export function clusterHosts(hosts: readonly MapHost[], cell = CLUSTER_CELL_DEGREES): MapCluster[] {
  const cols = Math.ceil(360 / cell) + 1;
  const cells = new Map<number, { lat: number; lon: number; hosts: number[]; level: number }>();
  hosts.forEach((h, i) => {
    const key = Math.floor((90 - h.lat) / cell) * cols + Math.floor((h.lon + 180) / cell);
    const level = LEVELS.indexOf(h.level);
    const c = cells.get(key);
    if (c) {
      c.lat += h.lat;
      c.lon += h.lon;
      c.hosts.push(i);
      if (level < c.level) c.level = level;
    } else cells.set(key, { lat: h.lat, lon: h.lon, hosts: [i], level });
  });
  return [...cells.values()]
    .map((c) => ({
      lat: c.lat / c.hosts.length,
      lon: c.lon / c.hosts.length,
      hosts: c.hosts,
      level: LEVELS[c.level]!,
    }))
    .sort((a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || b.hosts.length - a.hosts.length);
}

/** Whether a summary's field holds country codes (the choropleth's fields). */
export function isCountryField(field: string | undefined): boolean {
  return field === 'location.country_code' || field === 'asn.country_code';
}

/**
 * What a search shows on a map: a host search its hosts as points, a host summary by a
 * country field its countries as shades; any other search nothing. The one rule for the map
 * commands and for the Results view's menus (the set node's context value).
 */
export function mapModeOf(spec: { kind: string; field?: string }): 'points' | 'countries' | undefined {
  if (spec.kind === 'hosts') return 'points';
  if (spec.kind === 'hostSummary' && isCountryField(spec.field)) return 'countries';
  return undefined;
}

/**
 * A summary by country as shades: each bucket whose key is a two-letter code (upper-cased;
 * codes repeated after that are added up), shaded on a log scale of the largest count so
 * small countries stay visible. Keys that are not codes are counted in `unplaced`.
 */
export function countryShades(
  buckets: ReadonlyArray<{ key: string | number | boolean | null; doc_count: number }>,
): { countries: CountryShade[]; unplaced: number } {
  const counts = new Map<string, number>();
  let unplaced = 0;
  for (const b of buckets) {
    const n = Number.isFinite(b.doc_count) && b.doc_count > 0 ? b.doc_count : 0;
    const code = typeof b.key === 'string' ? b.key.trim().toUpperCase() : '';
    if (/^[A-Z]{2}$/.test(code)) counts.set(code, (counts.get(code) ?? 0) + n);
    else unplaced += n;
  }
  const max = Math.max(0, ...counts.values());
  const countries = [...counts.entries()]
    .map(([code, count]) => ({
      code,
      count,
      shade:
        count > 0 && max > 0 ? Math.max(1, Math.ceil((SHADES * Math.log1p(count)) / Math.log1p(max))) : 0,
    }))
    .sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : 1));
  return { countries, unplaced };
}
