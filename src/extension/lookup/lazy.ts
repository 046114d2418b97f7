/**
 * What activation registers for hover enrichment without loading it: the hover provider and
 * the lookup commands, as stand-ins. The feature (dist/lookup.js: detection, the card, the
 * lookups, List Indicators) loads on a turn after activation once an editor is shown (so it is
 * there before anyone can hover), or with the first hover or command if that comes first.
 */
import * as vscode from 'vscode';
import { standIns, type CommandsOf } from '../commands';
import type { Ctx } from '../ctx';
import { HOVER_SELECTOR } from './ids';
import type { LookupFeature } from './index';

export function registerLookupLazy(ctx: Ctx): {
  commands: CommandsOf<'lookup'>;
  /** The feature, loaded on first call (the TestApi's hooks). */
  load: () => LookupFeature;
} {
  let feature: LookupFeature | undefined;
  const load = (): LookupFeature => {
    if (!feature) {
      const started = performance.now();
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      feature = (require('./index') as typeof import('./index')).createLookup(ctx);
      // l10n: English, for the log
      ctx.log.debug(`Lookup feature loaded in ${(performance.now() - started).toFixed(1)} ms`);
    }
    return feature;
  };
  ctx.subscriptions.add(
    vscode.languages.registerHoverProvider(HOVER_SELECTOR, {
      provideHover: (doc, position, token) => load().provider.provideHover(doc, position, token),
    }),
  );
  const warm = (): void => {
    if (!feature && vscode.window.visibleTextEditors.length === 0) return;
    shown.dispose();
    try {
      load();
    } catch (err) {
      // Not a crash on a later turn: the first hover or command tries again and reports it.
      ctx.log.error(err instanceof Error ? err : String(err));
    }
  };
  const shown = ctx.subscriptions.add(vscode.window.onDidChangeVisibleTextEditors(warm));
  setImmediate(warm);
  if (ctx.extension.extensionMode === vscode.ExtensionMode.Test && process.env.ODIN_EXTENSION_TEST === '1') {
    // Test/bench hooks (not contributed, so not in the palette): lookup/index.ts LookupTestHooks.
    const hook = (name: keyof LookupFeature['test']): void => {
      const run = (uri: string, line: number, ch: number) => load().test[name](uri, line, ch);
      ctx.subscriptions.add(vscode.commands.registerCommand(`odin.test.${name}`, run));
    };
    hook('hover');
    hook('card');
  }
  return { commands: standIns('lookup', () => load().commands), load };
}
