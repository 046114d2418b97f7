import { guardedSource, type EnrichmentSource, type SendCheck } from '../../core/triage';
import type { SessionGate } from '../shared/gate';

/**
 * The scan's plan (lists and registries): private, internal and denied values stay local and
 * are never offered for sending. What is sent is decided per value by `gated`.
 */
export function triageCheck(gate: SessionGate): SendCheck {
  return (_kind, value) => {
    const { decision } = gate.privacy(value);
    return { allowed: decision.allowed, reason: decision.reason };
  };
}

class GateRefusal extends Error {
  override readonly name = 'GateRefusal';
}

/**
 * Every value a triage sends is decided by the gate at the moment it is sent (the user
 * confirmed the whole preview: an explicit bulk request with consent given), and the
 * gate's target is what goes out. A setting changed during the run holds at once.
 */
export function gated(gate: SessionGate, source: EnrichmentSource): EnrichmentSource {
  const pass = (value: string, kind: 'ip' | 'domain'): string => {
    const d = gate.decide(value, { trigger: 'explicit', source: 'bulk', accept: [kind], consent: 'given' });
    if ('refusal' in d) throw new GateRefusal(d.refusal.message);
    return d.target.value;
  };
  return guardedSource(source, pass);
}
