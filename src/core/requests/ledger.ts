/**
 * The session's credit ledger: one per session (a VS Code window, an MCP server process, a
 * command-line run), through which every request of every surface is counted, because the
 * request layer charges it as a request leaves (layer.ts), next to the confirmation's count
 * (budget.ts). A session budget set once (a setting in the window, `ODIN_SESSION_BUDGET`
 * elsewhere) is a ceiling over all of them: a request that would pass it is never sent.
 *
 * A request costs one credit unless its kind is known to be free (the credits check: the
 * service does not charge for it); `requests` counts every request all the same, so the
 * ledger can be held to a server's request log.
 *
 * Pure Node: no `vscode` import.
 */
import { SessionBudgetError } from './budget';

/** What the service last said of the key's credits (`GET /v1/credits/usage`). */
export interface ServiceBalance {
  /** Host credits left (searches, lookups, CVEs). */
  hostLeft: number;
  hostPlan: number;
  /** Bucket and file credits left. */
  bucketLeft: number;
  bucketPlan: number;
  /** When it was read (ms since the epoch). */
  at: number;
}

export interface LedgerSnapshot {
  /** Credits charged by this session. */
  spent: number;
  /** Requests sent by this session (free ones included). */
  requests: number;
  /** The session budget in credits; undefined: none. */
  budget?: number;
  /** Credits the budget still allows; undefined: no budget. */
  left?: number;
  /** The service's balance as last read, if it was. */
  balance?: ServiceBalance;
}

type Listener = (s: LedgerSnapshot) => void;

/** Parses a budget given as text (`ODIN_SESSION_BUDGET`): a non-negative integer, or undefined when unset. */
export function parseBudget(raw: string | undefined): { budget?: number } | { error: string } {
  const t = raw?.trim();
  if (!t) return {};
  if (!/^\d{1,9}$/.test(t))
    return { error: `not a whole number of credits: ${JSON.stringify(t.slice(0, 20))}` };
  return { budget: Number(t) };
}

export class SessionLedger {
  private charged = 0;
  private sentCount = 0;
  private limit: number | undefined;
  private last: ServiceBalance | undefined;
  private readonly listeners = new Set<Listener>();

  constructor(opts: { budget?: number } = {}) {
    this.setBudget(opts.budget);
  }

  get spent(): number {
    return this.charged;
  }

  get requests(): number {
    return this.sentCount;
  }

  get budget(): number | undefined {
    return this.limit;
  }

  /** Credits the budget still allows (undefined: no budget). */
  get left(): number | undefined {
    return this.limit === undefined ? undefined : Math.max(0, this.limit - this.charged);
  }

  get balance(): ServiceBalance | undefined {
    return this.last;
  }

  /** A new session budget (undefined: none). What was spent stays spent. */
  setBudget(budget: number | undefined): void {
    // l10n: English, for the log (a programming error)
    if (budget !== undefined && !(budget >= 0))
      throw new RangeError(`a session budget is a count: ${budget}`);
    this.limit = budget;
    this.changed();
  }

  /** Would `cost` more credits fit the budget? */
  fits(cost: number): boolean {
    return this.limit === undefined || this.charged + cost <= this.limit;
  }

  /** Throws `SessionBudgetError` when `cost` more credits would pass the budget. */
  check(cost = 1): void {
    if (cost > 0 && !this.fits(cost)) throw new SessionBudgetError(this.limit ?? 0, this.charged);
  }

  /** Called by the request layer as a request leaves: checks, then counts it. */
  charge(cost = 1): void {
    this.check(cost);
    this.charged += cost;
    this.sentCount++;
    this.changed();
  }

  /** What the service said of the key's credits. */
  noteBalance(balance: ServiceBalance): void {
    this.last = balance;
    this.changed();
  }

  snapshot(): LedgerSnapshot {
    return {
      spent: this.charged,
      requests: this.sentCount,
      ...(this.limit !== undefined ? { budget: this.limit, left: this.left } : {}),
      ...(this.last ? { balance: { ...this.last } } : {}),
    };
  }

  onDidChange(listener: Listener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private changed(): void {
    const s = this.snapshot();
    for (const l of [...this.listeners]) l(s);
  }
}
