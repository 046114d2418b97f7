/**
 * What activation registers for the search feature without loading it: its commands and
 * its two tree views, over stand-in providers. The feature (dist/search.js, ~65 KB: prompts,
 * result trees, saved searches, export) loads on first use: the first command, or the
 * first time a view is shown and asks for its children. Welcome views need nothing loaded:
 * they follow context keys.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { registerCommands, type CommandHandler, type CommandMap } from '../shared/commands';
import type { Ctx } from '../ctx';
import type { SearchFeature } from './index';
import { RESULTS_VIEW, SAVED_MIME, SAVED_VIEW, SEARCH_COMMANDS, type SearchCommandId } from './ids';
import type { Node } from './results/resultNodes';
import type { SavedNode } from './saved/savedView';

/** Registers the search commands and views; returns the loader (the TestApi uses it). */
export function registerSearchLazy(ctx: Ctx): () => SearchFeature {
  type Loaded = { feature: SearchFeature; commands: Record<SearchCommandId, CommandHandler> };
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
      const bundle = require(path.join(__dirname, 'search.js')) as typeof import('./index');
      const feature = bundle.createSearch(ctx, views);
      loaded = { feature, commands: feature.commands() };
      results.connect(feature.results);
      saved.connect(feature.saved);
      if (feature.saved.dropMimeTypes.join() !== SAVED_MIME)
        ctx.log.warn('saved searches: drag and drop type mismatch');
      ctx.log.debug(`Search feature loaded in ${(performance.now() - started).toFixed(1)} ms`);
    }
    return loaded;
  };
  const search = (): SearchFeature => load().feature;

  const commands: CommandMap = {};
  for (const id of SEARCH_COMMANDS) {
    commands[id] = (...args: unknown[]) => load().commands[id](...args);
  }
  registerCommands(ctx, commands);
  return search;
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
