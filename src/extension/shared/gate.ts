import * as vscode from 'vscode';
import {
  Gate,
  type BlockCode,
  type GateRequest,
  type GateSource,
  type LookupsMode,
  type Target,
  type Trigger,
  type Verdict,
} from '../../core/gate';
import type { PolicyDecision } from '../../core/privacy';
import { neutraliseUiText } from '../../core/text/inert';
import { config } from './config';
import { RUN_CONFIG_FILE } from '../../core/ci/runConfig';

/** Why nothing may be sent: the code, and one sentence naming the value and why. */
export interface Refusal {
  code: BlockCode;
  /** "10.0.0.7 is Private-Use (RFC 1918): not sent to ODIN." (core/gate `Verdict.message`). */
  message: string;
  /** The short reason alone ("Lookups are off (setting odin.lookups.mode), so nothing was sent."). */
  reason: string;
  /** The canonical value, when the input parsed. */
  target?: Target;
  /** The privacy decision, when the input parsed (a card shows "Private-Use (RFC 1918)"). */
  privacy?: PolicyDecision;
}

/** The gate's answer for one request: the canonical target to send, or why not. */
export type Decision = { target: Target; privacy: PolicyDecision } | { refusal: Refusal };

/** What asks the gate: the trigger, where the value came from, which kinds the request takes. */
export interface DecideOptions {
  trigger: Trigger;
  source: GateSource;
  accept?: GateRequest['accept'];
  /**
   * Explicit triggers in Restricted Mode: `ask` (default) asks the user once a session;
   * `session`: sends only if the user already confirmed this session, never asks (a credits
   * refresh); `given`: the user confirmed this very request in its own dialog (the triage
   * preview); `none`: nothing is sent from Restricted Mode (a triage's local check).
   */
  consent?: 'ask' | 'session' | 'given' | 'none';
  /** Explicit triggers: do not tell the user why it was refused (the caller shows it). */
  quiet?: boolean;
}

/** For requests that name no value (credits, the key test, a field catalogue, a next page). */
export type RunDecision = { ok: true } | { refusal: Refusal };

/** What is answered at once: nothing to ask the user. */
type Sync = { trigger: 'automatic' } | { trigger: 'explicit'; consent: 'session' | 'given' | 'none' };

/**
 * The VS Code side of the one gate (src/core/gate): the settings and workspace trust it
 * decides on, and what an explicit request does with its verdict (a message, the Restricted
 * Mode confirmation). `Ctx` owns the one `SessionGate` of the window (`ctx.gate`).
 *
 * Every request that leaves the machine and names a value asks `ctx.gate.decide(value,
 * { trigger, source, accept })` once and sends the `target` it returns, never the value it
 * was given; one that names no value asks `ctx.gate.mayRun({ trigger })`. An automatic
 * trigger (a hover, a restored page) is answered at once; an explicit one (a command, a
 * click) returns a promise: in Restricted Mode it asks the user once a session, and on a
 * refusal it tells the user why (unless `quiet`).
 *
 * `trusted()` and `mode()` are for display (the status bar, Restricted Mode wording); they
 * and this gate are the only readers of trust and the lookups mode outside config.ts.
 */
export class SessionGate implements vscode.Disposable {
  private cached: Gate | undefined;
  private restrictedConsent = false;
  private readonly subs: vscode.Disposable[];
  private readonly changed = new vscode.EventEmitter<void>();
  /**
   * Fires after what the gate decides on may have changed (an `odin.*` setting, workspace
   * trust). For state kept outside this window's gate (the MCP server's policy file).
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
      // The committed odin-hunt.json adds deny entries (config.privacyDeny).
      ...(() => {
        const w = vscode.workspace.createFileSystemWatcher(`**/${RUN_CONFIG_FILE}`);
        const again = (): void => {
          this.cached = undefined;
          this.changed.fire();
        };
        return [w, w.onDidChange(again), w.onDidCreate(again), w.onDidDelete(again)];
      })(),
      this.changed,
    ];
  }

  /**
   * The core gate for the current settings and trust: for the agent tools and the MCP
   * policy file (`settings`), and for searches (`Gate.search` / `Gate.query` on query text).
   */
  current(): Gate {
    const cached = this.cached;
    const trusted = config.workspaceTrusted();
    if (cached && cached.settings.trusted === trusted) return cached;
    const deny = config.privacyDeny();
    return (this.cached = new Gate({
      mode: config.lookupMode(),
      trusted,
      userAllow: config.privacyAllow(),
      userDeny: deny.user,
      workspaceDeny: deny.workspace,
    }));
  }

  /** Workspace trust, for display (status bar, wording). */
  trusted(): boolean {
    return this.current().settings.trusted;
  }

  /** The lookups mode, for display (status bar, wording). */
  mode(): LookupsMode {
    return this.current().settings.mode;
  }

  /**
   * The privacy decision alone (lists and registries), whatever the mode and trust: for
   * what is shown before anything is sent (a list of indicators, a triage preview,
   * decorations over cached answers). Never the ask for a request: that is `decide`.
   */
  privacy(value: unknown): { target?: Target; decision: PolicyDecision } {
    return this.current().privacy(value);
  }

  /** May this request, which names `value`, be sent? The target is what to send. */
  decide(value: unknown, opts: DecideOptions & Sync): Decision;
  decide(value: unknown, opts: DecideOptions): Decision | Promise<Decision>;
  decide(value: unknown, opts: DecideOptions): Decision | Promise<Decision> {
    const req = { trigger: opts.trigger, source: opts.source, accept: opts.accept };
    const first = this.current().decide(value, { ...req, consented: this.consented(opts) });
    if (opts.trigger === 'automatic' || (opts.consent ?? 'ask') !== 'ask') return toDecision(first);
    return (async () => {
      let v: Verdict = first;
      if (!v.send && v.code === 'needs-consent' && v.target) {
        if (await this.confirmRestricted(v.target.value))
          v = this.current().decide(value, { ...req, consented: true });
      }
      if (!v.send && !opts.quiet && v.code !== 'needs-consent') explainBlock(v);
      return toDecision(v);
    })();
  }

  /** May a request that names no value be sent (credits, key test, catalogues, a next page)? */
  mayRun(opts: Pick<DecideOptions, 'quiet' | 'consent'> & Sync): RunDecision;
  mayRun(opts: Pick<DecideOptions, 'trigger' | 'quiet' | 'consent'>): RunDecision | Promise<RunDecision>;
  mayRun(opts: Pick<DecideOptions, 'trigger' | 'quiet' | 'consent'>): RunDecision | Promise<RunDecision> {
    const run = (consented: boolean): RunDecision => {
      const r = this.current().mayRun({ trigger: opts.trigger, consented });
      return r.ok ? r : { refusal: { code: r.code, message: r.message, reason: r.reason } };
    };
    const first = run(this.consented(opts));
    if (opts.trigger === 'automatic' || (opts.consent ?? 'ask') !== 'ask') return first;
    return (async () => {
      let r = first;
      if ('refusal' in r && r.refusal.code === 'needs-consent') {
        if (await this.confirmRestricted(vscode.l10n.t('this request'))) r = run(true);
      }
      if ('refusal' in r && !opts.quiet && r.refusal.code !== 'needs-consent') explainBlock(r.refusal);
      return r;
    })();
  }

  /** Asks once a session whether an explicit request may be sent from Restricted Mode. */
  async confirmRestricted(what: string): Promise<boolean> {
    if (this.hasRestrictedConsent()) return true;
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Send {0} to ODIN?', neutraliseUiText(what, 120)),
      {
        modal: true,
        detail: vscode.l10n.t(
          'This workspace is in Restricted Mode, so ODIN sends nothing by itself. You will not be asked again in this session.',
        ),
      },
      send(),
    );
    if (choice !== send()) return false;
    this.restrictedConsent = true;
    return true;
  }

  /** Trusted, or the user confirmed sending from Restricted Mode this session. */
  hasRestrictedConsent(): boolean {
    return this.trusted() || this.restrictedConsent;
  }

  private consented(opts: Pick<DecideOptions, 'trigger' | 'consent'>): boolean {
    if (opts.trigger !== 'explicit') return false;
    const consent = opts.consent ?? 'ask';
    return (
      consent === 'given' || ((consent === 'ask' || consent === 'session') && this.hasRestrictedConsent())
    );
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
  }
}

const send = (): string => vscode.l10n.t('Send to ODIN');

function toDecision(v: Verdict): Decision {
  if (v.send) return { target: v.target, privacy: { allowed: true, reason: v.reason, source: v.source } };
  return {
    refusal: { code: v.code, message: v.message, reason: v.reason, target: v.target, privacy: v.privacy },
  };
}

/** Tells the user why nothing was sent (with a way to the setting when it is the mode). Not awaited. */
function explainBlock(r: Pick<Refusal, 'code' | 'message'>): void {
  if (r.code === 'off') {
    // The command returns at once; the button works while the message stays.
    void vscode.window
      .showInformationMessage(
        vscode.l10n.t('ODIN: {0}', neutraliseUiText(r.message, 300)),
        vscode.l10n.t('Open Setting'),
      )
      .then((choice) =>
        choice
          ? vscode.commands.executeCommand('workbench.action.openSettings', 'odin.lookups.mode')
          : undefined,
      );
    return;
  }
  const show = r.code === 'invalid' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void show(`ODIN: ${neutraliseUiText(r.message, 300)}`);
}
