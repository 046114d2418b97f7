/**
 * What activation registers for hunts without loading them: the commands (stand-ins) and a
 * watch for the first `.odinq` document, or Markdown with an ```odinq fence. Then
 * dist/hunts.js (the parser, the `lucene` package and the language providers) loads once.
 * Nothing in a document runs by itself: loading registers providers, running is a click.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { registerCommands, type CommandMap } from '../shared/commands';
import type { Ctx } from '../ctx';
import type { SearchFeature } from '../search';
import type { HuntsFeature } from './index';
import { FENCE_RE, HUNT_COMMANDS, HUNT_LANGUAGE } from './ids';

export function registerHuntsLazy(ctx: Ctx, search: () => SearchFeature): () => HuntsFeature {
  let feature: HuntsFeature | undefined;
  const load = (): HuntsFeature => {
    if (!feature) {
      const started = performance.now();
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const bundle = require(path.join(__dirname, 'hunts.js')) as typeof import('./index');
      feature = bundle.createHunts(ctx, search);
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

  const commands: CommandMap = {};
  for (const id of HUNT_COMMANDS)
    commands[id] = (...args: unknown[]) =>
      load()
        .commands()
        [id](...args);
  registerCommands(ctx, commands);
  return load;
}
