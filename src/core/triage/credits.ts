// When the credits item reads `/v1/credits/usage`, and when it warns. Pure, with the clock
// injected so that "at most once a minute" is tested without waiting a minute.

/** Checked at most this often; a read is due only when lookups were sent since the last one. */
export const CREDITS_REFRESH_MS = 60_000;
/** Below this share of the plan (or below LOW_ABSOLUTE) the item warns. */
const LOW_SHARE = 0.1;
const LOW_ABSOLUTE = 100;

export function isLow(left: number, plan: number | undefined): boolean {
  return left < LOW_ABSOLUTE || (plan !== undefined && plan > 0 && left / plan < LOW_SHARE);
}

/**
 * Nothing is read before the first lookup of the session (reading credits is a request too);
 * after spending, a read is due once the last one is a minute old. `sent` is the count of
 * requests sent so far (the request layer's counter).
 */
export class CreditsSchedule {
  private seenSent: number;
  private lastRead = Number.NEGATIVE_INFINITY;

  constructor(
    sent: number,
    private readonly now: () => number = Date.now,
    private readonly intervalMs = CREDITS_REFRESH_MS,
  ) {
    this.seenSent = sent;
  }

  /** A read after spending is due: lookups were sent since the last read, a minute ago or more. */
  due(sent: number): boolean {
    return sent !== this.seenSent && this.now() - this.lastRead >= this.intervalMs;
  }

  /** A read starts now (on schedule or on a click). */
  reading(sent: number): void {
    this.seenSent = sent;
    this.lastRead = this.now();
  }

  /** The API or key changed: what was sent before does not count. */
  reset(sent: number): void {
    this.seenSent = sent;
  }
}
