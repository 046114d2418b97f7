import { blankPlaceholders } from '../../core/notebook/placeholders';
import * as vscode from 'vscode';
import {
  checkQuery,
  parseHuntFile,
  parseMarkdownHunts,
  queryAt,
  queryOffsetToFile,
  type HuntFile,
  type HuntQuery,
  type QueryFix,
} from '../../core/hunts';
import { neutraliseUiText } from '../../core/text/inert';
import type { Catalogues } from './catalogues';
import { HUNT_LANGUAGE } from './ids';

/** A query the service rejected (400), shown on the query until its document changes. */
interface ApiError {
  version: number;
  index: number;
  start: number;
  end: number;
  message: string;
}

/** The range of `doc` from offset `start` to `end` (never backwards). */
export function range(doc: vscode.TextDocument, start: number, end: number): vscode.Range {
  return new vscode.Range(doc.positionAt(start), doc.positionAt(Math.max(start, end)));
}

/**
 * The open `.odinq` files and Markdown documents: their parse (cached per version) and
 * their diagnostics (syntax, fields against the live catalogue, and what the service
 * rejected), checked again 250 ms after an edit, with a quick fix where there is one.
 */
export class HuntDocuments implements vscode.Disposable {
  readonly diagnostics = vscode.languages.createDiagnosticCollection('odin-hunts');
  private readonly parsed = new Map<string, { version: number; file: HuntFile }>();
  private readonly fixes = new WeakMap<vscode.Diagnostic, QueryFix>();
  private readonly apiErrors = new Map<string, ApiError[]>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly subs: vscode.Disposable[];

  constructor(private readonly catalogues: Catalogues) {
    this.subs = [
      this.diagnostics,
      vscode.workspace.onDidOpenTextDocument((doc) => this.validate(doc)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (!this.isHuntDoc(e.document) || e.contentChanges.length === 0) return;
        this.apiErrors.delete(e.document.uri.toString());
        this.schedule(e.document);
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        const key = doc.uri.toString();
        this.parsed.delete(key);
        this.apiErrors.delete(key);
        clearTimeout(this.timers.get(key));
        this.diagnostics.delete(doc.uri);
      }),
      catalogues.onDidLoad(() => this.validateAll()),
      { dispose: () => this.timers.forEach((t) => clearTimeout(t)) },
    ];
  }

  isHuntDoc(doc: vscode.TextDocument): boolean {
    return doc.languageId === HUNT_LANGUAGE || doc.languageId === 'markdown';
  }

  /** The parse of a document (cached per version). */
  parse(doc: vscode.TextDocument): HuntFile {
    const key = doc.uri.toString();
    const hit = this.parsed.get(key);
    if (hit && hit.version === doc.version) return hit.file;
    // A notebook cell's `{{…}}` placeholders are filled when it runs (core/notebook): checked as
    // plain terms of the same length, so offsets stay and a placeholder is no syntax error.
    const text = doc.uri.scheme === 'vscode-notebook-cell' ? blankPlaceholders(doc.getText()) : doc.getText();
    const file = doc.languageId === 'markdown' ? parseMarkdownHunts(text) : parseHuntFile(text);
    this.parsed.set(key, { version: doc.version, file });
    return file;
  }

  /** The query at `offset`; in Markdown, only inside a fence (its body, or its header line). */
  inQuery(file: HuntFile, doc: vscode.TextDocument, offset: number): HuntQuery | undefined {
    const q = queryAt(file, offset);
    if (!q) return undefined;
    if (doc.languageId === 'markdown' && offset > q.bodyEnd) return undefined;
    return q;
  }

  /** The quick fix of a diagnostic this class set, if it has one. */
  fixFor(d: vscode.Diagnostic): QueryFix | undefined {
    return this.fixes.get(d);
  }

  validate(doc: vscode.TextDocument): void {
    if (!this.isHuntDoc(doc)) return;
    const file = this.parse(doc);
    const out: vscode.Diagnostic[] = [];
    const add = (
      r: vscode.Range,
      message: string,
      severity: vscode.DiagnosticSeverity,
      code: string,
      fix?: QueryFix,
    ): void => {
      const d = new vscode.Diagnostic(r, message, severity);
      d.source = 'ODIN';
      d.code = code;
      out.push(d);
      if (fix) this.fixes.set(d, fix);
    };
    for (const p of file.problems) {
      add(
        range(doc, p.start, p.end),
        p.message,
        p.code === 'noName' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error,
        p.code,
        p.fix,
      );
    }
    for (const q of file.queries) {
      if (!q.kind) continue;
      const fields = this.catalogues.live(q.kind);
      for (const d of checkQuery(q.body, q.kind, fields ? { fields } : {})) {
        // An empty query is shown on its header (there is no text to underline).
        const r =
          d.code === 'emptyQuery'
            ? range(doc, q.headerStart, q.headerEnd)
            : range(doc, q.bodyStart + d.start, q.bodyStart + d.end);
        const fix = d.fix
          ? {
              ...d.fix,
              start: d.code === 'emptyQuery' ? q.bodyStart : q.bodyStart + d.fix.start,
              end: d.code === 'emptyQuery' ? q.bodyStart : q.bodyStart + d.fix.end,
              text: d.code === 'emptyQuery' ? `${d.fix.text}\n` : d.fix.text,
            }
          : undefined;
        add(
          r,
          d.message,
          d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
          d.code,
          fix,
        );
      }
    }
    for (const e of this.apiErrors.get(doc.uri.toString()) ?? []) {
      if (e.version === doc.version)
        add(range(doc, e.start, e.end), e.message, vscode.DiagnosticSeverity.Error, 'apiRejected');
    }
    this.diagnostics.set(doc.uri, out);
  }

  validateAll(): void {
    for (const doc of vscode.workspace.textDocuments) this.validate(doc);
  }

  private schedule(doc: vscode.TextDocument): void {
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.validate(doc);
      }, 250),
    );
  }

  /** Shows what the service said about query `q` on it (at the position it names, if any). */
  setApiError(doc: vscode.TextDocument, q: HuntQuery, message: string): void {
    const pos = /position (\d+)|column (\d+)/i.exec(message);
    let start = q.bodyStart;
    let end = q.bodyEnd;
    if (pos) {
      const n = Number(pos[1] ?? Number(pos[2]) - 1);
      start = queryOffsetToFile(q, n);
      end = start + 1;
    } else {
      const first = q.query ? queryOffsetToFile(q, 0) : q.headerStart;
      start = first;
      end = q.query ? queryOffsetToFile(q, q.query.length) : q.headerEnd;
    }
    const key = doc.uri.toString();
    const list = (this.apiErrors.get(key) ?? []).filter((e) => e.index !== q.index);
    list.push({
      version: doc.version,
      index: q.index,
      start,
      end,
      message: vscode.l10n.t('ODIN rejected the query: {0}', neutraliseUiText(message, 300)),
    });
    this.apiErrors.set(key, list);
    this.validate(doc);
  }

  clearApiError(doc: vscode.TextDocument, q: HuntQuery): void {
    const key = doc.uri.toString();
    const list = this.apiErrors.get(key);
    if (!list?.some((e) => e.index === q.index)) return;
    this.apiErrors.set(
      key,
      list.filter((e) => e.index !== q.index),
    );
    this.validate(doc);
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
  }
}
