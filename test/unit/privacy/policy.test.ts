/**
 * Domain classification (special-use and internal suffixes, the ICANN public suffix rule) and the
 * PrivacyPolicy: classifier + user allow/deny + workspace deny, with its precedence:
 * workspace deny > user deny > user allow > classifier. Workspace settings can never allow.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detect } from '../../../src/core/detect';
import { classifyDomain, PrivacyPolicy, SPECIAL_DOMAINS } from '../../../src/core/privacy';

void describe('classifyDomain', () => {
  const never: [string, string][] = [
    ['printer.local', 'Multicast DNS'],
    ['LOCAL', 'Multicast DNS'],
    ['nas.lan', '.lan'],
    ['dc01.ad.corp', '.corp'],
    ['db.corp.internal', '.internal'],
    ['wiki.intranet', '.intranet'],
    ['x.private', '.private'],
    ['router.home', '.home'],
    ['router.home.arpa', 'RFC 8375'],
    ['api.test', 'RFC 6761'],
    ['www.example', 'RFC 6761'],
    ['example.com', 'Documentation domain'],
    ['www.example.net', 'Documentation domain'],
    ['a.b.example.org', 'Documentation domain'],
    ['foo.invalid', 'Invalid'],
    ['app.localhost', 'Loopback name'],
    ['localhost', 'Loopback name'],
    ['duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion', 'Tor'],
    ['x.alt', 'RFC 9476'],
    ['4.3.2.1.in-addr.arpa', 'IPv4 reverse DNS'],
    ['b.a.9.8.7.6.5.0.4.0.0.0.3.0.0.0.2.0.0.0.1.0.0.0.0.0.0.0.1.2.3.4.ip6.arpa', 'IPv6 reverse DNS'],
    ['ipv4only.arpa', 'RFC 8880'],
    ['x.arpa', '.arpa'],
    ['box.localdomain', '.localdomain'],
    ['foo.exe', '".exe" is not an ICANN'],
    ['console.log', 'not an ICANN public suffix'],
    ['x.github.iox', 'not an ICANN public suffix'],
    ['co.uk', 'a public suffix'],
    ['com', 'not a valid host name'],
    ['under_score.example.de', 'not a valid host name'],
    ['-bad.com', 'not a valid host name'],
    ['', 'not a valid host name'],
  ];
  for (const [name, reason] of never) {
    void it(`never sends ${JSON.stringify(name)}`, () => {
      const c = classifyDomain(name);
      assert.equal(c.global, false);
      assert.ok(c.reason?.includes(reason), `"${c.reason}" should include "${reason}"`);
    });
  }

  const sent = [
    'google.com',
    'api.acme-logistics.co.uk',
    'WWW.EXAMPLE-SHOP.DE',
    'evil[.]com',
    'x.github.io',
    'shop.com.pl',
    '_dmarc.acme-logistics.com',
    'xn--80ak6aa92e.com',
    'example.com.evil.net',
    'mylocal.com',
    'localhost.com.au',
  ];
  for (const name of sent) {
    void it(`may send ${JSON.stringify(name)}`, () =>
      assert.equal(classifyDomain(name).global, true, classifyDomain(name).reason));
  }

  void it('matches suffixes on label boundaries only', () => {
    assert.equal(classifyDomain('notexample.com').global, true);
    assert.equal(classifyDomain('mytest.io').global, true);
    assert.equal(classifyDomain('sub.example.com.').global, false);
  });

  void it('classifies IP literals as addresses', () => {
    assert.equal(classifyDomain('10.0.0.1').reason, 'Private-Use (RFC 1918)');
    assert.equal(classifyDomain('8.8.8.8').global, true);
  });

  void it('lists every suffix the security notes require', () => {
    const required = [
      'local',
      'lan',
      'corp',
      'internal',
      'intranet',
      'private',
      'home',
      'home.arpa',
      'test',
      'example',
      'example.com',
      'example.net',
      'example.org',
      'invalid',
      'localhost',
      'onion',
      'alt',
      'in-addr.arpa',
      'ip6.arpa',
    ];
    const have = new Set(SPECIAL_DOMAINS.map((d) => d.suffix));
    for (const s of required) assert.ok(have.has(s), s);
  });
});

void describe('PrivacyPolicy', () => {
  const ip = (value: string) => ({ kind: 'ipv4' as const, value });
  const v6 = (value: string) => ({ kind: 'ipv6' as const, value });
  const name = (value: string) => ({ kind: 'domain' as const, value });
  const cidr = (value: string) => ({ kind: 'cidr' as const, value });

  void it('defaults to the classifier', () => {
    const p = new PrivacyPolicy();
    assert.deepEqual(p.check(ip('8.8.8.8')), {
      allowed: true,
      reason: 'globally reachable',
      source: 'classifier',
    });
    assert.deepEqual(p.check(ip('10.1.2.3')), {
      allowed: false,
      reason: 'Private-Use (RFC 1918)',
      source: 'classifier',
    });
    assert.equal(p.check(name('printer.local')).allowed, false);
    assert.equal(p.check(name('shop.acme-logistics.com')).allowed, true);
    assert.equal(p.check(v6('fe80::1%eth0')).allowed, false);
    assert.equal(p.check(cidr('10.0.0.0/8')).allowed, false);
    assert.equal(p.check(cidr('8.8.8.0/24')).allowed, true);
  });

  void it('a user allow may allow a special-purpose address or an internal name explicitly', () => {
    const p = new PrivacyPolicy({ userAllow: ['10.20.0.0/16', 'corp.internal', '*.lab.example.org'] });
    assert.deepEqual(p.check(ip('10.20.3.4')), {
      allowed: true,
      reason: 'allowed by user setting "10.20.0.0/16"',
      source: 'user-allow',
    });
    assert.equal(p.check(ip('10.21.0.1')).allowed, false);
    assert.equal(p.check(name('db.corp.internal')).source, 'user-allow');
    assert.equal(p.check(name('x.lab.example.org')).allowed, true);
    assert.equal(p.check(name('lab.example.org')).allowed, true);
    assert.equal(p.check(name('other.example.org')).allowed, false);
  });

  void it('a user deny beats a user allow, whatever the specificity', () => {
    const p = new PrivacyPolicy({
      userAllow: ['10.0.0.0/8', 'acme-logistics.com'],
      userDeny: ['10.9.0.0/16', 'secret.acme-logistics.com'],
    });
    assert.equal(p.check(ip('10.1.1.1')).allowed, true);
    assert.deepEqual(p.check(ip('10.9.1.1')), {
      allowed: false,
      reason: 'denied by user setting "10.9.0.0/16"',
      source: 'user-deny',
    });
    assert.equal(p.check(name('x.secret.acme-logistics.com')).source, 'user-deny');
    assert.equal(p.check(name('shop.acme-logistics.com')).source, 'user-allow');
  });

  void it('a workspace deny always wins', () => {
    const p = new PrivacyPolicy({
      userAllow: ['8.8.8.8', 'google.com'],
      workspaceDeny: ['8.8.8.0/24', 'google.com', '2001:4860::/32'],
    });
    assert.deepEqual(p.check(ip('8.8.8.8')), {
      allowed: false,
      reason: 'denied by workspace setting "8.8.8.0/24"',
      source: 'workspace-deny',
    });
    assert.equal(p.check(name('www.google.com')).source, 'workspace-deny');
    assert.equal(p.check(v6('2001:4860:4860::8888')).source, 'workspace-deny');
    assert.equal(p.check(ip('1.1.1.1')).source, 'classifier');
  });

  void it('never accepts workspace allows, and says so', () => {
    const input = { workspaceDeny: [], workspaceAllow: ['10.0.0.0/8'] } as unknown as ConstructorParameters<
      typeof PrivacyPolicy
    >[0];
    const p = new PrivacyPolicy(input);
    assert.equal(p.check(ip('10.1.2.3')).allowed, false);
    assert.deepEqual(p.errors, [
      {
        list: 'workspaceAllow',
        entry: '10.0.0.0/8',
        message: 'workspace settings cannot allow lookups; ignored',
      },
    ]);
  });

  void it('matches IPv4 entries against IPv4-mapped, NAT64 and 6to4 forms', () => {
    const p = new PrivacyPolicy({ userDeny: ['8.8.8.8'], userAllow: ['10.1.2.3'] });
    assert.equal(p.check(v6('::ffff:8.8.8.8')).source, 'user-deny');
    assert.equal(p.check(v6('64:ff9b::808:808')).source, 'user-deny');
    assert.equal(p.check(v6('2002:808:808::1')).source, 'user-deny');
    assert.equal(p.check(v6('::ffff:10.1.2.3')).source, 'user-allow');
  });

  void it('denies a block that overlaps a deny entry; allows a block only inside an allow entry', () => {
    const p = new PrivacyPolicy({ userDeny: ['8.8.8.8'], userAllow: ['10.0.0.0/8'] });
    assert.equal(p.check(cidr('8.8.0.0/16')).source, 'user-deny');
    assert.equal(p.check(cidr('10.1.0.0/16')).source, 'user-allow');
    assert.equal(p.check(cidr('10.0.0.0/7')).source, 'classifier');
  });

  void it('runs on refanged values: a defanged indicator meets the same lists', () => {
    const p = new PrivacyPolicy({ userDeny: ['evil.com', '185.220.101.34'] });
    const found = detect('hxxps://cdn[.]evil[.]com/x from 185.220.101[.]34 and 8[.]8[.]8[.]8');
    assert.deepEqual(
      found.map((d) => [d.value, p.check(d).source]),
      [
        ['cdn.evil.com', 'user-deny'],
        ['185.220.101.34', 'user-deny'],
        ['8.8.8.8', 'classifier'],
      ],
    );
  });

  void it('normalises entries and reports invalid ones', () => {
    const p = new PrivacyPolicy({
      userAllow: ['  .Lab.Example.ORG. ', '*.corp', 'evil[.]com', '10.0.0.1'],
      userDeny: ['012.0.0.1', '10.0.0.0/33', 'not a domain', '', 'a..b'],
      workspaceDeny: ['bad/entry'],
    });
    assert.equal(p.check(name('x.lab.example.org')).source, 'user-allow');
    assert.equal(p.check(name('host.corp')).source, 'user-allow');
    assert.equal(p.check(name('evil.com')).source, 'user-allow');
    assert.equal(p.check(ip('10.0.0.1')).source, 'user-allow');
    assert.equal(p.check(ip('10.0.0.2')).source, 'classifier');
    assert.deepEqual(
      p.errors.map((e) => [e.list, e.entry]),
      [
        ['userDeny', '012.0.0.1'],
        ['userDeny', '10.0.0.0/33'],
        ['userDeny', 'not a domain'],
        ['userDeny', ''],
        ['userDeny', 'a..b'],
        ['workspaceDeny', 'bad/entry'],
      ],
    );
  });

  void it('ignores non-string entries from hand-edited settings', () => {
    const input = {
      userAllow: [42, null, '8.8.8.8'],
      userDeny: 'not-an-array',
    } as unknown as ConstructorParameters<typeof PrivacyPolicy>[0];
    const p = new PrivacyPolicy(input);
    assert.equal(p.check(ip('8.8.8.8')).source, 'user-allow');
    assert.deepEqual(p.errors, []);
  });

  void it('refuses values that do not parse', () => {
    const p = new PrivacyPolicy({ userAllow: ['0.0.0.0/0'] });
    assert.deepEqual(p.check(ip('012.0.0.1')), {
      allowed: false,
      reason: 'not a valid address or name',
      source: 'invalid',
    });
    assert.equal(p.check(cidr('10.0.0.0/33')).source, 'invalid');
  });

  void it('checkValue classifies typed queries', () => {
    const p = new PrivacyPolicy();
    assert.equal(p.checkValue('8.8.8.8').allowed, true);
    assert.equal(p.checkValue('192.168.0.0/16').allowed, false);
    assert.equal(p.checkValue('hxxps://x').allowed, false);
    assert.equal(p.checkValue('evil[.]com').allowed, true);
    assert.equal(p.checkValue('printer.local').allowed, false);
  });
});
