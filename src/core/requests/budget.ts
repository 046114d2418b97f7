/**
 * A request count shown to a person or an agent ("Enrich (3 requests)", "in at most 20
 * requests"), kept as a hard limit where requests are sent: the request layer
 * (`requests.ts`) charges one unit at the moment a request leaves for the service (after
 * the local limiter let it through, so what the limiter refused is never counted) and
 * refuses with `OverBudgetError` once the count is used up. A feature never counts for
 * itself: `spent` is what reached the service.
 *
 * More requests need a new yes (`extend`), e.g. the single lookups that replace a batched
 * search the service refused.
 *
 * Pure Node: no `vscode` import.
 */

import { l10n } from '../text/l10n';

/** A request was refused because the count agreed to is used up; nothing was sent. */
export class OverBudgetError extends Error {
  override readonly name: string = 'OverBudgetError';
  constructor(readonly limit: number) {
    super(
      limit === 1
        ? l10n.t('Over budget: the 1 request agreed to is used up; nothing more was sent.')
        : l10n.t('Over budget: the {0} requests agreed to are used up; nothing more was sent.', limit),
    );
  }
}

/**
 * A request was refused because it would pass the session's budget (ledger.ts), the one
 * ceiling over every surface of a session; nothing was sent. An `OverBudgetError`, so every
 * caller that stops on a used-up confirmation stops here too.
 */
export class SessionBudgetError extends OverBudgetError {
  override readonly name = 'SessionBudgetError';
  constructor(
    limit: number,
    readonly spent: number,
  ) {
    super(limit);
    this.message = l10n.t(
      "Over the session budget: {0} of this session's {1} credits are spent; nothing more was sent.",
      spent,
      limit,
    );
  }
}

export class RequestBudget {
  private used = 0;

  constructor(private limit: number) {
    // l10n: English, for the log (a programming error)
    if (!(limit >= 0)) throw new RangeError(`a request budget is a count: ${String(limit)}`);
  }

  /** Requests sent under this budget (they reached the service, or were on their way). */
  get spent(): number {
    return this.used;
  }

  /** Requests agreed to so far. */
  get agreed(): number {
    return this.limit;
  }

  get left(): number {
    return Math.max(0, this.limit - this.used);
  }

  /** A new yes: `n` more requests may be sent. */
  extend(n: number): void {
    if (n > 0) this.limit += n;
  }

  /** Throws `OverBudgetError` when nothing is left (checked before waiting for the limiter). */
  check(): void {
    if (this.used >= this.limit) throw new OverBudgetError(this.limit);
  }

  /** Called by the request layer as a request is sent: counts it, or throws when none is left. */
  charge(): void {
    this.check();
    this.used++;
  }
}
