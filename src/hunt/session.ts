/**
 * The runner's session: the one client, request layer, gate and budget a run sends through,
 * and the one place requests are charged. Everything that builds or spends a session is here,
 * so that moving to a shared credit ledger later is a change to this file alone.
 *
 * Plain Node: no `vscode` import.
 */
import { OdinClient } from '../api/client';
import { Gate } from '../core/gate';
import { RequestBudget } from '../core/requests/budget';
import { ResultCache } from '../core/requests/cache';
import { Limiter } from '../core/requests/limiter';
import { RequestLayer } from '../core/requests/layer';
import { gateTargets, searchVia, type Answers, type CatalogueKind, type SpecOf } from '../core/search';
import type { PageRequest } from '../core/search/catalogue';

declare const ODIN_VERSION: string | undefined;
export const VERSION = typeof ODIN_VERSION === 'string' ? ODIN_VERSION : '0.0.0';

const HOUR = 3_600_000;

export interface SessionOptions {
  /** The checked base URL. */
  baseUrl: string;
  key: string;
  /** Requests the whole run may send; undefined: no limit. */
  budget?: number;
  /** Operator's allow and deny entries (environment), and the committed file's deny entries. */
  allow: readonly string[];
  deny: readonly string[];
  configDeny: readonly string[];
  log: (line: string) => void;
}

/** Why a request was not sent: the run's budget or the hunt's cap is used up. */
export class NotSentError extends Error {
  override readonly name = 'NotSentError';
  constructor(
    readonly limit: 'budget' | 'cap',
    message: string,
  ) {
    super(message);
  }
}

/** A hunt's own allowance within the run (its cap from the committed file). */
export class HuntAllowance {
  spent = 0;
  constructor(readonly cap: number | undefined) {}
  get left(): number {
    return this.cap === undefined ? Infinity : Math.max(0, this.cap - this.spent);
  }
}

export class HuntSession {
  readonly gate: Gate;
  private readonly requests: RequestLayer;
  private readonly client: OdinClient;
  private readonly budget: RequestBudget | undefined;

  constructor(readonly opts: SessionOptions) {
    this.client = new OdinClient({
      baseUrl: opts.baseUrl,
      apiKey: () => opts.key,
      timeoutMs: 60_000,
      userAgent: `odin-hunt/${VERSION}`,
      log: (level, msg) => {
        if (level === 'warn' || level === 'error') opts.log(`${level}: ${msg}`);
      },
    });
    const origin = new URL(opts.baseUrl).origin;
    // One run, one process: the cache lives in memory and keeps a count from being asked
    // twice within the run (pages are read once per distinct query: run.ts).
    this.requests = new RequestLayer({
      cache: new ResultCache({
        ttlMs: { host: 24 * HOUR, whois: 24 * HOUR, count: 24 * HOUR, notFound: HOUR },
        maxEntries: 5000,
        maxBytes: 8 * 1024 * 1024,
      }),
      limiter: new Limiter({ perMinute: 600, maxConcurrent: 2 }),
      origin: () => origin,
      ttlClassOf: (kind) => (kind.toLowerCase().includes('count') ? 'count' : 'host'),
    });
    // The editor's gate with its rules and messages: a run is the operator's explicit action.
    this.gate = new Gate({
      mode: 'onCommand',
      trusted: true,
      userAllow: opts.allow,
      userDeny: opts.deny,
      workspaceDeny: opts.configDeny,
    });
    this.budget = opts.budget === undefined ? undefined : new RequestBudget(opts.budget);
  }

  /** Requests that reached the service (or were on their way). */
  get sent(): number {
    return this.requests.sent;
  }

  /** Requests the run may still send (Infinity without a budget). */
  get left(): number {
    return this.budget ? this.budget.left : Infinity;
  }

  get agreed(): number | undefined {
    return this.budget?.agreed;
  }

  /** Why the gate refuses what `spec` would send, or undefined. */
  refusal(spec: SpecOf<CatalogueKind>): string | undefined {
    return this.gate.search(gateTargets(spec));
  }

  /**
   * One request of the catalogue, through the request layer: a count or a page, cached for the
   * run. Refused before anything is sent when the run's budget or the hunt's cap is used up.
   */
  async ask<K extends CatalogueKind>(
    spec: SpecOf<K>,
    hunt: HuntAllowance,
    page?: PageRequest,
    signal?: AbortSignal,
    /** A page read once and not kept (a count is kept for the run: small, and asked again). */
    fresh = false,
  ): Promise<Answers[K]> {
    const why = this.refusal(spec);
    // l10n: English, a programming error: the runner asks the gate before it plans a hunt
    if (why !== undefined) throw new Error(`refused by the gate: ${why}`);
    if (this.budget && this.budget.left === 0)
      throw new NotSentError('budget', `the run's budget of ${this.budget.agreed} requests is used up`);
    if (hunt.left === 0)
      throw new NotSentError('cap', `the hunt's cap of ${String(hunt.cap)} requests is used up`);
    const before = this.requests.sent;
    try {
      const r = await searchVia({ client: () => this.client, requests: this.requests }, spec, {
        automatic: false,
        fresh,
        ...(page ? { page } : {}),
        ...(signal ? { signal } : {}),
        ...(this.budget ? { budget: this.budget } : {}),
      });
      // l10n: English, for the log
      if (r.status !== 'ok') throw new Error('the service said "not found" for a search');
      return r.value;
    } finally {
      hunt.spent += this.requests.sent - before;
    }
  }

  dispose(): void {
    this.requests.dispose();
  }
}
