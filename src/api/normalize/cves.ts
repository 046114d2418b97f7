/** CVEs and exploits (endpoints 12, 13, 14 and the CVE lists inside services): every
 * shape the two dialects use, folded into arrays deduplicated by id. What is there but
 * cannot be read (`[{id: 44228}]`, exploits as bare strings) is counted (`unreadable`), so
 * that no answer reads as "no known CVEs" or "0 exploits" because of its shape. */
import type { Cve, Exploit, Severity } from '../types';
import { isObj, str, nonEmpty, num, int, list, strList, type Obj, compact } from './json';

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

/** A CVE id written anywhere in an answer (a banner, a key, a list of strings). */
export const CVE_TOKEN = /CVE-\d{4}-\d{4,}/i;

/** The message for CVE or exploit data that is there but cannot be read. */
export const UNREADABLE_CVE_DATA = 'CVE data in an unexpected shape';

/** Exploits of one CVE record, and how many entries of its list could not be read. */
function readExploitList(v: unknown): { exploits: Exploit[]; unreadable: number } {
  const exploits: Exploit[] = [];
  let unreadable = 0;
  for (const x of list(v)) {
    const e = normalizeExploit(x);
    if (e) exploits.push(e);
    else if (x !== null) unreadable++;
  }
  return { exploits, unreadable };
}

export function normalizeCve(v: unknown, fallbackId?: string): Cve | undefined {
  return readCve(v, fallbackId).cve;
}

/**
 * One CVE entry: a record (`{id, severity, …}`), or a CVE id as a bare string (`"CVE-…"`,
 * read as a record with nothing else known). `unreadable` counts what is there but cannot
 * be read: the entry itself (`{id: 44228}`, `42`) or entries of its exploit list.
 */
function readCve(v: unknown, fallbackId?: string): { cve?: Cve; unreadable: number } {
  if (typeof v === 'string') {
    const id = v.trim();
    return CVE_ID.test(id)
      ? { cve: { id, severity: 'UNKNOWN', references: [], services: [], exploit: [] }, unreadable: 0 }
      : { unreadable: v === '' ? 0 : 1 };
  }
  if (!isObj(v)) return { unreadable: v === null || v === undefined ? 0 : 1 };
  const id = nonEmpty(v.id) ?? fallbackId;
  if (id === undefined) return { unreadable: 1 };
  const score = num(v.score);
  const exploits = readExploitList(v.exploit ?? v.exploits);
  const cve = compact<Cve>({
    id,
    summary: str(v.summary),
    severity: normalizeSeverity(v.severity, score),
    score,
    vector_string: str(v.vector_string),
    weakness: str(v.weakness),
    references: strList(v.references),
    services: strList(v.services),
    exploit: exploits.exploits,
  });
  return { cve, unreadable: exploits.unreadable };
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
  return readCveList(data).cves;
}

/**
 * `normalizeCveList` with the count of entries that are there but cannot be read: a CVE
 * hidden by its shape (`[{id: 44228}]`, `[42]`, a map entry `{"CVE-…": 9.8}` is read by its
 * key), or exploits that are not records. A caller with `unreadable > 0` must not say "no
 * known CVEs" or "0 exploits". At most `max` entries are read (a service's list is bounded
 * like every list of a host, in an array or a map alike); `cut` says entries were left unread.
 */
export function readCveList(
  data: unknown,
  max = Infinity,
): { cves: Cve[]; unreadable: number; cut: boolean } {
  const out = new Map<string, Cve>();
  let unreadable = 0;
  let read = 0;
  let cut = false;
  const add = (r: { cve?: Cve; unreadable: number }): void => {
    read++;
    unreadable += r.unreadable;
    const c = r.cve;
    if (c && !out.has(c.id.toUpperCase())) out.set(c.id.toUpperCase(), c);
  };
  const full = (): boolean => {
    if (read < max) return false;
    cut = true;
    return true;
  };
  const walk = (v: unknown, depth: number): void => {
    if (depth > 3) {
      if (v !== null && v !== undefined) unreadable++;
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) {
        if (full()) return;
        add(readCve(x));
      }
    } else if (isObj(v)) {
      if (looksLikeCve(v)) return add(readCve(v));
      for (const key of ['cves', 'items', 'data']) if (key in v) return walk(v[key], depth + 1);
      // `for…in`, not `Object.entries`: a map of 560,000 CVEs is not copied to be cut.
      for (const k in v) {
        if (full()) return;
        const x = v[k];
        const key = CVE_ID.test(k) ? k : undefined;
        if (isObj(x)) add(readCve(x, key));
        // `{"CVE-…": "critical"}`: the key is the CVE; other keys beside a map are paging facts.
        else if (key) add(readCve(key));
        else if (typeof x === 'string' && CVE_TOKEN.test(x)) unreadable++;
      }
    } else if (typeof v === 'string') {
      add(readCve(v));
    } else if (v !== null && v !== undefined) {
      unreadable++;
    }
  };
  walk(data, 0);
  return { cves: [...out.values()], unreadable, cut };
}

/**
 * Exploit data of endpoint 13, flattened to one entry per exploit (deduplicated by id),
 * each with the CVE ids it was listed under in `cves`. Accepts the live map
 * `{CVE-id: {…cve, exploit: [...]}}`, a map `{CVE-id: [exploit…]}`, an array of CVEs, an
 * array of exploits, or any of those under `exploits`/`cves`/`items`.
 */
export function normalizeExploits(data: unknown): Exploit[] {
  return readExploits(data).exploits;
}

/** `normalizeExploits` with the count of entries that are there but cannot be read (`["EDB-1"]`). */
export function readExploits(data: unknown): { exploits: Exploit[]; unreadable: number } {
  const out = new Map<string, Exploit>();
  let unreadable = 0;
  const add = (e: Exploit | undefined, cve?: string, raw?: unknown): void => {
    if (!e) {
      if (raw !== null && raw !== undefined) unreadable++;
      return;
    }
    const prev = out.get(e.id) ?? { ...e, cves: [] };
    if (cve && !prev.cves!.includes(cve)) prev.cves!.push(cve);
    out.set(e.id, prev);
  };
  const fromEntry = (v: unknown, cveKey: string | undefined): void => {
    if (Array.isArray(v)) {
      for (const x of v) add(normalizeExploit(x), cveKey, x);
    } else if (isObj(v)) {
      const inner = v.exploit ?? v.exploits;
      if (inner !== undefined || looksLikeCve(v)) {
        const cve = nonEmpty(v.id) ?? cveKey;
        for (const x of list(inner)) add(normalizeExploit(x), cve, x);
      } else {
        add(normalizeExploit(v), cveKey, v);
      }
    } else if (v !== null && v !== undefined && (cveKey !== undefined || typeof v === 'string')) {
      // Under a CVE's key, or a bare string: an exploit that cannot be read (other keys
      // beside a map are paging facts).
      unreadable++;
    }
  };
  const walk = (v: unknown, depth: number): void => {
    if (depth > 3) return;
    if (Array.isArray(v)) {
      // An entry of the list itself that is not a record (`["EDB-1"]`, `[42]`) cannot be read.
      for (const x of v) {
        if (isObj(x) || Array.isArray(x)) fromEntry(x, undefined);
        else if (x !== null && x !== undefined) unreadable++;
      }
    } else if (isObj(v)) {
      for (const key of ['exploits', 'cves', 'items', 'data']) if (key in v) return walk(v[key], depth + 1);
      if (looksLikeCve(v) || 'exploit' in v) return fromEntry(v, undefined);
      for (const [k, x] of Object.entries(v)) fromEntry(x, CVE_ID.test(k) ? k : undefined);
    }
  };
  walk(data, 0);
  return { exploits: [...out.values()], unreadable };
}
