import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WhoisRecord } from '../../../src/api/types';
import {
  daysUntil,
  diffWhois,
  flattenWhois,
  sortSnapshots,
  whoisSnapshotText,
  whoisTimeline,
} from '../../../src/core/whois/diff';

const base: WhoisRecord = {
  domain_name: 'acme-logistics.com',
  created_date: '2010-03-01T00:00:00Z',
  updated_date: '2022-01-01T00:00:00Z',
  expires_date: '2025-03-01T00:00:00Z',
  domain_status: ['clientTransferProhibited', 'clientDeleteProhibited'],
  name_servers: ['NS1.EXAMPLE.NET', 'ns2.example.net'],
  registrar: { name: 'Old Registrar Inc.', id: '123' },
  registrant_contact: { name: 'Jane Doe', email: 'jane@acme.example', country: 'US' },
  technical_contact: { email: 'tech@acme.example' },
  raw_data: 'Domain Name: ACME-LOGISTICS.COM\n',
};

void test('flattens the fields a person compares, leaving raw text and audit times out', () => {
  const f = flattenWhois({ ...base, audited_fields: { updated_at: '2024-01-01' } });
  assert.equal(f.get('Registrar'), 'Old Registrar Inc.');
  assert.equal(f.get('Name servers'), 'ns1.example.net, ns2.example.net');
  assert.equal(f.get('Status'), 'clientdeleteprohibited, clienttransferprohibited');
  assert.equal(f.get('Registrant email'), 'jane@acme.example');
  assert.ok(![...f.keys()].some((k) => /raw|audit/i.test(k)));
});

void test('no changes between equal records, whatever the order of set-like lists', () => {
  const same = {
    ...base,
    name_servers: ['ns2.example.net', 'ns1.example.net'],
    domain_status: [...base.domain_status].reverse(),
  };
  assert.deepEqual(diffWhois(base, same), []);
});

void test('reports changed, added and removed fields in a stable order', () => {
  const next: WhoisRecord = {
    ...base,
    updated_date: '2024-06-01T00:00:00Z',
    expires_date: '2026-03-01T00:00:00Z',
    registrar: { name: 'New Registrar LLC', id: '123' },
    name_servers: ['ns1.cloudflare.com', 'ns2.cloudflare.com'],
    registrant_contact: { name: 'Jane Doe', country: 'US', phone: '+1.5550100' },
    technical_contact: undefined,
    billing_contact: { email: 'billing@acme.example' },
  };
  const changes = diffWhois(base, next);
  assert.deepEqual(
    changes.map((c) => [c.field, c.kind]),
    [
      ['Registrar', 'changed'],
      ['Updated', 'changed'],
      ['Expires', 'changed'],
      ['Name servers', 'changed'],
      ['Registrant email', 'removed'],
      ['Registrant phone', 'added'],
      ['Tech email', 'removed'],
      ['Billing email', 'added'],
    ],
  );
  const reg = changes[0];
  assert.equal(reg.before, 'Old Registrar Inc.');
  assert.equal(reg.after, 'New Registrar LLC');
  assert.equal(changes.find((c) => c.field === 'Billing email')?.after, 'billing@acme.example');
});

void test('timeline: oldest first, each snapshot with its changes from the one before', () => {
  const s1 = { ...base, updated_date: '2020-01-01T00:00:00Z' };
  const s2 = { ...base, updated_date: '2022-01-01T00:00:00Z', registrar: { name: 'B' } };
  const s3 = { ...base, updated_date: '2024-01-01T00:00:00Z', registrar: { name: 'C' } };
  const timeline = whoisTimeline([s3, s1, s2]);
  assert.deepEqual(
    timeline.map((t) => t.record.updated_date),
    ['2020-01-01T00:00:00Z', '2022-01-01T00:00:00Z', '2024-01-01T00:00:00Z'],
  );
  assert.deepEqual(timeline[0].changes, []);
  assert.ok(timeline[2].changes.some((c) => c.field === 'Registrar' && c.before === 'B' && c.after === 'C'));
});

void test('undated snapshots sort first and keep their order', () => {
  const a = { ...base, updated_date: undefined, created_date: undefined, raw_data: 'a' };
  const b = { ...base, updated_date: 'not a date', created_date: undefined, raw_data: 'b' };
  const c = { ...base, updated_date: '2001-01-01T00:00:00Z' };
  assert.deepEqual(
    sortSnapshots([c, a, b]).map((r) => r.raw_data),
    ['a', 'b', c.raw_data],
  );
});

void test('snapshot text lines up field by field and ends with the raw record', () => {
  const t = whoisSnapshotText(base);
  const lines = t.split('\n');
  assert.match(lines[0], /^Domain\s+acme-logistics\.com$/);
  assert.ok(t.includes('--- raw record ---\nDomain Name: ACME-LOGISTICS.COM\n'));
  // Newlines inside a field cannot add lines (and fake fields) to the diff.
  const evil = whoisSnapshotText({ ...base, registrar: { name: 'X\nExpires  2099' } });
  assert.ok(evil.split('\n').some((l) => /^Registrar\s+X Expires {2}2099$/.test(l)));
});

void test('days until expiry', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  assert.equal(daysUntil('2025-01-31T00:00:00Z', now), 30);
  assert.equal(daysUntil('2024-12-31T00:00:00Z', now), -1);
  assert.equal(daysUntil('garbage', now), undefined);
  assert.equal(daysUntil(undefined, now), undefined);
});
