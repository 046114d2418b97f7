// The triage as threat-intelligence exchange formats: a STIX 2.1 bundle (observables for IPs
// and domains with the enrichment attached as notes) and a MISP event. Private values are left
// out unless asked for. Pure: no `vscode` import.
import { createHash, randomUUID } from 'node:crypto';
import { epssText, kevText } from '../exploitation/text';
import type { CveSignal, Triage, TriageRow } from './model';
import { rowsOf, statusText, type ReportOptions } from './reportRows';
import { fileCount, uniqueIndicatorCount } from './counts';
import { account } from './triage';
import { l10n } from '../text/l10n';

// ------------------------------------------------------------------ STIX 2.1

/** The namespace STIX 2.1 prescribes for deterministic SCO ids (UUIDv5). */
const STIX_SCO_NAMESPACE = '00abedb4-aa42-466c-9c01-fed23315a9b7';

export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const h = createHash('sha1').update(ns).update(Buffer.from(name, 'utf8')).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** SCO id per STIX 2.1 §2.9: UUIDv5 over the canonical JSON of its id-contributing properties. */
function scoId(type: string, props: Record<string, string | number>): string {
  const keys = Object.keys(props).sort();
  const canon = `{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(props[k])}`).join(',')}}`;
  return `${type}--${uuidV5(canon, STIX_SCO_NAMESPACE)}`;
}

type StixObject = Record<string, unknown> & { type: string; id: string };

function stixTime(d: Date): string {
  return d.toISOString();
}

/** The host's AS as a STIX `autonomous-system` (a deterministic SCO id), when its number reads. */
function autonomousSystem(asn: string | undefined, org: string | undefined): StixObject | undefined {
  if (!asn) return undefined;
  const number = Number(asn.replace(/^AS/i, ''));
  if (!Number.isInteger(number) || number < 0) return undefined;
  const as: StixObject = {
    type: 'autonomous-system',
    spec_version: '2.1',
    id: scoId('autonomous-system', { number }),
    number,
  };
  if (org) as.name = org;
  return as;
}

export function stixBundle(
  triage: Triage,
  opts: ReportOptions = {},
): { type: 'bundle'; id: string; objects: StixObject[] } {
  const now = stixTime(opts.now ?? new Date());
  const uuid = opts.uuid ?? randomUUID;
  // SDO ids must be UUIDv4 (the schemas refuse other versions in references); SCO ids are v5.
  const identityId = `identity--${uuid()}`;
  const vulnIds = new Map<string, string>();
  const allRefs: string[] = [];
  const objects: StixObject[] = [
    {
      type: 'identity',
      spec_version: '2.1',
      id: identityId,
      created: '2026-01-01T00:00:00.000Z',
      modified: '2026-01-01T00:00:00.000Z',
      // l10n: English, a name
      name: 'ODIN for VS Code (triage)',
      identity_class: 'system',
    },
  ];
  const seen = new Set<string>();
  const add = (o: StixObject): string => {
    if (!seen.has(o.id)) {
      seen.add(o.id);
      objects.push(o);
    }
    return o.id;
  };
  for (const r of rowsOf(triage, opts)) {
    if (r.kind === 'cidr') continue;
    const type = r.kind === 'ipv4' ? 'ipv4-addr' : r.kind === 'ipv6' ? 'ipv6-addr' : 'domain-name';
    const sco: StixObject = {
      type,
      spec_version: '2.1',
      id: scoId(type, { value: r.value }),
      value: r.value,
    };
    const v = r.verdict;
    const refs: string[] = [];
    const as = v?.kind === 'host' ? autonomousSystem(v.asn, v.org) : undefined;
    if (as) sco.belongs_to_refs = [add(as)];
    refs.push(add(sco));
    if (!v) {
      allRefs.push(...refs);
      continue;
    }
    if (v.kind === 'host') {
      for (const raw of v.cveIds) {
        const ref = vulnerabilityReference(raw);
        if (!ref) continue;
        let vulnId = vulnIds.get(ref.external_id);
        if (!vulnId) vulnIds.set(ref.external_id, (vulnId = `vulnerability--${uuid()}`));
        const vuln: StixObject = {
          type: 'vulnerability',
          spec_version: '2.1',
          id: vulnId,
          created: now,
          modified: now,
          created_by_ref: identityId,
          name: ref.external_id,
          external_references: [ref],
        };
        const signal = v.signals?.find((s) => s.id === raw);
        if (signal) addExploitation(vuln, signal);
        refs.push(add(vuln));
      }
    }
    // Custom properties carry the enrichment on the observable itself (STIX 2.1 §11.1): the
    // official bundle schema lists no `note` or `opinion`, so a note would not validate.
    sco.x_odin_enrichment = enrichmentText(r);
    sco.x_odin_verdict = { ...v };
    allRefs.push(...refs);
  }
  const acc = account(triage);
  objects.push({
    type: 'report',
    spec_version: '2.1',
    id: `report--${uuid()}`,
    created: now,
    modified: now,
    created_by_ref: identityId,
    name: opts.title ?? l10n.t('ODIN triage'),
    description:
      opts.description ??
      l10n.t(
        '{0} in {1}; {2}.',
        uniqueIndicatorCount(triage.rows.length),
        fileCount(triage.files.length),
        acc.summary,
      ),
    report_types: ['observed-data'],
    published: now,
    object_refs: allRefs.length ? [...new Set(allRefs)] : [identityId],
  });
  return { type: 'bundle', id: `bundle--${uuid()}`, objects };
}

/**
 * KEV and EPSS on a STIX `vulnerability`: an external reference to the CISA catalogue (with
 * its words as the description) and custom properties with the values (STIX 2.1 §11.1).
 */
function addExploitation(vuln: StixObject, s: CveSignal): void {
  const refs = vuln.external_references as Record<string, unknown>[];
  if (s.kevAdded) {
    refs.push({
      source_name: 'cisa-kev',
      url: 'https://www.cisa.gov/known-exploited-vulnerabilities-catalog',
      description: kevText({ added: s.kevAdded, ransomware: s.ransomware === true }),
    });
    vuln.x_odin_kev = {
      date_added: s.kevAdded,
      // l10n: English, the catalogue's own values (a machine reads them)
      known_ransomware_campaign_use: s.ransomware ? 'Known' : 'Unknown',
    };
  }
  if (s.epss !== undefined) {
    refs.push({ source_name: 'first-epss', url: `https://api.first.org/data/v1/epss?cve=${s.id}` });
    vuln.x_odin_epss = { epss: s.epss, percentile: s.percentile ?? 0 };
  }
}

/** The schema's pattern for `source_name: "cve"`: four-digit year, no leading zero past four digits. */
const STRICT_CVE = /^CVE-\d{4}-(0\d{3}|[1-9]\d{3,})$/;
const GHSA = /^GHSA(-[23456789cfghjmpqrvwx]{4}){3}$/i;

/**
 * An id from scan data as a STIX external reference the OASIS schema accepts: a CVE id in any
 * case (`cve-2024-6387`) becomes `CVE-2024-6387` under `source_name: "cve"`; a GitHub advisory
 * goes under `ghsa`; anything else (`CVE-2024-123`, vendor ids) under `odin`, whose `external_id`
 * the schema allows as long as it is not a strict CVE id. Empty ids are dropped.
 */
export function vulnerabilityReference(
  raw: string,
): { source_name: string; external_id: string } | undefined {
  const id = raw.trim().slice(0, 200);
  if (!id) return undefined;
  const upper = id.toUpperCase();
  if (STRICT_CVE.test(upper)) return { source_name: 'cve', external_id: upper };
  if (GHSA.test(id)) return { source_name: 'ghsa', external_id: `GHSA${id.slice(4).toLowerCase()}` };
  return { source_name: 'odin', external_id: id };
}

function enrichmentText(r: TriageRow): string {
  const v = r.verdict;
  const lines = [
    r.count === 1
      ? l10n.t('{0} ({1}), seen 1 time.', r.value, r.kind)
      : l10n.t('{0} ({1}), seen {2} times.', r.value, r.kind, r.count),
  ];
  if (v?.kind === 'host') {
    const vulnerable = v.vulnerable
      ? l10n.t('yes')
      : v.cvesUnknown
        ? l10n.t('unknown ({0})', v.cvesUnknown)
        : l10n.t('no');
    const cves = `${v.cves}${v.maxScore !== undefined ? `; ${l10n.t('highest CVSS {0}', v.maxScore)}` : ''}${v.maxSeverity ? ` (${v.maxSeverity})` : ''}`;
    lines.push(l10n.t('Vulnerable: {0}; CVEs: {1}; exploits: {2}.', vulnerable, cves, v.exploits));
    if (v.exploited)
      lines.push(
        v.kev && v.kev > 1 ? l10n.t('{0} ({1} CVEs in KEV).', v.exploited, v.kev) : `${v.exploited}.`,
      );
    if (v.feeds) lines.push(l10n.t('Exploitation data: {0}.', v.feeds));
    if (v.ports.length) lines.push(l10n.t('Open ports: {0}.', v.ports.join(', ')));
    if (v.tags.length) lines.push(l10n.t('Tags: {0}.', v.tags.join(', ')));
    if (v.asn || v.org || v.country)
      lines.push(l10n.t('Network: {0}.', [v.asn, v.org, v.country].filter(Boolean).join(', ')));
  } else if (v?.kind === 'domain') {
    if (v.registrar) lines.push(l10n.t('Registrar: {0}.', v.registrar));
    if (v.created)
      lines.push(
        v.ageDays !== undefined
          ? l10n.t('Created {0} ({1} days old).', v.created, v.ageDays)
          : l10n.t('Created {0}.', v.created),
      );
    if (v.expires) lines.push(l10n.t('Expires {0}.', v.expires));
  }
  return lines.join('\n');
}

// ------------------------------------------------------------------ MISP

/** A MISP event (the JSON `{"Event": …}` that MISP imports), one attribute per indicator. */
export function mispEvent(triage: Triage, opts: ReportOptions = {}): { Event: Record<string, unknown> } {
  const now = opts.now ?? new Date();
  const uuid = opts.uuid ?? randomUUID;
  const attrs: Record<string, unknown>[] = [];
  for (const r of rowsOf(triage, opts)) {
    if (r.kind === 'cidr' && !opts.includePrivate) continue;
    const type = r.kind === 'domain' ? 'domain' : 'ip-dst';
    const v = r.verdict;
    const tags: { name: string }[] = [];
    if (v?.kind === 'host' && v.vulnerable) tags.push({ name: 'odin:vulnerable="true"' });
    if (v?.kind === 'host' && v.maxSeverity) tags.push({ name: `odin:max-severity="${v.maxSeverity}"` });
    if (v?.kind === 'host' && v.kev) tags.push({ name: 'odin:known-exploited="true"' });
    if (v?.kind === 'host' && v.ransomware) tags.push({ name: 'odin:ransomware="true"' });
    attrs.push({
      uuid: uuid(),
      type,
      // l10n: English, MISP's category (a machine reads it)
      category: 'Network activity',
      to_ids: false,
      value: r.value,
      comment: v ? enrichmentText(r).replace(/\n/g, ' ') : statusText(r),
      timestamp: String(Math.floor(now.getTime() / 1000)),
      ...(tags.length ? { Tag: tags } : {}),
    });
    // A `vulnerability` attribute per CVE the feeds list, their words as its comment.
    if (v?.kind === 'host')
      for (const s of v.signals ?? []) {
        const words = [
          s.kevAdded ? kevText({ added: s.kevAdded, ransomware: s.ransomware === true }) : '',
          s.epss !== undefined ? epssText({ epss: s.epss, percentile: s.percentile ?? 0 }) : '',
        ].filter(Boolean);
        attrs.push({
          uuid: uuid(),
          type: 'vulnerability',
          // l10n: English, MISP's category (a machine reads it)
          category: 'External analysis',
          to_ids: false,
          value: s.id,
          comment: `${r.value}: ${words.join(' · ')}`,
          timestamp: String(Math.floor(now.getTime() / 1000)),
        });
      }
  }
  const acc = account(triage);
  return {
    Event: {
      uuid: uuid(),
      info:
        opts.title ??
        (triage.files.length === 1
          ? l10n.t('ODIN triage of 1 file: {0}', acc.summary)
          : l10n.t('ODIN triage of {0} files: {1}', triage.files.length, acc.summary)),
      date: now.toISOString().slice(0, 10),
      timestamp: String(Math.floor(now.getTime() / 1000)),
      published: false,
      analysis: '1',
      threat_level_id: '4',
      distribution: '0',
      Attribute: attrs,
      Tag: [{ name: 'tlp:amber' }],
    },
  };
}
