/**
 * What a hunt found, one finding per host, bucket or domain (a count for a file hunt), with a
 * fingerprint that names the hunt file, the hunt's name and the subject, never a line: a hunt
 * moved within its file keeps its findings (and their baseline entries).
 *
 * Plain Node: no `vscode` import.
 */
import { createHash } from 'node:crypto';
import type { Host } from '../api/types';
import type { HuntKind } from '../core/hunts';
import type { LoadedHunt } from './load';

export type FindingState = 'new' | 'baselined' | 'expired';

export interface Finding {
  fingerprint: string;
  file: string;
  line: number;
  hunt: string;
  kind: HuntKind;
  /** The IP, bucket name, domain, or `count`. */
  subject: string;
  /** One line for a person. */
  title: string;
  level: 'error' | 'warning' | 'note';
  /** Open ports, the worst CVEs (by CVSS), a bucket's provider, a count: small facts. */
  facts: Record<string, string | number | boolean | string[] | number[]>;
  state: FindingState;
  /** For a baselined or expired finding: why it was accepted, until when, by whom. */
  baseline?: { reason: string; expires: string; addedBy: string };
}

/** The fingerprint of a finding: file, hunt and subject; no line, no time. */
export function fingerprintOf(file: string, huntKey: string, kind: HuntKind, subject: string): string {
  return createHash('sha256').update(['odin-hunt/v1', file, huntKey, kind, subject].join('\0')).digest('hex');
}

function base(
  h: LoadedHunt,
  subject: string,
): Pick<Finding, 'fingerprint' | 'file' | 'line' | 'hunt' | 'kind' | 'subject' | 'state'> {
  const kind = h.query.kind ?? 'hosts';
  return {
    fingerprint: fingerprintOf(h.file, h.key, kind, subject),
    file: h.file,
    line: h.line,
    hunt: h.key,
    kind,
    subject,
    state: 'new',
  };
}

const MAX_LISTED = 10;

export function hostFinding(h: LoadedHunt, host: Host): Finding {
  const ports = [...new Set(host.services.map((s) => s.port))].sort((a, b) => a - b);
  const cves = new Map<string, number>();
  let exploited = false;
  for (const s of host.services)
    for (const c of s.cve) {
      cves.set(c.id, Math.max(cves.get(c.id) ?? -1, c.score ?? -1));
      if (c.exploit.length) exploited = true;
    }
  const worst = [...cves].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const top = worst[0]?.[1] ?? -1;
  const list = worst.slice(0, MAX_LISTED).map(([id]) => id);
  const cveText = list.length ? `; CVEs: ${list.join(', ')}${worst.length > MAX_LISTED ? ', …' : ''}` : '';
  return {
    ...base(h, host.ip),
    title: `${host.ip}: ports ${ports.slice(0, 20).join(', ')}${ports.length > 20 ? ', …' : ''}${cveText}`,
    level: exploited || top >= 9 ? 'error' : 'warning',
    facts: {
      ports: ports.slice(0, 100),
      cves: list,
      ...(top >= 0 ? { maxCvss: top } : {}),
      exploitKnown: exploited,
      ...(host.asn?.number ? { asn: String(host.asn.number) } : {}),
      ...(host.location?.country_code ? { country: host.location.country_code } : {}),
    },
  };
}

export function itemFinding(h: LoadedHunt, subject: string, title: string, facts: Finding['facts']): Finding {
  return { ...base(h, subject), title, level: 'warning', facts };
}
