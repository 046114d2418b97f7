import * as vscode from 'vscode';
import { detectInRange } from '../../core/detect';
import { showInvisibles, truncate } from '../../core/text/inert';
import { cachedAnswer, verdictLine } from '../../core/triage';
import type { Ctx } from '../ctx';

const MARGIN_LINES = 20;
const MAX_PER_EDITOR = 2000;
const TEXT_LANGUAGES = new Set(['log', 'plaintext', 'markdown', 'csv', 'jsonl', 'json']);

/**
 * Opt-in verdicts right after known indicators ("⚠ 3 CVEs · AS14061"), from the lookup cache only:
 * never a request of their own. Visible ranges only, refreshed as the text, the visible
 * ranges or the cache (after a triage or a hover) change. Theme colours.
 */
export class VerdictDecorations implements vscode.Disposable {
  private readonly info = vscode.window.createTextEditorDecorationType({
    after: { color: new vscode.ThemeColor('editorCodeLens.foreground'), margin: '0 1em 0 0.6em' },
  });
  private readonly vulnerable = vscode.window.createTextEditorDecorationType({
    after: { color: new vscode.ThemeColor('editorWarning.foreground'), margin: '0 1em 0 0.6em' },
  });
  private readonly subs: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Decorations last set (tests read it). */
  readonly shown = new Map<string, number>();

  constructor(private readonly ctx: Ctx) {
    this.subs.push(
      vscode.window.onDidChangeVisibleTextEditors(() => this.schedule()),
      vscode.window.onDidChangeTextEditorVisibleRanges(() => this.schedule()),
      vscode.workspace.onDidChangeTextDocument(() => this.schedule()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('odin')) {
          this.schedule();
        }
      }),
      ctx.onDidChangeConnection(() => this.schedule()),
    );
    this.schedule();
  }

  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.update(), 200);
  }

  update(): void {
    this.timer = undefined;
    for (const editor of vscode.window.visibleTextEditors) this.decorate(editor);
  }

  private decorate(editor: vscode.TextEditor): void {
    const doc = editor.document;
    const mode = TEXT_LANGUAGES.has(doc.languageId) ? 'text' : 'code';
    const info: vscode.DecorationOptions[] = [];
    const vuln: vscode.DecorationOptions[] = [];
    const seen = new Set<string>();
    const text = doc.getText();
    for (const r of editor.visibleRanges) {
      const from = doc.offsetAt(new vscode.Position(Math.max(0, r.start.line - MARGIN_LINES), 0));
      const to = doc.offsetAt(doc.lineAt(Math.min(doc.lineCount - 1, r.end.line + MARGIN_LINES)).range.end);
      for (const d of detectInRange(text, from, to, { mode })) {
        if (info.length + vuln.length >= MAX_PER_EDITOR) break;
        const kind = d.kind === 'domain' ? 'domain' : d.kind === 'cidr' ? undefined : 'host';
        if (!kind || !this.ctx.gate.privacy(d.value).decision.allowed) continue;
        const a = cachedAnswer(this.ctx.requests, kind, d.value, Date.now(), this.ctx.feeds.store);
        if (!a?.found) continue;
        const end = doc.positionAt(d.end);
        // Right after the indicator (a log line is often wider than the editor: its end would be
        // off screen); a value repeated on one line gets its verdict once.
        const key = `${end.line}\u0000${d.value}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const line = truncate(showInvisibles(verdictLine(a.verdict)), 80);
        if (!line) continue;
        const opt: vscode.DecorationOptions = {
          range: new vscode.Range(end, end),
          renderOptions: { after: { contentText: line } },
        };
        (a.verdict.kind === 'host' && a.verdict.vulnerable ? vuln : info).push(opt);
      }
    }
    editor.setDecorations(this.info, info);
    editor.setDecorations(this.vulnerable, vuln);
    this.shown.set(doc.uri.toString(), info.length + vuln.length);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subs) s.dispose();
    this.info.dispose();
    this.vulnerable.dispose();
  }
}
