import * as vscode from 'vscode';
import { Gate, type GateRequest, type GateSource, type Target, type Verdict } from '../../core/gate';
import { neutraliseUiText } from '../../core/text';
import { config } from './config';

/**
 * The VS Code side of the one gate (src/core/gate): the settings and workspace trust it
 * decides on, and what an explicit command does with its verdict (a message, the Restricted
 * Mode confirmation). Every network entry point asks `gate()` or `gateExplicit()`.
 *
 * Restricted Mode: nothing is sent by itself (hovers, restored pages, refresh on open). An
 * explicit command sends the one value it names after a modal confirmation, asked once a
 * session; searches send the query the user typed after the same confirmation.
 */
let cached: Gate | undefined;

export function gate(): Gate {
  if (cached && cached.settings.trusted === vscode.workspace.isTrusted) return cached;
  const deny = config.privacyDeny();
  cached = new Gate({
    mode: config.lookupMode(),
    trusted: vscode.workspace.isTrusted,
    userAllow: config.privacyAllow(),
    userDeny: deny.user,
    workspaceDeny: deny.workspace,
  });
  return cached;
}

/** Rebuilds the gate on the next ask: any `odin.*` setting changed, or the workspace was trusted. */
export function registerGate(subscriptions: { add<T extends vscode.Disposable>(d: T): T }): void {
  subscriptions.add(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('odin')) cached = undefined;
    }),
  );
  subscriptions.add(vscode.workspace.onDidGrantWorkspaceTrust(() => (cached = undefined)));
}

let restrictedConsent = false;

/** For tests: forget the Restricted Mode confirmation of this session. */
export function resetRestrictedConsent(): void {
  restrictedConsent = false;
}

const SEND = 'Send to ODIN';

/** Asks once a session whether an explicit request may be sent from Restricted Mode. */
export async function confirmRestricted(what: string): Promise<boolean> {
  if (vscode.workspace.isTrusted || restrictedConsent) return true;
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
  restrictedConsent = true;
  return true;
}

export function hasRestrictedConsent(): boolean {
  return vscode.workspace.isTrusted || restrictedConsent;
}

/**
 * The gate for a user action: on "off" or a privacy block it says why (unless `quiet`) and
 * returns undefined; in Restricted Mode it asks first. Returns the canonical target to send.
 */
export async function gateExplicit(
  value: unknown,
  opts: { source: GateSource; accept?: GateRequest['accept']; quiet?: boolean },
): Promise<Target | undefined> {
  const g = gate();
  const req = { trigger: 'explicit', source: opts.source, accept: opts.accept } as const;
  let v: Verdict = g.decide(value, { ...req, consented: hasRestrictedConsent() });
  if (!v.send && v.code === 'needs-consent' && v.target) {
    if (!(await confirmRestricted(v.target.value))) return undefined;
    v = g.decide(value, { ...req, consented: true });
  }
  if (v.send) return v.target;
  if (!opts.quiet) await explainBlock(v);
  return undefined;
}

/** Tells the user why nothing was sent (with a way to the setting when it is the mode). */
export async function explainBlock(v: Extract<Verdict, { send: false }>): Promise<void> {
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
