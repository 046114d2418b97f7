import * as vscode from 'vscode';
import { Gate, type GateRequest, type GateSource, type Target, type Verdict } from '../../core/gate';
import { neutraliseUiText } from '../../core/text/inert';
import { config } from './config';

/**
 * The VS Code side of the one gate (src/core/gate): the settings and workspace trust it
 * decides on, and what an explicit command does with its verdict (a message, the Restricted
 * Mode confirmation). `Ctx` owns the one `SessionGate` of the window (`ctx.gate`); every
 * network entry point asks `ctx.gate.current()` or `ctx.gate.explicit()`.
 *
 * Restricted Mode: nothing is sent by itself (hovers, restored pages, refresh on open). An
 * explicit command sends the one value it names after a modal confirmation, asked once a
 * session; searches send the query the user typed after the same confirmation.
 */
export class SessionGate implements vscode.Disposable {
  private cached: Gate | undefined;
  private restrictedConsent = false;
  private readonly subs: vscode.Disposable[];
  private readonly changed = new vscode.EventEmitter<void>();
  /**
   * Fires after what the gate decides on may have changed (an `odin.*` setting, workspace
   * trust); `current()` then gives the new gate. For state kept outside this window's gate
   * (the MCP server's policy file).
   */
  readonly onDidChange = this.changed.event;

  constructor() {
    // Rebuilds the gate on the next ask: any `odin.*` setting changed, or the workspace was trusted.
    this.subs = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('odin')) return;
        this.cached = undefined;
        this.changed.fire();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.cached = undefined;
        this.changed.fire();
      }),
      this.changed,
    ];
  }

  /** The gate for the current settings and trust. */
  current(): Gate {
    const cached = this.cached;
    if (cached && cached.settings.trusted === vscode.workspace.isTrusted) return cached;
    const deny = config.privacyDeny();
    return (this.cached = new Gate({
      mode: config.lookupMode(),
      trusted: vscode.workspace.isTrusted,
      userAllow: config.privacyAllow(),
      userDeny: deny.user,
      workspaceDeny: deny.workspace,
    }));
  }

  /** Asks once a session whether an explicit request may be sent from Restricted Mode. */
  async confirmRestricted(what: string): Promise<boolean> {
    if (this.hasRestrictedConsent()) return true;
    const choice = await vscode.window.showWarningMessage(
      `Send ${neutraliseUiText(what, 120)} to ODIN?`,
      {
        modal: true,
        detail:
          'This workspace is in Restricted Mode, so ODIN sends nothing by itself. You will not be asked again in this session.',
      },
      SEND,
    );
    if (choice !== SEND) return false;
    this.restrictedConsent = true;
    return true;
  }

  hasRestrictedConsent(): boolean {
    return vscode.workspace.isTrusted || this.restrictedConsent;
  }

  /**
   * The gate for a user action: on "off" or a privacy block it says why (unless `quiet`) and
   * returns undefined; in Restricted Mode it asks first. Returns the canonical target to send.
   */
  async explicit(
    value: unknown,
    opts: { source: GateSource; accept?: GateRequest['accept']; quiet?: boolean },
  ): Promise<Target | undefined> {
    const g = this.current();
    const req = { trigger: 'explicit', source: opts.source, accept: opts.accept } as const;
    let v: Verdict = g.decide(value, { ...req, consented: this.hasRestrictedConsent() });
    if (!v.send && v.code === 'needs-consent' && v.target) {
      if (!(await this.confirmRestricted(v.target.value))) return undefined;
      v = g.decide(value, { ...req, consented: true });
    }
    if (v.send) return v.target;
    if (!opts.quiet) await explainBlock(v);
    return undefined;
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
  }
}

const SEND = 'Send to ODIN';

/** Tells the user why nothing was sent (with a way to the setting when it is the mode). */
async function explainBlock(v: Extract<Verdict, { send: false }>): Promise<void> {
  const what = v.target ? neutraliseUiText(v.target.value, 120) : 'That value';
  if (v.code === 'off') {
    // Not awaited: the command returns at once; the button works while the message stays.
    void vscode.window
      .showInformationMessage(`ODIN: ${v.reason}`, 'Open Setting')
      .then((choice) =>
        choice
          ? vscode.commands.executeCommand('workbench.action.openSettings', 'odin.lookups.mode')
          : undefined,
      );
    return;
  }
  if (v.code === 'invalid') {
    void vscode.window.showWarningMessage(`ODIN: ${neutraliseUiText(v.reason, 200)}`);
    return;
  }
  void vscode.window.showInformationMessage(
    `ODIN: ${what} is not looked up. ${neutraliseUiText(v.reason, 300)}`,
  );
}
