/**
 * The pause of automatic lookups: after 401/402/403, or a 429 or 503 whose Retry-After is
 * longer than `pauseAfterRetryMs`, automatic lookups stop until `resume()`, or until the
 * Retry-After time has passed. The request layer (`requests.ts`) consults it; explicit
 * lookups still go through.
 */
import { OdinApiError } from '../../api/errors';
import { l10n } from '../text/l10n';

export type PauseReason = 'auth' | 'quota' | 'forbidden' | 'rateLimited' | 'unavailable';

/** The longest delay `setTimeout` takes (2^31 - 1 ms, 24.8 days); a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

export interface PauseState {
  reason: PauseReason;
  /** Short user text: why lookups are paused and what to do. */
  message: string;
  since: number;
  /** Epoch ms at which the pause ends by itself (rate limit), if it does. */
  until?: number;
}

export interface StateListener {
  (state: PauseState | undefined): void;
}

export interface PauseOptions {
  /** A Retry-After longer than this pauses automatic lookups. Default 5000 ms. */
  pauseAfterRetryMs?: number;
  now?: () => number;
  log?: (level: 'debug' | 'info' | 'warn', message: string) => void;
}

export class LookupPause {
  private pauseState: PauseState | undefined;
  private pauseTimer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<StateListener>();
  private readonly now: () => number;

  constructor(private readonly options: PauseOptions) {
    this.now = options.now ?? Date.now;
  }

  get state(): PauseState | undefined {
    return this.pauseState;
  }

  /** Subscribes to pause/resume changes. */
  onDidChange(listener: StateListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Ends a pause (the resume command, a new key, a new origin). */
  resume(): void {
    if (!this.pauseState) return;
    this.pauseState = undefined;
    if (this.pauseTimer) clearTimeout(this.pauseTimer);
    this.pauseTimer = undefined;
    // l10n: English, for the log
    this.options.log?.('info', 'Automatic lookups resumed.');
    this.emit();
  }

  /** Pauses automatic lookups (also used by tests and by callers that saw an API error). */
  pause(state: Omit<PauseState, 'since'>): void {
    this.pauseState = { ...state, since: this.now() };
    if (this.pauseTimer) clearTimeout(this.pauseTimer);
    this.pauseTimer = undefined;
    if (state.until !== undefined) this.armPauseTimer(state.until);
    // l10n: English, for the log
    this.options.log?.('warn', `Automatic lookups paused: ${state.message}`);
    this.emit();
  }

  /**
   * Ends the pause at `until`. A wait longer than a timer can hold is done in steps, so a
   * Retry-After of 25 days pauses for 25 days, not 1 ms.
   */
  private armPauseTimer(until: number): void {
    const left = until - this.now();
    this.pauseTimer = setTimeout(
      () => {
        if (this.pauseState?.until !== until) return;
        if (this.now() >= until) this.resume();
        else this.armPauseTimer(until);
      },
      Math.min(MAX_TIMER_MS, Math.max(0, left)),
    );
    this.pauseTimer.unref?.();
  }

  /** Looks at an error any API caller got, and pauses when it calls for it. */
  noteError(err: unknown): void {
    if (!(err instanceof OdinApiError)) return;
    if (err.kind === 'auth' || err.kind === 'quota' || err.kind === 'forbidden') {
      this.pause({ reason: err.kind, message: pauseMessage(err.kind) });
    } else if (err.kind === 'rateLimited' || err.kind === 'server') {
      // A 429, or a 503 (maintenance, overload), that asks for a long wait pauses automatic lookups.
      const retry = err.retryAfterMs;
      if (retry !== undefined && retry > (this.options.pauseAfterRetryMs ?? 5000)) {
        // A nonsense Retry-After (years) still ends: the pause is capped at 30 days.
        const until = this.now() + Math.min(retry, 30 * 24 * 3_600_000);
        const reason: PauseReason = err.kind === 'server' ? 'unavailable' : 'rateLimited';
        this.pause({ reason, message: pauseMessage(reason, until), until });
      }
    }
  }

  dispose(): void {
    if (this.pauseTimer) clearTimeout(this.pauseTimer);
    this.pauseTimer = undefined;
    this.listeners.clear();
  }

  private emit(): void {
    for (const l of [...this.listeners]) {
      try {
        l(this.pauseState);
      } catch {
        // A failing listener must not stop the others.
      }
    }
  }
}

export function pauseMessage(reason: PauseReason, until?: number): string {
  switch (reason) {
    case 'auth':
      return l10n.t('ODIN rejected the API key. Set a valid key, then resume.');
    case 'quota':
      return l10n.t('Your ODIN credits are used up. Lookups resume when you resume them.');
    case 'forbidden':
      return l10n.t('ODIN refused access (HTTP 403). Check your plan, then resume.');
    case 'rateLimited':
      if (until === undefined) return l10n.t('ODIN asked to slow down.');
      return sameDay(until)
        ? l10n.t(
            'ODIN asked to slow down; automatic lookups resume at {0}.',
            new Date(until).toLocaleTimeString(),
          )
        : l10n.t(
            'ODIN asked to slow down; automatic lookups resume on {0}.',
            new Date(until).toLocaleString(),
          );
    case 'unavailable':
      if (until === undefined) return l10n.t('ODIN is unavailable for now.');
      return sameDay(until)
        ? l10n.t(
            'ODIN is unavailable for now; automatic lookups resume at {0}.',
            new Date(until).toLocaleTimeString(),
          )
        : l10n.t(
            'ODIN is unavailable for now; automatic lookups resume on {0}.',
            new Date(until).toLocaleString(),
          );
  }
}

/** Is `until` today (the resume time then reads "at 14:05:00", else with its date)? */
function sameDay(until: number): boolean {
  return new Date(until).toDateString() === new Date().toDateString();
}
