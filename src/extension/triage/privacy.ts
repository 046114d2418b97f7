import type { Gate } from '../../core/gate';
import { guardedSource, type EnrichmentSource, type SendCheck } from '../../core/triage';

/** The scan's privacy decision (lists and registries): private, internal and denied values stay local. */
export function triageCheck(gate: Gate): SendCheck {
  return (_kind, value) => {
    const { decision } = gate.privacy(value);
    return { allowed: decision.allowed, reason: decision.reason };
  };
}

class GateRefusal extends Error {
  override readonly name = 'GateRefusal';
}

/**
 * Every value a triage sends passes the gate once more at the moment it is sent (the user
 * confirmed the whole preview, so an explicit, consented, bulk request), and the canonical
 * value of its verdict is what goes out.
 */
export function gated(gate: Gate, source: EnrichmentSource): EnrichmentSource {
  const pass = (value: string, kind: 'ip' | 'domain'): string => {
    const v = gate.decide(value, { trigger: 'explicit', source: 'bulk', accept: [kind], consented: true });
    if (!v.send) throw new GateRefusal(v.reason);
    return v.target.value;
  };
  return guardedSource(source, pass);
}
