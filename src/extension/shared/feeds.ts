import * as path from 'node:path';
import type * as vscode from 'vscode';
import { FeedFiles, Feeds } from '../../core/exploitation';
import { config } from './config';
import type { DisposableStore } from './disposable';
import type { SessionGate } from './gate';
import type { Log } from './log';

/** What the feeds use of Ctx (not Ctx itself: ctx.ts builds them, so no import circle). */
export interface FeedsHost {
  readonly extension: Pick<vscode.ExtensionContext, 'globalStorageUri'>;
  readonly log: Pick<Log, 'info'>;
  readonly gate: Pick<SessionGate, 'current' | 'onDidChange'>;
  readonly subscriptions: DisposableStore;
  readonly onDidChangeConnection: vscode.Event<void>;
  demoUrl(): string | undefined;
}

/**
 * The window's exploitation feeds (core/exploitation/feedFiles.ts) bound to VS Code: the
 * copies live in the extension's global storage, the URLs come from the user settings (or
 * the embedded emulator in demo mode), and whether a download may run now is the one gate's
 * answer (`mayFetchFeeds`: never with lookups off or in Restricted Mode). Built on first
 * need (`ctx.feeds`), never at activation; the request is a plain `fetch` of the host (its
 * proxy settings apply) with no ODIN header and no key.
 */
export function createFeeds(ctx: FeedsHost): Feeds {
  const dir = feedsDir(ctx);
  const feeds = new Feeds(
    new FeedFiles({
      dir,
      fetch: (input, init) => fetch(input, init),
      log: (msg) => ctx.log.info(msg),
    }),
    () => {
      const c = config.feeds();
      const demo = ctx.demoUrl();
      return {
        enabled: c.enabled,
        kevUrl: demo ? `${demo}/feeds/kev.json` : c.kevUrl,
        epssUrl: demo ? `${demo}/feeds/epss.csv.gz` : c.epssUrl,
        mayDownload: ctx.gate.current().mayFetchFeeds(),
      };
    },
  );
  ctx.subscriptions.add(ctx.gate.onDidChange(() => feeds.invalidate()));
  ctx.subscriptions.add(ctx.onDidChangeConnection(() => feeds.invalidate()));
  return feeds;
}

/** Where the copies live (the MCP server reads them from here, never downloading itself). */
export function feedsDir(ctx: Pick<FeedsHost, 'extension'>): string {
  return path.join(ctx.extension.globalStorageUri.fsPath, 'feeds');
}
