import { agentProbe, type AgentProbe } from './agent';
import type { Ctx } from './ctx';
import type { ContextKey } from './shared/contextKeys';
import type { DetailsProbe } from './shared/detailsProbe';
import type { SearchFeature } from './search';
import type { SearchProbe } from './search/probe';
import type { TriageFeature } from './triage';

/**
 * What `activate()` returns when the environment variable ODIN_EXTENSION_TEST=1 is set
 * (the integration tests inside the real VS Code host); `undefined` otherwise. It gives
 * tests the context object so they can drive state a person would set through UI that
 * the extension host cannot type into (the password input box).
 */
export interface TestApi {
  ctx: Ctx;
  contextValue(key: ContextKey): unknown;
  /** What the details webviews reported (`rendered` counts, accepted/refused messages). */
  details: DetailsProbe;
  /** The search feature: results tree provider, saved-search store (issue 5). */
  search: SearchProbe;
  /** The triage feature (loads it): last triage, verdict decorations. */
  triage(): TriageFeature;
  /** The agent tools and MCP server definition (issue 20). */
  agent: AgentProbe;
}

/** `loadSearch` loads the search feature (it loads on first use): reading `search.feature` does. */
export function createTestApi(ctx: Ctx, loadSearch: () => SearchFeature, loadTriage: () => TriageFeature): TestApi {
  return {
    ctx,
    contextValue: (key) => ctx.contextKeys.get(key),
    details: ctx.detailsProbe,
    agent: agentProbe,
    search: {
      get feature() {
        return loadSearch();
      },
    },
    triage: loadTriage,
  };
}
