/**
 * A bounded wait on a promise that goes on without the waiter: a hover waits a few seconds
 * for an answer and then says "not answered yet", while the request itself goes on within
 * its own deadline and fills the cache for the next hover. Pure Node: no `vscode` import.
 */

/** What `withinDeadline` answers when the promise has not settled in time. */
export const NOT_YET: unique symbol = Symbol('not answered yet');

/**
 * `p`'s value (or rejection) if it settles within `ms`, else `NOT_YET`. A later rejection of
 * `p` is swallowed (the caller has moved on), so it never becomes an unhandled rejection.
 * `onEnd` runs once, when the wait ends (settled or timed out): what the waiter linked to
 * the work for the wait's length is undone on the same timer, not on a second one.
 */
export function withinDeadline<T>(
  p: Promise<T>,
  ms: number,
  onEnd?: () => void,
): Promise<T | typeof NOT_YET> {
  p.catch(() => undefined);
  return new Promise((resolve, reject) => {
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      onEnd?.();
    };
    const timer = setTimeout(
      () => {
        end();
        resolve(NOT_YET);
      },
      Math.max(0, ms),
    );
    p.then(
      (v) => {
        end();
        resolve(v);
      },
      (e: unknown) => {
        end();
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
