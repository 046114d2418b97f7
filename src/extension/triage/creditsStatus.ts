import * as vscode from 'vscode';
import type { CreditsUsage } from '../../api/types';
import { CREDITS_REFRESH_MS, CreditsSchedule, isLow } from '../../core/triage/credits';
import type { Ctx } from '../ctx';

/**
 * The credits left, in the status bar: read from `/v1/credits/usage` after spending (a
 * lookup, a triage) at most once a minute, and on click. Nothing is asked before the first
 * lookup of the session: reading credits is a request too. Warns (colour, one message per
 * session) when they run low. Hidden without a key and after the API or key changes.
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

  constructor(private readonly ctx: Ctx) {
    this.item = vscode.window.createStatusBarItem('odin.credits', vscode.StatusBarAlignment.Right, 99);
    this.item.name = vscode.l10n.t('ODIN Credits');
    this.item.command = 'odin.refreshCredits';
    this.schedule = new CreditsSchedule(ctx.requestsSent());
    this.subs.push(
      ctx.onDidChangeConnection(() => {
        this.last = undefined;
        this.warned = false;
        this.schedule.reset(ctx.requestsSent());
        this.item.hide();
      }),
    );
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
        this.show(await this.ctx.client().getCreditsUsage({ signal: AbortSignal.timeout(10_000) }));
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
    const left = usage.hostCert?.left;
    if (typeof left !== 'number' || !Number.isFinite(left)) {
      this.item.hide();
      return;
    }
    const plan = usage.hostCert?.plan;
    const low = isLow(left, plan);
    this.item.text = `$(${low ? 'warning' : 'credit-card'}) ${left.toLocaleString('en-US')}`;
    const lines = [
      plan
        ? vscode.l10n.t(
            'ODIN credits left: {0} of {1} (hosts and certificates)',
            left.toLocaleString('en-US'),
            plan.toLocaleString('en-US'),
          )
        : vscode.l10n.t('ODIN credits left: {0} (hosts and certificates)', left.toLocaleString('en-US')),
    ];
    const b = usage.bucketFile;
    if (typeof b?.left === 'number')
      lines.push(
        b.plan
          ? vscode.l10n.t(
              'Buckets and files: {0} of {1}',
              b.left.toLocaleString('en-US'),
              b.plan.toLocaleString('en-US'),
            )
          : vscode.l10n.t('Buckets and files: {0}', b.left.toLocaleString('en-US')),
      );
    if (usage.expiresOn) lines.push(vscode.l10n.t('Plan expires {0}', String(usage.expiresOn).slice(0, 10)));
    lines.push(vscode.l10n.t('Click to refresh.'));
    this.item.tooltip = lines.join('\n');
    this.item.backgroundColor = low ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
    if (low && !this.warned) {
      this.warned = true;
      void vscode.window.showWarningMessage(
        vscode.l10n.t('ODIN: {0} credits left.', left.toLocaleString('en-US')),
      );
    }
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    for (const s of this.subs) s.dispose();
    this.item.dispose();
  }
}
