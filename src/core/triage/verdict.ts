// The verdict of one indicator, from what ODIN answered. Pure: no `vscode` import.
import { SEVERITY_RANK, type Host, type Severity, type WhoisRecord } from '../../api/types';
import { vulnerability } from '../hosts/vulnerability';
import { feedNotes, hostExploitation, type ExploitationView } from '../exploitation/host';
import { byRisk, compareIds, type Risk } from '../exploitation/order';
import { cveRisk } from '../exploitation/risk';
import { epssText, kevText } from '../exploitation/text';
import { l10n } from '../text/l10n';
import type { CveSignal, DomainVerdict, HostVerdict } from './model';

const MAX_IDS = 20;
const MAX_TAGS = 10;
const MAX_PORTS = 50;
const MAX_PRODUCTS = 10;
const DAY = 86_400_000;

/**
 * The verdict for a host (a full lookup or a search hit: hits carry CVE ids and severities
 * only). With the exploitation feeds, its CVE ids follow the one rule (KEV, EPSS, CVSS) and
 * the verdict carries its KEV count and worst EPSS.
 */
export function hostVerdict(host: Host, x?: ExploitationView): HostVerdict {
  const cves = new Map<string, { score?: number; severity: Severity }>();
  const exploits = new Set<string>();
  const ports = new Set<number>();
  const products = new Set<string>();
  for (const s of host.services) {
    if (Number.isInteger(s.port)) ports.add(s.port);
    const product = s.product?.trim();
    if (product && s.cve.length > 0 && products.size < MAX_PRODUCTS) products.add(product);
    for (const c of s.cve) {
      const known = cves.get(c.id);
      if (!known || (c.score ?? -1) > (known.score ?? -1))
        cves.set(c.id, { score: c.score, severity: c.severity });
      for (const e of c.exploit) exploits.add(e.id);
    }
  }
  let maxScore: number | undefined;
  let maxSeverity: Severity = 'UNKNOWN';
  for (const c of cves.values()) {
    if (c.score !== undefined && Number.isFinite(c.score) && (maxScore === undefined || c.score > maxScore))
      maxScore = c.score;
    if (SEVERITY_RANK[c.severity] > SEVERITY_RANK[maxSeverity]) maxSeverity = c.severity;
  }
  const cveIds = byRisk(
    [...cves.entries()],
    ([id, c]) => cveRisk(x?.lookup(id), c.score),
    (a, b) => SEVERITY_RANK[b[1].severity] - SEVERITY_RANK[a[1].severity] || compareIds(a[0], b[0]),
  )
    .slice(0, MAX_IDS)
    .map(([id]) => id);
  const tags = host.tags
    .filter((t) => t.value === true)
    .map((t) => t.pretty_name || t.name)
    .slice(0, MAX_TAGS);
  const vuln = vulnerability(host);
  const v: HostVerdict = {
    kind: 'host',
    vulnerable: vuln.state === 'vulnerable',
    cves: cves.size,
    exploits: exploits.size,
    tags,
    ports: [...ports].sort((a, b) => a - b).slice(0, MAX_PORTS),
    cveIds,
  };
  if (products.size) v.products = [...products];
  if (vuln.state === 'unknown') v.cvesUnknown = vuln.why;
  if (x && cves.size) {
    const hx = hostExploitation(
      [...cves.entries()].map(([id, c]) => ({ id, score: c.score })),
      x,
    );
    if (hx.kevCount) v.kev = hx.kevCount;
    if (hx.risk.ransomware) v.ransomware = true;
    if (hx.epss) v.epss = hx.epss.score.epss;
    const worst = hx.kev ? kevText(hx.kev.entry) : hx.epss ? epssText(hx.epss.score) : undefined;
    if (worst) v.exploited = worst;
    const signals: CveSignal[] = [];
    for (const id of cveIds) {
      const e = x.lookup(id);
      if (!e.kev && !e.epss) continue;
      const s: CveSignal = { id };
      if (e.kev) {
        s.kevAdded = e.kev.added;
        if (e.kev.ransomware) s.ransomware = true;
      }
      if (e.epss) {
        s.epss = Math.round(e.epss.epss * 1e5) / 1e5;
        s.percentile = Math.round(e.epss.percentile * 1e5) / 1e5;
      }
      signals.push(s);
    }
    if (signals.length) v.signals = signals;
    v.feeds = feedNotes(x);
  }
  if (maxScore !== undefined) v.maxScore = maxScore;
  if (maxSeverity !== 'UNKNOWN') v.maxSeverity = maxSeverity.toLowerCase();
  const org = host.asn?.organization || host.whois?.organization;
  if (org) v.org = org;
  if (host.asn?.number)
    v.asn = /^AS/i.test(host.asn.number) ? host.asn.number.toUpperCase() : `AS${host.asn.number}`;
  const country = host.location?.country_code || host.asn?.country_code;
  if (country) v.country = country;
  return v;
}

/** A row's place in the one ordering rule (core/exploitation/order.ts); domains and unanswered rows have none. */
export function verdictRisk(v: HostVerdict | DomainVerdict | undefined): Risk {
  if (v?.kind !== 'host') return { kev: false };
  const out: Risk = { kev: (v.kev ?? 0) > 0 };
  if (v.ransomware) out.ransomware = true;
  if (v.epss !== undefined) out.epss = v.epss;
  if (v.maxScore !== undefined) out.cvss = v.maxScore;
  return out;
}

/** The verdict for a domain from its whois record. */
export function domainVerdict(whois: WhoisRecord, now = Date.now(), subdomains?: number): DomainVerdict {
  const v: DomainVerdict = { kind: 'domain' };
  if (whois.registrar?.name) v.registrar = whois.registrar.name;
  const created = validDate(whois.created_date);
  if (created) {
    v.created = created.toISOString().slice(0, 10);
    v.ageDays = Math.max(0, Math.floor((now - created.getTime()) / DAY));
  }
  const expires = validDate(whois.expires_date);
  if (expires) v.expires = expires.toISOString().slice(0, 10);
  if (subdomains !== undefined) v.subdomains = subdomains;
  return v;
}

function validDate(s: string | undefined): Date | undefined {
  if (!s || s.startsWith('0001-01-01')) return undefined;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** A short line for a decoration or a table cell: "⚠ 3 CVEs · AS14061", "AS15169 · US". */
export function verdictLine(v: HostVerdict | DomainVerdict | undefined): string {
  if (!v) return '';
  if (v.kind === 'domain') {
    const bits = [
      v.registrar,
      v.ageDays !== undefined ? l10n.t('{0} d old', v.ageDays) : undefined,
      v.expires ? l10n.t('expires {0}', v.expires) : undefined,
    ];
    return bits.filter(Boolean).join(' · ');
  }
  const bits: string[] = [];
  // The worst exploitation signal leads, before the CVSS: "⚠ KEV (ransomware) · 3 CVEs (max 9.8)".
  if (v.kev) bits.push(v.ransomware ? `⚠ ${l10n.t('KEV (ransomware)')}` : '⚠ KEV');
  else if (v.epss !== undefined && v.epss >= 0.1) bits.push(`EPSS ${(v.epss * 100).toFixed(1)}%`);
  if (v.cves > 0) {
    const cves = v.cves === 1 ? l10n.t('1 CVE') : l10n.t('{0} CVEs', v.cves);
    bits.push(`⚠ ${v.maxScore !== undefined ? l10n.t('{0} (max {1})', cves, v.maxScore) : cves}`);
  } else if (v.vulnerable) bits.push(`⚠ ${l10n.t('vulnerable')}`);
  else if (v.cvesUnknown) bits.push(`? ${v.cvesUnknown}`);
  if (v.exploits > 0) bits.push(v.exploits === 1 ? l10n.t('1 exploit') : l10n.t('{0} exploits', v.exploits));
  if (v.asn) bits.push(v.asn);
  if (v.country) bits.push(v.country);
  return bits.join(' · ');
}
