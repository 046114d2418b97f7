/**
 * The one gate: strict parsing to one canonical form, the privacy lists and registries on that
 * form only, and the lookups mode and workspace trust by trigger. Each finding of the security
 * review about the gate has its own test here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Gate, parseTarget, type GateSettings, type Verdict } from '../../../src/core/gate';

const on: GateSettings = { mode: 'onHover', trusted: true };
const explicit = { trigger: 'explicit', source: 'command' } as const;
const automatic = { trigger: 'automatic', source: 'hover' } as const;

function sent(v: Verdict): string | undefined {
  return v.send ? v.target.value : undefined;
}

void describe('gate: parseTarget (strict, one canonical form)', () => {
  it('canonicalises addresses, blocks and names', () => {
    assert.deepEqual(parseTarget(' 8.8.8.8 '), { kind: 'ip', value: '8.8.8.8', version: 4 });
    assert.deepEqual(parseTarget('2606:4700:4700:0:0:0:0:1111'), {
      kind: 'ip',
      value: '2606:4700:4700::1111',
      version: 6,
    });
    assert.deepEqual(parseTarget('[2606:4700:4700::1111]'), {
      kind: 'ip',
      value: '2606:4700:4700::1111',
      version: 6,
    });
    assert.deepEqual(parseTarget('1.2.3.4/24'), { kind: 'cidr', value: '1.2.3.0/24', version: 4 });
    assert.deepEqual(parseTarget('WWW.Example.ORG.'), { kind: 'domain', value: 'www.example.org' });
    assert.deepEqual(parseTarget('evil[.]com'), { kind: 'domain', value: 'evil.com' });
    assert.deepEqual(parseTarget('1.2.3[.]4'), { kind: 'ip', value: '1.2.3.4', version: 4 });
    assert.deepEqual(parseTarget('bücher.de'), { kind: 'domain', value: 'xn--bcher-kva.de' });
    assert.deepEqual(parseTarget('BÜCHER.DE'), { kind: 'domain', value: 'xn--bcher-kva.de' });
    // Full-width dots map to dots, as a browser maps them.
    assert.deepEqual(parseTarget('x\u3002mycompany\uff0ecom'), { kind: 'domain', value: 'x.mycompany.com' });
  });

  it('drops the IPv6 zone id: its text never reaches a request', () => {
    for (const raw of [
      '2606:4700:4700::1111%secret-project-vpn',
      '[2606:4700:4700::1111%25secret-project-vpn]',
      'fe80::1%secret-project-vpn',
    ]) {
      const t = parseTarget(raw);
      assert.ok(t, raw);
      assert.ok(!t.value.includes('%') && !t.value.includes('secret'), `${raw} → ${t.value}`);
    }
    const v = new Gate(on).decide('2606:4700:4700::1111%secret-project-vpn', explicit);
    assert.equal(sent(v), '2606:4700:4700::1111');
  });

  it('refuses lenient IPv4 spellings and malformed names', () => {
    for (const raw of [
      '012.0.0.1',
      '0x7f.1',
      '127.1',
      '017700000001',
      '0x7f.0.0.1',
      '1.2.3.4.',
      'x.mycompany.com..',
      '.mycompany.com',
      'a..b.com',
      '-a.com',
      'a-.com',
      'user@mycompany.com',
      'https://mycompany.com/',
      'mycompany.com/path',
      'my company.com',
      'x'.repeat(2000),
      '',
      '   ',
      42,
      undefined,
      { value: '8.8.8.8' },
    ]) {
      assert.equal(parseTarget(raw), undefined, JSON.stringify(raw));
    }
  });
});

void describe('gate: privacy lists on the canonical form', () => {
  const gate = new Gate({ ...on, workspaceDeny: ['mycompany.com'], userDeny: ['203.0.113.0/24'] });

  it('a deny entry holds every spelling of a name under it (finding: `x.mycompany.com..`)', () => {
    for (const raw of [
      'mycompany.com',
      'x.mycompany.com',
      'X.MyCompany.COM.',
      'x.mycompany[.]com',
      'x\u3002mycompany\u3002com',
      'x.mycompany.com..',
      'x.mycompany.com...',
    ]) {
      const v = gate.decide(raw, explicit);
      assert.equal(v.send, false, raw);
    }
    const v = gate.decide('X.MyCompany.COM.', explicit);
    assert.ok(!v.send && v.code === 'workspace-deny');
    assert.ok(!gate.decide('x.mycompany.com..', explicit).send);
    assert.equal(sent(gate.decide('notmycompany.com', explicit)), 'notmycompany.com');
  });

  it('entries are canonicalised too (Unicode, case, trailing dot, wildcard)', () => {
    const g = new Gate({ ...on, userDeny: ['*.BÜCHER.de.', 'Corp.Example.Net'] });
    assert.ok(!g.decide('shop.xn--bcher-kva.de', explicit).send);
    assert.ok(!g.decide('bücher.de', explicit).send);
    const allow = new Gate({ ...on, userAllow: ['NAS.LAN.'] });
    assert.equal(sent(allow.decide('nas.lan', explicit)), 'nas.lan');
  });

  it('the registries classify the canonical value', () => {
    const g = new Gate(on);
    const v = g.decide('fe80::1%eth0', explicit);
    assert.ok(!v.send && v.code === 'not-public');
    assert.ok(!g.decide('10.0.0.1', explicit).send);
    assert.ok(!g.decide('printer.local.', explicit).send);
    assert.ok(!g.decide('::ffff:192.168.1.1', explicit).send);
    assert.equal(sent(g.decide('8.8.8.8', explicit)), '8.8.8.8');
    const d = gate.decide('203.0.113.7', explicit);
    assert.ok(!d.send && d.code === 'user-deny');
  });

  it('a workspace cannot allow (no such input), and deny beats allow', () => {
    const g = new Gate({ ...on, userAllow: ['mycompany.com'], workspaceDeny: ['mycompany.com'] });
    assert.ok(!g.decide('a.mycompany.com', explicit).send);
  });

  it('takes only the kinds a caller accepts', () => {
    const v = new Gate(on).decide('example.net', { ...explicit, accept: ['ip'] });
    assert.ok(!v.send && v.code === 'invalid');
  });
});

void describe('gate: lookups mode and workspace trust', () => {
  const cases: Array<[GateSettings, 'explicit' | 'automatic', boolean, string]> = [
    [{ mode: 'onHover', trusted: true }, 'automatic', false, 'send'],
    [{ mode: 'onHover', trusted: true }, 'explicit', false, 'send'],
    [{ mode: 'onCommand', trusted: true }, 'automatic', false, 'on-command'],
    [{ mode: 'onCommand', trusted: true }, 'explicit', false, 'send'],
    [{ mode: 'off', trusted: true }, 'automatic', false, 'off'],
    [{ mode: 'off', trusted: true }, 'explicit', false, 'off'],
    [{ mode: 'off', trusted: true }, 'explicit', true, 'off'],
    [{ mode: 'onHover', trusted: false }, 'automatic', false, 'untrusted'],
    [{ mode: 'onHover', trusted: false }, 'automatic', true, 'untrusted'],
    [{ mode: 'onHover', trusted: false }, 'explicit', false, 'needs-consent'],
    [{ mode: 'onHover', trusted: false }, 'explicit', true, 'send'],
    [{ mode: 'off', trusted: false }, 'explicit', true, 'off'],
  ];
  for (const [settings, trigger, consented, want] of cases) {
    it(`${settings.mode}, ${settings.trusted ? 'trusted' : 'Restricted Mode'}, ${trigger}${consented ? ', consented' : ''} → ${want}`, () => {
      const g = new Gate(settings);
      const v = g.decide('8.8.8.8', { trigger, source: 'command', consented });
      assert.equal(v.send ? 'send' : v.code, want);
      const run = g.mayRun({ trigger, consented });
      assert.equal(run.ok ? 'send' : run.code, want);
    });
  }

  it('a blocked verdict still carries the canonical value and the privacy facts', () => {
    const v = new Gate({ mode: 'off', trusted: true }).decide('10.1.2.3', automatic);
    assert.ok(!v.send);
    assert.equal(v.code, 'not-public');
    assert.equal(v.target?.value, '10.1.2.3');
    assert.match(v.privacy?.reason ?? '', /Private-Use/);
  });
});

void describe('gate: the public exploitation feeds', () => {
  it('are never fetched with lookups off or in Restricted Mode; onCommand does not hold them back', () => {
    const may = (mode: GateSettings['mode'], trusted: boolean) => new Gate({ mode, trusted }).mayFetchFeeds();
    assert.deepEqual(may('onHover', true), { ok: true });
    assert.deepEqual(may('onCommand', true), { ok: true });
    assert.equal(may('off', true).ok, false);
    assert.equal(may('onHover', false).ok, false);
    assert.equal(may('onCommand', false).ok, false);
    assert.equal(may('off', false).ok, false);
  });
});

void describe('gate: one answer per request, naming the value and why', () => {
  it('every refusal carries one sentence that names the canonical value (or the input) and why', () => {
    const cases: [GateSettings, unknown, Parameters<Gate['decide']>[1], RegExp][] = [
      [on, '10.0.0.7', automatic, /^10\.0\.0\.7 is Private-Use \(RFC 1918\): not sent to ODIN\.$/],
      [
        { ...on, userDeny: ['mycompany.com'] },
        'VPN.MyCompany[.]com',
        explicit,
        /^vpn\.mycompany\.com is not sent to ODIN: denied by/,
      ],
      [
        { ...on, mode: 'off' },
        '45.33.32.156',
        explicit,
        /^45\.33\.32\.156 is not sent to ODIN: lookups are off/,
      ],
      [{ ...on, mode: 'onCommand' }, '45.33.32.156', automatic, /^45\.33\.32\.156 .*on command only/],
      [{ ...on, trusted: false }, '45.33.32.156', automatic, /^45\.33\.32\.156 .*Restricted Mode/],
      [{ ...on, trusted: false }, '45.33.32.156', explicit, /^45\.33\.32\.156 .*Restricted Mode/],
      [on, '127.1', explicit, /^"127\.1" is not a valid IP address/],
      [on, 'example.com', { ...explicit, accept: ['ip'] }, /^"example\.com" is not an IP address: not sent/],
    ];
    for (const [settings, input, req, message] of cases) {
      const v = new Gate(settings).decide(input, req);
      assert.equal(v.send, false, String(input));
      if (!v.send) assert.match(v.message, message, String(input));
    }
  });

  it('a value it lets through comes back as the target to send, never as written', () => {
    const v = new Gate(on).decide(' 2606:4700::1111%eth0 ', explicit);
    assert.equal(sent(v), '2606:4700::1111');
  });

  it('mayRun (a request that names no value) says why in one sentence too', () => {
    const r = new Gate({ ...on, mode: 'off' }).mayRun({ trigger: 'explicit', consented: true });
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.message, /^Nothing is sent to ODIN: lookups are off/);
  });
});
