/**
 * The search feature: command-palette searches, the results view and the saved searches view.
 * The entry of dist/search.js, loaded on first use (lazy.ts registers its commands and views).
 *
 * Every search command takes an optional argument object that skips its prompts (so the
 * integration tests, saved searches and other features call them without UI), e.g.
 * `executeCommand('odin.searchHosts', { query: 'services.port:443' })`; without it, the
 * command asks for its inputs. Commands return a small summary of what they did (never
 * data that could hold the key). Their argument types are in src/extension/commands.ts.
 *
 * searchRunner.ts runs searches; results/commands.ts and saved/commands.ts are the commands on
 * the two trees.
 */
import * as vscode from 'vscode';
import type { CommandsOf } from '../commands';
import type { Ctx } from '../ctx';
import { isResultNode } from './args';
import { browseFields } from './fieldBrowser';
import { FieldCatalogue } from './fieldCatalogue';
import { ChartCommands } from '../charts/commands';
import { MapCommands } from '../map/commands';
import { ResultCommands } from './results/commands';
import type { Node } from './results/resultNodes';
import { ResultsProvider } from './results/resultsView';
import { SavedSearchCommands } from './saved/commands';
import { rerunAllSaved } from './saved/rerunAll';
import { exportSavedSearches, importSavedSearches } from './saved/transfer';
import { SavedSearchStore, type StoreProblem } from './saved/savedStore';
import { SavedSearchesProvider, type SavedNode } from './saved/savedView';
import { SnapshotStore } from './saved/snapshots';
import { WorkspaceHunts } from './saved/workspaceHunts';
import { SearchRunner } from './searchRunner';

/** The results and saved searches tree views. */
export interface SearchViews {
  results: vscode.TreeView<Node>;
  saved: vscode.TreeView<SavedNode>;
}

export class SearchFeature implements vscode.Disposable {
  readonly results: ResultsProvider;
  readonly store: SavedSearchStore;
  readonly saved: SavedSearchesProvider;
  /** What each saved search's last runs found (hunts that remember). */
  readonly snapshots: SnapshotStore;
  /** The workspace's `.odinq` files (the "Workspace hunts" group). */
  readonly workspaceHunts: WorkspaceHunts;
  readonly catalogue: FieldCatalogue;
  readonly resultsView: vscode.TreeView<Node>;
  readonly savedView: vscode.TreeView<SavedNode>;
  private readonly reported = new Set<string>();
  readonly runner: SearchRunner;
  readonly resultCommands: ResultCommands;
  readonly savedCommands: SavedSearchCommands;
  readonly chartCommands: ChartCommands;
  readonly mapCommands: MapCommands;

  /**
   * `views` are the two tree views, created at activation (lazy.ts) over stand-in
   * providers that hand over to `results` and `saved` once this feature exists.
   */
  constructor(
    readonly ctx: Ctx,
    views: SearchViews,
  ) {
    this.results = new ResultsProvider(ctx.contextKeys, () => ctx.nextId('r'));
    // CVE nodes show KEV and EPSS; the feeds load on this first use of search, not at activation.
    this.results.exploitation = ctx.feeds.store;
    // l10n: English, for the log
    ctx.feeds.ensure().catch((e: unknown) => ctx.log.warn(`Exploitation feeds: ${String(e)}`));
    this.catalogue = new FieldCatalogue(
      ctx,
      () => ctx.origin(),
      (m) => ctx.log.debug(m),
      // Completion lists are fetched by themselves: never when lookups are off or untrusted.
      () => ctx.gate.trusted() && ctx.gate.mode() !== 'off',
    );
    this.resultsView = views.results;
    this.results.attach(this.resultsView);
    this.store = new SavedSearchStore(ctx.extension.globalStorageUri.fsPath, (p) =>
      this.reportStoreProblem(p),
    );
    this.snapshots = new SnapshotStore(ctx.extension.globalState, () => ctx.origin());
    this.workspaceHunts = new WorkspaceHunts();
    this.saved = new SavedSearchesProvider(this.store, ctx.contextKeys, this.snapshots, this.workspaceHunts);
    this.saved.detailsAvailable = () => this.results.detailsAvailable;
    ctx.subscriptions.add(this.snapshots);
    this.savedView = views.saved;
    ctx.subscriptions.add(this.results);
    ctx.subscriptions.add(this.saved);
    ctx.subscriptions.add(this.store);
    // A new origin or key: field catalogues are per origin (the results stay: they are data already shown).
    ctx.subscriptions.add(ctx.onDidChangeConnection(() => this.catalogue.clear()));
    // Each part gets the collaborators it uses, not the feature.
    const { results, catalogue, store, snapshots, workspaceHunts } = this;
    this.runner = new SearchRunner({ ctx, results, catalogue });
    const runner = this.runner;
    this.resultCommands = new ResultCommands({ ctx, results, runner, catalogue });
    this.savedCommands = new SavedSearchCommands({
      ctx,
      store,
      runner,
      results,
      snapshots,
      workspaceHunts,
      savedView: this.savedView,
      setOf: (arg) => this.resultCommands.setOf(arg),
    });
    this.chartCommands = new ChartCommands({ ctx, results, setOf: (arg) => this.resultCommands.setOf(arg) });
    this.mapCommands = new MapCommands({ ctx, results, setOf: (arg) => this.resultCommands.setOf(arg) });
    // Another window may have changed the file while this one was in the background.
    ctx.subscriptions.add(
      vscode.window.onDidChangeWindowState((s) => {
        if (s.focused)
          // l10n: English, for the log
          void this.store.load().catch((e: unknown) => ctx.log.warn(`saved searches: ${String(e)}`));
      }),
    );
    this.store.watch();
    void this.store
      .load()
      .then(() => this.saved.refresh())
      .catch((e: unknown) => {
        // l10n: English, for the log
        ctx.log.error(`Saved searches could not be read: ${e instanceof Error ? e.message : String(e)}`);
      });
    void this.runner.updateDetailsAvailable();
  }

  dispose(): void {
    // Views, providers and the store are disposed through ctx.subscriptions.
  }

  private reportStoreProblem(p: StoreProblem): void {
    const key = p.message + p.details.join('\n');
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.ctx.log.warn(`${p.message}\n  ${p.details.join('\n  ')}`);
    void vscode.window
      .showWarningMessage(vscode.l10n.t('ODIN: {0}', p.message), vscode.l10n.t('Show Log'))
      .then((c) => c && this.ctx.log.show());
  }

  // ---------------------------------------------------------------- command map

  commands(): CommandsOf<'search'> {
    const { ctx, results, runner, catalogue, store, snapshots, workspaceHunts } = this;
    const transfer = { ctx, store };
    return {
      'odin.searchHosts': this.runner.searchCommand('hosts'),
      'odin.lookupHost': this.runner.searchCommand('host'),
      'odin.summarizeHosts': this.runner.searchCommand('hostSummary'),
      'odin.hostCves': this.runner.searchCommand('hostCves'),
      'odin.hostExploits': this.runner.searchCommand('hostExploits'),
      'odin.hostCve': this.runner.searchCommand('hostCve'),
      'odin.searchDomains': this.runner.searchCommand('domains'),
      'odin.countDomains': this.runner.searchCommand('domainCount'),
      'odin.countSubdomains': this.runner.searchCommand('subdomainCount'),
      'odin.whois': this.runner.searchCommand('whois'),
      'odin.whoisHistory': this.runner.searchCommand('whoisHistory'),
      'odin.searchBuckets': this.runner.searchCommand('buckets'),
      'odin.countFiles': this.runner.searchCommand('fileCount'),
      'odin.summarizeFiles': this.runner.searchCommand('fileSummary'),
      'odin.browseFields': (arg) => browseFields({ catalogue, runner }, arg),
      'odin.saveSearch': (arg) => this.savedCommands.saveSearch(arg),
      'odin.runSavedSearch': (arg) => this.savedCommands.runSaved(arg),
      'odin.renameSavedSearch': (arg, name) => this.savedCommands.renameSaved(arg, name),
      'odin.editSavedSearch': (arg, spec) => this.savedCommands.editSaved(arg, spec),
      'odin.deleteSavedSearch': (arg, opts) => this.savedCommands.deleteSaved(arg, opts),
      'odin.duplicateSavedSearch': (arg) => this.savedCommands.duplicateSaved(arg),
      'odin.moveSavedSearchUp': (arg) => this.savedCommands.moveSaved(arg, -1),
      'odin.moveSavedSearchDown': (arg) => this.savedCommands.moveSaved(arg, 1),
      'odin.exportSavedSearches': (arg) => exportSavedSearches(transfer, arg),
      'odin.importSavedSearches': (arg) => importSavedSearches(transfer, arg),
      'odin.loadMore': (arg) => this.resultCommands.loadMore(arg),
      'odin.loadAll': (arg, opts) => this.resultCommands.loadAll(arg, opts),
      'odin.retry': (arg) => this.resultCommands.retry(arg),
      'odin.refreshResults': (arg) => this.resultCommands.refresh(arg),
      'odin.clearResults': (arg) => {
        const set = isResultNode(arg) ? this.resultCommands.setOf(arg) : undefined;
        if (set) this.results.remove(set);
        else this.results.clear();
      },
      'odin.exportResults': (arg) => this.resultCommands.exportResults(arg),
      'odin.copyValue': (arg) => this.resultCommands.copy(arg),
      'odin.searchSimilar': (arg) => this.resultCommands.searchSimilar(arg),
      'odin.narrowByFacet': (arg, field, value) => this.resultCommands.narrow(arg, field, value),
      'odin.changeFacetCount': (arg) => this.resultCommands.changeFacetCount(arg),
      'odin.summarizeResultsBy': (arg, field) => this.resultCommands.summarizeBy(arg, field),
      'odin.openChart': (arg) => this.chartCommands.openChart(arg),
      'odin.showOnMap': (arg) => this.mapCommands.showOnMap(arg),
      'odin.showSummaryOnMap': (arg) => this.mapCommands.showOnMap(arg),
      'odin.openHuntInFile': (arg) => this.savedCommands.openHunt(arg),
      'odin.rerunAllSavedSearches': (arg) =>
        rerunAllSaved({ ctx, runner, results, snapshots, store, workspaceHunts }, arg),
    };
  }
}

/**
 * The entry of dist/search.js, loaded on first use (see lazy.ts): the feature over
 * the views created at activation. Its commands are registered by lazy.ts.
 */
export function createSearch(ctx: Ctx, views: SearchViews): SearchFeature {
  const feature = new SearchFeature(ctx, views);
  ctx.subscriptions.add(feature);
  return feature;
}
