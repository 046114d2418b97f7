/**
 * Where a host is, for the map: its coordinates read once from what the service answers
 * (numbers, or strings as the live service sends them: `"latitude": "40.7123"`, and
 * `geo_point` as `"40.7123, -74.0068"`), checked for range. A host without usable
 * coordinates is skipped and counted, never placed at 0,0. Pure: no VS Code, no DOM.
 */
import type { HostLocation } from '../../api/types';
import { fmt } from '../text/numbers';

export interface LatLon {
  lat: number;
  lon: number;
}

/** Why a host has no point: nothing given, or something that is not a place on Earth. */
export type NoPoint = 'missing' | 'malformed' | 'outOfRange';

const DECIMAL = /^\s*[-+]?(\d{1,3}(\.\d*)?|\.\d+)\s*$/;

/** A coordinate as a number: a finite number, or a decimal written as a string; else undefined. */
function coordinate(v: unknown): number | undefined | null {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string') return DECIMAL.test(v) ? Number(v) : v.trim() === '' ? undefined : null;
  return null;
}

function inRange(lat: number, lon: number): boolean {
  return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180;
}

/**
 * A host's point: `coordinates` (latitude and longitude, numbers or strings), else
 * `geo_point` ("lat, lon"). Loose input: what the normaliser read, or a raw answer's object.
 */
export function locationPoint(
  location:
    | (Pick<HostLocation, 'geo_point'> & { coordinates?: { latitude?: unknown; longitude?: unknown } })
    | undefined,
): LatLon | NoPoint {
  if (!location) return 'missing';
  const lat = coordinate(location.coordinates?.latitude);
  const lon = coordinate(location.coordinates?.longitude);
  if (typeof lat === 'number' && typeof lon === 'number')
    return inRange(lat, lon) ? { lat, lon } : 'outOfRange';
  const geo = location.geo_point;
  if (typeof geo === 'string' && geo.trim() !== '') {
    const parts = geo.split(',');
    if (parts.length !== 2) return 'malformed';
    const glat = coordinate(parts[0]);
    const glon = coordinate(parts[1]);
    if (typeof glat !== 'number' || typeof glon !== 'number') return 'malformed';
    return inRange(glat, glon) ? { lat: glat, lon: glon } : 'outOfRange';
  }
  if (lat === null || lon === null) return 'malformed';
  if (lat === undefined && lon === undefined) return 'missing';
  return 'malformed';
}

export function isPoint(p: LatLon | NoPoint): p is LatLon {
  return typeof p === 'object';
}

/** "12 hosts without coordinates" (empty when none). */
export function skippedText(skipped: number): string {
  if (skipped <= 0) return '';
  return `${fmt(skipped)} host${skipped === 1 ? '' : 's'} without coordinates`;
}
