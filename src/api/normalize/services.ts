/** A host's services: software (CPE parts), protocol modules (read by `modules.ts`),
 * banner and CVEs. */
import type { Service, ServiceMeta, ServiceModules, Software } from '../types';
import {
  isObj,
  str,
  int,
  strList,
  time,
  mapList,
  safeCopy,
  FORBIDDEN_KEYS,
  compact,
  MAX_LIST_ITEMS,
  type CopyBudget,
} from './json';
import { readCveList } from './cves';
import { readHttp, readSsh, readTls } from './modules';

/** Undoes the regex escaping of live software fields (`"8\\.2p1"` → `"8.2p1"`). */
function unescapeRegex(s: string): string {
  return s.replace(/\\([\\.^$|?*+()[\]{}\-/])/g, '$1');
}

/** CPE's "any value" (`ANY` in the live service's CPE 2.2 parts, `*` in 2.3) and "not applicable". */
const CPE_UNSET = new Set(['ANY', '*', '-', 'NA']);

/**
 * Software sub-fields are strings live; the spec calls them objects (inner fields unknown).
 * An unknown part (`"ANY"`) is no value: it is left out, never shown as a version.
 */
function softwarePart(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' || CPE_UNSET.has(v.toUpperCase()) ? undefined : unescapeRegex(v);
  if (isObj(v)) {
    for (const k of ['name', 'value', 'version'])
      if (typeof v[k] === 'string' && v[k] !== '') return v[k] as string;
  }
  return undefined;
}

function normalizeSoftware(v: unknown): Software | undefined {
  if (!isObj(v)) return undefined;
  const s = compact<Software>({
    uri: str(v.uri),
    vendor: softwarePart(v.vendor),
    product: softwarePart(v.product),
    version: softwarePart(v.version),
    edition: softwarePart(v.edition),
    language: softwarePart(v.language),
    part: softwarePart(v.part),
    update: softwarePart(v.update),
  });
  return Object.keys(s).length ? s : undefined;
}

function normalizeModules(v: unknown, budget: CopyBudget | undefined): ServiceModules {
  const out: ServiceModules = {};
  if (!isObj(v)) return out;
  for (const k of Object.keys(v)) {
    const x = v[k];
    if (!isObj(x) || FORBIDDEN_KEYS.has(k)) continue;
    // Past the answer's budget a module is not copied at all (the budget says it was cut).
    const copy = safeCopy(x, 0, budget);
    if (isObj(copy)) out[k] = copy;
  }
  return out;
}

function normalizeServiceMeta(v: unknown): ServiceMeta | undefined {
  if (!isObj(v)) return undefined;
  return compact<ServiceMeta>({
    category: str(v.category),
    desc: str(v.desc),
    name: str(v.name),
    tags: strList(v.tags),
  });
}

/** `budget`: what the host's answer may still copy of protocol modules (see MAX_MODULE_VALUES). */
export function normalizeService(v: unknown, budget?: CopyBudget): Service | undefined {
  if (!isObj(v)) return undefined;
  const port = int(v.port);
  if (port === undefined || port < 0 || port > 65535) return undefined;
  const modules = normalizeModules(v.modules, budget);
  const name = str(v.name);
  let banner = str(v.banner);
  if (banner === undefined) {
    const first =
      name !== undefined && Object.prototype.hasOwnProperty.call(modules, name) ? [modules[name]] : [];
    for (const m of [...first, ...Object.values(modules)]) {
      if (typeof m.banner === 'string') {
        banner = m.banner;
        break;
      }
    }
  }
  // Every service with CVEs keeps at least one (none reads as clean), past the host's budget too.
  const cveMax = Math.min(MAX_LIST_ITEMS, Math.max(1, budget?.cves ?? MAX_LIST_ITEMS));
  const cves = readCveList(v.cve, cveMax);
  if (budget) {
    if (budget.cves !== undefined) budget.cves -= cves.cves.length;
    if (cves.cut) budget.cut = budget.cvesCut = true;
  }
  return compact<Service>({
    port,
    protocol: str(v.protocol),
    name,
    product: str(v.product),
    version: str(v.version),
    extra_info: str(v.extra_info),
    tunnel: str(v.tunnel),
    url: str(v.url),
    last_updated_at: time(v.last_updated_at),
    _meta: normalizeServiceMeta(v._meta),
    cve: cves.cves,
    cve_unreadable: cves.unreadable > 0 ? cves.unreadable : undefined,
    softwares: mapList(v.softwares, normalizeSoftware, MAX_LIST_ITEMS),
    modules,
    banner,
    http: readHttp(modules.http),
    tls: readTls(modules.tls),
    ssh: readSsh(modules.ssh),
  });
}
