import * as vscode from 'vscode';
import { ACTIONS, huntSubject, pageSizeOf, specFor, type HuntAction, type HuntQuery } from '../../core/hunts';
import type { SearchSpec } from '../../core/search';
import { neutraliseUiText } from '../../core/text/inert';
import type { RunSummary } from '../commands';
import type { RunMemory } from '../search/saved/rerunAll';
import type { Change } from '../search/saved/snapshots';
import type { SearchRunner } from '../search/searchRunner';
import type { RequestBudget } from '../../core/requests/budget';
import { config } from '../shared/config';
import type { Catalogues } from './catalogues';
import type { HuntDocuments } from './documents';
import type { SessionGate } from '../shared/gate';
import { runCommand } from '../shared/runCommand';

/** What a hunt command returns (tests and callers): the run's summary and what changed. */
export interface HuntRunSummary extends RunSummary {
  /** "+12 new, −3 gone since 20 Nov" when an earlier run of the same search was kept. */
  change?: string;
  added?: number;
  removed?: number;
}

/** What a hunt runs through: the search runner and where its runs are remembered. */
export interface HuntSearch extends RunMemory {
  runner: Pick<SearchRunner, 'run'>;
}

/**
 * What the CodeLens and the hunt commands run: a query of a document (by uri and index, a
 * node of the Saved Searches view, or the one under the cursor) through the search feature,
 * only in a trusted workspace and only when the query has no error; what the service
 * rejects is shown on the query, and each run is compared with the previous one.
 */
export class HuntRunner {
  constructor(
    private readonly docs: HuntDocuments,
    private readonly catalogues: Catalogues,
    private readonly search: () => HuntSearch,
    private readonly gate: SessionGate,
  ) {}

  async run(
    uri: unknown,
    index: unknown,
    action: HuntAction,
    fieldArg?: unknown,
    opts: { quiet?: boolean; signal?: AbortSignal; budget?: RequestBudget } = {},
  ): Promise<HuntRunSummary> {
    if (!this.gate.trusted()) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('ODIN: queries in files run only in a trusted workspace (Restricted Mode is on).'),
      );
      // l10n: English, for a command's caller (the run's summary)
      return { status: 'blocked', error: 'Restricted Mode' };
    }
    const t = await this.target(uri, index);
    if (!t) return { status: 'dismissed' };
    const { doc, q } = t;
    // l10n: English, for a command's caller (the run's summary)
    if (!q.kind) return { status: 'dismissed', error: 'unknown kind' };
    this.docs.validate(doc);
    const errors = this.docs.diagnostics
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
        errors.length === 1
          ? vscode.l10n.t(
              'ODIN: "{0}" has an error to fix first: {1}',
              neutraliseUiText(q.name, 80),
              errors[0].message,
            )
          : vscode.l10n.t(
              'ODIN: "{0}" has {1} errors to fix first: {2}',
              neutraliseUiText(q.name, 80),
              errors.length,
              errors[0].message,
            ),
      );
      return { status: 'blocked', error: errors[0].message };
    }
    let field = typeof fieldArg === 'string' && /^[A-Za-z0-9_.]+$/.test(fieldArg) ? fieldArg : undefined;
    if (action === 'summarize' && ACTIONS[q.kind].includes('summarize') && !field) {
      const picks = this.catalogues.fields(q.kind).map((f) => ({
        label: f.name,
        ...(f.category ? { description: f.category } : {}),
        ...(f.locked ? { detail: vscode.l10n.t('$(lock) needs a higher plan') } : {}),
      }));
      const pick = await vscode.window.showQuickPick(picks, {
        title: vscode.l10n.t('ODIN: Summarize "{0}" by', neutraliseUiText(q.name, 60)),
        placeHolder: vscode.l10n.t('Field to count results by'),
      });
      if (!pick) return { status: 'dismissed' };
      field = pick.label;
    }
    // "Run" on a kind without a search (files) does what the kind offers first (count).
    const act = ACTIONS[q.kind].includes(action) ? action : ACTIONS[q.kind][0];
    const spec = specFor(q, act, field);
    // l10n: English, for a command's caller (the run's summary)
    if (!spec) return { status: 'dismissed', error: `${q.kind} queries have no ${action}` };
    // A query's `size=` is the workspace's: it may lower the page size, never raise it.
    const pageSize = config.searchPageSize(pageSizeOf(q));
    const summary = await this.search().runner.run(spec, {
      interactive: false,
      pageSize,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.budget ? { budget: opts.budget } : {}),
    });
    if (summary.status === 'error' && summary.errorKind === 'badRequest' && summary.error) {
      this.docs.setApiError(doc, q, summary.error);
    } else if (summary.status === 'ready') {
      this.docs.clearApiError(doc, q);
    }
    const change = await this.remember(q, act, spec, summary);
    if (change.change && summary.status === 'ready' && !opts.quiet) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('ODIN: "{0}": {1}.', neutraliseUiText(q.name, 80), change.change),
      );
    }
    return { ...summary, ...change };
  }

  async save(uri: unknown, index: unknown): Promise<unknown> {
    const t = await this.target(uri, index);
    if (!t?.q.kind) return undefined;
    const spec = specFor(t.q, ACTIONS[t.q.kind][0]);
    if (!spec) return undefined;
    // Into the personal saved searches or another workspace file (the user picks).
    return runCommand('odin.saveSearch', {
      spec,
      name: t.q.name,
      target: 'ask',
      exclude: t.doc.uri.toString(),
    });
  }

  async target(
    uri: unknown,
    index: unknown,
  ): Promise<{ doc: vscode.TextDocument; q: HuntQuery } | undefined> {
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
    const doc = await this.findDoc(uri);
    if (!doc || !this.docs.isHuntDoc(doc)) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('ODIN: open an .odinq file (or a Markdown ```odinq fence) first.'),
      );
      return undefined;
    }
    const file = this.docs.parse(doc);
    let q: HuntQuery | undefined;
    if (typeof index === 'number') q = file.queries[index];
    else {
      const editor = vscode.window.activeTextEditor;
      if (editor?.document === doc) q = this.docs.inQuery(file, doc, doc.offsetAt(editor.selection.active));
    }
    if (!q) {
      void vscode.window.showInformationMessage(vscode.l10n.t('ODIN: put the cursor in a query to run it.'));
      return undefined;
    }
    return { doc, q };
  }

  private async findDoc(uri: unknown): Promise<vscode.TextDocument | undefined> {
    if (typeof uri === 'string' || uri instanceof vscode.Uri) {
      const u = typeof uri === 'string' ? vscode.Uri.parse(uri) : uri;
      return (
        vscode.workspace.textDocuments.find((d) => d.uri.toString() === u.toString()) ??
        vscode.workspace.openTextDocument(u)
      );
    }
    return vscode.window.activeTextEditor?.document;
  }

  /**
   * Keeps the result identities of a run and compares them with the previous run's (in the
   * search feature's snapshot store, so the Saved Searches view shows them too). The kind's
   * first action is remembered by the query itself (what the view's workspace node reads),
   * the others by what they ran.
   */
  private async remember(
    q: HuntQuery,
    act: HuntAction,
    spec: SearchSpec,
    summary: RunSummary,
  ): Promise<Change> {
    const set =
      summary.status === 'ready' && summary.setId ? this.search().results.get(summary.setId) : undefined;
    if (!set || !q.kind) return {};
    return this.search().snapshots.record(act === ACTIONS[q.kind][0] ? huntSubject(q) : spec, set);
  }
}
