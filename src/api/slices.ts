/**
 * Work over a list in slices that give the event loop a turn between them: a page of 100 hosts
 * (or a Load All of 100 pages) is normalised and compacted without holding the extension host
 * for more than a few milliseconds at a time, so hovers and completions are not kept waiting.
 * Measured by `npm run bench -- --only=loadall` ("longest task"). Pure Node: no `vscode`.
 */

/** How long one slice may run before the next item waits for a turn of the event loop. */
export const SLICE_MS = 8;

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface SliceOptions {
  /** Checked between slices: once aborted, the work stops with `cancelled()`. */
  signal?: AbortSignal;
  /** The caller's own "cancelled" error (the client's typed error, a tree's AbortError). */
  cancelled: () => Error;
  sliceMs?: number;
  /**
   * The list is the caller's to spend (a parsed page): each item is dropped from it once
   * mapped, so it can be collected while it is young instead of being copied by every
   * collection until the whole list is done (those copies were the longest pauses of a
   * Load All).
   */
  spend?: boolean;
}

/**
 * `items.flatMap(fn)` for `fn` returning one value or `undefined` (left out), yielding to the
 * event loop whenever a slice has run `sliceMs`.
 */
export async function mapInSlices<T, U>(
  items: readonly T[],
  fn: (item: T) => U | undefined,
  { signal, cancelled, sliceMs = SLICE_MS, spend = false }: SliceOptions,
): Promise<U[]> {
  const out: U[] = [];
  let start = performance.now();
  for (let i = 0; i < items.length; i++) {
    if (performance.now() - start >= sliceMs) {
      await turn();
      if (signal?.aborted) throw cancelled();
      start = performance.now();
    }
    const item = items[i];
    if (spend) (items as Array<T | undefined>)[i] = undefined;
    const v = fn(item);
    if (v !== undefined) out.push(v);
  }
  return out;
}
