/**
 * Reading untrusted JSON: `parseJson` drops the keys `__proto__`, `constructor` and
 * `prototype` wherever they are, and the typed readers below turn a value of the wrong type
 * into `undefined` (never into a default), so every normaliser drops what it cannot hold.
 */
export type Obj = Record<string, unknown>;

export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** `JSON.parse` that drops `__proto__` / `constructor` / `prototype` keys wherever they are. */
export function parseJson(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => (FORBIDDEN_KEYS.has(key) ? undefined : value));
}

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function isEmpty(v: unknown): boolean {
  return (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);
}

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const nonEmpty = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : undefined;
export const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;
export const int = (v: unknown): number | undefined => (Number.isSafeInteger(v) ? (v as number) : undefined);
export const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const strList = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');
/** The non-empty strings of a list. */
export const nonEmptyList = (v: unknown): string[] => strList(v).filter((x) => x !== '');
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});

/** Unset timestamps are `0001-01-01T00:00:00Z` (Go's zero time) on the live service. */
export function time(v: unknown): string | undefined {
  if (typeof v !== 'string' || v === '' || v.startsWith('0001-01-01')) return undefined;
  return v;
}

export function mapList<T>(v: unknown, f: (x: unknown) => T | undefined): T[] {
  const out: T[] = [];
  for (const x of list(v)) {
    const y = f(x);
    if (y !== undefined) out.push(y);
  }
  return out;
}

/** Removes keys whose value is `undefined`, so records compare and serialise cleanly. */
export function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
  return o;
}

/** Deep copy of free-form JSON (service modules) that skips the forbidden keys. */
export function safeCopy(v: unknown, depth = 0): unknown {
  if (depth > 64) return undefined;
  if (Array.isArray(v)) return v.map((x) => safeCopy(x, depth + 1));
  if (isObj(v)) {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) if (!FORBIDDEN_KEYS.has(k)) out[k] = safeCopy(x, depth + 1);
    return out;
  }
  return v;
}
