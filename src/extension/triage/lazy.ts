/**
 * What activation registers for the triage feature without loading it: its commands. The
 * feature (dist/triage.js: scan, preview, enrichment, reports) loads on the first command.
 */
import * as path from 'path';
import { registerCommands, type CommandMap } from '../shared/commands';
import type { Ctx } from '../ctx';
import { TRIAGE_COMMANDS } from './ids';
import type { TriageFeature } from './index';

export function registerTriageLazy(ctx: Ctx): () => TriageFeature {
  let loaded: TriageFeature | undefined;
  const load = (): TriageFeature => {
    if (!loaded) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const bundle = require(path.join(__dirname, 'triage.js')) as typeof import('./index');
      loaded = bundle.createTriage(ctx);
    }
    return loaded;
  };
  const commands: CommandMap = {};
  for (const id of TRIAGE_COMMANDS) commands[id] = (...args: unknown[]) => load().commands[id]!(...args);
  registerCommands(ctx, commands);
  return load;
}
