/**
 * What an agent's tool call may send: every IP, CIDR block or host name it names (as an
 * argument or inside a query) passes the one gate (src/core/gate: strict parsing to the
 * canonical form, the registries, the allow and deny lists), and nothing is sent while
 * lookups are off or the workspace is in Restricted Mode (an agent's call is not the
 * user's own action there: it is refused, not offered for consent).
 *
 * Pure Node: no `vscode` import.
 */
import { Gate, privacyMessage, type LookupsMode } from '../core/gate';

export type ValueKind = 'ip' | 'domain' | 'cidr';

const KIND_TEXT: Record<ValueKind, string> = {
  ip: 'an IP address',
  cidr: 'a CIDR block',
  domain: 'a domain name',
};

export type GateResult =
  | { allowed: true; value: string }
  | {
      allowed: false;
      /** The refusal naming the value and why (the core gate's `Verdict.message`). */
      reason: string;
      /** The why alone, for a row that already names the value ("Private-Use (RFC 1918)"). */
      why?: string;
    };

export interface AgentGate {
  /** Why nothing may be sent now (lookups off, Restricted Mode, no key), or undefined. */
  blocked(): string | undefined;
  /** One value a tool would send, strictly parsed to its canonical form, then the policy. */
  value(raw: string, kind: ValueKind): GateResult;
  /**
   * The privacy decision alone (lists and registries, whatever the mode), for what a local
   * tool shows before anything is sent (an indicator list, a triage plan). Never the ask
   * for a request: that is `value`.
   */
  privacy(raw: string, kind: ValueKind): GateResult;
  /**
   * A query: every IP, CIDR block and name inside it, escapes resolved, passes the policy
   * (`Gate.query`, the same rule as the extension's searches); the query is sent as written.
   */
  query(raw: string): GateResult;
}

export interface GateSettings {
  allow?: readonly string[];
  deny?: readonly string[];
  workspaceDeny?: readonly string[];
  /** Default `onCommand` (an agent's call is explicit); `off` refuses every sending tool. */
  mode?: LookupsMode;
  /** Workspace trust; default true (the MCP server has no workspace). */
  trusted?: boolean;
  /** Another reason nothing may be sent (e.g. no key), re-read per call. */
  blocked?: () => string | undefined;
}

/**
 * The agent gate over the one gate (src/core/gate). Settings are re-read per call. Every
 * answer is the core gate's: `decide` for a value (an agent's call is explicit and never
 * consented, so Restricted Mode refuses), `mayRun` before any value, `query` for query text;
 * the refusal texts are the gate's own (`Verdict.message`), naming the value and why.
 */
export function createGate(settings: GateSettings | (() => GateSettings)): AgentGate {
  let cached: { key: string; gate: Gate } | undefined;
  const current = (): { s: GateSettings; gate: Gate } => {
    const s = typeof settings === 'function' ? settings() : settings;
    const mode = s.mode ?? 'onCommand';
    const trusted = s.trusted ?? true;
    const key = JSON.stringify([s.allow ?? [], s.deny ?? [], s.workspaceDeny ?? [], mode, trusted]);
    if (cached?.key !== key) {
      cached = {
        key,
        gate: new Gate({
          mode,
          trusted,
          userAllow: s.allow,
          userDeny: s.deny,
          workspaceDeny: s.workspaceDeny,
        }),
      };
    }
    return { s, gate: cached.gate };
  };

  return {
    blocked() {
      const { s, gate } = current();
      const run = gate.mayRun({ trigger: 'explicit', consented: false });
      return run.ok ? s.blocked?.() : run.message;
    },
    value(raw, kind) {
      const { gate } = current();
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (text === '') return { allowed: false, reason: 'The value is empty.' };
      const v = gate.decide(text, { trigger: 'explicit', source: 'agent', accept: [kind], consented: false });
      return v.send
        ? { allowed: true, value: v.target.value }
        : { allowed: false, reason: v.message, why: v.privacy?.reason ?? v.reason };
    },
    privacy(raw, kind) {
      const { gate } = current();
      const { target, decision } = gate.privacy(raw);
      const text = JSON.stringify(String(raw).trim().slice(0, 60));
      if (!target || target.kind !== kind)
        return { allowed: false, reason: `${text} is not ${KIND_TEXT[kind]}.` };
      return decision.allowed
        ? { allowed: true, value: target.value }
        : {
            allowed: false,
            reason: privacyMessage(target.value, decision),
            why: decision.reason.replace(/\.$/, ''),
          };
    },
    query(raw) {
      const { gate } = current();
      const text = typeof raw === 'string' ? raw : '';
      const refused = gate.query(text);
      return refused ? { allowed: false, reason: refused.reason } : { allowed: true, value: text };
    },
  };
}
