import type { Detection } from '../../core/detect';
import type { Gate } from '../../core/gate';

/** What hovers and the lookup command work on: one detection in a text. */
export type Indicator = Detection;

export interface PrivacyVerdict {
  allowed: boolean;
  /** What the value is, e.g. "Private-Use (RFC 1918)" (local facts shown on the card). */
  what?: string;
  /** Why it was not looked up, for the card. */
  why: string;
}

/**
 * One ask of the gate for an indicator: its value in the gate's canonical form (what is sent,
 * cached and named on the card) and whether it may be sent at all, whatever the mode. A zoned
 * address (`2606:4700::1111%eth0`) is the address without its zone (a zone names a local
 * interface; it is no part of what ODIN knows, and no valid path segment); `raw` keeps what
 * was written. The value is unchanged when the gate reads it as another kind.
 */
export function decideIndicator(
  gate: Gate,
  ind: Indicator,
): { indicator: Indicator; privacy: PrivacyVerdict } {
  // The one gate: strict canonical parsing, then the lists and registries (shared/gate.ts).
  const { target: t, decision } = gate.privacy(ind.value);
  let indicator = ind;
  if (t && t.value !== ind.value) {
    const kind =
      t.kind === 'domain' ? 'domain' : t.kind === 'cidr' ? 'cidr' : t.version === 6 ? 'ipv6' : 'ipv4';
    if (kind === ind.kind) indicator = { ...ind, value: t.value };
  }
  return { indicator, privacy: verdict(decision, ind.kind) };
}

/** The indicator with its value in the gate's canonical form (decideIndicator). */
export function canonicalIndicator(gate: Gate, ind: Indicator): Indicator {
  return decideIndicator(gate, ind).indicator;
}

/** Whether `ind` may be sent to ODIN at all, whatever the mode. */
export function checkPrivacy(gate: Gate, ind: Indicator): PrivacyVerdict {
  return verdict(gate.privacy(ind.value).decision, ind.kind);
}

function verdict(v: ReturnType<Gate['privacy']>['decision'], kind: Indicator['kind']): PrivacyVerdict {
  if (v.allowed) return { allowed: true, why: v.reason };
  if (v.source !== 'classifier') return { allowed: false, why: `${capitalise(v.reason)}.` };
  const why =
    kind === 'domain'
      ? 'Internal and special-use names are never sent to ODIN. If you own it, add it to "odin.privacy.allow" in your user settings.'
      : 'Not globally reachable, so it is never sent to ODIN. If it is a range you own, add it to "odin.privacy.allow" in your user settings.';
  // Registry rows read as a name ("Private-Use (RFC 1918)"); other reasons as a sentence.
  return /^[A-Z]/.test(v.reason)
    ? { allowed: false, what: v.reason, why }
    : { allowed: false, why: `${capitalise(v.reason)}. ${why}` };
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
