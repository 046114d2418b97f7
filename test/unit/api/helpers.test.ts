import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyNetworkError, kindForStatus, OdinApiError } from '../../../src/api/errors';
import { checkBaseUrl, isLoopbackHostname, parseRetryAfter } from '../../../src/api/http';

void describe('parseRetryAfter', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');
  void it('reads delta-seconds', () => {
    assert.equal(parseRetryAfter('2', now), 2000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
  });
  void it('reads an HTTP-date (past dates are 0)', () => {
    assert.equal(parseRetryAfter('Sun, 01 Jun 2025 12:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', now), 0);
  });
  void it('ignores absent and invalid values', () => {
    assert.equal(parseRetryAfter(null, now), undefined);
    assert.equal(parseRetryAfter('-1', now), undefined);
    assert.equal(parseRetryAfter('1.5', now), undefined);
    assert.equal(parseRetryAfter('soon', now), undefined);
  });
});

void describe('checkBaseUrl', () => {
  void it('accepts https anywhere and http only to loopback', () => {
    assert.ok(checkBaseUrl('https://api.odin.io').ok);
    assert.ok(checkBaseUrl('http://127.0.0.1:8080/').ok);
    assert.ok(checkBaseUrl('http://127.9.8.7').ok);
    assert.ok(checkBaseUrl('http://localhost:3000').ok);
    assert.ok(checkBaseUrl('http://[::1]:3000').ok);
    for (const bad of [
      'http://api.odin.io',
      'http://10.0.0.1',
      'http://127.0.0.1.evil.com',
      'http://localhost.evil.com',
      'http://[::ffff:8.8.8.8]',
      'ftp://api.odin.io',
      'https://user:pw@api.odin.io',
      'https://api.odin.io/?x=1',
      'not a url',
    ]) {
      assert.equal(checkBaseUrl(bad).ok, false, bad);
    }
  });
  void it('canonicalises sneaky loopback spellings through URL before checking', () => {
    // `http://0x7f.1` is 127.0.0.1 to the WHATWG parser, so it is loopback and fine; the
    // check runs on the parsed hostname, the same one fetch will connect to.
    const r = checkBaseUrl('http://0x7f.1:9');
    assert.ok(r.ok && r.url.hostname === '127.0.0.1');
    assert.equal(isLoopbackHostname('127.0.0.1'), true);
    assert.equal(isLoopbackHostname('128.0.0.1'), false);
  });
  void it('strips trailing slashes but keeps a base path', () => {
    const r = checkBaseUrl('https://proxy.example/odin///');
    assert.ok(r.ok);
    assert.equal(r.prefix, 'https://proxy.example/odin');
    const root = checkBaseUrl('https://api.odin.io/');
    assert.ok(root.ok);
    assert.equal(root.prefix, 'https://api.odin.io');
  });
});

void describe('errors', () => {
  void it('maps statuses to kinds', () => {
    assert.deepEqual([400, 401, 402, 403, 404, 408, 418, 429, 500, 503, 302].map(kindForStatus), [
      'badRequest',
      'auth',
      'quota',
      'forbidden',
      'notFound',
      'timeout',
      'badRequest',
      'rateLimited',
      'server',
      'server',
      'badResponse',
    ]);
  });
  void it('classifies network failures from the cause chain', () => {
    const wrap = (code: string, message = 'x'): Error =>
      new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });
    assert.equal(classifyNetworkError(wrap('ENOTFOUND')), 'dns');
    assert.equal(classifyNetworkError(wrap('ECONNREFUSED')), 'refused');
    assert.equal(classifyNetworkError(wrap('ECONNRESET')), 'reset');
    assert.equal(classifyNetworkError(wrap('UND_ERR_SOCKET', 'other side closed')), 'reset');
    assert.equal(classifyNetworkError(wrap('UNABLE_TO_VERIFY_LEAF_SIGNATURE')), 'tls');
    assert.equal(classifyNetworkError(wrap('ERR_TLS_CERT_ALTNAME_INVALID')), 'tls');
    assert.equal(classifyNetworkError(wrap('EHOSTUNREACH')), 'unreachable');
    assert.equal(
      classifyNetworkError(new Error('Proxy response (407) !== 200 when HTTP Tunneling')),
      'proxyAuth',
    );
    assert.equal(
      classifyNetworkError(new Error('Proxy response (502) !== 200 when HTTP Tunneling')),
      'proxy',
    );
    assert.equal(classifyNetworkError(new Error('???')), 'other');
  });
  void it('has short actionable messages and keeps the detail apart', () => {
    const e = new OdinApiError({
      kind: 'auth',
      endpoint: 'GET /v1/hosts/{ip}',
      status: 401,
      detail: 'HTTP 401',
    });
    assert.equal(e.message, "ODIN rejected the API key. Run 'ODIN: Set API Key'.");
    assert.equal(e.detail, 'HTTP 401');
    assert.equal(e.name, 'OdinApiError');
    const r = new OdinApiError({ kind: 'rateLimited', endpoint: 'x', retryAfterMs: 61_000 });
    assert.match(r.message, /62 s|61 s/);
    const n = new OdinApiError({ kind: 'network', endpoint: 'x', network: 'dns' });
    assert.match(n.message, /could not be resolved/);
  });
});
