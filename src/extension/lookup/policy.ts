import type { Detection } from '../../core/detect';
import type { Target } from '../../core/gate';
import type { PolicyDecision } from '../../core/privacy';
import { l10n } from '../../core/text/l10n';

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
 * The indicator for the gate's target (what is sent, cached and named on the card): a zoned
 * address (`2606:4700::1111%eth0`) is the address without its zone (a zone names a local
 * interface; it is no part of what ODIN knows, and no valid path segment); `raw` keeps what
 * was written. Unchanged without a target, or when the gate reads it as another kind.
 */
export function targetIndicator(ind: Indicator, t: Target | undefined): Indicator {
  if (!t || t.value === ind.value) return ind;
  const kind =
    t.kind === 'domain' ? 'domain' : t.kind === 'cidr' ? 'cidr' : t.version === 6 ? 'ipv6' : 'ipv4';
  return kind === ind.kind ? { ...ind, value: t.value } : ind;
}

/** The gate's privacy decision as a card and a list say it ("Private-Use (RFC 1918)", and why). */
export function privacyVerdict(v: PolicyDecision, kind: Indicator['kind']): PrivacyVerdict {
  if (v.allowed) return { allowed: true, why: v.reason };
  if (v.source !== 'classifier') return { allowed: false, why: `${capitalise(v.reason)}.` };
  const why =
    kind === 'domain'
      ? l10n.t(
          'Internal and special-use names are never sent to ODIN. If you own it, add it to "odin.privacy.allow" in your user settings.',
        )
      : l10n.t(
          'Not globally reachable, so it is never sent to ODIN. If it is a range you own, add it to "odin.privacy.allow" in your user settings.',
        );
  // Registry rows read as a name ("Private-Use (RFC 1918)"); other reasons as a sentence.
  return /^[A-Z]/.test(v.reason)
    ? { allowed: false, what: v.reason, why }
    : { allowed: false, why: `${capitalise(v.reason)}. ${why}` };
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
