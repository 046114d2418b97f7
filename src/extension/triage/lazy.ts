/**
 * What activation registers for the triage feature without loading it: its commands. The
 * feature (dist/triage.js: scan, preview, enrichment, reports) loads on the first command.
 */
import * as vscode from 'vscode';
import type { CommandsOf } from '../commands';
import type { Ctx } from '../ctx';
import { config } from '../shared/config';
import { TRIAGE_COMMANDS } from './ids';
import type { TriageFeature } from './index';

export function registerTriageLazy(ctx: Ctx): {
  commands: Omit<CommandsOf<'triage'>, 'odin.refreshCredits'>;
  load: () => TriageFeature;
} {
  let loaded: TriageFeature | undefined;
  const load = (): TriageFeature => {
    if (!loaded) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const bundle = require('./index') as typeof import('./index');
      loaded = bundle.createTriage(ctx);
    }
    return loaded;
  };
  const commands = Object.fromEntries(
    TRIAGE_COMMANDS.map((id) => [
      id,
      (...args: unknown[]) => (load().commands[id] as (...a: unknown[]) => unknown)(...args),
    ]),
  ) as unknown as Omit<CommandsOf<'triage'>, 'odin.refreshCredits'>;
  // Verdict decorations and Problems entries are opt-in: the feature loads for them only when
  // a setting is on (read through the kept `odin` settings, which hovers and requests reuse).
  const sync = (): void => {
    const on = config.triageViews();
    if (on.decorations) load().setDecorations(true);
    else loaded?.setDecorations(false);
    if (on.problems) load().setProblems(true);
    else loaded?.setProblems(false);
  };
  ctx.subscriptions.add(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('odin.triage.decorations') || e.affectsConfiguration('odin.triage.problems'))
        sync();
    }),
  );
  sync();
  return { commands, load };
}
