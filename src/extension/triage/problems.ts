import * as vscode from 'vscode';
import { cachedAnswer, findingMessage, infraFindings, isInfraFile } from '../../core/triage';
import type { Ctx } from '../ctx';

export const PROBLEM_SOURCE = 'ODIN';
export const PROBLEM_CODE = 'vulnerable-host';

/**
 * Opt-in Problems-panel entries (setting `odin.triage.problems`): a warning on each vulnerable
 * host that an open infrastructure file (Terraform, Kubernetes or Compose YAML, nginx,
 * Ansible) names, read from the lookup cache only (never a request of its own), with a quick
 * fix "Open details". Refreshed as those files change and when the cache fills (a triage,
 * a hover).
 */
export class InfraProblems implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('odin');
  private readonly subs: vscode.Disposable[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** The canonical IP of each entry, by document and range: the message is in the user's language. */
  private readonly ips = new Map<string, Array<{ range: vscode.Range; ip: string }>>();

  constructor(private readonly ctx: Ctx) {
    this.subs.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.collection.delete(d.uri);
        this.ips.delete(d.uri.toString());
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('odin')) {
          this.refreshAll();
        }
      }),
      ctx.onDidChangeConnection(() => this.refreshAll()),
      vscode.languages.registerCodeActionsProvider(
        { scheme: '*' },
        new OpenDetailsFix(
          (uri, range) => this.ips.get(uri.toString())?.find((e) => e.range.isEqual(range))?.ip,
        ),
        {
          providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
        },
      ),
    );
    this.refreshAll();
  }

  refreshAll(): void {
    for (const d of vscode.workspace.textDocuments) this.schedule(d, 0);
  }

  private schedule(doc: vscode.TextDocument, ms = 300): void {
    if (!isInfraFile(doc.uri.path, doc.languageId)) return;
    const key = doc.uri.toString();
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.update(doc);
      }, ms),
    );
  }

  /** Sets the entries of one document now (tests call it). */
  update(doc: vscode.TextDocument): vscode.Diagnostic[] {
    if (doc.isClosed || !isInfraFile(doc.uri.path, doc.languageId)) return [];
    const findings = infraFindings(
      doc.getText(),
      (v) => this.ctx.gate.privacy(v).decision.allowed,
      (ip) => cachedAnswer(this.ctx.requests, 'host', ip, Date.now(), this.ctx.feeds.store),
    );
    const ips: Array<{ range: vscode.Range; ip: string }> = [];
    const list = findings.map((f) => {
      const range = new vscode.Range(doc.positionAt(f.start), doc.positionAt(f.end));
      ips.push({ range, ip: f.value });
      const d = new vscode.Diagnostic(range, findingMessage(f), vscode.DiagnosticSeverity.Warning);
      d.source = PROBLEM_SOURCE;
      d.code = PROBLEM_CODE;
      return d;
    });
    this.collection.set(doc.uri, list);
    this.ips.set(doc.uri.toString(), ips);
    return list;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const s of this.subs.splice(0)) s.dispose();
  }
}

/** "Open details" on an ODIN problem: the host page of the IP under the diagnostic. */
class OpenDetailsFix implements vscode.CodeActionProvider {
  constructor(private readonly ipAt: (uri: vscode.Uri, range: vscode.Range) => string | undefined) {}

  provideCodeActions(
    doc: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const out: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      if (d.source !== PROBLEM_SOURCE || d.code !== PROBLEM_CODE) continue;
      // The canonical value the entry was made for (the text under the range may be written
      // otherwise, and the message is in the user's language).
      const ip = this.ipAt(doc.uri, d.range) ?? doc.getText(d.range);
      const a = new vscode.CodeAction(
        vscode.l10n.t('Open details of {0}', ip),
        vscode.CodeActionKind.QuickFix,
      );
      a.diagnostics = [d];
      a.isPreferred = true;
      // The command validates its argument and runs the gate as an explicit action.
      a.command = { command: 'odin.openHostDetails', title: vscode.l10n.t('Open details'), arguments: [ip] };
      out.push(a);
    }
    return out;
  }
}
