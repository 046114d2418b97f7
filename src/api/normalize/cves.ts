/** CVEs and exploits (endpoints 12, 13, 14 and the CVE lists inside services): every
 * shape the two dialects use, folded into arrays deduplicated by id. */
import type { Cve, Exploit, Severity } from '../types';
import { isObj, str, nonEmpty, num, int, list, strList, mapList, type Obj, compact } from './json';

export function normalizeSeverity(v: unknown, score?: number): Severity {
  const s = typeof v === 'string' ? v.trim().toUpperCase() : '';
  if (s === 'CRITICAL' || s === 'HIGH' || s === 'MEDIUM' || s === 'LOW' || s === 'NONE') return s;
  if (s === 'MODERATE') return 'MEDIUM';
  if (s === 'INFO' || s === 'INFORMATIONAL') return 'NONE';
  // No usable severity: derive it from a CVSS v3 base score when there is one.
  if (score !== undefined && score >= 0 && score <= 10) {
    if (score === 0) return 'NONE';
    if (score < 4) return 'LOW';
    if (score < 7) return 'MEDIUM';
    if (score < 9) return 'HIGH';
    return 'CRITICAL';
  }
  return 'UNKNOWN';
}

export function normalizeExploit(v: unknown): Exploit | undefined {
  if (!isObj(v)) return undefined;
  const id = nonEmpty(v.id) ?? (int(v.id) !== undefined ? String(v.id) : undefined);
  if (id === undefined) return undefined;
  return compact<Exploit>({
    id,
    description: str(v.description),
    file: str(v.file),
    platform: str(v.platform),
    type: str(v.type),
    url: str(v.url),
  });
}

export function normalizeCve(v: unknown, fallbackId?: string): Cve | undefined {
  if (!isObj(v)) return undefined;
  const id = nonEmpty(v.id) ?? fallbackId;
  if (id === undefined) return undefined;
  const score = num(v.score);
  return compact<Cve>({
    id,
    summary: str(v.summary),
    severity: normalizeSeverity(v.severity, score),
    score,
    vector_string: str(v.vector_string),
    weakness: str(v.weakness),
    references: strList(v.references),
    services: strList(v.services),
    exploit: mapList(v.exploit ?? v.exploits, normalizeExploit),
  });
}

const CVE_ID = /^CVE-\d{4}-\d+$/i;

function looksLikeCve(v: Obj): boolean {
  return typeof v.id === 'string' && (CVE_ID.test(v.id) || 'severity' in v || 'summary' in v || 'score' in v);
}

/**
 * CVE data of endpoints 12/13/14: an array, a single CVE object, a map keyed by CVE id
 * (live), or an object holding one of those under `cves`/`items`. Always an array,
 * deduplicated by id.
 */
export function normalizeCveList(data: unknown): Cve[] {
  const out = new Map<string, Cve>();
  const add = (c: Cve | undefined): void => {
    if (c && !out.has(c.id.toUpperCase())) out.set(c.id.toUpperCase(), c);
  };
  const walk = (v: unknown, depth: number): void => {
    if (depth > 3) return;
    if (Array.isArray(v)) {
      for (const x of v) add(normalizeCve(x));
    } else if (isObj(v)) {
      if (looksLikeCve(v)) return add(normalizeCve(v));
      for (const key of ['cves', 'items', 'data']) if (key in v) return walk(v[key], depth + 1);
      for (const [k, x] of Object.entries(v))
        if (isObj(x)) add(normalizeCve(x, CVE_ID.test(k) ? k : undefined));
    }
  };
  walk(data, 0);
  return [...out.values()];
}

/**
 * Exploit data of endpoint 13, flattened to one entry per exploit (deduplicated by id),
 * each with the CVE ids it was listed under in `cves`. Accepts the live map
 * `{CVE-id: {…cve, exploit: [...]}}`, a map `{CVE-id: [exploit…]}`, an array of CVEs, an
 * array of exploits, or any of those under `exploits`/`cves`/`items`.
 */
export function normalizeExploits(data: unknown): Exploit[] {
  const out = new Map<string, Exploit>();
  const add = (e: Exploit | undefined, cve?: string): void => {
    if (!e) return;
    const prev = out.get(e.id) ?? { ...e, cves: [] };
    if (cve && !prev.cves!.includes(cve)) prev.cves!.push(cve);
    out.set(e.id, prev);
  };
  const fromEntry = (v: unknown, cveKey: string | undefined): void => {
    if (Array.isArray(v)) {
      for (const x of v) add(normalizeExploit(x), cveKey);
    } else if (isObj(v)) {
      const inner = v.exploit ?? v.exploits;
      if (inner !== undefined || looksLikeCve(v)) {
        const cve = nonEmpty(v.id) ?? cveKey;
        for (const x of list(inner)) add(normalizeExploit(x), cve);
      } else {
        add(normalizeExploit(v), cveKey);
      }
    }
  };
  const walk = (v: unknown, depth: number): void => {
    if (depth > 3) return;
    if (Array.isArray(v)) {
      for (const x of v) fromEntry(x, undefined);
    } else if (isObj(v)) {
      for (const key of ['exploits', 'cves', 'items', 'data']) if (key in v) return walk(v[key], depth + 1);
      if (looksLikeCve(v) || 'exploit' in v) return fromEntry(v, undefined);
      for (const [k, x] of Object.entries(v)) fromEntry(x, CVE_ID.test(k) ? k : undefined);
    }
  };
  walk(data, 0);
  return [...out.values()];
}
