/**
 * Reading untrusted JSON: `parseJson` drops the keys `__proto__`, `constructor` and
 * `prototype` wherever they are, and the typed readers below turn a value of the wrong type
 * into `undefined` (never into a default), so every normaliser drops what it cannot hold.
 */
export type Obj = Record<string, unknown>;

export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Text that may hold a forbidden key: the names themselves, or any `\u` escape (`"\u005f_proto__"`). */
const MAY_HOLD_FORBIDDEN = /__proto__|constructor|prototype|\\u/;

/**
 * `JSON.parse` that drops `__proto__` / `constructor` / `prototype` keys wherever they are.
 * `JSON.parse` itself only ever makes them own data properties; they are removed after the
 * parse by one walk, and only when the text may hold one. (A reviver does the same at a
 * function call per value: 7 times the cost of the parse on a 16 MiB answer of small objects.)
 */
export function parseJson(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  if (MAY_HOLD_FORBIDDEN.test(text)) dropForbiddenKeys(value);
  return value;
}

/**
 * `parseJson` in two tasks: the parse, then (after `between`, a turn of the event loop) the
 * search for forbidden keys and their removal. The value leaves only after both. For big
 * bodies: on an 8 MB page the parse takes about 25 ms and the search 13 ms.
 */
export async function parseJsonInTurns(text: string, between: () => Promise<void>): Promise<unknown> {
  const value = JSON.parse(text) as unknown;
  await between();
  if (MAY_HOLD_FORBIDDEN.test(text)) dropForbiddenKeys(value);
  return value;
}

function dropForbiddenKeys(root: unknown): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const x of v as unknown[]) if (x !== null && typeof x === 'object') stack.push(x);
      continue;
    }
    const o = v as Obj;
    for (const k of Object.keys(o)) {
      if (FORBIDDEN_KEYS.has(k)) delete o[k];
      else if (o[k] !== null && typeof o[k] === 'object') stack.push(o[k]);
    }
  }
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

export function mapList<T>(v: unknown, f: (x: unknown) => T | undefined, max = Infinity): T[] {
  const out: T[] = [];
  for (const x of list(v)) {
    if (out.length >= max) break;
    const y = f(x);
    if (y !== undefined) out.push(y);
  }
  return out;
}

/**
 * Bounded work per answer: an answer under the size cap can still list 900,000 services; a
 * host keeps at most this many items of any list (services, CVEs of a service, names, tags),
 * and says how many it left out.
 */
export const MAX_LIST_ITEMS = 1000;

/** Most values (objects, arrays, strings, numbers) kept of one host's protocol modules. */
export const MAX_MODULE_VALUES = 100_000;

/**
 * Most CVE entries kept of one host, over all its services: 560,000 CVEs spread over 560
 * services fit the size cap and held 220 MB after normalising (1.1 s of work on every hover).
 */
export const MAX_HOST_CVES = 5 * MAX_LIST_ITEMS;

/**
 * What normalising one answer may still copy: `left` module values, `cves` CVE entries (when
 * counted); `cut` says something was left out.
 */
export interface CopyBudget {
  left: number;
  cves?: number;
  cut: boolean;
  /** CVE entries were left unread. */
  cvesCut?: boolean;
}

/**
 * A copy of `o` without the keys whose value is `undefined`, so records compare and serialise
 * cleanly. A copy, not `delete`: deleting turns an object into a hash table ("dictionary
 * mode") that holds several times the memory of an ordinary one, in every cached record.
 */
export function compact<T extends object>(o: T): T {
  const out = {} as T;
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/**
 * Deep copy of free-form JSON (service modules) that skips the forbidden keys. With a budget,
 * copies at most `budget.left` values and marks the budget `cut` when it leaves some out.
 */
export function safeCopy(
  v: unknown,
  depth = 0,
  budget: CopyBudget = { left: Infinity, cut: false },
): unknown {
  if (depth > 64) return undefined;
  if (budget.left <= 0) {
    budget.cut = true;
    return undefined;
  }
  budget.left--;
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (const x of v as unknown[]) {
      if (budget.left <= 0) {
        budget.cut = true;
        break;
      }
      out.push(safeCopy(x, depth + 1, budget));
    }
    return out;
  }
  if (isObj(v)) {
    const out: Obj = {};
    for (const k of Object.keys(v)) {
      if (FORBIDDEN_KEYS.has(k)) continue;
      if (budget.left <= 0) {
        budget.cut = true;
        break;
      }
      out[k] = safeCopy(v[k], depth + 1, budget);
    }
    return out;
  }
  return v;
}
