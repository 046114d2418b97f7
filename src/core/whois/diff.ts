/**
 * What changed between whois snapshots: a field-level diff over a flattened view of the
 * record (registrar, dates, status, name servers, the four contacts), and a canonical
 * text form of one snapshot for VS Code's side-by-side diff editor. Pure: no `vscode`.
 */
import type { WhoisContact, WhoisRecord } from '../../api/types';

export interface FieldChange {
  field: string;
  kind: 'added' | 'removed' | 'changed';
  before?: string;
  after?: string;
}

const CONTACTS = [
  ['registrant_contact', 'Registrant'],
  ['administrative_contact', 'Admin'],
  ['technical_contact', 'Tech'],
  ['billing_contact', 'Billing'],
] as const;

const CONTACT_FIELDS: Array<[keyof WhoisContact, string]> = [
  ['name', 'name'],
  ['company', 'company'],
  ['email', 'email'],
  ['phone', 'phone'],
  ['fax', 'fax'],
  ['address', 'address'],
  ['city', 'city'],
  ['state', 'state'],
  ['zip', 'zip'],
  ['country', 'country'],
  ['country_code', 'country code'],
];

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
  put(out, 'Domain', r.domain_name?.toLowerCase());
  put(out, 'Registrar', r.registrar?.name);
  put(out, 'Registrar IANA id', r.registrar?.id);
  put(out, 'Registrar URL', r.registrar?.url);
  put(out, 'Registrar whois', r.registrar?.whois);
  put(out, 'Created', r.created_date);
  put(out, 'Updated', r.updated_date);
  put(out, 'Expires', r.expires_date);
  put(out, 'Status', setText(r.domain_status));
  put(out, 'Name servers', setText(r.name_servers));
  for (const [key, label] of CONTACTS) {
    const c = r[key];
    if (!c) continue;
    for (const [f, name] of CONTACT_FIELDS) put(out, `${label} ${name}`, c[f]);
  }
  return out;
}

/** Field-level changes from `before` to `after`, in the field order of `flattenWhois`. */
export function diffWhois(before: WhoisRecord, after: WhoisRecord): FieldChange[] {
  const a = flattenWhois(before);
  const b = flattenWhois(after);
  const fields = [...new Set([...a.keys(), ...b.keys()])];
  fields.sort((x, y) => rank(x) - rank(y));
  const changes: FieldChange[] = [];
  for (const field of fields) {
    const x = a.get(field);
    const y = b.get(field);
    if (x === y) continue;
    if (x === undefined) changes.push({ field, kind: 'added', after: y });
    else if (y === undefined) changes.push({ field, kind: 'removed', before: x });
    else changes.push({ field, kind: 'changed', before: x, after: y });
  }
  return changes;
}

const FIELD_ORDER = [
  'Domain',
  'Registrar',
  'Registrar IANA id',
  'Registrar URL',
  'Registrar whois',
  'Created',
  'Updated',
  'Expires',
  'Status',
  'Name servers',
  ...CONTACTS.flatMap(([, label]) => CONTACT_FIELDS.map(([, name]) => `${label} ${name}`)),
];

function rank(field: string): number {
  const i = FIELD_ORDER.indexOf(field);
  return i < 0 ? FIELD_ORDER.length : i;
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
  const fields = flattenWhois(r);
  const width = Math.max(0, ...[...fields.keys()].map((k) => k.length));
  for (const [k, v] of fields) lines.push(`${k.padEnd(width)}  ${v.replace(/\r?\n/g, ' ')}`);
  if (r.raw_data) lines.push('', '--- raw record ---', r.raw_data.replace(/\r\n?/g, '\n'));
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
