import type { SendCheck } from '../../core/triage';
import type { SessionGate } from '../shared/gate';

/**
 * The scan's plan (lists and registries): private, internal and denied values stay local and
 * are never offered for sending. What is sent is decided per call inside the request path
 * (core/triage `layerSource` with its `gate`).
 */
export function triageCheck(gate: SessionGate): SendCheck {
  return (_kind, value) => {
    const { decision } = gate.privacy(value);
    return { allowed: decision.allowed, reason: decision.reason };
  };
}
