import * as vscode from 'vscode';
import { detect } from '../../core/detect';
import type { CommandsOf } from '../commands';
import type { Ctx } from '../ctx';
import { hoverCommands } from './commands';
import { indicatorAt, OdinHoverProvider } from './hoverProvider';
import { buildCard } from './lookups';
import { listIndicatorCommands } from './listIndicators';

/** Hover enrichment, loaded (dist/lookup.js) by its stand-ins in lazy.ts. */
export interface LookupFeature {
  readonly provider: OdinHoverProvider;
  readonly commands: CommandsOf<'lookup'>;
  readonly test: LookupTestHooks;
}

/**
 * Hover enrichment: the hover provider for every file, the lookup commands and List
 * Indicators. The request layer itself is `ctx.requests` (shared with trees and details).
 */
export function createLookup(ctx: Ctx): LookupFeature {
  const provider = new OdinHoverProvider(ctx);
  warmFeedsForHosts(ctx);
  const commands = { ...hoverCommands(ctx), ...listIndicatorCommands(ctx) };
  return { provider, commands, test: testHooks(ctx, provider) };
}

/** The test and bench hooks' handlers (registered by lazy.ts in extension test mode only). */
export interface LookupTestHooks {
  /** The provider's own time for one hover, without the workbench round trip `vscode.executeHoverProvider` adds. */
  hover(
    uri: string,
    line: number,
    character: number,
  ): Promise<{ ms: number; markdown?: string; sent: number }>;
  /** One card, as a click would build it. */
  card(uri: string, line: number, character: number): Promise<string | undefined>;
}

function testHooks(ctx: Ctx, provider: OdinHoverProvider): LookupTestHooks {
  return {
    async hover(uri, line, character) {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
      const source = new vscode.CancellationTokenSource();
      const t0 = performance.now();
      const hover = await provider.provideHover(doc, new vscode.Position(line, character), source.token);
      const ms = performance.now() - t0;
      source.dispose();
      const md = hover?.contents[0];
      return {
        ms,
        markdown: md instanceof vscode.MarkdownString ? md.value : undefined,
        sent: ctx.requests.sent,
      };
    },
    async card(uri, line, character) {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
      const found = indicatorAt(doc, new vscode.Position(line, character));
      if (!found) return undefined;
      // A test stands in for the user's click: confirmed, so no Restricted Mode modal.
      const decided = ctx.gate.decide(found.indicator.value, {
        trigger: 'explicit',
        source: 'command',
        consent: 'given',
      });
      return buildCard(ctx, { indicator: found.indicator, decided });
    },
  };
}

/** How much of each visible editor is read for an IP address (the visible lines, at most). */
const WARM_SCAN_CHARS = 64 * 1024;
const IPS = ['ipv4', 'ipv6'] as const;

/**
 * A host card shows the exploitation feeds, whose code is a part of its own (dist/feeds.js,
 * required by `ctx.feeds`). It loads before the first hover asks for it: once an editor shows
 * an IP address (this feature loads on a turn after activation, lazy.ts), so neither
 * activation nor the first cold hover pays for it.
 */
function warmFeedsForHosts(ctx: Ctx): void {
  const showsAnIp = ({ document: doc, visibleRanges }: vscode.TextEditor): boolean =>
    visibleRanges.some((r) => {
      const end = Math.min(doc.offsetAt(r.end), doc.offsetAt(r.start) + WARM_SCAN_CHARS);
      const text = doc.getText(new vscode.Range(r.start, doc.positionAt(end)));
      return detect(text, { mode: 'text', kinds: IPS, limit: 1 }).length > 0;
    });
  const warm = (editors: readonly vscode.TextEditor[]): void => {
    if (done || !editors.some(showsAnIp)) return;
    done = true;
    sub.dispose();
    void ctx.feeds;
  };
  let done = false;
  const sub = ctx.subscriptions.add(vscode.window.onDidChangeVisibleTextEditors(warm));
  warm(vscode.window.visibleTextEditors);
}
