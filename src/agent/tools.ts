/**
 * The ODIN tools for agents, shared by the VS Code language-model tools and the MCP
 * server: names, descriptions written for a model, input schemas, what each call sends,
 * and compact, framed answers (see format.ts). Every value a tool sends passes the agent
 * gate first (gate.ts); every request goes through the shared request layer (cache, one
 * request per target, client-side limits, pause after auth/quota answers).
 *
 *   toolKit.ts        the tool and context types, input schema pieces, gate and request helpers
 *   answerLines.ts    the answers' lines (counts, listings, one record)
 *   apiTools.ts       the tools that ask the API: hosts, whois, subdomains, buckets, files
 *   queryTools.ts     the three shapes of a tool over a query: search, count, summary
 *   indicatorTool.ts  the indicators of a text (local only)
 *   triageTool.ts     the triage of a text (local scan, then batched enrichment)
 *   exploitedTool.ts  which CVEs are known exploited (KEV) and their EPSS (local feeds only)
 *
 * Pure Node: no `vscode` import.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { englishWhile } from '../core/text/l10n';
import {
  countFiles,
  countHosts,
  countSubdomains,
  lookupHost,
  searchBuckets,
  searchHosts,
  searchSubdomains,
  summarizeFiles,
  summarizeHosts,
  whois,
} from './apiTools';
import { knownExploitedTool } from './exploitedTool';
import { listIndicatorsTool } from './indicatorTool';
import { redactingContext, type AgentTool, type PreparedCall, type ToolContext } from './toolKit';
import { triageFileTool } from './triageTool';

export { ToolInputError } from './schema';
export {
  MAX_RESULTS,
  ToolRefusal,
  toolErrorText,
  type AgentTool,
  type PreparedCall,
  type ToolContext,
} from './toolKit';
export * from './apiTools';
export {
  indicatorsAnswer,
  JSON_BYTES_PER_CHAR,
  listIndicatorsTool,
  MAX_INDICATOR_TEXT,
  MCP_MESSAGE_BYTES,
} from './indicatorTool';
export { knownExploitedTool, MAX_CVE_IDS } from './exploitedTool';
export { TRIAGE_DEFAULT_MAX_REQUESTS, TRIAGE_MAX_REQUESTS, triageFileTool } from './triageTool';

/** Every tool, in the order both surfaces list them. */
export const AGENT_TOOLS: readonly AgentTool[] = [
  lookupHost,
  searchHosts,
  countHosts,
  summarizeHosts,
  whois,
  countSubdomains,
  searchSubdomains,
  searchBuckets,
  countFiles,
  summarizeFiles,
  listIndicatorsTool,
  triageFileTool,
  knownExploitedTool,
];

/** Set while a tool call answers the model (and in everything it awaits). */
const answeringTheModel = new AsyncLocalStorage<true>();
englishWhile(() => answeringTheModel.getStore() === true);

export function findTool(name: string): AgentTool | undefined {
  return AGENT_TOOLS.find((t) => t.name === name);
}

/**
 * Runs one tool call end to end: validate, gate, run. The answer is text; a refusal,
 * bad input or API error is thrown as an error whose message is short (`toolErrorText`).
 * `confirmed`: the call a confirmation showed (ConfirmedCalls), run as it was prepared, so
 * the request count the user agreed to stays its ceiling.
 */
export async function invokeTool(
  tool: AgentTool,
  input: unknown,
  ctx: ToolContext,
  signal?: AbortSignal,
  confirmed?: PreparedCall,
): Promise<string> {
  // The answer is for the model: the core's words in it stay English whatever the UI speaks.
  return answeringTheModel.run(true, async () => {
    // Without a confirmation a run scans for itself (`prepare`), bounded by maxRequests.
    const call = confirmed ?? tool.prepare(input, ctx);
    // Answers are redacted as they come in, before any line is built or cut.
    const safe = redactingContext(ctx);
    return safe.clean(await call.run(safe.ctx, signal));
  });
}
