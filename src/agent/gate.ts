/**
 * What an agent's tool call may send: every IP, CIDR block or host name it names (as an
 * argument or inside a query) passes the privacy policy, and nothing is sent while lookups
 * are off or the workspace is not trusted. The one place the agent surfaces ask; when the
 * project's single gate lands in src/core, this file switches to it.
 *
 * Pure Node: no `vscode` import.
 */
import { canonicalIp, detect } from '../core/detect';
import { normalizeName, PrivacyPolicy, specialDomain } from '../core/privacy';
import { parseAddress, parseCidr } from '../core/privacy/ip';

export type ValueKind = 'ip' | 'domain' | 'cidr';

export type GateResult = { allowed: true; value: string } | { allowed: false; reason: string };

export interface AgentGate {
  /** Why nothing may be sent now (lookups off, Restricted Mode, no key), or undefined. */
  blocked(): string | undefined;
  /** One value a tool would send, strictly parsed to its canonical form, then the policy. */
  value(raw: string, kind: ValueKind): GateResult;
  /** A query: every indicator inside it passes the policy (the query itself is sent as written). */
  query(raw: string): GateResult;
}

export interface GateSettings {
  allow?: readonly string[];
  deny?: readonly string[];
  workspaceDeny?: readonly string[];
  /** Why nothing may be sent (e.g. "Lookups are off."), re-read per call. */
  blocked?: () => string | undefined;
}

/** Dotted tokens in a query, for names the detector does not report (internal suffixes). */
const NAME_TOKEN = /[a-z0-9_-]+(?:\.[a-z0-9_-]+)+\.?/gi;

/** The agent gate over today's privacy policy (src/core/privacy). */
export function createGate(settings: GateSettings | (() => GateSettings)): AgentGate {
  let cached: { key: string; policy: PrivacyPolicy } | undefined;
  const current = (): { s: GateSettings; policy: PrivacyPolicy } => {
    const s = typeof settings === 'function' ? settings() : settings;
    const key = JSON.stringify([s.allow ?? [], s.deny ?? [], s.workspaceDeny ?? []]);
    if (cached?.key !== key) {
      cached = {
        key,
        policy: new PrivacyPolicy({ userAllow: s.allow, userDeny: s.deny, workspaceDeny: s.workspaceDeny }),
      };
    }
    return { s, policy: cached.policy };
  };
  const refusal = (value: string, reason: string): GateResult => ({
    allowed: false,
    reason: `${value} is not sent to ODIN: ${reason}.`,
  });

  const gate: AgentGate = {
    blocked: () => current().s.blocked?.(),
    value(raw, kind) {
      const { policy } = current();
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (text === '' || text.length > 255) return { allowed: false, reason: 'The value is empty or too long.' };
      let value: string;
      if (kind === 'ip') {
        // Strict: no octal, hex, short or integer forms; zone ids dropped.
        const canon = canonicalIp(text.replace(/%[^%]*$/, ''));
        if (canon === undefined || !parseAddress(canon)) {
          return { allowed: false, reason: `${JSON.stringify(text.slice(0, 60))} is not an IP address.` };
        }
        value = canon;
      } else if (kind === 'cidr') {
        if (!parseCidr(text)) return { allowed: false, reason: `${JSON.stringify(text.slice(0, 60))} is not a CIDR block.` };
        value = text.toLowerCase();
      } else {
        value = normalizeName(text);
        if (canonicalIp(value) !== undefined) {
          return { allowed: false, reason: `${JSON.stringify(text.slice(0, 60))} is an IP address, not a domain.` };
        }
        if (/[/?#@:\\\s]/.test(value)) {
          return { allowed: false, reason: `${JSON.stringify(text.slice(0, 60))} is not a host name.` };
        }
        try {
          value = new URL(`http://${value}/`).hostname;
        } catch {
          return { allowed: false, reason: `${JSON.stringify(text.slice(0, 60))} is not a host name.` };
        }
      }
      const d = policy.check({ kind: kind === 'ip' ? (value.includes(':') ? 'ipv6' : 'ipv4') : kind, value });
      return d.allowed ? { allowed: true, value } : refusal(value, d.reason);
    },
    query(raw) {
      const { policy } = current();
      const text = typeof raw === 'string' ? raw : '';
      for (const d of detect(text)) {
        const v = policy.check(d);
        if (!v.allowed) return refusal(d.value, v.reason);
      }
      for (const m of text.matchAll(NAME_TOKEN)) {
        const name = normalizeName(m[0]);
        const special = specialDomain(name);
        if (special) return refusal(name, special.reason);
        const v = policy.check({ kind: 'domain', value: name });
        if (!v.allowed && v.source !== 'classifier' && v.source !== 'invalid') return refusal(name, v.reason);
      }
      return { allowed: true, value: text };
    },
  };
  return gate;
}
