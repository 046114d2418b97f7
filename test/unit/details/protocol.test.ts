/**
 * The details pages' message protocol: what the extension accepts from a webview (known
 * type, size cap, ids of the right type and nothing else) and the request/reply helper.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  answerRequest,
  isToWebview,
  MAX_MESSAGE_CHARS,
  parseFromWebview,
  RequestClient,
  type ReplyMessage,
  type RequestMessage,
} from '../../../src/common/protocol';

const counts = {
  services: 1,
  cves: 2,
  exploits: 0,
  hostnames: 0,
  domains: 0,
  contacts: 0,
  snapshots: 0,
  changes: 0,
};

void test('accepts the messages the pages send', () => {
  assert.deepEqual(parseFromWebview({ type: 'ready', page: 'host' }, 'host'), {
    type: 'ready',
    page: 'host',
  });
  assert.deepEqual(parseFromWebview({ type: 'rendered', page: 'whois', counts, ms: 3.5 }, 'whois'), {
    type: 'rendered',
    page: 'whois',
    counts,
    ms: 3.5,
  });
  assert.deepEqual(parseFromWebview({ type: 'action', action: 'searchSimilar' }, 'host'), {
    type: 'action',
    action: 'searchSimilar',
  });
  assert.deepEqual(parseFromWebview({ type: 'action', action: 'copyRaw' }, 'whois'), {
    type: 'action',
    action: 'copyRaw',
  });
  assert.deepEqual(
    parseFromWebview(
      { type: 'openLink', link: { kind: 'reference', cveId: 'CVE-2024-1', refIndex: 2 } },
      'host',
    ),
    { type: 'openLink', link: { kind: 'reference', cveId: 'CVE-2024-1', refIndex: 2 } },
  );
  assert.deepEqual(
    parseFromWebview({ type: 'copyLink', link: { kind: 'service', serviceIndex: 0 } }, 'host'),
    {
      type: 'copyLink',
      link: { kind: 'service', serviceIndex: 0 },
    },
  );
  assert.deepEqual(parseFromWebview({ type: 'diffSnapshots', from: 0, to: 3 }, 'whois'), {
    type: 'diffSnapshots',
    from: 0,
    to: 3,
  });
  assert.deepEqual(
    parseFromWebview(
      { type: 'request', requestId: 7, method: 'banner', params: { serviceIndex: 4, full: true } },
      'host',
    ),
    { type: 'request', requestId: 7, method: 'banner', params: { serviceIndex: 4, full: true } },
  );
  assert.deepEqual(
    parseFromWebview({ type: 'request', requestId: 8, method: 'moreCves', params: {} }, 'host'),
    {
      type: 'request',
      requestId: 8,
      method: 'moreCves',
      params: {},
    },
  );
});

void test('refuses unknown types, commands and URLs', () => {
  const bad: unknown[] = [
    null,
    'ready',
    42,
    [],
    { type: 'executeCommand', command: 'workbench.action.terminal.new' },
    { type: 'openExternal', url: 'https://evil.example/' },
    { type: 'openLink', url: 'https://evil.example/' },
    { type: 'openLink', link: { kind: 'url', url: 'javascript:alert(1)' } },
    { type: 'openLink', link: { kind: 'service', serviceIndex: 0, url: 'https://evil.example/' } },
    { type: 'action', action: 'runCommand' },
    { type: 'action', action: 'refresh', command: 'x' },
    { type: '__proto__' },
    { type: 'request', requestId: 1, method: 'eval', params: {} },
    { type: 'request', requestId: 1, method: 'banner', params: { serviceIndex: '0', full: false } },
    { type: 'request', requestId: -1, method: 'moreCves', params: {} },
    { type: 'request', requestId: 1.5, method: 'moreCves', params: {} },
    { type: 'request', requestId: 1, method: 'moreCves', params: { page: 99 } },
  ];
  for (const m of bad) assert.equal(parseFromWebview(m, 'host'), undefined, JSON.stringify(m));
});

void test('refuses messages meant for the other page', () => {
  assert.equal(parseFromWebview({ type: 'ready', page: 'whois' }, 'host'), undefined);
  assert.equal(parseFromWebview({ type: 'action', action: 'searchSimilar' }, 'whois'), undefined);
  assert.equal(parseFromWebview({ type: 'action', action: 'copyRaw' }, 'host'), undefined);
  assert.equal(parseFromWebview({ type: 'diffSnapshots', from: 0, to: 1 }, 'host'), undefined);
  assert.equal(parseFromWebview({ type: 'copyCve', cveId: 'CVE-2024-1' }, 'whois'), undefined);
  assert.equal(
    parseFromWebview({ type: 'request', requestId: 1, method: 'moreCves', params: {} }, 'whois'),
    undefined,
  );
});

void test('checks field types and ranges', () => {
  assert.equal(
    parseFromWebview({ type: 'rendered', page: 'host', counts: { ...counts, cves: -1 }, ms: 1 }, 'host'),
    undefined,
  );
  assert.equal(
    parseFromWebview({ type: 'rendered', page: 'host', counts: { ...counts, x: 1 }, ms: 1 }, 'host'),
    undefined,
  );
  assert.equal(
    parseFromWebview({ type: 'rendered', page: 'host', counts, ms: Number.NaN }, 'host'),
    undefined,
  );
  assert.equal(parseFromWebview({ type: 'diffSnapshots', from: 1, to: 1 }, 'whois'), undefined);
  assert.equal(parseFromWebview({ type: 'diffSnapshots', from: '0', to: 1 }, 'whois'), undefined);
  assert.equal(parseFromWebview({ type: 'copyCve', cveId: '' }, 'host'), undefined);
  assert.equal(parseFromWebview({ type: 'copyCve', cveId: 'x'.repeat(129) }, 'host'), undefined);
  assert.equal(parseFromWebview({ type: 'copyCve', cveId: 'CVE\n-1' }, 'host'), undefined);
  assert.equal(
    parseFromWebview(
      { type: 'copyLink', link: { kind: 'reference', cveId: 'CVE-1', refIndex: 1e9 } },
      'host',
    ),
    undefined,
  );
});

void test('enforces the size cap and survives cycles', () => {
  const big = { type: 'copyCve', cveId: 'CVE-1', pad: 'x'.repeat(MAX_MESSAGE_CHARS) };
  assert.equal(parseFromWebview(big, 'host'), undefined);
  const cyclic: Record<string, unknown> = { type: 'ready', page: 'host' };
  cyclic.self = cyclic;
  assert.equal(parseFromWebview(cyclic, 'host'), undefined);
});

void test('extra keys, even __proto__, make a message invalid; accepted ones are fresh objects', () => {
  const raw = JSON.parse('{"type":"copyCve","cveId":"CVE-2024-1","__proto__":{"polluted":true}}') as unknown;
  assert.equal(parseFromWebview(raw, 'host'), undefined);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  const ok = { type: 'copyCve', cveId: 'CVE-2024-1' };
  const parsed = parseFromWebview(ok, 'host');
  assert.deepEqual(parsed, ok);
  assert.notEqual(parsed, ok);
});

void test('isToWebview accepts only known types', () => {
  assert.ok(isToWebview({ type: 'host', host: {} }));
  assert.ok(isToWebview({ type: 'reply', requestId: 1, ok: true, result: 1 }));
  assert.ok(!isToWebview({ type: 'eval' }));
  assert.ok(!isToWebview('host'));
});

void test('request/reply round trip, errors and unknown replies', async () => {
  const sent: RequestMessage[] = [];
  const client = new RequestClient((m) => sent.push(m), 1000);
  const p = client.request('banner', { serviceIndex: 2, full: false });
  assert.equal(sent.length, 1);
  assert.equal(sent[0].method, 'banner');
  // The extension side validates what it got and answers through the same helper.
  const parsed = parseFromWebview(JSON.parse(JSON.stringify(sent[0])), 'host') as RequestMessage;
  const replies: ReplyMessage[] = [];
  await answerRequest(
    parsed,
    {
      banner: async ({ serviceIndex }) => ({ text: `banner ${serviceIndex}`, length: 8 }),
      hostBanner: async () => ({ text: '', length: 0 }),
      moreCves: async () => {
        throw new Error('quota used up');
      },
    },
    (r) => replies.push(r),
  );
  assert.equal(client.handleReply(replies[0]), true);
  assert.deepEqual(await p, { text: 'banner 2', length: 8 });

  const q = client.request('moreCves', {});
  await answerRequest(
    sent[1] as RequestMessage,
    {
      banner: async () => ({ text: '', length: 0 }),
      hostBanner: async () => ({ text: '', length: 0 }),
      moreCves: async () => Promise.reject(new Error('quota used up')),
    },
    (r) => replies.push(r),
  );
  client.handleReply(replies[1]);
  await assert.rejects(q, /quota used up/);

  assert.equal(client.handleReply({ type: 'reply', requestId: 999, ok: true, result: 1 }), true);
  assert.equal(client.handleReply({ type: 'notice', message: 'x' }), false);
});

void test('a request with no reply times out', async () => {
  const client = new RequestClient(() => undefined, 20);
  await assert.rejects(client.request('moreCves', {}), /No answer/);
});
