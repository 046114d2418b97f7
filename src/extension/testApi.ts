/**
 * The verbs the integration tests drive the product with, besides the public `vscode` API and
 * the emulator's own request log; `activate()` returns them only in extension test mode.
 *   pages        pages' reports (await a `rendered`), messages accepted and refused, phases; deliver one
 *   tree         a tree as the user sees it: nodes (a command's argument), their TreeItems, its description
 *   savedStore   the saved-search store: its file, its list, reload, replace
 *   key          the API key: whether there is one, is it X, where from, store, clear, re-read; never the key
 *                writeSecret writes SecretStorage as another window would (nothing reads it back)
 *   lookups      the lookup layer: its cache (read, clear, forget), the pause, requests sent
 *   ledger       the session's ledger: credits spent, requests, budget
 *   connection   the API base URL in use, demo mode, the feeds, the extension's storage, log and mementos
 *   ui           context keys, status-bar items (read: makes credits'), path answers, triage view, hover time
 *   agent        the language-model tools and MCP definition as registered
 *   notebook     what the notebook controller showed (its events)
 */
import type * as vscode from 'vscode';
import type { RequestLayer } from '../core/requests/layer';
import type { RegisteredAgent } from './agent/registered';
import type { Ctx } from './ctx';
import type { NotebookProbe } from './notebook/lazy';
import type { SearchFeature } from './search';
import type { Node as ResultNode } from './search/results/resultNodes';
import type { SavedNode } from './search/saved/savedView';
import type { SavedSearchStore } from './search/saved/savedStore';
import type { KeyStore } from './shared/secrets';
import type { TriageFeature } from './triage';
import type { RenderedPage } from './webviewKit/pages';
import { PageRecorder, type PageRendered } from './webviewKit/recorder';
export type * from './commands';
export type { HuntRunSummary } from './hunts';
export type { TimelineSummary } from './hunts/history';
export type { ResultSet } from './search/results/resultSet';
export type { ResultNode, SavedNode };
export type * from './webviewKit/recorder';

export interface TestTree<N> {
  getChildren(node?: N): N[];
  getTreeItem(node: N): vscode.TreeItem;
  readonly description: string | undefined;
}

export interface TestApi {
  pages: PageRecorder<PageRendered>;
  tree<V extends keyof Trees>(view: V): TestTree<Trees[V]>;
  savedStore(): Pick<SavedSearchStore, 'file' | 'list' | 'get' | 'load' | 'update' | 'watch' | 'unwatch'>;
  key: Pick<KeyStore, 'source' | 'store' | 'clear' | 'refresh' | 'onDidChange'> & KeyChecks;
  lookups(): Pick<RequestLayer, 'cache' | 'peek' | 'forget' | 'pause' | 'resume' | 'paused' | 'sent'>;
  ledger: Ctx['ledger'];
  connection: Pick<Ctx, 'baseUrl' | 'setDemo' | 'feeds'> & Folders;
  ui: {
    contextValue(key: string): unknown;
    statusItems(): ReadonlyMap<string, vscode.StatusBarItem>;
    pathPrompts: Ctx['argumentPaths']['prompts'];
    triage(): TriageFeature;
    hover: Parts['hover'];
  };
  agent: RegisteredAgent;
  notebook(): ReturnType<NotebookProbe['load']>['events'];
}
type Trees = { results: ResultNode; saved: SavedNode };
type KeyChecks = { has(): boolean; is(value: string): boolean; writeSecret(value: string): Thenable<void> };
type Folders = { storage: string; logFolder: string; log(line: string): void; mementos: vscode.Memento[] };
type Parts = Pick<TestApi, 'agent'> & { loadSearch(): SearchFeature; loadTriage(): TriageFeature } & {
  notebook: NotebookProbe;
  statusItems(): vscode.StatusBarItem[];
  hover(uri: string, line: number, ch: number): PromiseLike<{ ms: number; markdown?: string }>;
};

/** Built at activation in extension test mode only (the parts: the features' own objects). */
export function createTestApi(ctx: Ctx, parts: Parts): TestApi {
  const toEvent = (r: RenderedPage) => ({ ...r.report, page: r.page, id: r.id, at: r.at }) as PageRendered;
  const pages = ctx.subscriptions.add(new PageRecorder(ctx.pages, () => true, toEvent));
  const { keys, extension: ext } = ctx;
  return {
    pages,
    tree: (view) => {
      const f = parts.loadSearch();
      const [t, v] = view === 'results' ? [f.results, f.resultsView] : [f.saved, f.savedView];
      const n = t as unknown as TestTree<unknown>;
      return {
        getChildren: (e) => n.getChildren(e) as never,
        getTreeItem: (e) => n.getTreeItem(e),
        description: v.description,
      };
    },
    savedStore: () => parts.loadSearch().store,
    key: {
      has: () => keys.get() !== undefined,
      is: (value) => keys.get() === value,
      source: () => keys.source(),
      store: (key) => keys.store(key),
      clear: () => keys.clear(),
      refresh: () => keys.refresh(),
      onDidChange: keys.onDidChange,
      writeSecret: (value) => ext.secrets.store('odin.apiKey', value),
    },
    lookups: () => ctx.requests,
    ledger: ctx.ledger,
    connection: {
      baseUrl: () => ctx.baseUrl(),
      setDemo: (server) => ctx.setDemo(server),
      get feeds() {
        return ctx.feeds;
      },
      storage: ext.globalStorageUri.fsPath,
      logFolder: ext.logUri.fsPath,
      log: (line) => ctx.log.info(line),
      mementos: [ext.globalState, ext.workspaceState],
    },
    ui: {
      contextValue: (key) => ctx.contextKeys.get(key as never),
      statusItems: () => new Map(parts.statusItems().map((item) => [item.id, item])),
      pathPrompts: ctx.argumentPaths.prompts,
      triage: parts.loadTriage,
      hover: parts.hover,
    },
    agent: parts.agent,
    notebook: () => parts.notebook.load().events,
  };
}
