/**
 * The runner's session: the shared session of a run outside VS Code (`core/requests/session.ts`:
 * one client, cache, limiter, request layer, gate and session ledger, as the MCP server has),
 * plus what only a run has: the hunts' caps. Every request of a run is charged to the ledger
 * by the request layer as it leaves; the run's budget is the ledger's.
 *
 * Plain Node: no `vscode` import.
 */
import { Gate } from '../core/gate';
import { createSession, type Session } from '../core/requests/session';
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
  private readonly session: Session;

  constructor(readonly opts: SessionOptions) {
    this.session = createSession({
      baseUrl: opts.baseUrl,
      apiKey: () => opts.key,
      timeoutMs: 60_000,
      userAgent: `odin-hunt/${VERSION}`,
      ...(opts.budget !== undefined ? { budget: opts.budget } : {}),
      // The editor's gate with its rules and messages: a run is the operator's explicit action.
      gate: {
        mode: 'onCommand',
        trusted: true,
        userAllow: opts.allow,
        userDeny: opts.deny,
        workspaceDeny: opts.configDeny,
      },
      // One run, one process: the cache lives in memory and keeps a count from being asked
      // twice within the run (pages are read once per distinct query: run.ts).
      cache: {
        maxEntries: 5000,
        maxBytes: 8 * 1024 * 1024,
        ttlMs: { host: 24 * HOUR, whois: 24 * HOUR, count: 24 * HOUR, notFound: HOUR },
      },
      limits: { perMinute: 600, maxConcurrent: 2 },
      log: (level, msg) => {
        if (level === 'warn' || level === 'error') opts.log(`${level}: ${msg}`);
      },
    });
    this.gate = this.session.current().gate;
  }

  /** The shared session under the run (a notebook run spends through it too). */
  get shared(): Session {
    return this.session;
  }

  /** Requests that reached the service (or were on their way). */
  get sent(): number {
    return this.session.ledger.requests;
  }

  /** Credits the run may still spend (Infinity without a budget). */
  get left(): number {
    return this.session.ledger.left ?? Infinity;
  }

  get agreed(): number | undefined {
    return this.session.ledger.budget;
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
    const ledger = this.session.ledger;
    if (ledger.left === 0)
      throw new NotSentError('budget', `the run's budget of ${String(ledger.budget)} requests is used up`);
    if (hunt.left === 0)
      throw new NotSentError('cap', `the hunt's cap of ${String(hunt.cap)} requests is used up`);
    const before = ledger.requests;
    try {
      const r = await searchVia(this.session, spec, {
        automatic: false,
        fresh,
        ...(page ? { page } : {}),
        ...(signal ? { signal } : {}),
      });
      // l10n: English, for the log
      if (r.status !== 'ok') throw new Error('the service said "not found" for a search');
      return r.value;
    } finally {
      hunt.spent += ledger.requests - before;
    }
  }

  dispose(): void {
    this.session.dispose();
  }
}
