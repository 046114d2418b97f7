import * as vscode from 'vscode';
import type { CreditsUsage } from '../../api/types';
import { CREDITS_REFRESH_MS, CreditsSchedule, isLow } from '../../core/triage/credits';
import type { Ctx } from '../ctx';
import { fmt } from '../../core/text/numbers';

/** How long the item may lag the ledger: it renders at most once in this time. */
const CREDITS_RENDER_MS = 1000;

/**
 * The session's credits in the status bar: spent / budget / balance. Spent and budget are
 * the window's ledger (every surface charges it); the balance is read from
 * `/v1/credits/usage` after spending (a lookup, a triage) at most once a minute, and on
 * click. Nothing is asked before the first lookup of the session. Warns (colour, one message
 * per session) when the balance runs low or the budget is spent. Hidden without a key, and
 * after the API or key changes until something is spent again.
 */
export class CreditsStatus implements vscode.Disposable {
  /** The item (the affordance test runs its command, through the test API). */
  readonly item: vscode.StatusBarItem;
  private readonly subs: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly schedule: CreditsSchedule;
  private warned = false;
  private inFlight: Promise<void> | undefined;
  /** The last answer (tests read it). */
  last: CreditsUsage | undefined;

  /** `sentBefore`: requests sent when the API or key last changed before it was made (0: none). */
  constructor(
    private readonly ctx: Ctx,
    sentBefore = ctx.requestsSent(),
  ) {
    this.item = vscode.window.createStatusBarItem('odin.credits', vscode.StatusBarAlignment.Right, 99);
    this.item.name = vscode.l10n.t('ODIN Credits');
    this.item.command = 'odin.refreshCredits';
    this.schedule = new CreditsSchedule(sentBefore);
    this.subs.push(
      ctx.onDidChangeConnection(() => {
        this.last = undefined;
        this.warned = false;
        this.schedule.reset(ctx.requestsSent());
        this.item.hide();
      }),
    );
    this.subs.push(ctx.onDidChangeLedger(() => this.renderSoon()));
    this.timer = setInterval(() => void this.maybeRefresh(), CREDITS_REFRESH_MS / 4);
    this.timer.unref?.();
  }

  /** After spending: refresh unless it was done less than a minute ago. */
  async maybeRefresh(): Promise<void> {
    if (this.schedule.due(this.ctx.requestsSent())) await this.refresh();
  }

  /** Reads the credits now (the click, a triage preview that read them anyway). */
  refresh(): Promise<void> {
    // Reading credits is a request too: none when lookups are off, nor from Restricted Mode
    // before the user confirmed sending this session.
    if ('refusal' in this.ctx.gate.mayRun({ trigger: 'explicit', consent: 'session' }))
      return Promise.resolve();
    if (!this.ctx.keys.get()) {
      this.item.hide();
      return Promise.resolve();
    }
    this.inFlight ??= (async () => {
      this.schedule.reading(this.ctx.requestsSent());
      try {
        this.show(await this.ctx.readCredits({ signal: AbortSignal.timeout(10_000) }));
      } catch (err) {
        // l10n: English, for the log
        this.ctx.log.info(`Credits not read: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }

  show(usage: CreditsUsage): void {
    this.last = usage;
    this.render();
  }

  private renderTimer: NodeJS.Timeout | undefined;
  /**
   * The ledger changes as a request leaves: the item follows within a second, once for all the
   * requests of that second (a run of hovers, a triage's enrichment). Each render is a message
   * to the workbench and a repaint of the status bar; on the next turn (as it was) it landed
   * while the request that charged was still being sent, and the repaint while its answer was
   * on the way: a cold hover waited for both (measured in the hover bench: docs/benchmarks.md).
   */
  renderSoon(): void {
    this.renderTimer ??= setTimeout(() => {
      this.renderTimer = undefined;
      this.render();
    }, CREDITS_RENDER_MS);
  }

  /** The item from the ledger (spent, budget) and the last balance read. */
  private render(): void {
    const usage = this.last;
    const ledger = this.ctx.ledger;
    const raw = usage?.hostCert?.left;
    const left = typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined;
    if ((left === undefined && ledger.spent === 0) || !this.ctx.keys.get()) {
      this.item.hide();
      return;
    }
    const plan = usage?.hostCert?.plan;
    const budgetSpent = ledger.budget !== undefined && ledger.left === 0;
    const low = (left !== undefined && isLow(left, plan)) || budgetSpent;
    // spent / budget · balance: one number for what this window spent, everywhere it is shown.
    const spent =
      ledger.budget !== undefined ? `${fmt(ledger.spent)}/${fmt(ledger.budget)}` : fmt(ledger.spent);
    this.item.text = `$(${low ? 'warning' : 'credit-card'}) ${spent}${left !== undefined ? ` · ${fmt(left)}` : ''}`;
    const lines = [
      ledger.budget !== undefined
        ? vscode.l10n.t(
            'Spent this session: {0} of a budget of {1} credits ({2} requests)',
            fmt(ledger.spent),
            fmt(ledger.budget),
            fmt(ledger.requests),
          )
        : vscode.l10n.t(
            'Spent this session: {0} credits ({1} requests); no session budget',
            fmt(ledger.spent),
            fmt(ledger.requests),
          ),
    ];
    if (left !== undefined)
      lines.push(
        plan
          ? vscode.l10n.t('ODIN credits left: {0} of {1} (hosts and certificates)', fmt(left), fmt(plan))
          : vscode.l10n.t('ODIN credits left: {0} (hosts and certificates)', fmt(left)),
      );
    const b = usage?.bucketFile;
    if (typeof b?.left === 'number')
      lines.push(
        b.plan
          ? vscode.l10n.t('Buckets and files: {0} of {1}', fmt(b.left), fmt(b.plan))
          : vscode.l10n.t('Buckets and files: {0}', fmt(b.left)),
      );
    if (usage?.expiresOn) lines.push(vscode.l10n.t('Plan expires {0}', String(usage.expiresOn).slice(0, 10)));
    lines.push(vscode.l10n.t('Click to refresh.'));
    this.item.tooltip = lines.join('\n');
    // Each assignment schedules an update of the item: only what changed (the colour rarely does).
    const background = low ? 'statusBarItem.warningBackground' : undefined;
    if (this.item.backgroundColor?.id !== background)
      this.item.backgroundColor = background ? new vscode.ThemeColor(background) : undefined;
    this.item.show();
    if (low && !this.warned) {
      this.warned = true;
      void vscode.window.showWarningMessage(
        left !== undefined && isLow(left, plan)
          ? vscode.l10n.t('ODIN: {0} credits left.', fmt(left))
          : vscode.l10n.t(
              'ODIN: the session budget of {0} credits is spent; nothing more is sent.',
              fmt(ledger.budget ?? 0),
            ),
      );
    }
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.renderTimer) clearTimeout(this.renderTimer);
    for (const s of this.subs) s.dispose();
    this.item.dispose();
  }
}

/**
 * The credits item, made when it first has something to show: the window's first charge (a
 * ledger change) or the user asking for the balance (`odin.refreshCredits`). Until then it
 * would be a hidden item and a timer with nothing to read; what it would have heard before
 * (the requests sent at the last change of API or key) is kept for it.
 */
export function creditsStatusOnDemand(ctx: Ctx): () => CreditsStatus {
  let made: CreditsStatus | undefined;
  let sentBefore = 0;
  const until = [
    ctx.onDidChangeConnection(() => (sentBefore = ctx.requestsSent())),
    ctx.onDidChangeLedger(() => get().renderSoon()),
  ];
  ctx.subscriptions.add({ dispose: () => until.forEach((d) => d.dispose()) });
  const get = (): CreditsStatus => {
    if (!made) {
      until.forEach((d) => d.dispose());
      made = ctx.subscriptions.add(new CreditsStatus(ctx, sentBefore));
    }
    return made;
  };
  return get;
}
