/** Operations on a list of saved searches: immutable, each returns a new list. */
import { MAX_NAME_LENGTH } from './file';
import { KINDS, type SavedSearch } from '../search/kinds';
import { newId, sameSpec } from './spec';
import { l10n } from '../text/l10n';

/** `base`, or `base (2)`, `base (3)`, ... whichever is not taken. */
export function uniqueName(base: string, taken: Iterable<string>): string {
  const names = new Set(taken);
  if (!names.has(base)) return base;
  const stem = base.replace(/ \(\d+\)$/, '');
  for (let n = 2; ; n++) {
    const candidate = `${stem} (${n})`;
    if (!names.has(candidate)) return candidate;
  }
}

export function nameError(name: string): string | undefined {
  const t = name.trim();
  if (!t) return l10n.t('Give the search a name.');
  if (t.length > MAX_NAME_LENGTH) return l10n.t('At most {0} characters.', MAX_NAME_LENGTH);
  return undefined;
}

export function replaceSearch(
  list: readonly SavedSearch[],
  id: string,
  patch: Partial<Omit<SavedSearch, 'id'>>,
): SavedSearch[] {
  return list.map((s) => (s.id === id ? { ...s, ...patch } : s));
}

export function duplicateSearch(list: readonly SavedSearch[], id: string): SavedSearch[] {
  const i = list.findIndex((s) => s.id === id);
  if (i < 0) return list.slice();
  const src = list[i];
  const copy: SavedSearch = {
    id: newId(),
    name: uniqueName(
      `${src.name} (copy)`,
      list.map((s) => s.name),
    ),
    spec: { ...src.spec },
  };
  return [...list.slice(0, i + 1), copy, ...list.slice(i + 1)];
}

/**
 * Moves an entry up or down among the entries of the same group (the view shows one
 * list per group, so "up" means past the previous entry of that group).
 */
export function moveSearch(list: readonly SavedSearch[], id: string, direction: -1 | 1): SavedSearch[] {
  const i = list.findIndex((s) => s.id === id);
  if (i < 0) return list.slice();
  const group = KINDS[list[i].spec.kind].group;
  let j = i + direction;
  while (j >= 0 && j < list.length && KINDS[list[j].spec.kind].group !== group) j += direction;
  if (j < 0 || j >= list.length) return list.slice();
  const out = list.slice();
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

/** Moves `ids` to just before `targetId` (or to the end when undefined): drag and drop. */
export function moveBefore(
  list: readonly SavedSearch[],
  ids: readonly string[],
  targetId: string | undefined,
): SavedSearch[] {
  const moving = list.filter((s) => ids.includes(s.id));
  if (!moving.length || (targetId && ids.includes(targetId))) return list.slice();
  const rest = list.filter((s) => !ids.includes(s.id));
  const at = targetId ? rest.findIndex((s) => s.id === targetId) : -1;
  if (at < 0) return [...rest, ...moving];
  return [...rest.slice(0, at), ...moving, ...rest.slice(at)];
}

/**
 * Merges imported searches into a list: an import never overwrites. An entry whose id is
 * taken gets a fresh id; a clash of names gets a suffix; an exact duplicate (same name and
 * same spec) is skipped and counted.
 */
export function mergeImported(
  list: readonly SavedSearch[],
  incoming: readonly SavedSearch[],
): { list: SavedSearch[]; added: number; skipped: number } {
  const out = list.slice();
  let added = 0;
  let skipped = 0;
  for (const s of incoming) {
    if (out.some((o) => o.name === s.name && sameSpec(o.spec, s.spec))) {
      skipped++;
      continue;
    }
    const id = out.some((o) => o.id === s.id) ? newId() : s.id;
    out.push({
      id,
      name: uniqueName(
        s.name,
        out.map((o) => o.name),
      ),
      spec: { ...s.spec },
    });
    added++;
  }
  return { list: out, added, skipped };
}
