// Where the feed copies live and where they come from: small and apart from feeds.ts, so the
// MCP server definition (agent/mcp.ts) can tell the server at activation without loading the
// feed parsers.
import * as path from 'node:path';
import { config } from './config';
// A type only (erased): feeds.ts and its parsers are not loaded by this module.
import type { FeedsHost } from './feeds';

/**
 * Where the window's copies live and the URLs they must come from: the user's feeds in
 * `feeds/`, the demo's in `feeds-demo/` (so a demo copy never stands for a real feed, in this
 * window, another one, or the MCP server, which is told the same).
 */
export function feedSource(ctx: Pick<FeedsHost, 'extension' | 'demoUrl'>): {
  dir: string;
  kevUrl: string;
  epssUrl: string;
} {
  const storage = ctx.extension.globalStorageUri.fsPath;
  const demo = ctx.demoUrl();
  if (demo)
    return {
      dir: path.join(storage, 'feeds-demo'),
      kevUrl: `${demo}/feeds/kev.json`,
      epssUrl: `${demo}/feeds/epss.csv.gz`,
    };
  const c = config.feeds();
  return { dir: path.join(storage, 'feeds'), kevUrl: c.kevUrl, epssUrl: c.epssUrl };
}
