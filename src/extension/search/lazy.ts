/**
 * What activation registers for the search feature without loading it: its commands and
 * its two tree views, over stand-in providers. The feature (dist/search.js, ~65 KB: prompts,
 * result trees, saved searches, export) loads on first use: the first command, or the
 * first time a view is shown and asks for its children. Welcome views need nothing loaded:
 * they follow context keys.
 */
import * as vscode from 'vscode';
import { standIns, type CommandsOf } from '../commands';
import type { Ctx } from '../ctx';
import type { SearchFeature } from './index';
import { RESULTS_VIEW, SAVED_MIME, SAVED_VIEW } from './ids';
import type { Node } from './results/resultNodes';
import type { SavedNode } from './saved/savedView';

/**
 * Creates the search views; returns the commands (stand-ins that load the feature, for
 * extension.ts to register) and the loader (the TestApi uses it).
 */
export function registerSearchLazy(ctx: Ctx): { commands: CommandsOf<'search'>; load: () => SearchFeature } {
  type Loaded = { feature: SearchFeature; commands: CommandsOf<'search'> };
  let loaded: Loaded | undefined;
  const results = ctx.subscriptions.add(new StandIn<Node>(() => search().results));
  const saved = ctx.subscriptions.add(new StandIn<SavedNode>(() => search().saved));
  const views = {
    results: ctx.subscriptions.add(
      vscode.window.createTreeView(RESULTS_VIEW, { treeDataProvider: results, showCollapseAll: true }),
    ),
    saved: ctx.subscriptions.add(
      vscode.window.createTreeView(SAVED_VIEW, {
        treeDataProvider: saved,
        // The mime types are read when the view is created, before the feature exists.
        dragAndDropController: {
          dragMimeTypes: [SAVED_MIME],
          dropMimeTypes: [SAVED_MIME],
          handleDrag: (source, data) => search().saved.handleDrag(source, data),
          handleDrop: (target, data) => search().saved.handleDrop(target, data),
        },
        canSelectMany: true,
      }),
    ),
  };

  const load = (): Loaded => {
    if (!loaded) {
      const started = performance.now();
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const bundle = require('./index') as typeof import('./index');
      const feature = bundle.createSearch(ctx, views);
      loaded = { feature, commands: feature.commands() };
      results.connect(feature.results);
      saved.connect(feature.saved);
      // l10n: English, for the log
      if (feature.saved.dropMimeTypes.join() !== SAVED_MIME)
        ctx.log.warn('saved searches: drag and drop type mismatch');
      // l10n: English, for the log
      ctx.log.debug(`Search feature loaded in ${(performance.now() - started).toFixed(1)} ms`);
    }
    return loaded;
  };
  const search = (): SearchFeature => load().feature;

  return { commands: standIns('search', () => load().commands), load: search };
}

/**
 * A tree data provider that stands in for the feature's own until it is loaded (asking for
 * children loads it), then passes everything on, change events included.
 */
class StandIn<T> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<T | T[] | undefined | null | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private sub: vscode.Disposable | undefined;

  constructor(private readonly real: () => vscode.TreeDataProvider<T>) {}

  connect(provider: vscode.TreeDataProvider<T>): void {
    this.sub = provider.onDidChangeTreeData?.((e) => this.changed.fire(e));
  }

  getChildren(element?: T): vscode.ProviderResult<T[]> {
    return this.real().getChildren(element);
  }

  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.real().getTreeItem(element);
  }

  getParent(element: T): vscode.ProviderResult<T> {
    return this.real().getParent?.(element);
  }

  dispose(): void {
    this.sub?.dispose();
    this.changed.dispose();
  }
}
