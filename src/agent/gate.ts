/**
 * What an agent's tool call may send: every IP, CIDR block or host name it names (as an
 * argument or inside a query) passes the one gate (src/core/gate: strict parsing to the
 * canonical form, the registries, the allow and deny lists), and nothing is sent while
 * lookups are off or the workspace is in Restricted Mode (an agent's call is not the
 * user's own action there: it is refused, not offered for consent).
 *
 * Pure Node: no `vscode` import.
 */
import { Gate, type LookupsMode } from '../core/gate';

export type ValueKind = 'ip' | 'domain' | 'cidr';

export type GateResult = { allowed: true; value: string } | { allowed: false; reason: string };

export interface AgentGate {
  /** Why nothing may be sent now (lookups off, Restricted Mode, no key), or undefined. */
  blocked(): string | undefined;
  /** One value a tool would send, strictly parsed to its canonical form, then the policy. */
  value(raw: string, kind: ValueKind): GateResult;
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

const KIND_TEXT: Record<ValueKind, string> = {
  ip: 'an IP address',
  cidr: 'a CIDR block',
  domain: 'a domain name',
};

/** The agent gate over the one gate (src/core/gate). Settings are re-read per call. */
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
  const refusal = (value: string, reason: string): GateResult => ({
    allowed: false,
    reason: `${value} is not sent to ODIN: ${reason.replace(/\.$/, '')}.`,
  });
  const shown = (raw: string): string => JSON.stringify(raw.slice(0, 60));

  return {
    blocked() {
      const { s, gate } = current();
      const run = gate.mayRun({ trigger: 'explicit', consented: false });
      if (!run.ok) {
        return run.code === 'off'
          ? 'ODIN lookups are off (setting odin.lookups.mode): nothing is sent.'
          : 'This workspace is in Restricted Mode: ODIN tools send nothing.';
      }
      return s.blocked?.();
    },
    value(raw, kind) {
      const { gate } = current();
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (text === '') return { allowed: false, reason: 'The value is empty.' };
      const { target, decision } = gate.privacy(text);
      if (!target) return { allowed: false, reason: `${shown(text)} is not ${KIND_TEXT[kind]}.` };
      if (target.kind !== kind)
        return { allowed: false, reason: `${shown(text)} is not ${KIND_TEXT[kind]}.` };
      return decision.allowed
        ? { allowed: true, value: target.value }
        : refusal(target.value, decision.reason);
    },
    query(raw) {
      const { gate } = current();
      const text = typeof raw === 'string' ? raw : '';
      const refused = gate.query(text);
      return refused ? { allowed: false, reason: refused.reason } : { allowed: true, value: text };
    },
  };
}
