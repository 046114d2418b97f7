/**
 * Query text, the last gaps: a wildcard, regular expression or fuzzy term that could match a
 * denied name is refused with the reason (a pattern that cannot be decided is refused too),
 * and full-width digits and dots are read as the service may read them (NFKC) before the
 * gate, so `１０．０．０．１` is the private 10.0.0.1.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Gate } from '../../../src/core/gate';
import { patternCouldMatchName } from '../../../src/core/gate/patterns';

const gate = new Gate({
  mode: 'onHover',
  trusted: true,
  userDeny: ['mycompany.com'],
  workspaceDeny: ['intra.acme.net'],
});
const open = new Gate({ mode: 'onHover', trusted: true });

void describe('gate: patterns over denied names', () => {
  void it('a wildcard that could match a denied name is refused, naming the pattern, the name and the setting', () => {
    const r = gate.query('hostnames:*mycompany*');
    assert.equal(r?.code, 'user-deny');
    assert.equal(r?.value, '*mycompany*');
    assert.equal(
      r?.reason,
      'The pattern *mycompany* could match mycompany.com: not sent to ODIN (denied by user setting "mycompany.com").',
    );
    for (const q of [
      'hostnames:*mycompany*',
      'hostnames:*.mycompany.com',
      'hostnames:vpn.mycompany.c?m',
      'hostnames:mycomp*',
      'hostnames:*pany.com',
      'services.port:443 AND domain:my*ny.com',
      'hostnames:"*mycompany*"',
      '*intra.acme*',
      'hostnames:MyCompany*',
      'hostnames:*mycompany* AND (', // unparsable: the text reading finds it
    ])
      assert.ok(gate.query(q), `${q} is refused`);
    assert.equal(gate.query('*intra.acme*')?.code, 'workspace-deny');
  });

  void it('a regular expression that could match a denied name is refused; one that cannot be decided too', () => {
    for (const q of [
      'hostnames:/.*intra.*/',
      'hostnames:/.*mycompany.*/',
      'hostnames:/[a-z]+\\.mycompany\\.com/',
      'hostnames:/x[0-9]{3}\\.mycompany\\.com/',
      'hostnames:/(my|your)company\\.com/',
    ])
      assert.ok(gate.query(q), `${q} is refused`);
    const r = gate.query('hostnames:/.*intra.*/');
    assert.equal(r?.code, 'workspace-deny');
    assert.match(r?.reason ?? '', /^The pattern \/\.\*intra\.\*\/ could match intra\.acme\.net/);
    // Elasticsearch's own operators (complement, intersection, any string): not decided here.
    const u = gate.query('hostnames:/~(foo)&@/');
    assert.match(
      u?.reason ?? '',
      /^The pattern \/~\(foo\)&@\/ cannot be checked against the denied names: not sent to ODIN/,
    );
  });

  void it('a fuzzy term close to a denied name is refused', () => {
    assert.ok(gate.query('hostnames:mycompani.com~'), 'mycompani.com~');
    assert.ok(gate.query('hostnames:mycompany~1'), 'mycompany~1');
  });

  void it('patterns that cannot match a denied name pass, and without deny lists patterns pass', () => {
    for (const q of [
      'hostnames:*.github.com',
      'hostnames:www.*',
      'services.port:44?',
      'product:nginx*',
      'hostnames:/[a-z]+\\.sample\\.net/',
      'hostnames:*company.net',
      'title:/admin.*/',
    ])
      assert.equal(gate.query(q)?.reason, undefined, q);
    for (const q of ['hostnames:*mycompany*', 'hostnames:/.*intra.*/', 'hostnames:/~(foo)&@/'])
      assert.equal(open.query(q), undefined, q);
  });

  void it('the decision for one pattern and one denied name (exact for wildcards)', () => {
    assert.equal(patternCouldMatchName({ kind: 'wildcard', text: '*mycompany*' }, 'mycompany.com'), true);
    assert.equal(patternCouldMatchName({ kind: 'wildcard', text: '*.mycompany.com' }, 'mycompany.com'), true);
    assert.equal(patternCouldMatchName({ kind: 'wildcard', text: 'x*mycompany.com' }, 'mycompany.com'), true);
    assert.equal(
      patternCouldMatchName({ kind: 'wildcard', text: 'xmycompany.com*' }, 'mycompany.com'),
      false,
    );
    assert.equal(patternCouldMatchName({ kind: 'wildcard', text: '?ycompany.com' }, 'mycompany.com'), true);
    assert.equal(patternCouldMatchName({ kind: 'wildcard', text: '??ycompany.com' }, 'mycompany.com'), false);
    assert.equal(patternCouldMatchName({ kind: 'wildcard', text: 'mycompany\\*' }, 'mycompany.com'), false);
    assert.equal(patternCouldMatchName({ kind: 'regex', text: 'a|b' }, 'mycompany.com'), false);
    assert.equal(patternCouldMatchName({ kind: 'regex', text: '<1-5>' }, 'mycompany.com'), 'unknown');
  });
});

void describe('gate: wildcards over addresses and internal names', () => {
  const blocks = new Gate({ mode: 'onHover', trusted: true, userDeny: ['203.0.113.0/24', '45.33.0.0/16'] });

  void it('a wildcard ending inside an octet spans the blocks it could reach: a denied or private one refuses it', () => {
    const r = blocks.query('ip:203.0.11*');
    assert.equal(r?.code, 'user-deny', r?.reason);
    assert.equal(r?.value, '203.0.113.0/24');
    for (const q of ['ip:45.33.3*', 'ip:45.3?.*', 'ip:192.168.1.1*', 'ip:10.0.0.1?', 'ip:10.*', 'ip:172.1*'])
      assert.ok(blocks.query(q), `${q} is refused`);
    assert.equal(blocks.query('ip:192.168.1.1*')?.code, 'not-public');
    for (const q of ['ip:8.8.8.*', 'ip:8.8.*', 'ip:45.34.*', 'ip:203.1*', 'ip:1*', 'port:44?'])
      assert.equal(blocks.query(q)?.reason, undefined, q);
  });

  void it('a wildcard over names under an internal suffix is refused when it pins a name; the suffix alone passes', () => {
    const r = open.query('hostnames:*payroll*.corp');
    assert.equal(r?.code, 'not-public');
    assert.match(
      r?.reason ?? '',
      /^The pattern \*payroll\*\.corp could match \*\.corp: not sent to ODIN \(Internal name/,
    );
    for (const q of [
      'hostnames:vpn-?ate.internal',
      'hostnames:*.build01.lan',
      'hostnames:nas-backup*.home.arpa',
    ])
      assert.ok(open.query(q), `${q} is refused`);
    for (const q of [
      'hostnames:*.corp',
      'hostnames:*.local',
      'hostnames:*.lan',
      'hostnames:payroll*',
      'hostnames:nas*.home.arpa',
    ])
      assert.equal(open.query(q)?.reason, undefined, q);
  });
});

void describe('gate: full-width digits and dots (NFKC)', () => {
  void it('a full-width address is read as the address, and refused when private', () => {
    for (const [q, value] of [
      ['ip:１０．０．０．１', '10.0.0.1'],
      ['ip:"１９２．１６８．１．２０"', '192.168.1.20'],
      ['banner:"admin at １０.０.０.７ here"', '10.0.0.7'],
      ['ip:\\uff11\\uff10.0.0.1', '10.0.0.1'],
      ['ip:１０．０．０．*', '10.0.0.0/24'],
      ['hostnames:ｖｐｎ．ｍｙｃｏｍｐａｎｙ．ｃｏｍ', 'vpn.mycompany.com'],
      ['hostnames:*ｍｙｃｏｍｐａｎｙ*', '*mycompany*'],
    ] as const) {
      const r = gate.query(q);
      assert.equal(r?.value, value, `${q}: ${r?.reason ?? 'sent'}`);
    }
    assert.equal(
      gate.query('ip:４５．３３．３２．１５６'),
      undefined,
      'a public address in full width passes',
    );
  });
});
