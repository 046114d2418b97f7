/**
 * The ONE place where the wire format of the ODIN API becomes the model of `types.ts`.
 *
 * Two dialects answer: the `spec` one (the interface document, with keys written ` data`,
 * ` meta`, ` error` and the capital `Data` of the field catalogues, and `data: {}` beside
 * the real host list) and the `live` one (plain keys, `null` for empty lists,
 * `0001-01-01T00:00:00Z` for unset timestamps, CVE data as a map keyed by CVE id). Both
 * are folded here into one clean shape.
 *
 * Response bodies are attacker-influenced (scan data is written by whoever runs the
 * scanned host), so every value is type-checked: a field of the wrong type is dropped
 * rather than passed on, a record missing its identifying field is dropped, and keys
 * `__proto__`, `constructor` and `prototype` never reach an object (`parseJson` drops them
 * and the free-form parts are copied key by key).
 */
import type {
  Aggregation,
  AggregationBucket,
  Asn,
  Bucket,
  CreditsUsage,
  Cve,
  DomainRecord,
  Exploit,
  FieldDescriptor,
  Host,
  HostDomain,
  HostLocation,
  HostName,
  HostTag,
  HostWhois,
  Service,
  ServiceMeta,
  ServiceModules,
  Severity,
  Software,
  WhoisContact,
  WhoisHistory,
  WhoisRecord,
} from './types';
import { readHttp, readSsh, readTls } from './modules';

type Obj = Record<string, unknown>;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** `JSON.parse` that drops `__proto__` / `constructor` / `prototype` keys wherever they are. */
export function parseJson(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => (FORBIDDEN_KEYS.has(key) ? undefined : value));
}

// ---------------------------------------------------------------- primitives

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isEmpty(v: unknown): boolean {
  return (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const int = (v: unknown): number | undefined => (Number.isSafeInteger(v) ? (v as number) : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strList = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');
const obj = (v: unknown): Obj => (isObj(v) ? v : {});

/** Unset timestamps are `0001-01-01T00:00:00Z` (Go's zero time) on the live service. */
export function time(v: unknown): string | undefined {
  if (typeof v !== 'string' || v === '' || v.startsWith('0001-01-01')) return undefined;
  return v;
}

function mapList<T>(v: unknown, f: (x: unknown) => T | undefined): T[] {
  const out: T[] = [];
  for (const x of list(v)) {
    const y = f(x);
    if (y !== undefined) out.push(y);
  }
  return out;
}

/** Removes keys whose value is `undefined`, so records compare and serialise cleanly. */
function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
  return o;
}

/** Deep copy of free-form JSON (service modules) that skips the forbidden keys. */
export function safeCopy(v: unknown, depth = 0): unknown {
  if (depth > 64) return undefined;
  if (Array.isArray(v)) return v.map((x) => safeCopy(x, depth + 1));
  if (isObj(v)) {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) if (!FORBIDDEN_KEYS.has(k)) out[k] = safeCopy(x, depth + 1);
    return out;
  }
  return v;
}

// ---------------------------------------------------------------- envelope (both dialects)

function pick(body: Obj, keys: string[]): unknown {
  let fallback: unknown;
  for (const k of keys) {
    if (!Object.prototype.hasOwnProperty.call(body, k)) continue;
    const v = body[k];
    if (v !== null && v !== undefined && !isEmpty(v)) return v;
    if (fallback === undefined) fallback = v;
  }
  return fallback;
}

/** The payload: ` data` (spec host search), `Data` (spec field catalogues) or `data`. */
export function envelopeData(body: Obj): unknown {
  return pick(body, [' data', 'data', 'Data', ' Data']);
}

export function envelopeMeta(body: Obj): Obj {
  return obj(pick(body, ['meta', ' meta']));
}

export function envelopePagination(body: Obj): Obj {
  return obj(pick(body, ['pagination', ' pagination']));
}

/** The server's error text: `message` plus the ` error` string of the spec's host search. */
export function envelopeErrorText(body: unknown): string | undefined {
  if (!isObj(body)) return undefined;
  const parts = [str(body.message), str(body[' error']), str(body.error)].filter((x) => x);
  return parts.length ? [...new Set(parts)].join(': ') : undefined;
}

// ---------------------------------------------------------------- hosts

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

function normalizeModules(v: unknown): ServiceModules {
  const out: ServiceModules = {};
  if (!isObj(v)) return out;
  for (const [k, x] of Object.entries(v)) {
    if (isObj(x) && !FORBIDDEN_KEYS.has(k)) out[k] = safeCopy(x) as Record<string, unknown>;
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

export function normalizeService(v: unknown): Service | undefined {
  if (!isObj(v)) return undefined;
  const port = int(v.port);
  if (port === undefined || port < 0 || port > 65535) return undefined;
  const modules = normalizeModules(v.modules);
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
    cve: normalizeCveList(v.cve),
    softwares: mapList(v.softwares, normalizeSoftware),
    modules,
    banner,
    http: readHttp(modules.http),
    tls: readTls(modules.tls),
    ssh: readSsh(modules.ssh),
  });
}

function normalizeAsn(v: unknown): Asn | undefined {
  if (!isObj(v)) return undefined;
  const number = nonEmpty(v.number) ?? (int(v.number) !== undefined ? `AS${v.number as number}` : undefined);
  return compact<Asn>({
    country_code: nonEmpty(v.country_code),
    number,
    organization: nonEmpty(v.organization),
  });
}

/** A coordinate: a number, or a decimal number written as a string (live: `"40.7123"`). */
function coordinate(v: unknown): number | undefined {
  if (typeof v === 'string' && /^\s*-?\d{1,3}(\.\d+)?\s*$/.test(v)) return Number(v);
  return num(v);
}

function normalizeLocation(v: unknown): HostLocation | undefined {
  if (!isObj(v)) return undefined;
  const c = obj(v.coordinates);
  const latitude = coordinate(c.latitude) ?? coordinate(c.lat);
  const longitude = coordinate(c.longitude) ?? coordinate(c.lon) ?? coordinate(c.lng);
  return compact<HostLocation>({
    city: nonEmpty(v.city),
    continent: nonEmpty(v.continent),
    country_code: nonEmpty(v.country_code),
    country_name: nonEmpty(v.country_name),
    geo_point: nonEmpty(v.geo_point),
    locale_code: nonEmpty(v.locale_code),
    network: nonEmpty(v.network),
    postal_code: nonEmpty(v.postal_code),
    coordinates:
      latitude !== undefined || longitude !== undefined ? compact({ latitude, longitude }) : undefined,
  });
}

function normalizeHostDomain(v: unknown): HostDomain | undefined {
  if (!isObj(v)) return undefined;
  return compact<HostDomain>({
    country: str(v.country),
    dns_servers: strList(v.dns_servers),
    emails: strList(v.emails),
    last_updated_at: time(v.last_updated_at),
    name: str(v.name),
    web_server: str(v.web_server),
  });
}

function normalizeHostName(v: unknown): HostName | undefined {
  if (typeof v === 'string' && v !== '') return { name: v };
  if (!isObj(v) || !nonEmpty(v.name)) return undefined;
  return compact<HostName>({ name: v.name as string, last_updated_at: time(v.last_updated_at) });
}

/**
 * A tag that holds: a plain string, or an object whose `value` is true. The live service
 * lists tags that do not hold with `value: false` (every captured host carries
 * `is_anonymous_proxy: false`); those, and values that are not booleans, are left out.
 * An object without `value` is kept (older answers name only the tags that hold).
 */
function normalizeTag(v: unknown): HostTag | undefined {
  if (typeof v === 'string' && v !== '') return { name: v };
  if (!isObj(v) || !nonEmpty(v.name)) return undefined;
  if (v.value !== undefined && v.value !== true) return undefined;
  return compact<HostTag>({
    name: v.name as string,
    last_updated_at: time(v.last_updated_at),
    pretty_name: str(v.pretty_name),
    value: bool(v.value),
  });
}

/**
 * The raw whois text. `_encoding.raw` names its encoding (live: `"BASE64"`, and search hits
 * carry only that marker, no text); base64 text is decoded, anything else kept as it is.
 */
function whoisRaw(v: Obj): string | undefined {
  const raw = str(v.raw);
  if (raw === undefined) return undefined;
  const encoding = str(obj(v._encoding).raw);
  if (encoding?.toUpperCase() === 'BASE64' && /^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(raw)) {
    return Buffer.from(raw, 'base64').toString('utf8');
  }
  return raw;
}

function normalizeHostWhois(v: unknown): HostWhois | undefined {
  if (!isObj(v)) return undefined;
  const w = compact<HostWhois>({
    descr: str(v.descr),
    network: str(v.network),
    organization: str(v.organization),
    raw: whoisRaw(v),
  });
  return Object.keys(w).length ? w : undefined;
}

/** A host record; `undefined` when it is not an object or carries no IP (and none is known). */
export function normalizeHost(v: unknown, fallbackIp?: string): Host | undefined {
  if (!isObj(v)) return undefined;
  const ip = nonEmpty(v.ip) ?? fallbackIp;
  if (ip === undefined) return undefined;
  return compact<Host>({
    ip,
    is_ipv4: bool(v.is_ipv4),
    is_ipv6: bool(v.is_ipv6),
    is_vuln: bool(v.is_vuln),
    scan_id: int(v.scan_id),
    last_updated_at: time(v.last_updated_at),
    banner: strList(v.banner),
    services_hash: str(v.services_hash),
    asn: normalizeAsn(v.asn),
    asn_updated_at: time(v.asn_updated_at),
    domains: mapList(v.domains, normalizeHostDomain),
    hostnames: mapList(v.hostnames, normalizeHostName),
    location: normalizeLocation(v.location),
    location_updated_at: time(v.location_updated_at),
    services: mapList(v.services, normalizeService),
    tags: mapList(v.tags, normalizeTag),
    whois: normalizeHostWhois(v.whois),
    whois_updated_at: time(v.whois_updated_at),
  });
}

// ---------------------------------------------------------------- aggregations, counts, fields

const AGG_KEY = (v: unknown): v is AggregationBucket['key'] =>
  v === null ||
  typeof v === 'string' ||
  typeof v === 'boolean' ||
  (typeof v === 'number' && Number.isFinite(v));

export function normalizeAggregation(data: unknown): Aggregation | undefined {
  if (!isObj(data)) return undefined;
  const buckets = mapList(data.buckets, (b): AggregationBucket | undefined => {
    if (!isObj(b) || !AGG_KEY(b.key)) return undefined;
    const docCount = num(b.doc_count);
    return docCount === undefined || docCount < 0 ? undefined : { key: b.key, doc_count: docCount };
  });
  return {
    buckets,
    doc_count_error_upper_bound: num(data.doc_count_error_upper_bound) ?? 0,
    sum_other_doc_count: num(data.sum_other_doc_count) ?? 0,
  };
}

/** A count: `{count: n}` (or a bare number); `undefined` when there is none. */
export function normalizeCount(data: unknown): number | undefined {
  const n = isObj(data) ? num(data.count) : num(data);
  return n !== undefined && n >= 0 ? n : undefined;
}

function normalizeField(v: unknown): FieldDescriptor | undefined {
  if (typeof v === 'string' && v !== '') return { name: v, is_locked: false };
  if (!isObj(v) || !nonEmpty(v.name)) return undefined;
  return compact<FieldDescriptor>({
    name: v.name as string,
    category: str(v.category),
    display_category: str(v.display_category),
    is_locked: bool(v.is_locked) ?? false,
  });
}

export function normalizeFields(data: unknown): FieldDescriptor[] {
  const items = Array.isArray(data) ? data : isObj(data) ? (data.fields ?? data.items) : undefined;
  return mapList(items, normalizeField);
}

// ---------------------------------------------------------------- domains and whois

export function normalizeDomainRecord(v: unknown): DomainRecord | undefined {
  if (!isObj(v)) return undefined;
  const ext = isObj(v.ext_dns_name)
    ? compact({
        domain: str(v.ext_dns_name.domain),
        fld: str(v.ext_dns_name.fld),
        subdomain: str(v.ext_dns_name.subdomain),
        tld: str(v.ext_dns_name.tld),
      })
    : undefined;
  const domain = nonEmpty(v.domain) ?? nonEmpty(ext?.domain);
  if (domain === undefined) return undefined;
  return compact<DomainRecord>({
    domain,
    subdomain: str(v.subdomain),
    added_at: time(v.added_at),
    ext_dns_name: ext,
  });
}

function normalizeContact(v: unknown): WhoisContact | undefined {
  if (!isObj(v)) return undefined;
  const keys = [
    'address',
    'city',
    'company',
    'country',
    'country_code',
    'email',
    'email_domain',
    'fax',
    'name',
    'phone',
    'state',
    'zip',
  ] as const;
  const c: WhoisContact = {};
  for (const k of keys) {
    const s = nonEmpty(v[k]);
    if (s !== undefined) c[k] = s;
  }
  return Object.keys(c).length ? c : undefined;
}

export function normalizeWhois(v: unknown, fallbackDomain?: string): WhoisRecord | undefined {
  if (!isObj(v)) return undefined;
  const domainName = nonEmpty(v.domain_name) ?? fallbackDomain;
  if (domainName === undefined) return undefined;
  const r = obj(v.registrar);
  const a = obj(v.audited_fields);
  const registrar = compact({ id: str(r.id), name: str(r.name), url: str(r.url), whois: str(r.whois) });
  const audited = compact({
    created_at: time(a.created_at),
    expires_date: time(a.expires_date),
    is_modified: bool(a.is_modified),
    updated_at: time(a.updated_at),
  });
  return compact<WhoisRecord>({
    domain_name: domainName,
    tld: str(v.tld),
    created_date: time(v.created_date),
    updated_date: time(v.updated_date),
    expires_date: time(v.expires_date),
    domain_status: strList(v.domain_status),
    name_servers: strList(v.name_servers),
    raw_data: str(v.raw_data),
    registrar: Object.keys(registrar).length ? registrar : undefined,
    audited_fields: Object.keys(audited).length ? audited : undefined,
    administrative_contact: normalizeContact(v.administrative_contact),
    billing_contact: normalizeContact(v.billing_contact),
    registrant_contact: normalizeContact(v.registrant_contact),
    technical_contact: normalizeContact(v.technical_contact),
  });
}

export function normalizeWhoisHistory(data: unknown, meta: Obj, fallbackDomain?: string): WhoisHistory {
  const items = Array.isArray(data) ? data : isObj(data) ? (data.records ?? data.items) : undefined;
  return compact<WhoisHistory>({
    records: mapList(items, (x) => normalizeWhois(x, fallbackDomain)),
    limit: int(meta.limit),
    pageState: nonEmpty(meta.pageState),
  });
}

// ---------------------------------------------------------------- exposed storage

export function normalizeBucket(v: unknown): Bucket | undefined {
  if (!isObj(v) || !nonEmpty(v.name)) return undefined;
  const counts: Record<string, number> = {};
  for (const [k, x] of Object.entries(obj(v.file_cat_count))) {
    const n = num(x);
    if (n !== undefined && !FORBIDDEN_KEYS.has(k)) counts[k] = n;
  }
  return compact<Bucket>({
    name: v.name as string,
    provider: str(v.provider),
    region: str(v.region),
    owner_id: str(v.owner_id),
    open: bool(v.open),
    deleted: bool(v.deleted),
    labels: strList(v.labels),
    categories: strList(v.categories),
    files: num(v.files),
    new_files: num(v.new_files),
    sensitive_files: num(v.sensitive_files),
    file_cat_count: counts,
    age_in_days: num(v.age_in_days),
    ins_at: time(v.ins_at),
    scan_at: time(v.scan_at),
    prev_scan_at: time(v.prev_scan_at),
    last_found_at: time(v.last_found_at),
    last_open_at: time(v.last_open_at),
  });
}

// ---------------------------------------------------------------- credits

/**
 * The credits' expiry: an integer (Cyble's schemas: epoch seconds; milliseconds accepted)
 * or a date string, as ISO 8601.
 */
function expiry(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) {
    const ms = v < 100_000_000_000 ? v * 1000 : v;
    return ms <= 8_640_000_000_000_000 ? new Date(ms).toISOString() : undefined;
  }
  return time(v);
}

/**
 * `/v1/credits/usage`: `{search: {host_cert: {left, plan}, bucket_file: {…}}, expires_on}`
 * at the top level (every official schema), or under `data`.
 */
export function normalizeCredits(body: Obj): CreditsUsage | undefined {
  const data = envelopeData(body);
  const root = isObj(data) && ('search' in data || 'expires_on' in data) ? data : body;
  const search = obj(root.search);
  const part = (v: unknown): { left?: number; plan?: number } | undefined => {
    if (!isObj(v)) return undefined;
    const p = compact({ left: num(v.left), plan: num(v.plan) });
    return Object.keys(p).length ? p : undefined;
  };
  const out = compact<CreditsUsage>({
    hostCert: part(search.host_cert),
    bucketFile: part(search.bucket_file),
    expiresOn: expiry(root.expires_on),
  });
  return Object.keys(out).length ? out : undefined;
}
