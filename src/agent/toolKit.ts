/**
 * What every ODIN agent tool is made of: the context a surface gives it, the shapes of a
 * tool and a prepared call, the input schema pieces, and the helpers that read input, pass
 * each value through the agent gate and send through the shared request layer.
 *
 * Pure Node: no `vscode` import.
 */
import type { OdinClient } from '../api/client';
import type { ExploitationView } from '../core/exploitation';
import { OdinApiError } from '../api/errors';
import { LocalRateLimitError } from '../core/requests/limiter';
import { redactDeep, redactSecrets } from '../core/text/redact';
import { LookupsPausedError, type LookupResult, type RequestLayer } from '../core/requests/layer';
import { OverBudgetError } from '../core/requests/budget';
import type { LedgerSnapshot } from '../core/requests/ledger';
import { CATALOGUE, peekSearch, type CatalogueSpec, type PageRequest } from '../core/search';
import type { AgentGate, ValueKind } from './gate';
import { ToolInputError, validateInput, type Input, type ObjectSchema } from './schema';

/** What the tools need from their surface. */
export interface ToolContext {
  client(): OdinClient;
  requests: RequestLayer;
  gate: AgentGate;
  /** The API origin requests go to (named in confirmations). */
  origin(): string;
  now?: () => number;
  /**
   * Local text for the indicator tool when the call names a file or none (the editor's
   * selection or document in VS Code). Absent on surfaces that only take text.
   */
  localText?: (file: string | undefined, signal?: AbortSignal) => Promise<{ text: string; source: string }>;
  /**
   * The folders a tool may read a named file in (the notebook record tool): real paths, a
   * file is read only when its real path is inside one (src/core/files/insideRoots.ts).
   * Absent or empty: no file is read.
   */
  workspaceFolders?: () => readonly string[];
  /**
   * Values never to appear in any output (the API key). Every answer a tool reads is
   * redacted before a line is built or cut (`redactingContext`), so no prefix survives a cut.
   */
  secrets?: () => Iterable<string>;
  /**
   * The KEV and EPSS feeds (local copies; never a request about a CVE). Absent where the
   * surface has none: answers then say so, never "not exploited".
   */
  exploitation?: () => Promise<ExploitationView | undefined>;
}

/** The gate refused: nothing was sent. The message says why. */
export class ToolRefusal extends Error {
  override readonly name = 'ToolRefusal';
}

/** One request a call will ask through the catalogue (for its estimate: cached ones cost nothing). */
export interface PlannedRequest {
  spec: CatalogueSpec;
  page?: PageRequest;
}

/** A prepared call: what it sends (undefined: nothing leaves the machine) and how to run it. */
export interface PreparedCall {
  sends?: string;
  /** The requests it will ask (its estimate: those the cache cannot answer). */
  plan?: PlannedRequest[];
  /** Or the count of requests it will send, when a local scan knew it (the triage). */
  requests?: number;
  /** Structured data beside the text, once the run ended (odin_quota's figures). */
  data?: () => Record<string, unknown> | undefined;
  /** Why nothing will be sent although the tool could send (shown instead of a confirmation). */
  note?: string;
  run(ctx: ToolContext, signal?: AbortSignal): Promise<string>;
}

export interface AgentTool {
  /** Stable tool name (`odin_…`), the same on both surfaces. */
  name: string;
  /** Short human title (confirmations, tool pickers). */
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  /** Sends nothing to ODIN and asks no confirmation (reads local text or feeds). */
  local: boolean;
  /**
   * What MCP clients and agent hosts are told about the tool: every tool only reads; a tool
   * that reaches anything outside this machine (ODIN, or the public KEV and EPSS feeds) is
   * open-world.
   */
  annotations: { readOnlyHint: true; destructiveHint: false; openWorldHint: boolean };
  /** Validates and gates the input; throws ToolInputError or ToolRefusal, never sends. */
  prepare(input: unknown, ctx: Pick<ToolContext, 'gate' | 'origin'>): PreparedCall;
  /**
   * For a tool whose cost is known only after reading local text and the cache (the
   * triage): the same as `prepare`, after a local scan. Sends nothing.
   */
  prepareLocal?(input: unknown, ctx: ToolContext, signal?: AbortSignal): Promise<PreparedCall>;
}

/** Most results a search tool returns (the API's limit; costs credits). */
export const MAX_RESULTS = 25;
export const DEFAULT_RESULTS = 10;

const QUERY_HELP =
  'ODIN query language: field:value terms joined with AND / OR / NOT and parentheses, quotes for phrases, e.g. services.port:22 AND location.country_code:DE, or services.modules.http.title:"admin". ';

export const query = (what: string): ObjectSchema['properties'][string] => ({
  type: 'string',
  description: `${QUERY_HELP}${what}`,
  minLength: 1,
  maxLength: 2000,
});
export const limit = {
  type: 'integer',
  description: `How many results to return (1-${MAX_RESULTS}, default ${DEFAULT_RESULTS}). Each result costs API credits; ask for few.`,
  minimum: 1,
  maximum: MAX_RESULTS,
  default: DEFAULT_RESULTS,
} as const;
export const field = (what: string): ObjectSchema['properties'][string] => ({
  type: 'string',
  description: `The field to group by, ${what}`,
  minLength: 1,
  maxLength: 100,
});

export function str(input: Input, key: string): string {
  const v = input[key];
  return typeof v === 'string' ? v.trim() : '';
}

export function int(input: Input, key: string, fallback: number): number {
  const v = input[key];
  return typeof v === 'number' ? v : fallback;
}

export function gated(gate: AgentGate, raw: string, kind: ValueKind): string {
  const blocked = gate.blocked();
  if (blocked) throw new ToolRefusal(blocked);
  const r = gate.value(raw, kind);
  if (!r.allowed) throw new ToolRefusal(r.reason);
  return r.value;
}

export function gatedQuery(gate: AgentGate, raw: string): string {
  const blocked = gate.blocked();
  if (blocked) throw new ToolRefusal(blocked);
  const r = gate.query(raw);
  if (!r.allowed) throw new ToolRefusal(r.reason);
  return raw;
}

/**
 * The context a tool runs in, with every answer of the request layer (fresh, cached or
 * peeked) redacted of the secrets before the tool reads it: a key echoed by the server is
 * gone before any field is quoted and cut to length, so not even a prefix of it reaches the
 * output. Also returns the redaction for the final text (a second line of defence).
 */
export function redactingContext(ctx: ToolContext): { ctx: ToolContext; clean: (text: string) => string } {
  const secrets = [...(ctx.secrets?.() ?? [])].filter((s) => s.length > 0);
  if (secrets.length === 0) return { ctx, clean: (t) => t };
  const layer = ctx.requests;
  const requests = new Proxy(layer, {
    get(target, prop) {
      const v: unknown = Reflect.get(target, prop, target);
      if (typeof v !== 'function') return v;
      const fn = v as (...args: unknown[]) => unknown;
      if (prop === 'get' || prop === 'send')
        return async (...args: unknown[]) => redactDeep(await fn.apply(target, args), secrets);
      if (prop === 'peek') return (...args: unknown[]) => redactDeep(fn.apply(target, args), secrets);
      return fn.bind(target);
    },
  });
  return {
    // Over `ctx` (not a copy of its own fields): a context made by another such wrapper
    // (ConfirmedCalls' kept text) and the extension's getters are read through.
    ctx: Object.create(ctx, { requests: { value: requests, enumerable: true } }) as ToolContext,
    clean: (t) => redactSecrets(t, secrets),
  };
}

/** The confirmation sentence: exactly what leaves the machine, and where to. */
export function sends(origin: string, what: string, endpoints: string): string {
  return `Sends ${what} to ODIN at ${origin} (${endpoints}), unless the answer is cached.`;
}

/** Where an answer came from when it was the local cache (empty for a fresh one). */
export function cacheNote(r: LookupResult<unknown>, c: Pick<ToolContext, 'now'>): string[] {
  if (!r.fromCache) return [];
  const now = c.now?.() ?? Date.now();
  const mins = Math.max(0, Math.round((now - r.storedAt) / 60_000));
  const age =
    mins < 60
      ? `${mins} min`
      : mins < 2880
        ? `${Math.round(mins / 60)} h`
        : `${Math.round(mins / 1440)} days`;
  return [`(answered from the local cache, ${age} old${r.stale ? ', stale' : ''})`];
}

/** Short text for any error a tool run ends with (no stack, no key, no raw body). */
export function toolErrorText(err: unknown): string {
  if (
    err instanceof ToolRefusal ||
    err instanceof ToolInputError ||
    err instanceof NotSpentError ||
    err instanceof NotEntitledError
  )
    return err.message;
  if (err instanceof LookupsPausedError) return `ODIN lookups are paused: ${err.message}`;
  if (err instanceof LocalRateLimitError) {
    return `The local limit of ODIN lookups per minute was reached; try again in ${Math.ceil(err.retryAfterMs / 1000)} s.`;
  }
  if (err instanceof OdinApiError) {
    if (err.kind === 'auth') return 'ODIN rejected the API key, or none is set.';
    return err.message;
  }
  return 'The ODIN tool failed.';
}

export const hostIp = {
  type: 'string',
  description:
    'A public IPv4 or IPv6 address, e.g. 45.33.32.156 (private, reserved and internal addresses are refused).',
  minLength: 1,
  maxLength: 100,
} as const;
export const domainName = {
  type: 'string',
  description:
    'A registered domain name, e.g. example.com (internal names such as .local, .corp or .internal are refused).',
  minLength: 1,
  maxLength: 253,
} as const;

export function tool(
  def: Omit<AgentTool, 'prepare' | 'local' | 'annotations'> & {
    local?: boolean;
    /** Reaches outside the machine although it sends nothing to ODIN (the feeds). Default: not local. */
    openWorld?: boolean;
    /** What it sends and where, as one sentence the description ends with (every ODIN tool says it). */
    wire?: string;
    prepare: (input: Input, ctx: Pick<ToolContext, 'gate' | 'origin'>) => PreparedCall;
  },
): AgentTool {
  const { openWorld, wire, ...rest } = def;
  const local = def.local ?? false;
  return {
    ...rest,
    description: wire ? `${def.description} ${wire}` : def.description,
    local,
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: openWorld ?? !local },
    prepare: (input, ctx) => def.prepare(validateInput(def.inputSchema, input), ctx),
  };
}

/** What a call would cost: requests, and credits (the free credits check costs none). */
export interface Estimate {
  requests: number;
  credits: number;
}

/** The estimate of a prepared call from the cache: nothing is sent to make it. */
export function estimate(call: PreparedCall, ctx: Pick<ToolContext, 'requests'>): Estimate {
  if (call.requests !== undefined) return { requests: call.requests, credits: call.requests };
  let requests = 0;
  let credits = 0;
  for (const p of call.plan ?? []) {
    const hit = peekSearch(ctx, p.spec, p.page);
    if (hit && !hit.stale) continue;
    requests++;
    credits += CATALOGUE[p.spec.kind].cost ?? 1;
  }
  return { requests, credits };
}

/**
 * A call that would pass the session budget: nothing was sent. Says why and what would fit.
 * Not an error of the tool: an answer the agent can act on (smaller calls, cached ones).
 */
export class NotSpentError extends Error {
  override readonly name = 'NotSpentError';
  constructor(
    readonly needed: number,
    readonly session: LedgerSnapshot,
  ) {
    const left = session.left ?? 0;
    super(
      `Not spent: this call needs ${needed} credit(s) and the session budget of ${session.budget ?? 0} has ${left} left (${session.spent} spent). Nothing was sent. ` +
        (left > 0
          ? `What fits: calls of at most ${left} credit(s) (a count or a single lookup costs 1; answers already cached cost nothing; odin_quota estimates a call).`
          : 'What fits: only answers already cached (they cost nothing), or a larger budget (ODIN_SESSION_BUDGET for the MCP server, odin.sessionBudget in VS Code).'),
    );
  }
}

/** The service refused the key for this tool (HTTP 402 or 403): no retry, the answer says so. */
export class NotEntitledError extends Error {
  override readonly name = 'NotEntitledError';
  constructor(readonly why: 'quota' | 'forbidden') {
    super(
      why === 'quota'
        ? 'Not entitled: ODIN answered 402 (the credits of this key are used up). Nothing more will be asked until lookups resume; odin_quota shows the balance.'
        : "Not entitled: ODIN answered 403 (this key's plan does not include this endpoint). Other tools may still work.",
    );
  }
}

/** A session-budget refusal or a 402/403 as the tool's answer; anything else as it was. */
export function contractError(err: unknown, session: LedgerSnapshot | undefined, needed: number): unknown {
  if (err instanceof NotSpentError || err instanceof NotEntitledError) return err;
  if (err instanceof OverBudgetError && err.name === 'SessionBudgetError' && session)
    return new NotSpentError(Math.max(needed, 1), session);
  if (err instanceof OdinApiError && (err.kind === 'quota' || err.kind === 'forbidden'))
    return new NotEntitledError(err.kind);
  if (err instanceof LookupsPausedError && (err.pause.reason === 'quota' || err.pause.reason === 'forbidden'))
    return new NotEntitledError(err.pause.reason);
  return err;
}
