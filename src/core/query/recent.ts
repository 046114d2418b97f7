/** Recent queries: most recent first, unique, bounded. Pure helpers over a plain list. */

export const MAX_RECENT = 20;

export function pushRecent(list: readonly string[], query: string, max = MAX_RECENT): string[] {
  const q = query.trim();
  if (!q) return list.slice(0, max);
  return [q, ...list.filter((x) => x !== q)].slice(0, max);
}

/** Reads a stored value defensively (storage can hold anything after a downgrade or damage). */
export function readRecent(stored: unknown, max = MAX_RECENT): string[] {
  if (!Array.isArray(stored)) return [];
  return stored
    .filter((x): x is string => typeof x === 'string' && x.trim() !== '' && x.length <= 4000)
    .slice(0, max);
}
