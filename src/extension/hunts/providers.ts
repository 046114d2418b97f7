import * as vscode from 'vscode';
import {
  ACTIONS,
  completeAt,
  hoverAt,
  HOVER_MARKDOWN_OPTIONS,
  type HuntAction,
  type HuntKind,
  type HuntQuery,
} from '../../core/hunts';
import { neutraliseUiText } from '../../core/text/inert';
import type { Ctx } from '../ctx';
import { hasSnapshot } from './baseline';
import type { Catalogues } from './catalogues';
import { range, type HuntDocuments } from './documents';
import { HUNT_LANGUAGE } from './ids';

const SELECTOR: vscode.DocumentSelector = [{ language: HUNT_LANGUAGE }, { language: 'markdown' }];

/** A query's CodeLens title and tooltip for an action. */
function actionWords(action: HuntAction, name: string): { title: string; tooltip: string } {
  switch (action) {
    case 'run':
      return { title: vscode.l10n.t('$(play) Run'), tooltip: vscode.l10n.t('Run "{0}"', name) };
    case 'count':
      return { title: vscode.l10n.t('$(symbol-number) Count'), tooltip: vscode.l10n.t('Count "{0}"', name) };
    case 'summarize':
      return {
        title: vscode.l10n.t('$(graph) Summarize by\u2026'),
        tooltip: vscode.l10n.t('Summarize "{0}"', name),
      };
  }
}

/** A query's lenses: Run / Count / Summarize as its kind allows, Save, and Baseline… for CI's hosts. */
function queryLenses(ctx: Ctx, doc: vscode.TextDocument, q: HuntQuery, kind: HuntKind): vscode.CodeLens[] {
  const at = range(doc, q.headerStart, q.headerStart);
  if (!ctx.gate.trusted()) {
    return [
      new vscode.CodeLens(at, {
        title: vscode.l10n.t('$(shield) Restricted Mode: trust this folder to run'),
        command: 'workbench.trust.manage',
      }),
    ];
  }
  const lenses: vscode.CodeLens[] = [];
  const args = [doc.uri.toString(), q.index];
  for (const action of ACTIONS[kind]) {
    const words = actionWords(action, neutraliseUiText(q.name, 80));
    lenses.push(
      new vscode.CodeLens(at, {
        title: words.title,
        command:
          action === 'run' ? 'odin.runHunt' : action === 'count' ? 'odin.countHunt' : 'odin.summarizeHunt',
        arguments: args,
        tooltip: words.tooltip,
      }),
    );
  }
  lenses.push(
    new vscode.CodeLens(at, {
      title: vscode.l10n.t('$(save) Save'),
      command: 'odin.saveHunt',
      arguments: args,
    }),
  );
  // Offered where CI's findings are at hand: a committed snapshot names them.
  if (kind === 'hosts' && hasSnapshot(doc))
    lenses.push(
      new vscode.CodeLens(at, {
        title: vscode.l10n.t('$(pass) Baseline\u2026'),
        command: 'odin.addFindingToBaseline',
        arguments: args,
        tooltip: vscode.l10n.t('Add a finding of this hunt to the baseline, with a reason and an expiry'),
      }),
    );
  return lenses;
}

const COMPLETION_KINDS: Record<string, vscode.CompletionItemKind> = {
  field: vscode.CompletionItemKind.Field,
  value: vscode.CompletionItemKind.Value,
  operator: vscode.CompletionItemKind.Operator,
  option: vscode.CompletionItemKind.Property,
};

/** A completion of the hunt language as VS Code's item; a field or option asks for the next one. */
function completionItem(
  doc: vscode.TextDocument,
  c: ReturnType<typeof completeAt>[number],
): vscode.CompletionItem {
  const item = new vscode.CompletionItem(
    c.label,
    COMPLETION_KINDS[c.kind] ?? vscode.CompletionItemKind.Keyword,
  );
  item.insertText = c.insertText;
  item.range = range(doc, c.start, c.end);
  if (c.detail) item.detail = c.detail;
  if (c.sortText) item.sortText = c.sortText;
  if (c.locked) item.label = { label: c.label, description: vscode.l10n.t('$(lock) plan') };
  if (c.kind === 'field' || c.kind === 'option')
    item.command = { title: 'suggest', command: 'editor.action.triggerSuggest' };
  return item;
}

function registerCompletion(ctx: Ctx, docs: HuntDocuments, catalogues: Catalogues): void {
  ctx.subscriptions.add(
    vscode.languages.registerCompletionItemProvider(
      SELECTOR,
      {
        provideCompletionItems(doc, position, token) {
          const file = docs.parse(doc);
          const offset = doc.offsetAt(position);
          if (doc.languageId === 'markdown' && !docs.inQuery(file, doc, offset)) return undefined;
          if (token.isCancellationRequested) return undefined;
          const items = completeAt(doc.getText(), file, offset, (k) => catalogues.fields(k));
          return items.map((c) => completionItem(doc, c));
        },
      },
      '@',
      ':',
      '=',
      '.',
      ' ',
    ),
  );
}

function registerHover(ctx: Ctx, docs: HuntDocuments, catalogues: Catalogues): void {
  ctx.subscriptions.add(
    vscode.languages.registerHoverProvider(SELECTOR, {
      provideHover(doc, position, token) {
        const file = docs.parse(doc);
        const offset = doc.offsetAt(position);
        if (!docs.inQuery(file, doc, offset) || token.isCancellationRequested) return undefined;
        const h = hoverAt(doc.getText(), file, offset, (k) => catalogues.fields(k));
        if (!h) return undefined;
        // Field docs and escaped catalogue text: never trusted, no icons, no HTML.
        const md = new vscode.MarkdownString(h.markdown, HOVER_MARKDOWN_OPTIONS.supportThemeIcons);
        md.isTrusted = HOVER_MARKDOWN_OPTIONS.isTrusted;
        md.supportHtml = HOVER_MARKDOWN_OPTIONS.supportHtml;
        return new vscode.Hover(md, range(doc, h.start, h.end));
      },
    }),
  );
}

function registerQuickFixes(ctx: Ctx, docs: HuntDocuments): void {
  ctx.subscriptions.add(
    vscode.languages.registerCodeActionsProvider(
      SELECTOR,
      {
        provideCodeActions(doc, _range, context) {
          const actions: vscode.CodeAction[] = [];
          for (const d of context.diagnostics) {
            const fix = docs.fixFor(d);
            if (!fix) continue;
            const a = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
            a.edit = new vscode.WorkspaceEdit();
            a.edit.replace(doc.uri, range(doc, fix.start, fix.end), fix.text);
            a.diagnostics = [d];
            a.isPreferred = true;
            actions.push(a);
          }
          return actions;
        },
      },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
  );
}

/**
 * The language providers for `.odinq` files and ```odinq fences: a CodeLens per query (Run,
 * Count, Summarize, Save; in Restricted Mode a way to trust the folder instead), completion
 * and hover from the field catalogues, and the quick fixes of the diagnostics.
 */
export function registerHuntProviders(
  ctx: Ctx,
  docs: HuntDocuments,
  catalogues: Catalogues,
  onDidChangeCodeLenses: vscode.Event<void>,
): void {
  ctx.subscriptions.add(
    vscode.languages.registerCodeLensProvider(SELECTOR, {
      onDidChangeCodeLenses,
      provideCodeLenses(doc) {
        return docs.parse(doc).queries.flatMap((q) => (q.kind ? queryLenses(ctx, doc, q, q.kind) : []));
      },
    }),
  );
  registerCompletion(ctx, docs, catalogues);
  registerHover(ctx, docs, catalogues);
  registerQuickFixes(ctx, docs);
}
