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
 *   exploitedTool.ts  which CVEs are known exploited (KEV) and their EPSS (the public feeds)
 *   notebookTool.ts   a notebook's last case record (a local file)
 *   quotaTool.ts      the balance, the session's spending and budget, a proposed call's cost
 *
 * The cost contract, the same on both surfaces: a call whose estimate (from the cache) would
 * pass the session budget sends nothing and answers "not spent" with what would fit; a
 * 402/403 answers "not entitled"; every answer carries its structured form (OUTPUT_SCHEMA).
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
import { notebookRecordTool } from './notebookTool';
import type { LedgerSnapshot } from '../core/requests/ledger';
import { quotaTool } from './quotaTool';
import {
  contractError,
  estimate,
  NotEntitledError,
  NotSpentError,
  redactingContext,
  type AgentTool,
  type Estimate,
  type PreparedCall,
  type ToolContext,
} from './toolKit';
import { triageFileTool } from './triageTool';

export { ToolInputError } from './schema';
export {
  MAX_RESULTS,
  ToolRefusal,
  toolErrorText,
  NotEntitledError,
  NotSpentError,
  type AgentTool,
  type Estimate,
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
export { notebookRecordTool } from './notebookTool';
export { TRIAGE_DEFAULT_MAX_REQUESTS, TRIAGE_MAX_REQUESTS, triageFileTool } from './triageTool';

/** `odin_quota`, which estimates any other tool's call (the list is read when it runs). */
export const odinQuotaTool: AgentTool = quotaTool(
  () => AGENT_TOOLS.map((t) => t.name),
  (name) => findTool(name),
);

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
  notebookRecordTool,
  odinQuotaTool,
];

/** What every answer carries beside its text (MCP `structuredContent`). */
export interface StructuredAnswer {
  [key: string]: unknown;
  tool: string;
  /** `ok`: answered; `notSpent`: over the session budget, nothing sent; `notEntitled`: 402/403. */
  status: 'ok' | 'notSpent' | 'notEntitled';
  text: string;
  /** What the call was estimated to cost before it ran (from the cache). */
  estimate: Estimate;
  /** The session after the call: credits spent, requests, the budget and what is left. */
  session: { spent: number; requests: number; budget?: number; left?: number };
  quota?: Record<string, unknown>;
}

const count = { type: 'integer', minimum: 0 } as const;

/** The output schema every tool declares (MCP `outputSchema`). */
export const OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    tool: { type: 'string' },
    status: { type: 'string', enum: ['ok', 'notSpent', 'notEntitled'] },
    text: { type: 'string', description: 'The answer as framed text (scan data quoted between markers).' },
    estimate: {
      type: 'object',
      properties: { requests: count, credits: count },
      required: ['requests', 'credits'],
    },
    session: {
      type: 'object',
      properties: { spent: count, requests: count, budget: count, left: count },
      required: ['spent', 'requests'],
    },
    quota: {
      type: 'object',
      description:
        "odin_quota only: the balance ODIN reports, this session's spending and budget, a proposed call's estimate.",
    },
  },
  required: ['tool', 'status', 'text', 'estimate', 'session'],
} as const;

function sessionOf(s: LedgerSnapshot | undefined): StructuredAnswer['session'] {
  if (!s) return { spent: 0, requests: 0 };
  return {
    spent: s.spent,
    requests: s.requests,
    ...(s.budget !== undefined ? { budget: s.budget, left: s.left ?? 0 } : {}),
  };
}

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
  return (await answerTool(tool, input, ctx, signal, confirmed)).text;
}

/**
 * `invokeTool` with the structured answer: the estimate made before anything is sent (a
 * call that would pass the session budget sends nothing: "not spent", with what would fit),
 * a 402/403 as "not entitled", and the session's spending after the call.
 */
export async function answerTool(
  tool: AgentTool,
  input: unknown,
  ctx: ToolContext,
  signal?: AbortSignal,
  confirmed?: PreparedCall,
): Promise<{ text: string; structured: StructuredAnswer }> {
  // The answer is for the model: the core's words in it stay English whatever the UI speaks.
  return answeringTheModel.run(true, async () => {
    // Without a confirmation a run scans for itself (`prepare`), bounded by maxRequests.
    const call = confirmed ?? tool.prepare(input, ctx);
    const ledger = tool.local ? undefined : ctx.requests.ledger;
    const est = tool.local ? { requests: 0, credits: 0 } : estimate(call, ctx);
    const answer = (status: StructuredAnswer['status'], text: string) => {
      const data = call.data?.();
      return {
        text,
        structured: {
          tool: tool.name,
          status,
          text,
          estimate: est,
          session: sessionOf(ledger?.snapshot()),
          ...data,
        },
      };
    };
    // Answers are redacted as they come in, before any line is built or cut.
    const safe = redactingContext(ctx);
    try {
      if (ledger && est.credits > 0 && !ledger.fits(est.credits))
        throw new NotSpentError(est.credits, ledger.snapshot());
      return answer('ok', safe.clean(await call.run(safe.ctx, signal)));
    } catch (err) {
      const e = contractError(err, ledger?.snapshot(), est.credits);
      if (e instanceof NotSpentError) return answer('notSpent', e.message);
      if (e instanceof NotEntitledError) return answer('notEntitled', e.message);
      throw e;
    }
  });
}
