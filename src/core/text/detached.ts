// Its own module, not in inert.ts: dist/extension.js carries inert.ts (activation uses it), and
// a detection worker, which cannot load dist/extension.js, takes detection and this from
// dist/shared.js (src/core/detect/parallel.ts).

/**
 * A copy of `s` that does not keep the string it was cut from alive. V8 keeps a slice of 13
 * characters or more as a view into its parent, so a cache key sliced from a 100 MB document
 * would hold the whole document until evicted. The copy is a plain string, not a view into a
 * copy: the detector compares its cached names to the text character by character, and a
 * view is read through its parent. (A JSON round trip is exact for every string, lone
 * surrogates included.) The detector's caches and the lookup cache store their keys through it.
 */
export function detached(s: string): string {
  return s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
}
