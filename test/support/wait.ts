/**
 * The tests' one bounded wait, shared by the unit tests (plain Node) and the integration tests
 * (inside VS Code): a test waits for the event or state it needs, never for a time. The bound
 * only fails a test; `npm run lint` refuses `setTimeout` with a time elsewhere in test code.
 * (The UI tests, plain .mjs files, call this one through test/ui/helpers.mjs: waitUntil.)
 */

/** How often a condition is asked again. */
const POLL_MS = 25;

/**
 * Resolves with the first truthy value `check` returns (a throw counts as "not yet"); fails
 * naming `what` once `timeoutMs` has passed.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  timeoutMs = 5000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    // eslint-disable-next-line no-restricted-syntax -- the poll interval of the one bounded wait
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * `promise`, or a failure naming `what` when it has not settled within `timeoutMs`: a bound
 * that only fails (a check that hangs), never a wait a test relies on.
 */
export async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    // eslint-disable-next-line no-restricted-syntax -- the bound of `within`, which only fails
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Lets every callback already queued run: `n` turns of the event loop (setImmediate), no time
 * on purpose. For "nothing happened" checks of code that reacts in the same or the next turn.
 */
export async function turns(n = 5): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
}
