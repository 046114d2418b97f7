/**
 * The map renderer (no library): the world's countries as SVG paths projected once
 * (world.generated.ts: Natural Earth 1:110m, simplified to fit the package budget), the hosts as clustered
 * circles over them, or the countries shaded by a summary's counts. Every label is scan data
 * and enters the document only as `textContent` of a `<title>` or as an `aria-label`
 * attribute, never as markup. Colours come from the theme through CSS classes
 * (media/details.css). It takes the document it builds in, so the bench can run it in plain
 * Node with a light stand-in (scripts/bench/map.mjs).
 */
import type { MapCluster, MapHost, MapView } from '../../common/map/protocol';
import { moveFocus } from './keys';
import { WORLD, WORLD_SCALE } from './world.generated';
import { l10n } from '../../core/text/l10n';
import { visibleTitle } from '../dom';
import { fmt } from '../../core/text/numbers';

const NS = 'http://www.w3.org/2000/svg';
/** What of the world is drawn (degrees): Antarctica is left out (by the generator), the Arctic cut at 85°N. */
const TOP = 85;
const BOTTOM = -62;

export type SvgDoc = Pick<Document, 'createElementNS'>;

export const project = (lat: number, lon: number): [number, number] => [
  (lon + 180) * WORLD_SCALE,
  (90 - lat) * WORLD_SCALE,
];

/** A cluster's radius in map units: grows with the log of its size. */
export const radius = (n: number): number => (1.4 + 0.6 * Math.log2(Math.max(1, n))) * WORLD_SCALE;

/** "203.0.113.7 (web.example.com), Acme Corp, Berlin DE: Vulnerable" (text only). */
export function hostLabel(h: MapHost): string {
  const place = [h.city, h.country].filter(Boolean).join(' ');
  return [h.hostname ? `${h.ip} (${h.hostname})` : h.ip, h.org, place].filter(Boolean).join(', ');
}

export function clusterLabel(
  c: MapCluster,
  hosts: readonly MapHost[],
  levelText: (l: string) => string,
): string {
  const first = hosts[c.hosts[0]!]!;
  if (c.hosts.length === 1) return `${hostLabel(first)}: ${levelText(first.level)}`;
  const place = [first.city, first.country].filter(Boolean).join(' ');
  return place
    ? l10n.t(
        '{0} hosts near {1}, worst {2}; opens {3}',
        fmt(c.hosts.length),
        place,
        levelText(c.level),
        first.ip,
      )
    : l10n.t('{0} hosts, worst {1}; opens {2}', fmt(c.hosts.length), levelText(c.level), first.ip);
}

export interface DrawOptions {
  width: number;
  /** The map's accessible name. */
  title: string;
  levelText: (level: string) => string;
  /** A country's name from its code (the page asks the browser: Intl.DisplayNames). */
  countryName: (code: string) => string;
  /** A cluster was activated (click, Enter or Space): opens its first (worst) host. */
  onActivate?: (cluster: MapCluster) => void;
}

/** The map as one `<svg>`; each cluster a focusable circle when it opens a host. */
export function drawMap(doc: SvgDoc, view: MapView, opts: DrawOptions): SVGSVGElement {
  const el = <K extends keyof SVGElementTagNameMap>(
    tag: K,
    attrs: Record<string, string | number>,
    text?: string,
  ): SVGElementTagNameMap[K] => {
    const e = doc.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, String(attrs[k]));
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const top = (90 - TOP) * WORLD_SCALE;
  const w = 360 * WORLD_SCALE;
  const hUnits = (TOP - BOTTOM) * WORLD_SCALE;
  const width = Math.max(360, Math.floor(opts.width));
  const height = Math.round((width * hUnits) / w);
  const svg = el('svg', {
    xmlns: NS,
    class: `world-map ${view.mode}`,
    width,
    height,
    viewBox: `0 ${top} ${w} ${hUnits}`,
    role: 'group',
    'aria-label': opts.title,
  });
  svg.appendChild(el('rect', { class: 'sea', x: 0, y: top, width: w, height: hUnits }));

  const shades = new Map(view.countries.map((c) => [c.code, c]));
  const land = el('g', { class: 'land' });
  for (const [code, d] of WORLD) {
    const shade = view.mode === 'countries' ? shades.get(code) : undefined;
    const path = el('path', { class: `country${shade ? ` shade-${shade.shade}` : ''}`, d });
    if (view.mode === 'countries') {
      const name = opts.countryName(code);
      path.appendChild(el('title', {}, shade ? `${name} (${code}): ${fmt(shade.count)}` : name));
    }
    land.appendChild(path);
  }
  svg.appendChild(land);

  if (view.mode === 'points') {
    const points = el('g', { class: 'points' });
    const active = opts.onActivate !== undefined;
    /** The circles in list order (worst first), for the arrow keys (keys.ts). */
    const circles: SVGCircleElement[] = [];
    // Worst clusters last, so they are drawn on top.
    for (let i = view.clusters.length - 1; i >= 0; i--) {
      const c = view.clusters[i]!;
      const [x, y] = project(c.lat, c.lon);
      // Bidi and zero-width characters of scan data are shown (as in the table), not obeyed.
      const label = visibleTitle(clusterLabel(c, view.hosts, opts.levelText));
      const circle = el('circle', {
        class: `point level-${c.level}${c.hosts.length > 1 ? ' cluster' : ''}`,
        cx: x.toFixed(1),
        cy: y.toFixed(1),
        r: radius(c.hosts.length).toFixed(1),
        'data-cluster': i,
        'aria-label': label,
        ...(active ? { tabindex: 0, role: 'button' } : { role: 'img' }),
      });
      circle.appendChild(el('title', {}, label));
      points.appendChild(circle);
      circles[i] = circle;
    }
    if (active) {
      const clusterOf = (t: EventTarget | null): MapCluster | undefined => {
        const i = Number((t as Element | null)?.getAttribute?.('data-cluster') ?? NaN);
        return Number.isInteger(i) ? view.clusters[i] : undefined;
      };
      points.addEventListener('click', (e) => {
        const c = clusterOf(e.target);
        if (c) opts.onActivate?.(c);
      });
      points.addEventListener('keydown', (e) => {
        const k = (e as KeyboardEvent).key;
        if (moveFocus(circles, e.target, k)) {
          e.preventDefault();
          return;
        }
        if (k !== 'Enter' && k !== ' ') return;
        const c = clusterOf(e.target);
        if (!c) return;
        e.preventDefault();
        opts.onActivate?.(c);
      });
    }
    svg.appendChild(points);
  }
  return svg;
}
