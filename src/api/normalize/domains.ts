/** Domain records, whois records and whois history. */
import type { DomainRecord, WhoisContact, WhoisHistory, WhoisRecord } from '../types';
import { isObj, str, nonEmpty, int, bool, strList, obj, time, mapList, compact, type Obj } from './json';

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
