/**
 * `odin_quota`: what an agent may spend before it spends it. The key's balance as the
 * service says it (`GET /v1/credits/usage`, which costs no credit), what this session spent,
 * the session budget, and the estimate of a proposed call, made from the local cache (a
 * cached answer costs nothing; nothing of the proposed call is sent).
 *
 * Pure Node: no `vscode` import.
 */
import { readCredits } from '../core/search';
import { framed, num } from './format';
import { ToolInputError, validateInput } from './schema';
import { estimate, str, tool, ToolRefusal, toolErrorText, type AgentTool } from './toolKit';

/** The structured answer's `quota` (the output schema's, tools.ts). */
export interface QuotaData {
  balance?: { hostLeft: number; hostPlan: number; bucketLeft: number; bucketPlan: number };
  balanceError?: string;
  session: { spent: number; requests: number; budget?: number; left?: number };
  proposed?: { tool: string; requests: number; credits: number; fits: boolean; refused?: string };
}

/** The answer's lines: the balance, the session's spending and budget, the proposed call's cost. */
function quotaLines(q: QuotaData): string[] {
  const b = q.balance;
  const lines = [
    b
      ? `balance (ODIN): ${num(b.hostLeft)} of ${num(b.hostPlan)} host credits, ${num(b.bucketLeft)} of ${num(b.bucketPlan)} bucket/file credits`
      : `balance (ODIN): not read (${q.balanceError ?? 'unknown'})`,
    `this session: ${num(q.session.spent)} credit(s) spent in ${num(q.session.requests)} request(s)`,
    q.session.budget !== undefined
      ? `session budget: ${num(q.session.budget)} credit(s), ${num(q.session.left ?? 0)} left`
      : 'session budget: none set',
  ];
  const p = q.proposed;
  if (p)
    lines.push(
      p.refused
        ? `${p.tool}: would be refused, sending nothing: ${p.refused}`
        : `${p.tool}: would send ${num(p.requests)} request(s), ${num(p.credits)} credit(s) (cached answers cost nothing); ${p.fits ? 'fits the session budget' : 'does NOT fit the session budget: it would send nothing'}`,
    );
  return lines;
}

export function quotaTool(
  names: () => readonly string[],
  find: (name: string) => AgentTool | undefined,
): AgentTool {
  const t = tool({
    name: 'odin_quota',
    title: 'ODIN: credits and the cost of a call',
    description:
      "Tells what ODIN calls cost before they are made: this key's credit balance as ODIN reports it (one request to GET /v1/credits/usage at the configured ODIN API, which costs no credit and sends nothing but the key), the credits this session spent, the session budget and what is left of it, and, for a proposed call (a tool name and its arguments), how many requests and credits it would cost, estimated from the local cache (answers already cached cost nothing) without sending any of its values. Call it before a large search or triage, or after a 'Not spent' answer.",
    inputSchema: {
      type: 'object',
      properties: {
        tool: {
          type: 'string',
          description: 'A proposed call: the name of the ODIN tool, e.g. odin_search_hosts.',
          maxLength: 60,
        },
        arguments: {
          type: 'string',
          description:
            'The proposed call\'s arguments as JSON text, e.g. {"query":"services.port:22","limit":10}.',
          maxLength: 20_000,
        },
      },
      additionalProperties: false,
    },
    prepare(input, ctx) {
      // Reading the balance sends the key: not while nothing may be sent.
      const blocked = ctx.gate.blocked();
      if (blocked) throw new ToolRefusal(blocked);
      const name = str(input, 'tool');
      const proposed = name ? find(name) : undefined;
      if (name && (!proposed || name === 'odin_quota'))
        throw new ToolInputError(
          `"tool" must be one of: ${names()
            .filter((n) => n !== 'odin_quota')
            .join(', ')}.`,
        );
      let args: unknown = {};
      const raw = str(input, 'arguments');
      if (raw) {
        try {
          args = JSON.parse(raw);
        } catch {
          throw new ToolInputError('"arguments" is not JSON text.');
        }
      }
      if (proposed) validateInput(proposed.inputSchema, args);
      let data: QuotaData | undefined;
      return {
        sends: `Reads this key's credit balance from ODIN at ${ctx.origin()} (GET /v1/credits/usage, free). The proposed call is estimated from the local cache; none of its values is sent.`,
        plan: [{ spec: { kind: 'credits' } }],
        data: () => (data ? { quota: data } : undefined),
        async run(c, signal) {
          const ledger = c.requests.ledger;
          const q: QuotaData = { session: { spent: 0, requests: 0 } };
          {
            try {
              const u = await readCredits(c, { signal, automatic: true });
              const n = (v: number | undefined): number =>
                typeof v === 'number' && Number.isFinite(v) ? v : 0;
              q.balance = {
                hostLeft: n(u.hostCert?.left),
                hostPlan: n(u.hostCert?.plan),
                bucketLeft: n(u.bucketFile?.left),
                bucketPlan: n(u.bucketFile?.plan),
              };
            } catch (err) {
              q.balanceError = toolErrorText(err);
            }
          }
          // The session after the balance read (free: a request, no credit).
          const snap = ledger?.snapshot() ?? { spent: 0, requests: 0 };
          q.session = {
            spent: snap.spent,
            requests: snap.requests,
            ...(snap.budget !== undefined ? { budget: snap.budget, left: snap.left } : {}),
          };
          if (proposed) {
            try {
              const call = proposed.prepareLocal
                ? await proposed.prepareLocal(args, c, signal)
                : proposed.prepare(args, c);
              const e = proposed.local ? { requests: 0, credits: 0 } : estimate(call, c);
              q.proposed = { tool: proposed.name, ...e, fits: ledger ? ledger.fits(e.credits) : true };
            } catch (err) {
              if (!(err instanceof ToolRefusal || err instanceof ToolInputError)) throw err;
              q.proposed = { tool: proposed.name, requests: 0, credits: 0, fits: true, refused: err.message };
            }
          }
          data = q;
          const lines = quotaLines(q);
          return framed({ title: 'ODIN credits and cost', lines, notes: [] });
        },
      };
    },
  });
  return t;
}
