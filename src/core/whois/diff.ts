/**
 * What changed between whois snapshots: a field-level diff over a flattened view of the
 * record (registrar, dates, status, name servers, the four contacts), and a canonical
 * text form of one snapshot for VS Code's side-by-side diff editor. Pure: no `vscode`.
 */
import type { WhoisContact, WhoisRecord } from '../../api/types';
import { l10n } from '../text/l10n';

export interface FieldChange {
  field: string;
  kind: 'added' | 'removed' | 'changed';
  before?: string;
  after?: string;
}

/** The contacts of a record and their words, worded when asked for (not at load). */
function contacts(): Array<[keyof WhoisRecord & `${string}_contact`, string]> {
  return [
    ['registrant_contact', l10n.t('Registrant')],
    ['administrative_contact', l10n.t('Admin')],
    ['technical_contact', l10n.t('Tech')],
    ['billing_contact', l10n.t('Billing')],
  ];
}

function contactFields(): Array<[keyof WhoisContact, string]> {
  return [
    ['name', l10n.t('name')],
    ['company', l10n.t('company')],
    ['email', l10n.t('email')],
    ['phone', l10n.t('phone')],
    ['fax', l10n.t('fax')],
    ['address', l10n.t('address')],
    ['city', l10n.t('city')],
    ['state', l10n.t('state')],
    ['zip', l10n.t('zip')],
    ['country', l10n.t('country')],
    ['country_code', l10n.t('country code')],
  ];
}

/** The record's fields in the order a person compares them, each with its words. */
function fields(r?: WhoisRecord): Array<[string, string | undefined]> {
  return [
    [l10n.t('Domain'), r?.domain_name?.toLowerCase()],
    [l10n.t('Registrar'), r?.registrar?.name],
    [l10n.t('Registrar IANA id'), r?.registrar?.id],
    [l10n.t('Registrar URL'), r?.registrar?.url],
    [l10n.t('Registrar whois'), r?.registrar?.whois],
    [l10n.t('Created'), r?.created_date],
    [l10n.t('Updated'), r?.updated_date],
    [l10n.t('Expires'), r?.expires_date],
    [l10n.t('Status'), setText(r?.domain_status)],
    [l10n.t('Name servers'), setText(r?.name_servers)],
    ...contacts().flatMap(([key, label]) =>
      contactFields().map(([f, name]): [string, string | undefined] => [
        l10n.t('{0} {1}', label, name),
        r?.[key]?.[f],
      ]),
    ),
  ];
}

/** Sorted, de-duplicated, case-folded list (name servers and statuses are sets). */
function setText(values: readonly string[] | undefined): string | undefined {
  if (!values || values.length === 0) return undefined;
  const set = [...new Set(values.map((v) => v.trim().toLowerCase()).filter((v) => v !== ''))].sort();
  return set.length ? set.join(', ') : undefined;
}

function put(out: Map<string, string>, key: string, value: string | undefined): void {
  if (value !== undefined && value.trim() !== '') out.set(key, value.trim());
}

/**
 * The record as ordered `field → text` pairs: the fields a person compares. The raw text
 * and the audit timestamps are left out (they change on every snapshot).
 */
export function flattenWhois(r: WhoisRecord): Map<string, string> {
  const out = new Map<string, string>();
  for (const [field, value] of fields(r)) put(out, field, value);
  return out;
}

/** Field-level changes from `before` to `after`, in the field order of `flattenWhois`. */
export function diffWhois(before: WhoisRecord, after: WhoisRecord): FieldChange[] {
  const a = flattenWhois(before);
  const b = flattenWhois(after);
  const names = [...new Set([...a.keys(), ...b.keys()])];
  const order = fields().map(([field]) => field);
  const rank = (field: string): number => (order.includes(field) ? order.indexOf(field) : order.length);
  names.sort((x, y) => rank(x) - rank(y));
  const changes: FieldChange[] = [];
  for (const field of names) {
    const x = a.get(field);
    const y = b.get(field);
    if (x === y) continue;
    if (x === undefined) changes.push({ field, kind: 'added', after: y });
    else if (y === undefined) changes.push({ field, kind: 'removed', before: x });
    else changes.push({ field, kind: 'changed', before: x, after: y });
  }
  return changes;
}

/** When a snapshot was taken: its update date, else the audit time, else its creation date. */
export function snapshotDate(r: WhoisRecord): string | undefined {
  return r.updated_date ?? r.audited_fields?.updated_at ?? r.audited_fields?.created_at ?? r.created_date;
}

/** Snapshots ordered oldest first (undated ones first, keeping their order). */
export function sortSnapshots(records: readonly WhoisRecord[]): WhoisRecord[] {
  return records
    .map((r, i) => ({ r, i, t: Date.parse(snapshotDate(r) ?? '') }))
    .sort(
      (x, y) => (Number.isNaN(x.t) ? -Infinity : x.t) - (Number.isNaN(y.t) ? -Infinity : y.t) || x.i - y.i,
    )
    .map((x) => x.r);
}

/** Each snapshot (oldest first) with its changes from the one before. */
export function whoisTimeline(
  records: readonly WhoisRecord[],
): Array<{ record: WhoisRecord; changes: FieldChange[] }> {
  const sorted = sortSnapshots(records);
  return sorted.map((record, i) => ({ record, changes: i === 0 ? [] : diffWhois(sorted[i - 1], record) }));
}

/**
 * One snapshot as text for the diff editor: the flattened fields one per line (so the
 * diff lines up field by field), then the raw record.
 */
export function whoisSnapshotText(r: WhoisRecord): string {
  const lines: string[] = [];
  const flat = flattenWhois(r);
  const width = Math.max(0, ...[...flat.keys()].map((k) => k.length));
  for (const [k, v] of flat) lines.push(`${k.padEnd(width)}  ${v.replace(/\r?\n/g, ' ')}`);
  if (r.raw_data) lines.push('', `--- ${l10n.t('raw record')} ---`, r.raw_data.replace(/\r\n?/g, '\n'));
  return `${lines.join('\n')}\n`;
}

/**
 * Days from `now` until `expires` (rounded down; negative once expired), or undefined
 * when the date cannot be read.
 */
export function daysUntil(expires: string | undefined, now: number = Date.now()): number | undefined {
  if (!expires) return undefined;
  const t = Date.parse(expires);
  if (Number.isNaN(t)) return undefined;
  return Math.floor((t - now) / 86_400_000);
}
