/**
 * Issue 19: hunts as code. Language providers for `.odinq` files and ```odinq fences in
 * Markdown (diagnostics with quick fixes, completion, hover, CodeLens) and the commands the
 * CodeLens runs. The parsing and checking live in src/core/hunts (no VS Code); running goes
 * through the search feature, so results land in the Results view like any search.
 *
 * Running is always a click, and never in Restricted Mode: there a file is read, checked
 * and completed (from the built-in and cached field lists) but not run.
 */
import * as vscode from 'vscode';
import type { OdinClient } from '../../api/client';
import {
  ACTIONS,
  checkQuery,
  completeAt,
  hoverAt,
  huntSubject,
  pageSizeOf,
  parseHuntFile,
  parseMarkdownHunts,
  queryAt,
  queryOffsetToFile,
  specFor,
  type HuntAction,
  type HuntFile,
  type HuntKind,
  type HuntQuery,
  type QueryFix,
} from '../../core/hunts';
import { BUILTIN_FIELDS, type FieldInfo } from '../../core/query';
import type { SearchSpec } from '../../core/savedSearches';
import { neutraliseUiText } from '../../core/text';
type CommandHandler = (...args: any[]) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
import { config } from '../shared/config';
import type { Ctx } from '../ctx';
import type { RunSummary, SearchFeature } from '../search';
import { HUNT_LANGUAGE, type HuntCommandId } from './ids';

const SELECTOR: vscode.DocumentSelector = [{ language: HUNT_LANGUAGE }, { language: 'markdown' }];
type CatalogueKind = 'hosts' | 'buckets' | 'files';

/** What a hunt command returns (tests and callers): the run's summary and what changed. */
export interface HuntRunSummary extends RunSummary {
  /** "+12 new, −3 gone since 20 Nov" when an earlier run of the same search was kept. */
  change?: string;
  added?: number;
  removed?: number;
}

export interface HuntsFeature {
  commands(): Record<HuntCommandId, CommandHandler>;
  /** The parse of a document (cached per version). */
  parse(doc: vscode.TextDocument): HuntFile;
}

export { identityOf } from '../search/saved/snapshots';

/** Field catalogues through the shared request layer (cached per API origin, on disk). */
class Catalogues {
  private readonly loaded = new Map<string, FieldInfo[]>();
  private readonly pending = new Set<string>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidLoad = this.changed.event;

  constructor(private readonly ctx: Ctx) {}

  private key(kind: CatalogueKind): string {
    return `${this.ctx.origin()}\n${kind}`;
  }

  /** The live catalogue when it has arrived (diagnostics only judge fields against this). */
  live(kind: HuntKind): FieldInfo[] | undefined {
    if (kind === 'domains') return undefined;
    const k = this.key(kind);
    const have = this.loaded.get(k);
    if (have) return have;
    const cached = this.ctx.requests.peek<FieldInfo[]>('fields', kind);
    if (cached?.status === 'ok') {
      this.loaded.set(k, cached.value);
      return cached.value;
    }
    this.fetch(kind);
    return undefined;
  }

  /** For completion and hover: the live catalogue, else the built-in list (never waits). */
  fields(kind: HuntKind): FieldInfo[] {
    if (kind === 'domains') return [];
    return this.live(kind) ?? BUILTIN_FIELDS[kind].map((name) => ({ name }));
  }

  /**
   * Fetches in the background when sending is allowed: a trusted workspace, lookups not
   * off, a key present (a keyless request would answer 401 and pause lookups).
   */
  private fetch(kind: CatalogueKind): void {
    const k = this.key(kind);
    if (this.pending.has(k) || !vscode.workspace.isTrusted || config.lookupMode() === 'off') return;
    if (this.ctx.keys.get() === undefined) return;
    this.pending.add(k);
    const client = this.ctx.client();
    this.ctx.requests
      .get<FieldInfo[]>('fields', kind, (signal) => fetchFields(client, kind, signal), {
        automatic: true,
        ttlClass: 'whois',
      })
      .then(
        (r) => {
          if (r.status === 'ok') {
            this.loaded.set(k, r.value);
            this.changed.fire();
          }
        },
        (err: unknown) =>
          this.ctx.log.debug(`field catalogue ${kind}: ${err instanceof Error ? err.message : String(err)}`),
      )
      .finally(() => this.pending.delete(k));
  }

  clear(): void {
    this.loaded.clear();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

async function fetchFields(
  client: OdinClient,
  kind: CatalogueKind,
  signal: AbortSignal,
): Promise<FieldInfo[]> {
  const list =
    kind === 'hosts'
      ? await client.getHostFields('all', { signal })
      : kind === 'buckets'
        ? await client.getBucketFields({ signal })
        : await client.getFileFields({ signal });
  return list.map((f) => ({
    name: f.name,
    ...(f.is_locked ? { locked: true } : {}),
    ...(f.display_category || f.category ? { category: f.display_category || f.category } : {}),
  }));
}

interface ApiError {
  version: number;
  index: number;
  start: number;
  end: number;
  message: string;
}

const ACTION_TITLES: Record<HuntAction, string> = {
  run: '$(play) Run',
  count: '$(symbol-number) Count',
  summarize: '$(graph) Summarize by\u2026',
};

export function createHunts(ctx: Ctx, search: () => SearchFeature): HuntsFeature {
  const parsed = new Map<string, { version: number; file: HuntFile }>();
  const catalogues = new Catalogues(ctx);
  const diagnostics = vscode.languages.createDiagnosticCollection('odin-hunts');
  const fixes = new WeakMap<vscode.Diagnostic, QueryFix>();
  const apiErrors = new Map<string, ApiError[]>();
  const lensesChanged = new vscode.EventEmitter<void>();
  ctx.subscriptions.add(diagnostics);
  ctx.subscriptions.add(lensesChanged);
  ctx.subscriptions.add(catalogues);

  const isHuntDoc = (doc: vscode.TextDocument): boolean =>
    doc.languageId === HUNT_LANGUAGE || doc.languageId === 'markdown';

  const parse = (doc: vscode.TextDocument): HuntFile => {
    const key = doc.uri.toString();
    const hit = parsed.get(key);
    if (hit && hit.version === doc.version) return hit.file;
    const text = doc.getText();
    const file = doc.languageId === 'markdown' ? parseMarkdownHunts(text) : parseHuntFile(text);
    parsed.set(key, { version: doc.version, file });
    return file;
  };

  const range = (doc: vscode.TextDocument, start: number, end: number): vscode.Range =>
    new vscode.Range(doc.positionAt(start), doc.positionAt(Math.max(start, end)));

  const validate = (doc: vscode.TextDocument): void => {
    if (!isHuntDoc(doc)) return;
    const file = parse(doc);
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
      if (fix) fixes.set(d, fix);
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
      const fields = catalogues.live(q.kind);
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
    for (const e of apiErrors.get(doc.uri.toString()) ?? []) {
      if (e.version === doc.version)
        add(range(doc, e.start, e.end), e.message, vscode.DiagnosticSeverity.Error, 'apiRejected');
    }
    diagnostics.set(doc.uri, out);
  };

  const timers = new Map<string, NodeJS.Timeout>();
  const schedule = (doc: vscode.TextDocument): void => {
    const key = doc.uri.toString();
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        validate(doc);
      }, 250),
    );
  };
  const validateAll = (): void => {
    for (const doc of vscode.workspace.textDocuments) validate(doc);
  };

  ctx.subscriptions.add(vscode.workspace.onDidOpenTextDocument(validate));
  ctx.subscriptions.add(
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (!isHuntDoc(e.document) || e.contentChanges.length === 0) return;
      apiErrors.delete(e.document.uri.toString());
      schedule(e.document);
    }),
  );
  ctx.subscriptions.add(
    vscode.workspace.onDidCloseTextDocument((doc) => {
      const key = doc.uri.toString();
      parsed.delete(key);
      apiErrors.delete(key);
      clearTimeout(timers.get(key));
      diagnostics.delete(doc.uri);
    }),
  );
  ctx.subscriptions.add(catalogues.onDidLoad(validateAll));
  ctx.subscriptions.add(
    ctx.onDidChangeConnection(() => {
      catalogues.clear();
      validateAll();
    }),
  );
  ctx.subscriptions.add(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      lensesChanged.fire();
      validateAll();
    }),
  );
  ctx.subscriptions.add({ dispose: () => timers.forEach((t) => clearTimeout(t)) });

  // ---------------------------------------------------------------- providers

  ctx.subscriptions.add(
    vscode.languages.registerCodeLensProvider(SELECTOR, {
      onDidChangeCodeLenses: lensesChanged.event,
      provideCodeLenses(doc) {
        const file = parse(doc);
        const lenses: vscode.CodeLens[] = [];
        for (const q of file.queries) {
          if (!q.kind) continue;
          const at = range(doc, q.headerStart, q.headerStart);
          if (!vscode.workspace.isTrusted) {
            lenses.push(
              new vscode.CodeLens(at, {
                title: '$(shield) Restricted Mode: trust this folder to run',
                command: 'workbench.trust.manage',
              }),
            );
            continue;
          }
          const args = [doc.uri.toString(), q.index];
          for (const action of ACTIONS[q.kind]) {
            lenses.push(
              new vscode.CodeLens(at, {
                title: ACTION_TITLES[action],
                command:
                  action === 'run'
                    ? 'odin.runHunt'
                    : action === 'count'
                      ? 'odin.countHunt'
                      : 'odin.summarizeHunt',
                arguments: args,
                tooltip: `${action === 'run' ? 'Run' : action === 'count' ? 'Count' : 'Summarize'} "${neutraliseUiText(q.name, 80)}"`,
              }),
            );
          }
          lenses.push(
            new vscode.CodeLens(at, { title: '$(save) Save', command: 'odin.saveHunt', arguments: args }),
          );
        }
        return lenses;
      },
    }),
  );

  const inQuery = (file: HuntFile, doc: vscode.TextDocument, offset: number): HuntQuery | undefined => {
    const q = queryAt(file, offset);
    if (!q) return undefined;
    // In Markdown, only inside a fence (its body, or its header line).
    if (doc.languageId === 'markdown' && offset > q.bodyEnd) return undefined;
    return q;
  };

  ctx.subscriptions.add(
    vscode.languages.registerCompletionItemProvider(
      SELECTOR,
      {
        provideCompletionItems(doc, position, token) {
          const file = parse(doc);
          const offset = doc.offsetAt(position);
          if (doc.languageId === 'markdown' && !inQuery(file, doc, offset)) return undefined;
          if (token.isCancellationRequested) return undefined;
          const items = completeAt(doc.getText(), file, offset, (k) => catalogues.fields(k));
          return items.map((c) => {
            const item = new vscode.CompletionItem(
              c.label,
              c.kind === 'field'
                ? vscode.CompletionItemKind.Field
                : c.kind === 'value'
                  ? vscode.CompletionItemKind.Value
                  : c.kind === 'operator'
                    ? vscode.CompletionItemKind.Operator
                    : c.kind === 'option'
                      ? vscode.CompletionItemKind.Property
                      : vscode.CompletionItemKind.Keyword,
            );
            item.insertText = c.insertText;
            item.range = range(doc, c.start, c.end);
            if (c.detail) item.detail = c.detail;
            if (c.sortText) item.sortText = c.sortText;
            if (c.locked) item.label = { label: c.label, description: '$(lock) plan' };
            if (c.kind === 'field' || c.kind === 'option')
              item.command = { title: 'suggest', command: 'editor.action.triggerSuggest' };
            return item;
          });
        },
      },
      '@',
      ':',
      '=',
      '.',
      ' ',
    ),
  );

  ctx.subscriptions.add(
    vscode.languages.registerHoverProvider(SELECTOR, {
      provideHover(doc, position, token) {
        const file = parse(doc);
        const offset = doc.offsetAt(position);
        if (!inQuery(file, doc, offset) || token.isCancellationRequested) return undefined;
        const h = hoverAt(doc.getText(), file, offset, (k) => catalogues.fields(k));
        if (!h) return undefined;
        // Our own text only (field docs, catalogue names): never trusted, no command links.
        const md = new vscode.MarkdownString(h.markdown, true);
        md.isTrusted = false;
        return new vscode.Hover(md, range(doc, h.start, h.end));
      },
    }),
  );

  ctx.subscriptions.add(
    vscode.languages.registerCodeActionsProvider(
      SELECTOR,
      {
        provideCodeActions(doc, _range, context) {
          const actions: vscode.CodeAction[] = [];
          for (const d of context.diagnostics) {
            const fix = fixes.get(d);
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

  // ---------------------------------------------------------------- running

  const findDoc = async (uri: unknown): Promise<vscode.TextDocument | undefined> => {
    if (typeof uri === 'string' || uri instanceof vscode.Uri) {
      const u = typeof uri === 'string' ? vscode.Uri.parse(uri) : uri;
      return (
        vscode.workspace.textDocuments.find((d) => d.uri.toString() === u.toString()) ??
        vscode.workspace.openTextDocument(u)
      );
    }
    return vscode.window.activeTextEditor?.document;
  };

  const target = async (
    uri: unknown,
    index: unknown,
  ): Promise<{ doc: vscode.TextDocument; q: HuntQuery } | undefined> => {
    // A "Workspace hunts" node of the Saved Searches view (its context menu).
    const node = uri as { type?: unknown; file?: { uri?: unknown }; hunt?: { index?: unknown } } | undefined;
    if (
      node?.type === 'hunt' &&
      node.file?.uri instanceof vscode.Uri &&
      typeof node.hunt?.index === 'number'
    ) {
      index = node.hunt.index;
      uri = node.file.uri;
    }
    const doc = await findDoc(uri);
    if (!doc || !isHuntDoc(doc)) {
      void vscode.window.showInformationMessage(
        'ODIN: open an .odinq file (or a Markdown ```odinq fence) first.',
      );
      return undefined;
    }
    const file = parse(doc);
    let q: HuntQuery | undefined;
    if (typeof index === 'number') q = file.queries[index];
    else {
      const editor = vscode.window.activeTextEditor;
      if (editor?.document === doc) q = inQuery(file, doc, doc.offsetAt(editor.selection.active));
    }
    if (!q) {
      void vscode.window.showInformationMessage('ODIN: put the cursor in a query to run it.');
      return undefined;
    }
    return { doc, q };
  };

  const setApiError = (doc: vscode.TextDocument, q: HuntQuery, message: string): void => {
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
    const list = (apiErrors.get(key) ?? []).filter((e) => e.index !== q.index);
    list.push({
      version: doc.version,
      index: q.index,
      start,
      end,
      message: `ODIN rejected the query: ${neutraliseUiText(message, 300)}`,
    });
    apiErrors.set(key, list);
    validate(doc);
  };

  const clearApiError = (doc: vscode.TextDocument, q: HuntQuery): void => {
    const key = doc.uri.toString();
    const list = apiErrors.get(key);
    if (!list?.some((e) => e.index === q.index)) return;
    apiErrors.set(
      key,
      list.filter((e) => e.index !== q.index),
    );
    validate(doc);
  };

  /**
   * Keeps the result identities of a run and compares them with the previous run's (in the
   * search feature's snapshot store, so the Saved Searches view shows them too). The kind's
   * first action is remembered by the query itself (what the view's workspace node reads),
   * the others by what they ran.
   */
  const remember = async (q: HuntQuery, act: HuntAction, spec: SearchSpec, summary: RunSummary) => {
    const set = summary.status === 'ready' && summary.setId ? search().results.get(summary.setId) : undefined;
    if (!set || !q.kind) return {};
    return search().snapshots.record(act === ACTIONS[q.kind][0] ? huntSubject(q) : spec, set);
  };

  const run = async (
    uri: unknown,
    index: unknown,
    action: HuntAction,
    fieldArg?: unknown,
    quiet = false,
  ): Promise<HuntRunSummary> => {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(
        'ODIN: queries in files run only in a trusted workspace (Restricted Mode is on).',
      );
      return { status: 'blocked', error: 'Restricted Mode' };
    }
    const t = await target(uri, index);
    if (!t) return { status: 'dismissed' };
    const { doc, q } = t;
    if (!q.kind) return { status: 'dismissed', error: 'unknown kind' };
    validate(doc);
    const errors = diagnostics
      .get(doc.uri)
      ?.filter(
        (d) =>
          d.severity === vscode.DiagnosticSeverity.Error &&
          d.code !== 'apiRejected' &&
          doc.offsetAt(d.range.start) >= q.headerStart &&
          doc.offsetAt(d.range.start) <= q.bodyEnd,
      );
    if (errors?.length) {
      void vscode.window.showWarningMessage(
        `ODIN: "${neutraliseUiText(q.name, 80)}" has ${errors.length === 1 ? 'an error' : `${errors.length} errors`} to fix first: ${errors[0].message}`,
      );
      return { status: 'blocked', error: errors[0].message };
    }
    let field = typeof fieldArg === 'string' && /^[A-Za-z0-9_.]+$/.test(fieldArg) ? fieldArg : undefined;
    if (action === 'summarize' && ACTIONS[q.kind].includes('summarize') && !field) {
      const picks = catalogues.fields(q.kind).map((f) => ({
        label: f.name,
        ...(f.category ? { description: f.category } : {}),
        ...(f.locked ? { detail: '$(lock) needs a higher plan' } : {}),
      }));
      const pick = await vscode.window.showQuickPick(picks, {
        title: `ODIN: Summarize "${neutraliseUiText(q.name, 60)}" by`,
        placeHolder: 'Field to count results by',
      });
      if (!pick) return { status: 'dismissed' };
      field = pick.label;
    }
    // "Run" on a kind without a search (files) does what the kind offers first (count).
    const act = ACTIONS[q.kind].includes(action) ? action : ACTIONS[q.kind][0];
    const spec = specFor(q, act, field);
    if (!spec) return { status: 'dismissed', error: `${q.kind} queries have no ${action}` };
    const pageSize = pageSizeOf(q);
    const summary = await search().runner.run(spec, {
      interactive: false,
      ...(pageSize ? { pageSize } : {}),
    });
    if (summary.status === 'error' && summary.errorKind === 'badRequest' && summary.error) {
      setApiError(doc, q, summary.error);
    } else if (summary.status === 'ready') {
      clearApiError(doc, q);
    }
    const change = await remember(q, act, spec, summary);
    if (change.change && summary.status === 'ready' && !quiet) {
      void vscode.window.showInformationMessage(`ODIN: "${neutraliseUiText(q.name, 80)}": ${change.change}.`);
    }
    return { ...summary, ...change };
  };

  const save = async (uri: unknown, index: unknown): Promise<unknown> => {
    const t = await target(uri, index);
    if (!t?.q.kind) return undefined;
    const spec = specFor(t.q, ACTIONS[t.q.kind][0]);
    if (!spec) return undefined;
    // Into the personal saved searches or another workspace file (the user picks).
    return vscode.commands.executeCommand('odin.saveSearch', {
      spec,
      name: t.q.name,
      target: 'ask',
      exclude: t.doc.uri.toString(),
    });
  };

  validateAll();

  return {
    parse,
    commands: () => ({
      'odin.runHunt': (uri?: unknown, index?: unknown, opts?: unknown) =>
        run(
          uri,
          index,
          'run',
          undefined,
          typeof opts === 'object' && opts !== null && 'quiet' in opts && opts.quiet === true,
        ),
      'odin.countHunt': (uri?: unknown, index?: unknown) => run(uri, index, 'count'),
      'odin.summarizeHunt': (uri?: unknown, index?: unknown, field?: unknown) =>
        run(uri, index, 'summarize', field),
      'odin.saveHunt': (uri?: unknown, index?: unknown) => save(uri, index),
    }),
  };
}
