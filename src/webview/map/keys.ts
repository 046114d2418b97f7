/**
 * The arrow keys on the map's points: an arrow moves the focus to the nearest point in that
 * direction, as a person scanning the map expects (up is north); Home and End to the first and
 * last point in list order (worst first, the table's order). Tab still visits every point, and
 * the table (Show Table) reads the same hosts in order for a screen reader. No DOM types here:
 * the unit tests run `nextPoint` in plain Node.
 */

/** A point on the screen (the circle's centre in map units: y grows downwards). */
export interface XY {
  x: number;
  y: number;
}

/** The unit step of each arrow on the screen. */
const ARROWS: Record<string, XY> = {
  ArrowRight: { x: 1, y: 0 },
  ArrowLeft: { x: -1, y: 0 },
  ArrowDown: { x: 0, y: 1 },
  ArrowUp: { x: 0, y: -1 },
};

/**
 * The index of the point that `key` moves to from `from`, or undefined (not a key of ours, or
 * no point that way). An arrow considers the points within 45° either side of its direction
 * and takes the nearest, a step off the line counting twice (so the one straight ahead wins).
 */
export function nextPoint(points: readonly XY[], from: number, key: string): number | undefined {
  if (key === 'Home') return points.length ? 0 : undefined;
  if (key === 'End') return points.length ? points.length - 1 : undefined;
  const o = points[from];
  const dir = ARROWS[key];
  if (!o || !dir) return undefined;
  let best: number | undefined;
  let bestScore = Infinity;
  points.forEach((p, i) => {
    if (i === from) return;
    const dx = p.x - o.x;
    const dy = p.y - o.y;
    const along = dx * dir.x + dy * dir.y;
    const across = Math.abs(dx * dir.y - dy * dir.x);
    if (along <= 0 || across > along) return;
    const score = along * along + 4 * across * across;
    if (score < bestScore) {
      bestScore = score;
      best = i;
    }
  });
  return best;
}

/** What `moveFocus` needs of a point's element (an SVG circle with cx, cy). */
export interface PointElement {
  getAttribute(name: string): string | null;
  focus(): void;
}

/**
 * Moves the focus from `current` among `points` (in list order) for `key`; true when the key
 * was one of ours (the caller then prevents its default: the page must not scroll).
 */
export function moveFocus(points: readonly PointElement[], current: unknown, key: string): boolean {
  if (!(key in ARROWS) && key !== 'Home' && key !== 'End') return false;
  const from = points.indexOf(current as PointElement);
  if (from < 0) return false;
  const xy = points.map((p) => ({ x: Number(p.getAttribute('cx')), y: Number(p.getAttribute('cy')) }));
  const to = nextPoint(xy, from, key);
  if (to !== undefined) points[to]!.focus();
  return true;
}
