/**
 * Work over a list in slices that give the event loop a turn between them: a page of 100 hosts
 * (or a Load All of 100 pages) is normalised and compacted without holding the extension host
 * for more than a few milliseconds at a time, so hovers and completions are not kept waiting.
 * Measured by `npm run bench -- --only=loadall` ("longest task"). Pure Node: no `vscode`.
 */

/** How long one slice may run before the next item waits for a turn of the event loop. */
export const SLICE_MS = 8;

/** A turn of the event loop: what waits runs before the caller goes on. */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface SliceOptions<T = unknown> {
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
  /**
   * An item known to take long (a host with a thousand services): it starts a slice of its
   * own instead of running at the end of one that has already spent its time.
   */
  heavy?: (item: T) => boolean;
}

/** A slice that has run this long (ms) gives the turn before a heavy item. */
const HEAVY_AFTER_MS = 1;

/**
 * `items.flatMap(fn)` for `fn` returning one value or `undefined` (left out), yielding to the
 * event loop whenever a slice has run `sliceMs`.
 */
export async function mapInSlices<T, U>(
  items: readonly T[],
  fn: (item: T) => U | undefined,
  { signal, cancelled, sliceMs = SLICE_MS, spend = false, heavy }: SliceOptions<T>,
): Promise<U[]> {
  const out: U[] = [];
  let start = performance.now();
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as T;
    const spent = performance.now() - start;
    if (spent >= sliceMs || (spent >= HEAVY_AFTER_MS && heavy?.(item) === true)) {
      await turn();
      if (signal?.aborted) throw cancelled();
      start = performance.now();
    }
    if (spend) (items as Array<T | undefined>)[i] = undefined;
    const v = fn(item);
    if (v !== undefined) out.push(v);
  }
  return out;
}
