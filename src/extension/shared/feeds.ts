import type * as vscode from 'vscode';
import { FeedFiles, Feeds } from '../../core/exploitation';
import { config, onConfigChange } from './config';
import { feedSource } from './feedSource';
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
 * the embedded emulator in demo mode, whose copies live apart), and whether a download may
 * run now is the one gate's answer (`mayFetchFeeds`: never with lookups off or in Restricted
 * Mode). Built on first need (`ctx.feeds`), never at activation; the request is a plain
 * `fetch` of the host (its proxy settings apply) with no ODIN header and no key. A change of
 * the gate, the connection (the demo) or the feed settings stops a download under way, and
 * so does closing the window.
 */
export function createFeeds(ctx: FeedsHost): Feeds {
  const byDir = new Map<string, FeedFiles>();
  const filesIn = (dir: string): FeedFiles => {
    let files = byDir.get(dir);
    if (!files) {
      files = new FeedFiles({
        dir,
        fetch: (input, init) => fetch(input, init),
        log: (msg) => ctx.log.info(msg),
      });
      byDir.set(dir, files);
    }
    return files;
  };
  const feeds = new Feeds(
    () => filesIn(feedSource(ctx).dir),
    () => {
      const source = feedSource(ctx);
      return {
        enabled: config.feeds().enabled,
        kevUrl: source.kevUrl,
        epssUrl: source.epssUrl,
        mayDownload: ctx.gate.current().mayFetchFeeds(),
      };
    },
  );
  ctx.subscriptions.add(ctx.gate.onDidChange(() => feeds.invalidate()));
  ctx.subscriptions.add(ctx.onDidChangeConnection(() => feeds.invalidate()));
  ctx.subscriptions.add(
    onConfigChange((e) => {
      if (e.affectsConfiguration('odin.feeds')) feeds.invalidate();
    }),
  );
  ctx.subscriptions.add({ dispose: () => feeds.dispose() });
  return feeds;
}
