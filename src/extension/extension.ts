import * as vscode from 'vscode';
import { Ctx } from './ctx';
import { registerDetailsLazy } from './details/lazy';
import { registerAgent } from './agent/lazy';
import { registerHuntsLazy } from './hunts/lazy';
import { registerNotebookLazy } from './notebook/lazy';
import type { OdinCommands } from './commands';
import { registerLookupLazy } from './lookup/lazy';
import { LookupStatus } from './lookup/statusBar';
import { keyCommands } from './keys/commands';
import { Log } from './shared/log';
import { watchSettings } from './shared/config';
import { useTranslator } from '../core/text/l10n';
import { registerSearchLazy } from './search/lazy';
import { registerCommands } from './shared/registerCommands';
import { KeyStore } from './shared/secrets';
import { creditsStatusOnDemand } from './triage/creditsStatus';
import { registerTriageLazy } from './triage/lazy';
import type { TestApi } from './testApi';

/**
 * The composition root: builds the one context object, then lets each feature register
 * its commands, views and providers. Nothing here waits on the network, and the search and
 * details features register stand-ins here and load their own bundles on first use.
 */
export async function activate(context: vscode.ExtensionContext): Promise<TestApi | undefined> {
  const started = performance.now();
  // First: settings read afterwards are kept until they change (shared/config.ts).
  context.subscriptions.push(watchSettings());
  // The plain modules' words (core/text/l10n.ts) in the display language, as vscode.l10n.t's.
  // Without a bundle (English) vscode.l10n.t only formats the message, as the core's `english`
  // does, at several times the cost (a hover card says a dozen words on the hover's path).
  if (vscode.l10n.bundle !== undefined) useTranslator(vscode.l10n.t);
  const log = new Log();
  context.subscriptions.push(log);
  try {
    const keys = new KeyStore(context.secrets, log);
    const ctx = new Ctx(context, log, keys);
    context.subscriptions.push(ctx, keys);

    const search = registerSearchLazy(ctx);
    const triage = registerTriageLazy(ctx);
    const notebook = registerNotebookLazy(ctx);
    const credits = creditsStatusOnDemand(ctx);
    const lookupStatus = ctx.subscriptions.add(new LookupStatus(ctx));
    const lookup = registerLookupLazy(ctx);
    // Every command of the map, in one loop through one error wrapper (the type checks that
    // none is missing).
    const commands: OdinCommands = {
      ...keyCommands(ctx),
      ...lookup.commands,
      ...search.commands,
      ...registerDetailsLazy(ctx),
      ...triage.commands,
      'odin.refreshCredits': () => credits().refresh(),
      ...registerHuntsLazy(ctx, search.load),
      ...notebook.commands,
    };
    registerCommands(ctx, commands);
    const agent = registerAgent(ctx);

    // Reading the keyring is a round trip to the workbench: activation does not wait for
    // it. The welcome view and hovers follow as soon as the key is known.
    const keyReady = (async () => {
      await keys.refresh();
      log.addSecret(keys.get());
      await ctx.updateKeyContext();
      // l10n: English, for the log
      log.info(
        `Key source: ${keys.source()} (${(performance.now() - started).toFixed(1)} ms after activation began)`,
      );
    })().catch((err: unknown) => log.error(err instanceof Error ? err : String(err)));
    // Written after activation: reading the API setting is a settings read activation does
    // not need (every read there delays the start).
    const activatedMs = (performance.now() - started).toFixed(1);
    // l10n: English, for the log
    setImmediate(() => log.info(`Activated in ${activatedMs} ms (API ${ctx.origin()})`));

    // The TestApi only when VS Code was started in extension test mode (--extensionTestsPath
    // with this extension under development: neither another extension nor a workspace can
    // arrange that) AND the harness set ODIN_EXTENSION_TEST=1. An installed extension
    // returns nothing, whatever the environment says. It never holds the key (testApi.ts).
    if (context.extensionMode === vscode.ExtensionMode.Test && process.env.ODIN_EXTENSION_TEST === '1') {
      const { createTestApi } = await import('./testApi');
      // Created before the wait, so it hears every page's events from the start.
      const api = createTestApi(ctx, {
        loadSearch: search.load,
        loadTriage: triage.load,
        hover: (uri, line, ch) => lookup.load().test.hover(uri, line, ch),
        agent,
        notebook,
        statusItems: () => [lookupStatus.item, credits().item],
      });
      await keyReady;
      return api;
    }
    return undefined;
  } catch (err) {
    // Activation failures are shown, not swallowed.
    log.error(err instanceof Error ? err : String(err));
    void vscode.window
      .showErrorMessage(
        vscode.l10n.t('ODIN failed to start: {0}', err instanceof Error ? err.message : String(err)),
        vscode.l10n.t('Show Log'),
      )
      .then((choice) => choice && log.show());
    return undefined;
  }
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
