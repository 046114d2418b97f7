/** Domain search records and whois records (current and history). */
import {
  CITIES,
  type CitySpec,
  DOMAIN_STATUSES,
  FIRST_NAMES,
  LAST_NAMES,
  NAME_SERVER_SETS,
  REGISTRARS,
  type RegistrarSpec,
} from './catalog';
import { DAY, iso, isoDay } from './clock';
import { hostile } from './hostile';
import { type Rng, hash32 } from './random';
import type { DomainRecord, WhoisContact, WhoisRecord } from './records';

export function splitDomain(domain: string): { label: string; tld: string } {
  const i = domain.indexOf('.');
  return { label: domain.slice(0, i), tld: domain.slice(i + 1) };
}

export interface DomainPlan {
  domain: string;
  labels: string[];
  created: number;
  expires: number;
  registrar: RegistrarSpec;
  ns: string[];
  privacy: boolean;
  history: number;
  hostileText?: boolean;
  country?: CitySpec;
  status?: string[];
}

function contact(rng: Rng, domain: string, role: string, plan: DomainPlan): WhoisContact {
  const h = (s: string): string => (plan.hostileText ? hostile(s) : s);
  if (plan.privacy) {
    return {
      address: 'REDACTED FOR PRIVACY',
      city: 'REDACTED FOR PRIVACY',
      company: 'Privacy service provided by Withheld for Privacy ehf',
      country: 'Iceland',
      country_code: 'IS',
      email: `${rng.hex(32)}@withheldforprivacy.com`,
      email_domain: 'withheldforprivacy.com',
      fax: '',
      name: 'REDACTED FOR PRIVACY',
      phone: '+354.4212434',
      state: 'Capital Region',
      zip: '101',
    };
  }
  const city = plan.country ?? CITIES.nyc;
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const company = domain
    .split('.')[0]
    .split('-')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
  return {
    address: h(
      `${rng.int(1, 999)} ${rng.pick(['Market St', 'Harbor Rd', 'Main St', 'Industrial Way', 'Park Ave'])}`,
    ),
    city: h(city.city),
    company: h(`${company} ${rng.pick(['Inc.', 'LLC', 'Ltd', 'GmbH'])}`),
    country: h(city.country),
    country_code: city.cc,
    email: h(`${role}@${domain}`),
    email_domain: domain,
    fax: '',
    name: h(`${first} ${last}`),
    phone: h(`+1.${rng.int(200, 999)}${rng.int(1000000, 9999999)}`),
    state: h(city.cc === 'US' ? 'NY' : ''),
    zip: h(city.postal),
  };
}

export function whoisRecords(rng: Rng, plan: DomainPlan, anchor: number): WhoisRecord[] {
  const { domain } = plan;
  const tld = domain.slice(domain.indexOf('.') + 1);
  const h = (s: string): string => (plan.hostileText ? hostile(s) : s);
  const contacts = {
    registrant_contact: contact(rng, domain, 'registrant', plan),
    administrative_contact: contact(rng, domain, 'admin', plan),
    technical_contact: contact(rng, domain, 'tech', plan),
    billing_contact: contact(rng, domain, 'billing', plan),
  };
  // Snapshots from oldest to newest: each changes the registrar, the name servers or the status.
  const n = Math.max(1, plan.history);
  const out: WhoisRecord[] = [];
  let registrar = n > 1 ? rng.pick(REGISTRARS.filter((r) => r.id !== plan.registrar.id)) : plan.registrar;
  let ns = n > 1 ? rng.pick(NAME_SERVER_SETS) : plan.ns;
  let status = n > 1 ? ['clientTransferProhibited'] : (plan.status ?? ['clientTransferProhibited']);
  const span = Math.max(DAY, anchor - 20 * DAY - plan.created);
  for (let i = 0; i < n; i++) {
    const last = i === n - 1;
    if (i > 0) {
      const change = i % 3;
      if (change === 1) registrar = last ? plan.registrar : rng.pick(REGISTRARS);
      else if (change === 2) ns = last ? plan.ns : rng.pick(NAME_SERVER_SETS);
      else
        status = last
          ? (plan.status ?? ['clientTransferProhibited', 'clientUpdateProhibited'])
          : rng.sample(DOMAIN_STATUSES, 2);
    }
    if (last) {
      registrar = plan.registrar;
      ns = plan.ns;
      status = plan.status ?? status;
    }
    const updated =
      n === 1 ? anchor - rng.int(20, 300) * DAY : plan.created + Math.floor((span * (i + 1)) / n);
    const expires = last ? plan.expires : updated + 365 * DAY;
    const raw = [
      `Domain Name: ${domain.toUpperCase()}`,
      `Registry Domain ID: ${hash32(domain)}_DOMAIN_COM-VRSN`,
      `Registrar WHOIS Server: ${registrar.whois}`,
      `Registrar URL: ${registrar.url}`,
      `Updated Date: ${isoDay(updated)}`,
      `Creation Date: ${isoDay(plan.created)}`,
      `Registry Expiry Date: ${isoDay(expires)}`,
      `Registrar: ${registrar.name}`,
      `Registrar IANA ID: ${registrar.id}`,
      ...status.map((s) => `Domain Status: ${s} https://icann.org/epp#${s}`),
      ...ns.map((x) => `Name Server: ${x.toUpperCase()}`),
      `Registrant Organization: ${contacts.registrant_contact.company}`,
      `Registrant Email: ${contacts.registrant_contact.email}`,
      'DNSSEC: unsigned',
      `>>> Last update of whois database: ${iso(updated)} <<<`,
    ].join('\n');
    out.push({
      domain_name: domain,
      tld,
      created_date: isoDay(plan.created),
      updated_date: isoDay(updated),
      expires_date: isoDay(expires),
      domain_status: status.slice(),
      name_servers: ns.slice(),
      raw_data: h(raw),
      registrar: { id: registrar.id, name: h(registrar.name), url: registrar.url, whois: registrar.whois },
      audited_fields: {
        created_at: iso(updated + 3_600_000),
        expires_date: isoDay(expires),
        is_modified: i > 0,
        updated_at: iso(updated + 3_600_000),
      },
      registrant_contact: { ...contacts.registrant_contact },
      administrative_contact: { ...contacts.administrative_contact },
      technical_contact: { ...contacts.technical_contact },
      billing_contact: { ...contacts.billing_contact },
    });
  }
  return out.reverse();
}

export function domainRecords(rng: Rng, plan: DomainPlan, anchor: number): DomainRecord[] {
  const { label, tld } = splitDomain(plan.domain);
  const names = ['', ...plan.labels];
  return names.map((sub) => {
    const fqdn = sub ? `${sub}.${plan.domain}` : plan.domain;
    return {
      added_at: iso(Math.max(plan.created, anchor - rng.int(1, 700) * DAY) + rng.int(0, DAY - 1)),
      domain: plan.domain,
      subdomain: fqdn,
      ext_dns_name: { domain: label, fld: plan.domain, subdomain: sub, tld },
    };
  });
}
