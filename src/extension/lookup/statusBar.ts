import * as vscode from 'vscode';
import { config } from '../shared/config';
import type { Ctx } from '../ctx';

/**
 * One status bar item with the lookup state: `ODIN` (lookups on hover or on command),
 * `ODIN paused` (click to resume), `ODIN off`, or a shield in Restricted Mode. Hidden when
 * no key is set: the welcome view already offers to set one, the status bar does not nag.
 */
export class LookupStatus implements vscode.Disposable {
  /** The item (the affordance test runs its command, through the test API). */
  readonly item: vscode.StatusBarItem;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly ctx: Ctx) {
    this.item = vscode.window.createStatusBarItem('odin.lookupStatus', vscode.StatusBarAlignment.Right, 100);
    this.item.name = vscode.l10n.t('ODIN Lookups');
    // Filled in after activation (to keep it fast): the request layer and the settings it reads are
    // no part of activation, and the key is not known before then anyway (it is hidden until).
    setImmediate(() => this.start());
  }

  private disposed = false;
  private start(): void {
    if (this.disposed) return;
    const ctx = this.ctx;
    const sub = ctx.requests.onDidChangeState(() => this.update());
    this.subs.push(
      { dispose: () => sub.dispose() },
      ctx.onDidChangeConnection(() => this.update()),
      ctx.keys.onDidChange(() => this.update()),
      // Any odin.* setting or workspace trust changed (after the gate re-read them).
      ctx.gate.onDidChange(() => this.update()),
    );
    this.update();
  }

  update(): void {
    const pause = this.ctx.requests.paused;
    const item = this.item;
    item.backgroundColor = undefined;
    if (!this.ctx.keys.get()) {
      item.hide();
      return;
    }
    const api = this.ctx.isDemo() ? vscode.l10n.t('demo data (local emulator)') : this.ctx.origin();
    if (pause) {
      item.text = vscode.l10n.t('$(debug-pause) ODIN paused');
      item.tooltip = vscode.l10n.t(
        'Automatic ODIN lookups are paused: {0}\nCached results are still shown. Click to resume.',
        pause.message,
      );
      item.command = { command: 'odin.resumeLookups', title: vscode.l10n.t('Resume Automatic Lookups') };
      item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      item.accessibilityInformation = { label: vscode.l10n.t('ODIN lookups paused. Activate to resume.') };
    } else if (!this.ctx.gate.trusted()) {
      item.text = vscode.l10n.t('$(shield) ODIN');
      item.tooltip = vscode.l10n.t(
        'Restricted Mode: ODIN hovers show local facts only; nothing is sent without your confirmation.',
      );
      item.command = { command: 'workbench.trust.manage', title: vscode.l10n.t('Manage Workspace Trust') };
      item.accessibilityInformation = {
        label: vscode.l10n.t('ODIN: Restricted Mode, nothing sent on hover'),
      };
    } else {
      const mode = this.ctx.gate.mode();
      const text: Record<typeof mode, string> = {
        onHover: vscode.l10n.t('look up public IPs and domains on hover'),
        onCommand: vscode.l10n.t('look up only on command'),
        off: vscode.l10n.t('off: nothing is sent'),
      };
      item.text = mode === 'off' ? '$(circle-slash) ODIN' : '$(radio-tower) ODIN';
      item.tooltip = config.hoverEnabled()
        ? vscode.l10n.t('ODIN lookups: {0}\nAPI: {1}\nClick to change.', text[mode], api)
        : vscode.l10n.t(
            'ODIN lookups: {0} (hover cards disabled)\nAPI: {1}\nClick to change.',
            text[mode],
            api,
          );
      item.command = {
        command: 'workbench.action.openSettings',
        title: vscode.l10n.t('Lookup Settings'),
        arguments: ['odin.lookups.mode'],
      };
      item.accessibilityInformation = { label: vscode.l10n.t('ODIN lookups: {0}', text[mode]) };
    }
    item.show();
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.subs) s.dispose();
    this.item.dispose();
  }
}
