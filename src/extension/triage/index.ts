// The triage feature bundle (dist/triage.js), loaded on the first triage command
// (./lazy.ts registers the commands at activation without loading it).
import type { CommandsOf } from '../commands';

type CommandMap = Omit<CommandsOf<'triage'>, 'odin.refreshCredits'>;
import type { Ctx } from '../ctx';
import { triageCommands } from './commands';
import { VerdictDecorations } from './decorations';
import { InfraProblems } from './problems';
import { triageSettings } from './settings';
import { TriageState } from './state';
import type { TriageView } from './view';

export interface TriageFeature {
  state: TriageState;
  commands: CommandMap;
  /** Turns the verdict decorations on or off (setting `odin.triage.decorations`). */
  setDecorations(on: boolean): VerdictDecorations | undefined;
  /** Turns the Problems entries for infrastructure files on or off (setting `odin.triage.problems`). */
  setProblems(on: boolean): InfraProblems | undefined;
  /** The open triage view, if any (its reports reach tests as the webview kit's events). */
  view(): TriageView | undefined;
  /** The settings as the triage reads them (a workspace may lower its limits, never raise them). */
  settings: typeof triageSettings;
}

export function createTriage(ctx: Ctx): TriageFeature {
  const state = new TriageState();
  ctx.subscriptions.add(state);
  let decorations: VerdictDecorations | undefined;
  ctx.subscriptions.add({ dispose: () => decorations?.dispose() });
  // A triage fills the cache: the decorations follow at once.
  ctx.subscriptions.add(state.onDidChange(() => decorations?.schedule()));
  let problems: InfraProblems | undefined;
  ctx.subscriptions.add({ dispose: () => problems?.dispose() });
  ctx.subscriptions.add(state.onDidChange(() => problems?.refreshAll()));
  return {
    state,
    commands: triageCommands(ctx, state),
    view: () => state.view,
    settings: triageSettings,
    setDecorations(on) {
      if (on && !decorations) decorations = new VerdictDecorations(ctx);
      if (!on && decorations) {
        decorations.dispose();
        decorations = undefined;
      }
      return decorations;
    },
    setProblems(on) {
      if (on && !problems) problems = new InfraProblems(ctx);
      if (!on && problems) {
        problems.dispose();
        problems = undefined;
      }
      return problems;
    },
  };
}
