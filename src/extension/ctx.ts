import * as vscode from 'vscode';
import type { OdinClient } from '../api/client';
import type { CreditsUsage } from '../api/types';
import { config, onConfigChange } from './shared/config';
import { ContextKeys, ContextKeyValues } from './shared/contextKeys';
import type { RequestLayer } from '../core/requests/layer';
import { SessionLedger } from '../core/requests/ledger';
import { ArgumentPaths } from './shared/argumentPath';
import type { SessionGate } from './shared/gate';
import { DisposableStore } from './shared/disposable';
import type { Feeds } from '../core/exploitation';
import type { Log } from './shared/log';
import type { KeyStore } from './shared/secrets';
import { Pages } from './webviewKit/pages';

/** The embedded API emulator, when the user chose "Try with Demo Data". */
export interface DemoServer {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/**
 * The one context object built in `activate()` and handed to every feature: no DI
 * container, no globals. Features keep their own state and register their disposables
 * in `ctx.subscriptions`.
 */
export class Ctx implements vscode.Disposable {
  readonly subscriptions = new DisposableStore();
  /** The context keys this window has set (package.json `when` clauses read them). */
  readonly contextKeys = new ContextKeyValues();
  /** The webview pages of this window (webviewKit/): which are open, their events, their restore. */
  readonly pages = new Pages();
  /** Asks before a file named in a command argument is read or written outside the workspace. */
  readonly argumentPaths = new ArgumentPaths();
  private sessionLedger: SessionLedger | undefined;
  private readonly ledgerChanged = new vscode.EventEmitter<void>();
  /** Fires when the ledger charges, notes a balance or changes its budget. */
  readonly onDidChangeLedger = this.ledgerChanged.event;
  /**
   * The window's credit ledger: every request of every surface is charged to it by the
   * request layer, within the session budget of `odin.sessionBudget`. Built on first need:
   * reading the setting is the only settings read activation would otherwise make.
   */
  get ledger(): SessionLedger {
    if (!this.sessionLedger) {
      const ledger = new SessionLedger({ budget: config.sessionBudget() });
      this.subscriptions.add(ledger.onDidChange(() => this.ledgerChanged.fire()));
      this.sessionLedger = ledger;
    }
    return this.sessionLedger;
  }
  private ids = 0;
  private readonly connectionChanged = new vscode.EventEmitter<void>();
  /** Fires when the API origin or the key changes: caches, trees and pauses reset. */
  readonly onDidChangeConnection = this.connectionChanged.event;
  private cachedClient: { key: string; client: OdinClient } | undefined;
  private demo: DemoServer | undefined;

  constructor(
    readonly extension: vscode.ExtensionContext,
    readonly log: Log,
    readonly keys: KeyStore,
  ) {
    this.subscriptions.add(this.connectionChanged);
    this.subscriptions.add(this.ledgerChanged);
    this.subscriptions.add(this.pages);
    this.subscriptions.add(
      keys.onDidChange(() => {
        this.log.addSecret(keys.get());
        void this.updateKeyContext();
        this.connectionChanged.fire();
      }),
    );
    this.subscriptions.add(
      onConfigChange((e) => {
        if (e.affectsConfiguration('odin.sessionBudget'))
          this.sessionLedger?.setBudget(config.sessionBudget());
        if (
          e.affectsConfiguration('odin.apiBaseUrl') ||
          e.affectsConfiguration('odin.requestTimeoutSeconds')
        ) {
          this.connectionChanged.fire();
        }
      }),
    );
  }

  /** A new id, unique in this window: `r1`, `r2`, … for result sets. */
  nextId(prefix: string): string {
    return `${prefix}${++this.ids}`;
  }

  /** The API base URL in use: the embedded emulator in demo mode, else the user setting. */
  baseUrl(): string {
    return this.demo?.url ?? config.apiBaseUrl();
  }

  /**
   * The origin (scheme + host + port) that caches and pauses are keyed by. Read several times
   * a lookup (the cache key, each check that the origin did not change): parsed once per
   * base URL.
   */
  origin(): string {
    const base = this.baseUrl();
    if (this.parsedOrigin?.base !== base) {
      let origin: string;
      try {
        origin = new URL(base).origin;
      } catch {
        origin = base;
      }
      this.parsedOrigin = { base, origin };
    }
    return this.parsedOrigin.origin;
  }
  private parsedOrigin: { base: string; origin: string } | undefined;

  private sessionGate: SessionGate | undefined;
  /** The one gate of this window: settings, trust and the session's Restricted Mode consent. */
  get gate(): SessionGate {
    return (this.sessionGate ??= this.subscriptions.add(new (connection().SessionGate)()));
  }

  private requestLayer: RequestLayer | undefined;
  /** The shared lookup layer (cache, limits, one request per target, pause); built on first use. */
  get requests(): RequestLayer {
    return (this.requestLayer ??= connection().createRequestLayer(this));
  }

  /** Credits spent so far (the ledger's: reading this does not build the layer). */
  requestsSent(): number {
    return this.sessionLedger?.spent ?? 0;
  }

  private exploitationFeeds: Feeds | undefined;
  /**
   * The KEV and EPSS feeds (shared/feeds.ts); built on first need, loaded by `ensure()`. The
   * module too is loaded then (a `require` esbuild evaluates when it runs): the feed parsers
   * and node:zlib are no part of activation (it stays fast).
   */
  get feeds(): Feeds {
    if (!this.exploitationFeeds) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const m = require('./shared/feeds') as typeof import('./shared/feeds');
      this.exploitationFeeds = m.createFeeds(this);
    }
    return this.exploitationFeeds;
  }

  /** The embedded emulator's URL in demo mode, else undefined. */
  demoUrl(): string | undefined {
    return this.demo?.url;
  }

  isDemo(): boolean {
    return this.demo !== undefined;
  }

  /** The API client for the current base URL and timeout; the key is read per request. */
  client(): OdinClient {
    const baseUrl = this.baseUrl();
    const timeoutMs = config.requestTimeoutMs();
    const cacheKey = `${baseUrl}\n${timeoutMs}`;
    if (this.cachedClient?.key !== cacheKey) {
      this.cachedClient = {
        key: cacheKey,
        client: new (connection().OdinClient)({
          baseUrl,
          timeoutMs,
          apiKey: () => this.keys.get(),
          log: this.log.sink,
          userAgent: `odin-vscode/${String(this.extension.extension.packageJSON.version ?? '0')}`,
        }),
      };
    }
    return this.cachedClient.client;
  }

  /** Switches to (or away from) the embedded emulator. */
  async setDemo(server: DemoServer | undefined): Promise<void> {
    const previous = this.demo;
    this.demo = server;
    this.keys.setDemoKey(server?.apiKey);
    await this.contextKeys.set(ContextKeys.demoMode, server !== undefined);
    this.connectionChanged.fire();
    if (previous && previous !== server) await previous.close();
  }

  /**
   * The key's credits as the service says now (core/search/run.ts), noted in the ledger. The
   * search path loads with the request layer (dist/connection.js), not at activation.
   */
  readCredits(opts: { signal?: AbortSignal } = {}): Promise<CreditsUsage> {
    return connection().readCredits(this, opts);
  }

  async updateKeyContext(): Promise<void> {
    await this.contextKeys.set(ContextKeys.hasApiKey, this.keys.get() !== undefined);
    await this.contextKeys.set(ContextKeys.keySource, this.keys.source());
  }

  dispose(): void {
    const demo = this.demo;
    this.demo = undefined;
    if (demo) void demo.close().catch(() => undefined);
    this.subscriptions.dispose();
  }
}

/** The gate, the request layer and the API client: dist/connection.js, loaded on first need. */
function connection(): typeof import('./shared/connection') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./shared/connection') as typeof import('./shared/connection');
}
