/**
 * From whois records to what the whois page shows (pure, no `vscode`).
 */
import type { WhoisContact, WhoisRecord } from '../../api/types';
import type { WhoisContactView, WhoisView } from '../../common/protocol';
import { daysUntil, snapshotDate, whoisTimeline } from '../../core/whois/diff';
import { l10n } from '../../core/text/l10n';

const cap = (s: string | undefined, max = 2000): string | undefined =>
  s === undefined || s === '' ? undefined : s.length > max ? `${s.slice(0, max)}…` : s;

const CONTACT_ROLES: Array<[WhoisContactView['role'], keyof WhoisRecord]> = [
  ['registrant', 'registrant_contact'],
  ['administrative', 'administrative_contact'],
  ['technical', 'technical_contact'],
  ['billing', 'billing_contact'],
];

/** A contact's fields in the page's order, with their labels (words: made when asked for). */
const contactLabels = (): Array<[keyof WhoisContact, string]> => [
  ['name', l10n.t('Name')],
  ['company', l10n.t('Organisation')],
  ['email', l10n.t('Email')],
  ['phone', l10n.t('Phone')],
  ['fax', l10n.t('Fax')],
  ['address', l10n.t('Address')],
  ['city', l10n.t('City')],
  ['state', l10n.t('State')],
  ['zip', l10n.t('Postal code')],
  ['country', l10n.t('Country')],
  ['country_code', l10n.t('Country code')],
];

function contactView(role: WhoisContactView['role'], c: WhoisContact | undefined): WhoisContactView {
  const fields: WhoisContactView['fields'] = [];
  for (const [key, label] of contactLabels()) {
    const v = cap(c?.[key]);
    if (v) fields.push({ label, value: v });
  }
  return { role, fields };
}

export interface WhoisData {
  record: WhoisRecord;
  /** Snapshots oldest first, as the timeline and the diff ids use them. */
  snapshots: WhoisRecord[];
  historyError?: string;
}

export function whoisView(data: WhoisData, expiryWarningDays: number, now = Date.now()): WhoisView {
  const r = data.record;
  const timeline = whoisTimeline(data.snapshots);
  return {
    domain: cap(r.domain_name, 300)!,
    registrar: r.registrar
      ? {
          name: cap(r.registrar.name, 500),
          id: cap(r.registrar.id, 100),
          url: cap(r.registrar.url),
          whois: cap(r.registrar.whois, 500),
        }
      : undefined,
    created: cap(r.created_date, 64),
    updated: cap(r.updated_date, 64),
    expires: cap(r.expires_date, 64),
    daysToExpiry: daysUntil(r.expires_date, now),
    expiryWarningDays,
    status: (r.domain_status ?? []).map((s) => cap(s, 500)!).slice(0, 100),
    nameServers: (r.name_servers ?? []).map((s) => cap(s, 500)!).slice(0, 100),
    contacts: CONTACT_ROLES.map(([role, key]) => contactView(role, r[key] as WhoisContact | undefined)),
    raw: cap(r.raw_data, 500_000),
    // Newest first on the page; each snapshot keeps its index into `snapshots` (oldest first).
    history: timeline
      .map(({ record, changes }, index) => ({
        index,
        date: cap(snapshotDate(record), 64),
        registrar: cap(record.registrar?.name, 500),
        expires: cap(record.expires_date, 64),
        changes: changes.slice(0, 500).map((c) => ({
          field: c.field,
          kind: c.kind,
          before: cap(c.before),
          after: cap(c.after),
        })),
      }))
      .reverse(),
    historyError: data.historyError,
  };
}
