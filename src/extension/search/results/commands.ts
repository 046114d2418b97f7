/** The commands on a result set: load more or all, retry, refresh, export, copy, similar hosts, narrow by a facet. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { exportText, type ExportFormat } from '../../../core/results/export';
import { hostsInBlockQuery, narrowQuery, similarHostsQuery } from '../../../core/query';
import { DEFAULT_FACETS, isSummary, KINDS, searchVia, summaryOf } from '../../../core/search';
import { neutraliseUiText } from '../../../core/text/inert';
import { toAbortSignal } from '../../shared/abort';
import { userMessage } from '../../shared/errors';
import { defaultDir, isObj, isResultNode } from '../args';
import type { RunSummary } from '../../commands';
import type { Ctx } from '../../ctx';
import type { FieldCatalogue } from '../fieldCatalogue';
import { promptField } from '../prompts';
import type { SearchRunner } from '../searchRunner';
import { copyText, setTitle } from './resultNodes';
import { LOAD_ALL_MAX_PAGES, loadAllText, type ResultSet } from './resultSet';
import type { ResultsProvider } from './resultsView';
import { fmt } from '../../../core/text/numbers';

/** What the result-set commands work with. */
export interface ResultParts {
  ctx: Ctx;
  results: ResultsProvider;
  runner: SearchRunner;
  catalogue: FieldCatalogue;
}

/** Export Results: which format, asked when the caller did not say. */
async function askExportFormat(): Promise<ExportFormat | undefined> {
  const pick = await vscode.window.showQuickPick(
    [
      {
        label: vscode.l10n.t('CSV'),
        description: vscode.l10n.t('one row per result; opens in spreadsheets'),
        format: 'csv' as const,
      },
      {
        label: vscode.l10n.t('JSON'),
        description: vscode.l10n.t(
          'the records (hosts: the fields the tree shows; the host page has the rest)',
        ),
        format: 'json' as const,
      },
    ],
    { title: vscode.l10n.t('ODIN: Export Results'), placeHolder: vscode.l10n.t('Format') },
  );
  return pick?.format;
}

/** Export Results: the loaded results, or all (asked only when the set has more pages). */
async function askExportScope(set: ResultSet): Promise<'loaded' | 'all' | undefined> {
  if (!set.hasMore) return 'loaded';
  const pick = await vscode.window.showQuickPick(
    [
      { label: vscode.l10n.t('Loaded results ({0})', set.countText()), scope: 'loaded' as const },
      {
        label: vscode.l10n.t('All results'),
        description: vscode.l10n.t('loads the remaining pages first: {0}', loadAllText(set.loadAllPlan())),
        scope: 'all' as const,
      },
    ],
    { title: vscode.l10n.t('ODIN: Export Results'), placeHolder: vscode.l10n.t('What to export') },
  );
  return pick?.scope;
}

/** Export Results: an untitled editor or a file. */
async function askExportTarget(): Promise<'editor' | 'file' | undefined> {
  const pick = await vscode.window.showQuickPick(
    [
      { label: vscode.l10n.t('Open in an untitled editor'), target: 'editor' as const },
      { label: vscode.l10n.t('Save to a file…'), target: 'file' as const },
    ],
    { title: vscode.l10n.t('ODIN: Export Results'), placeHolder: vscode.l10n.t('Where to') },
  );
  return pick?.target;
}

export class ResultCommands {
  constructor(private readonly f: ResultParts) {}
  // ---------------------------------------------------------------- result-set commands

  setOf(arg: unknown): ResultSet | undefined {
    if (isResultNode(arg)) return this.f.results.get(arg.set.id);
    if (typeof arg === 'string') return this.f.results.get(arg);
    if (isObj(arg) && typeof arg.setId === 'string') return this.f.results.get(arg.setId);
    return this.f.results.current();
  }

  async loadMore(arg?: unknown): Promise<RunSummary | undefined> {
    const set = this.setOf(arg);
    if (!set) return undefined;
    await set.loadNext();
    return this.f.runner.summary(set);
  }

  async retry(arg?: unknown): Promise<RunSummary | undefined> {
    const set = this.setOf(arg);
    if (!set) return undefined;
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('ODIN: {0}', neutraliseUiText(setTitle(set), 120)),
        cancellable: true,
      },
      (_p, token) => toAbortSignal(token, (signal) => set.loadNext(signal)),
    );
    return this.f.runner.summary(set);
  }

  /**
   * Loads every remaining page, in pages of the API's largest size, with progress;
   * cancelling keeps what was loaded. Asks first, saying how many requests it takes, unless
   * `opts.confirmed` (the export's "All results" pick already said so).
   */
  async loadAll(arg?: unknown, opts?: unknown): Promise<RunSummary | undefined> {
    const set = this.setOf(arg);
    if (!set) return undefined;
    const plan = set.loadAllPlan();
    if (plan.requests > 0 && !(isObj(opts) && opts.confirmed === true)) {
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Load all remaining results of {0}?', neutraliseUiText(setTitle(set), 100)),
        { modal: true, detail: loadAllText(plan) },
        vscode.l10n.t('Load All'),
      );
      if (choice !== vscode.l10n.t('Load All')) return { ...this.f.runner.summary(set), status: 'dismissed' };
    }
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('ODIN: loading all of {0}', neutraliseUiText(setTitle(set), 100)),
        cancellable: true,
      },
      (progress, token) => {
        let last = set.items.length;
        return toAbortSignal(token, (signal) =>
          set.loadAll(signal, (s) => {
            const inc = s.total ? ((s.items.length - last) / s.total) * 100 : undefined;
            last = s.items.length;
            progress.report({ message: s.countText(), ...(inc !== undefined ? { increment: inc } : {}) });
          }),
        );
      },
    );
    if (set.lastLoadAllStop === 'pageCap') {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'ODIN: stopped after {0} requests ({1}); "Load All" again continues.',
          LOAD_ALL_MAX_PAGES,
          set.countText(),
        ),
      );
    } else if (set.lastLoadAllStop === 'cursorCycle') {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          "ODIN: stopped at {0}: the service's next-page cursor repeated an earlier one.",
          set.countText(),
        ),
      );
    }
    return this.f.runner.summary(set);
  }

  async refresh(arg?: unknown): Promise<RunSummary | undefined> {
    const set = this.setOf(arg);
    if (!set) return undefined;
    this.f.results.remove(set);
    return this.f.runner.run(set.spec, { pageSize: set.pageSize });
  }

  /**
   * Runs a summary again with another facet count (how many values it lists), from the
   * summary's node (asks) or as `{ setId?, facetCount }`; the new set replaces the old.
   */
  async changeFacetCount(arg?: unknown): Promise<RunSummary | undefined> {
    const set = this.setOf(arg);
    if (!set || !isSummary(set.spec.kind)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('ODIN: only a summary has a facet count.'));
      return undefined;
    }
    const given = isObj(arg) && !isResultNode(arg) ? arg.facetCount : undefined;
    const valid = (n: unknown): n is number =>
      Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 10000;
    let count: unknown = given;
    if (given === undefined) {
      const text = await vscode.window.showInputBox({
        title: vscode.l10n.t('ODIN: Change Facet Count'),
        prompt: vscode.l10n.t('How many values the summary lists (1 to 10000); the summary runs again'),
        value: String(set.spec.limit ?? DEFAULT_FACETS),
        validateInput: (v) =>
          valid(Number(v.trim())) ? undefined : vscode.l10n.t('A whole number from 1 to 10000'),
      });
      if (text === undefined) return undefined;
      count = Number(text.trim());
    }
    if (!valid(count))
      // l10n: English, for a command's caller
      throw new Error('odin.changeFacetCount: "facetCount" must be a whole number from 1 to 10000.');
    this.f.results.remove(set);
    return this.f.runner.run({ ...set.spec, limit: count }, { pageSize: set.pageSize });
  }

  async copy(arg?: unknown): Promise<string | undefined> {
    const text = isResultNode(arg) ? copyText(arg) : typeof arg === 'string' ? arg : undefined;
    if (text === undefined) return undefined;
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(vscode.l10n.t('ODIN: copied {0}', neutraliseUiText(text, 60)), 3000);
    return text;
  }

  /**
   * Hosts like this one. From a tree node (host or service); from the hover's "Similar hosts"
   * and the host page's "Search Similar", which pass the IP: the host comes from the shared
   * cache (or one request through it); and from the CIDR hover's "Search hosts in it", which
   * passes the block: the hosts in it. Strings pass the gate as a user action.
   */
  async searchSimilar(arg?: unknown): Promise<RunSummary | undefined> {
    if (typeof arg === 'string') return this.searchSimilarTo(arg);
    if (!isResultNode(arg)) return undefined;
    const host =
      arg.type === 'item' && arg.item.t === 'host'
        ? arg.item.v
        : arg.type === 'service'
          ? arg.host
          : undefined;
    if (!host) return undefined;
    return this.f.runner.run({ kind: 'hosts', query: similarHostsQuery(host) });
  }

  private async searchSimilarTo(value: string): Promise<RunSummary> {
    const d = await this.f.ctx.gate.decide(value, {
      trigger: 'explicit',
      source: 'command',
      accept: ['ip', 'cidr'],
    });
    if ('refusal' in d) return { status: 'blocked' };
    const t = d.target;
    if (t.kind === 'cidr') return this.f.runner.run({ kind: 'hosts', query: hostsInBlockQuery(t.value) });
    const ctx = this.f.ctx;
    let r;
    try {
      r = await searchVia(ctx, { kind: 'host', ip: t.value }, { automatic: false });
    } catch (err) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('ODIN: {0}', neutraliseUiText(userMessage(err), 300)),
      );
      return { status: 'error', error: userMessage(err) };
    }
    if (r.status !== 'ok') {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('ODIN has no data for {0}, so there is nothing to compare.', t.value),
      );
      // l10n: English, for a command's caller
      return { status: 'error', error: 'not found' };
    }
    return this.f.runner.run({ kind: 'hosts', query: similarHostsQuery(r.value) });
  }

  /** Narrows the summarised query by a facet value: `(<query>) AND field:"value"`, run as a search. */
  async narrow(...args: unknown[]): Promise<RunSummary | undefined> {
    let set: ResultSet | undefined;
    let field: string | undefined;
    let key: unknown;
    if (isResultNode(args[0]) && args[0].type === 'item' && args[0].item.t === 'facet') {
      set = this.f.results.get(args[0].set.id);
      field = args[0].item.field;
      key = args[0].item.v.key;
    } else {
      set = this.setOf(args[0]);
      field = typeof args[1] === 'string' ? args[1] : undefined;
      key = args[2];
    }
    if (
      !set ||
      !field ||
      !(typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean' || key === null)
    )
      return undefined;
    const query = narrowQuery(set.spec.query ?? '', field, key);
    // A summary's facet narrows to its search (a file summary's to a file count).
    const kind = KINDS[set.spec.kind].narrowsTo ?? 'hosts';
    return this.f.runner.run({ kind, query });
  }

  /**
   * Facets that drill: summarises a result set's query by another field, without retyping it.
   * On a facet value, the query is narrowed by that value first (a facet inside a facet), so
   * narrowing again from the new summary keeps both conditions. `field` skips the question.
   */
  async summarizeBy(...args: unknown[]): Promise<RunSummary | undefined> {
    let set: ResultSet | undefined;
    let query: string | undefined;
    if (isResultNode(args[0]) && args[0].type === 'item' && args[0].item.t === 'facet') {
      set = this.f.results.get(args[0].set.id);
      if (set) query = narrowQuery(set.spec.query ?? '', args[0].item.field, args[0].item.v.key);
    } else {
      set = this.setOf(args[0]);
      query = set?.spec.query;
    }
    if (!set) return undefined;
    const target = summaryOf(set.spec.kind);
    if (!target) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'ODIN: {0} cannot be summarised (hosts and exposed files can).',
          neutraliseUiText(setTitle(set), 100),
        ),
      );
      return { status: 'dismissed' };
    }
    let field = typeof args[1] === 'string' && /^[A-Za-z0-9_.]+$/.test(args[1]) ? args[1] : undefined;
    field ??= await promptField(
      vscode.l10n.t('ODIN: Summarize {0} by', neutraliseUiText(query ?? '*', 80)),
      KINDS[target].target ?? 'hosts',
      this.f.catalogue,
    );
    if (!field) return { status: 'dismissed' };
    return this.f.runner.run({ kind: target, query: query ?? '*', field });
  }

  /**
   * Exports a result set (the loaded pages, or all pages with progress and cancel) as JSON
   * or CSV, into an untitled editor or a chosen file. Arguments skip the questions:
   * `{ setId?, format: 'json'|'csv', scope: 'loaded'|'all', target: 'editor'|'file', path? }`.
   */
  async exportResults(
    arg?: unknown,
  ): Promise<{ count: number; complete: boolean; target: string; path?: string } | undefined> {
    const set = this.setOf(arg);
    if (!set) {
      void vscode.window.showInformationMessage(vscode.l10n.t('ODIN: there are no results to export.'));
      return undefined;
    }
    const a = isObj(arg) && !isResultNode(arg) ? arg : {};
    let format = a.format === 'json' || a.format === 'csv' ? (a.format as ExportFormat) : undefined;
    format ??= await askExportFormat();
    if (!format) return undefined;
    let scope = a.scope === 'all' || a.scope === 'loaded' ? a.scope : undefined;
    scope ??= await askExportScope(set);
    if (!scope) return undefined;
    if (scope === 'all' && set.hasMore) await this.loadAll(set.id, { confirmed: true });
    let target = a.target === 'editor' || a.target === 'file' ? a.target : undefined;
    target ??= await askExportTarget();
    if (!target) return undefined;
    const complete = !set.hasMore;
    const text = exportText(format, set.items, {
      search: set.spec,
      ...(set.total !== undefined ? { total: set.total } : {}),
      exportedAt: new Date().toISOString(),
      complete,
      // Result sets hold compact hosts (src/core/hosts/compactHost.ts); the host page has the rest.
      ...(set.items[0]?.t === 'host'
        ? {
            // l10n: English, a format a machine reads (the export's metadata)
            records:
              'compact: the fields of the results tree and the CSV columns; "Open Host Details" has the whole record',
          }
        : {}),
    });
    if (target === 'editor') {
      const doc = await vscode.workspace.openTextDocument({
        content: text,
        language: format === 'json' ? 'json' : 'plaintext',
      });
      await vscode.window.showTextDocument(doc, { preview: false });
      return { count: set.items.length, complete, target };
    }
    let uri: vscode.Uri | undefined = typeof a.path === 'string' ? vscode.Uri.file(a.path) : undefined;
    // A path from an argument outside the trusted workspace is written only after a yes.
    if (uri && !(await this.f.ctx.argumentPaths.confirm(uri, 'write', vscode.l10n.t('ODIN: Export Results'))))
      return undefined;
    uri ??= await vscode.window.showSaveDialog({
      title: vscode.l10n.t('ODIN: Export Results'),
      defaultUri: vscode.Uri.file(
        path.join(defaultDir(), `odin-${set.spec.kind}-${new Date().toISOString().slice(0, 10)}.${format}`),
      ),
      filters: format === 'json' ? { JSON: ['json'] } : { CSV: ['csv'] },
    });
    if (!uri) return undefined;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    if (!a.path) {
      void vscode.window.showInformationMessage(
        complete
          ? vscode.l10n.t(
              'ODIN: exported {0} results to {1}.',
              fmt(set.items.length),
              path.basename(uri.fsPath),
            )
          : vscode.l10n.t(
              'ODIN: exported {0} results (of {1}: not all pages were loaded) to {2}.',
              fmt(set.items.length),
              set.total === undefined || set.total === null ? vscode.l10n.t('more') : fmt(set.total),
              path.basename(uri.fsPath),
            ),
      );
    }
    return { count: set.items.length, complete, target, path: uri.fsPath };
  }
}
