import type { NotebookProbe } from './notebook/lazy';
import * as vscode from 'vscode';
import type { PageKind, RenderedCounts } from '../common/protocol';
import type { Ctx } from './ctx';
import type { RegisteredAgent } from './agent/registered';
import type { PathPrompts } from './shared/argumentPath';
import type { ContextKey } from './shared/contextKeys';
import type { SearchFeature } from './search';
import type { SearchProbe } from './search/probe';
import type { TriageFeature } from './triage';
import { PageRecorder } from './webviewKit/recorder';

/** A details page's `rendered` report, as the tests read it. */
export interface RenderedEvent {
  page: PageKind;
  /** The IP or domain of the panel. */
  id: string;
  counts: RenderedCounts;
  /** Render time inside the page, in ms. */
  ms: number;
  at: number;
}

/** A chart page's `rendered` report: the generation drawn and its number of bars. */
export interface MapRenderedEvent {
  page: 'map';
  id: string;
  generation: number;
  points: number;
  countries: number;
  ms: number;
  at: number;
}

export interface ChartRenderedEvent {
  page: 'chart';
  id: string;
  generation: number;
  bars: number;
  ms: number;
  at: number;
}

/** The triage page's `rendered` report: rows received, shown after the filter, built in the DOM. */
export interface TriageRenderedEvent {
  page: 'triage';
  id: string;
  generation: number;
  rows: number;
  shown: number;
  dom: number;
  ms: number;
  /** Indices (into the triage's rows) of the first rows in the order shown. */
  top?: number[];
  at: number;
}

/** The key store as tests see it: whether there is a key, never the key itself. */
export interface TestKeys {
  has(): boolean;
  /** Whether the key in use is `value` (an equality check; the key is never returned). */
  is(value: string): boolean;
  source(): ReturnType<Ctx['keys']['source']>;
  store(key: string): Promise<void>;
  clear(): Promise<void>;
  refresh(): Promise<void>;
  onDidChange: Ctx['keys']['onDidChange'];
}

/** The extension context as tests see it: state and log folder, and SecretStorage write-only. */
export interface TestExtensionContext {
  readonly globalState: vscode.Memento;
  readonly workspaceState: vscode.Memento;
  readonly logUri: vscode.Uri;
  /** Where the exploitation feeds' copies live (tests start them from scratch). */
  readonly globalStorageUri: vscode.Uri;
  /** Writes a secret as another window would (tests of the re-read); nothing reads one back. */
  writeSecret(key: string, value: string): Thenable<void>;
}

/** The context object without a way to read the key or SecretStorage. */
export type TestCtx = Omit<Ctx, 'keys' | 'extension'> & { keys: TestKeys; extension: TestExtensionContext };

/**
 * What `activate()` returns only in a host started in extension test mode with
 * ODIN_EXTENSION_TEST=1 (extension.ts); `undefined` otherwise. It gives tests the context object so they can drive state a person would set
 * through UI that the extension host cannot type into (the password input box), with the
 * key store and the extension context replaced by views that never hand out the key.
 */
export interface TestApi {
  ctx: TestCtx;
  contextValue(key: ContextKey): unknown;
  /** What the details pages reported through the webview kit's events (`rendered` counts, accepted/refused messages, phases). */
  details: PageRecorder<RenderedEvent>;
  /** What the triage page reported through the same events. */
  triageView: PageRecorder<TriageRenderedEvent>;
  /** What the chart pages reported (id: the summary's result-set id). */
  charts: PageRecorder<ChartRenderedEvent>;
  /** What the map pages reported (id: the result set's id). */
  maps: PageRecorder<MapRenderedEvent>;
  /** The search feature: results tree provider, saved-search store. */
  search: SearchProbe;
  /** The triage feature (loads it): last triage, verdict decorations. */
  triage(): TriageFeature;
  /** The agent tools and MCP server definition, as the agent feature registered them. */
  agent: RegisteredAgent;
  /** The "read/write this file?" modal for paths from command arguments: what it showed, and the answer to give. */
  pathPrompts: PathPrompts;
  /** The status-bar items by id (their command is what a click runs). */
  statusItems: ReadonlyMap<string, vscode.StatusBarItem>;
  /** The notebook feature (loads it): its controller and what its count item showed. */
  notebook: NotebookProbe;
}

/** What the composition root hands the test API besides `Ctx`: the features' own objects. */
export interface TestApiParts {
  /** Loads the search feature (it loads on first use): reading `search.feature` does. */
  loadSearch: () => SearchFeature;
  loadTriage: () => TriageFeature;
  agent: RegisteredAgent;
  notebook: NotebookProbe;
  statusItems: vscode.StatusBarItem[];
}

/**
 * Built at activation in extension test mode only: it subscribes to the webview kit's events
 * (`ctx.pages`) from the start and keeps what the tests read.
 */
export function createTestApi(ctx: Ctx, parts: TestApiParts): TestApi {
  const { loadSearch, loadTriage } = parts;
  const details = ctx.subscriptions.add(
    new PageRecorder<RenderedEvent>(
      ctx.pages,
      (page) => page === 'host' || page === 'whois',
      (r) => ({ ...(r.report as unknown as Omit<RenderedEvent, 'at'>), id: r.id, at: r.at }),
    ),
  );
  const triageView = ctx.subscriptions.add(
    new PageRecorder<TriageRenderedEvent>(
      ctx.pages,
      (page) => page === 'triage',
      (r) => ({
        ...(r.report as unknown as Omit<TriageRenderedEvent, 'at'>),
        page: 'triage',
        id: r.id,
        at: r.at,
      }),
    ),
  );
  const charts = ctx.subscriptions.add(
    new PageRecorder<ChartRenderedEvent>(
      ctx.pages,
      (page) => page === 'chart',
      (r) => ({
        ...(r.report as unknown as Omit<ChartRenderedEvent, 'at'>),
        page: 'chart',
        id: r.id,
        at: r.at,
      }),
    ),
  );
  const maps = ctx.subscriptions.add(
    new PageRecorder<MapRenderedEvent>(
      ctx.pages,
      (page) => page === 'map',
      (r) => ({
        ...(r.report as unknown as Omit<MapRenderedEvent, 'at'>),
        page: 'map',
        id: r.id,
        at: r.at,
      }),
    ),
  );
  return {
    ctx: guarded(ctx),
    contextValue: (key) => ctx.contextKeys.get(key),
    details,
    triageView,
    charts,
    maps,
    agent: parts.agent,
    notebook: parts.notebook,
    pathPrompts: ctx.argumentPaths.prompts,
    statusItems: new Map(parts.statusItems.map((item) => [item.id, item])),
    search: {
      get feature() {
        return loadSearch();
      },
    },
    triage: loadTriage,
  };
}

function guarded(ctx: Ctx): TestCtx {
  const keys: TestKeys = {
    has: () => ctx.keys.get() !== undefined,
    is: (value) => ctx.keys.get() === value,
    source: () => ctx.keys.source(),
    store: (key) => ctx.keys.store(key),
    clear: () => ctx.keys.clear(),
    refresh: () => ctx.keys.refresh(),
    onDidChange: (listener, thisArgs, disposables) => ctx.keys.onDidChange(listener, thisArgs, disposables),
  };
  const extension: TestExtensionContext = {
    globalState: ctx.extension.globalState,
    workspaceState: ctx.extension.workspaceState,
    logUri: ctx.extension.logUri,
    globalStorageUri: ctx.extension.globalStorageUri,
    writeSecret: (key, value) => ctx.extension.secrets.store(key, value),
  };
  // Methods run on the real object (`this` is never the proxy), so the extension's own code
  // keeps its key store; only what the tests read is replaced.
  return new Proxy(ctx, {
    get(target, prop) {
      if (prop === 'keys') return keys;
      if (prop === 'extension') return extension;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as unknown as TestCtx;
}
