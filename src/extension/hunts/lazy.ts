/**
 * What activation registers for hunts without loading them: the commands (stand-ins) and a
 * watch for the first `.odinq` document, or Markdown with an ```odinq fence. Then
 * dist/hunts.js (the parser, the `lucene` package and the language providers) loads once.
 * Nothing in a document runs by itself: loading registers providers, running is a click.
 */
import * as vscode from 'vscode';
import { standIns, type CommandsOf } from '../commands';
import type { Ctx } from '../ctx';
import type { SearchFeature } from '../search';
import type { HuntsFeature } from './index';
import { FENCE_RE, HUNT_LANGUAGE } from './ids';

/** Returns the hunts' command handlers (registered with the others by the composition root). */
export function registerHuntsLazy(ctx: Ctx, search: () => SearchFeature): CommandsOf<'hunts'> {
  let feature: HuntsFeature | undefined;
  const load = (): HuntsFeature => {
    if (!feature) {
      const started = performance.now();
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const bundle = require('./index') as typeof import('./index');
      feature = bundle.createHunts(ctx, search);
      // l10n: English, for the log
      ctx.log.debug(`Hunts feature loaded in ${(performance.now() - started).toFixed(1)} ms`);
    }
    return feature;
  };
  const wants = (doc: vscode.TextDocument): boolean =>
    doc.languageId === HUNT_LANGUAGE || (doc.languageId === 'markdown' && FENCE_RE.test(doc.getText()));
  const check = (doc: vscode.TextDocument): void => {
    if (!feature && wants(doc)) load();
  };
  const watch = vscode.workspace.onDidOpenTextDocument(check);
  const watchChange = vscode.workspace.onDidChangeTextDocument((e) => {
    if (
      !feature &&
      e.document.languageId === 'markdown' &&
      e.contentChanges.some((c) => c.text.includes('odinq'))
    )
      check(e.document);
  });
  ctx.subscriptions.add(watch);
  ctx.subscriptions.add(watchChange);
  for (const doc of vscode.workspace.textDocuments) check(doc);

  return standIns('hunts', () => load().commands());
}
