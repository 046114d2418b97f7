/**
 * Query text is a value too: every IP, CIDR block and host name inside a
 * query, as the service reads it (Lucene parsed, escapes resolved), is classified by the one
 * gate exactly as a hovered value is, and a private, internal or denied one refuses the
 * query with a message that names it and why.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Gate, unescapeLucene } from '../../../src/core/gate';

const gate = new Gate({ mode: 'onHover', trusted: true, userDeny: ['mycompany.com'] });

function refused(query: string, g = gate): string | undefined {
  return g.query(query)?.reason;
}

void describe('gate: query text', () => {
  void it('names the first private, internal or denied value and why', () => {
    assert.equal(
      refused('ip:10.0.0.7 OR hostnames:vpn.mycompany.com'),
      '10.0.0.7 is Private-Use (RFC 1918): not sent to ODIN.',
    );
    assert.equal(
      refused('services.port:443 AND hostnames:vpn.mycompany.com'),
      'vpn.mycompany.com is not sent to ODIN: denied by user setting "mycompany.com".',
    );
    assert.match(refused('hostnames:db.corp') ?? '', /^db\.corp is Internal name \(\.corp/);
    assert.equal(gate.query('ip:10.0.0.7')?.code, 'not-public');
    assert.equal(gate.query('hostnames:vpn.mycompany.com')?.code, 'user-deny');
  });

  void it('Lucene escapes are resolved: the value the service reads is the value classified', () => {
    for (const [query, value] of [
      ['ip:10\\.0\\.0\\.1', '10.0.0.1'],
      ['hostnames:db\\.corp', 'db.corp'],
      ['vpn.mycompany\\.com', 'vpn.mycompany.com'],
      ['ip:10\\u002e0\\u002e0\\u002e7', '10.0.0.7'],
      ['ip:fe80\\:\\:1', 'fe80::1'],
      ['ip:10.0.0.0\\/8', '10.0.0.0/8'],
      ['ip:\\1\\0.0.0.1', '10.0.0.1'],
    ] as const) {
      const r = gate.query(query);
      assert.equal(r?.value, value, `${query}: ${r?.reason ?? 'sent'}`);
      assert.ok(r?.reason.startsWith(value), r?.reason);
    }
    assert.equal(unescapeLucene('a\\.b\\\\c\\u0041'), 'a.b\\cA');
  });

  void it('phrases, single quotes, ranges, wildcards, blocks, URLs and unparsable queries are read too', () => {
    for (const [query, value] of [
      ['ip:"10.0.0.7"', '10.0.0.7'],
      ["ip:'10.0.0.7'", '10.0.0.7'],
      ['services.modules.http.title:"admin at 192.168.1.20"', '192.168.1.20'],
      ['ip:[10.0.0.0 TO *]', '10.0.0.0'],
      ['ip:["172.16.0.1" TO *]', '172.16.0.1'],
      ['ip:10.0.0.*', '10.0.0.0/24'],
      ['ip:"192.168.0.0/16"', '192.168.0.0/16'],
      ['ip:10.0.0.0/8', '10.0.0.0/8'],
      ['banner:"http://10.0.0.7:8080/admin"', '10.0.0.7'],
      ['hostnames:db.corp*', 'db.corp'],
      ['x:printer.local', 'printer.local'],
      ['ip:"fe80::1%eth0"', 'fe80::1'],
      // The parser refuses these; the text reading still sees the value.
      ['ip:(10.0.0.7', '10.0.0.7'],
      ['ip:/10\\.0\\.0\\.7/', '10.0.0.7'],
    ] as const) {
      assert.equal(gate.query(query)?.value, value, query);
    }
    // An IPv4-mapped address is refused for the address it embeds.
    assert.match(refused('ip:::ffff:10.1.2.3') ?? '', /Private-Use/);
  });

  void it('field names, versions, dates, file names and public values are not refused', () => {
    for (const query of [
      '*',
      '',
      'services.port:443 AND asn.number:AS13335',
      "banner:tls AND location.country_name:'United States'",
      '(last_updated_at:["2024-07-08T02:41:15.528Z" TO *] AND services.port:80) OR asn.number:AS63949',
      'services.modules.http.title:"index.html" AND services.product:nginx/1.18.0',
      'services.software.version:"2.4.41" AND tags.name:cloud',
      'provider: aws AND file_cat_count.src: [10 TO *]',
      'ip:8.8.8.8 OR ip:"2606:4700::1111" OR hostnames:github.com',
      'home OR local OR corp',
      'hostnames:*.corp',
    ]) {
      assert.equal(refused(query), undefined, query);
    }
  });

  void it('the same decision as a hover: the user allow list and the deny lists hold in queries', () => {
    const g = new Gate({
      mode: 'onHover',
      trusted: true,
      userAllow: ['10.0.0.0/8', 'corp'],
      workspaceDeny: ['8.8.8.0/24'],
    });
    assert.equal(refused('ip:10.0.0.7 AND hostnames:db.corp', g), undefined);
    assert.equal(
      refused('ip:8\\.8\\.8\\.8', g),
      '8.8.8.8 is not sent to ODIN: denied by workspace setting "8.8.8.0/24".',
    );
    for (const v of ['10.0.0.7', 'db.corp', '8.8.8.8']) {
      assert.equal(g.privacy(v).decision.allowed, refused(`x:${v}`, g) === undefined, v);
    }
  });

  void it('a search spec: its IP, domain, query, field and keyword pass the same check', () => {
    assert.match(gate.search({ query: 'ip:10\\.0\\.0\\.1' }) ?? '', /^10\.0\.0\.1 is Private-Use/);
    assert.match(gate.search({ keyword: 'vpn.mycompany.com' }) ?? '', /denied by user setting/);
    assert.match(gate.search({ ip: '192.168.1.1' }) ?? '', /not looked up: Private-Use/);
    assert.equal(gate.search({ query: 'services.port:22', field: 'services.port' }), undefined);
  });
});

/** A private address, every character escaped or not, in any place a query can hold a value. */
const PRIVATE = [
  '10.0.0.7',
  '192.168.1.20',
  '172.16.5.4',
  '127.0.0.1',
  '169.254.1.1',
  '100.64.0.1',
  'fe80::1',
  'fd00::7',
];

const escapedForm = (value: string): fc.Arbitrary<string> =>
  fc
    .array(fc.constantFrom<'plain' | 'backslash' | 'unicode'>('plain', 'backslash', 'unicode'), {
      minLength: value.length,
      maxLength: value.length,
    })
    .map((how) =>
      [...value]
        .map((ch, i) =>
          how[i] === 'backslash'
            ? `\\${ch}`
            : how[i] === 'unicode'
              ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`
              : ch,
        )
        .join(''),
    );

const placed = (v: string, ipv6: boolean): fc.Arbitrary<string> =>
  fc.constantFrom(
    ...(ipv6 ? [] : [`ip:${v}`, v, `(services.port:22 OR ip:${v})`]),
    `ip:"${v}"`,
    `ip:'${v}'`,
    `ip:[${v} TO *]`,
    `services.port:443 AND banner:"seen at ${v} today"`,
    `NOT ip:"${v}" AND asn.number:AS13335`,
  );

void describe('gate: query text (properties)', () => {
  void it('any escaped form of a private address, anywhere in a query, is refused', () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...PRIVATE)
          .chain((ip) =>
            escapedForm(ip).chain((v) => placed(v, ip.includes(':')).map((query) => ({ ip, query }))),
          ),
        ({ ip, query }) => {
          const r = gate.query(query);
          assert.ok(r, `sent: ${query}`);
          assert.equal(r.code, 'not-public');
          assert.equal(r.value, gate.privacy(ip).target?.value, query);
        },
      ),
      { numRuns: 400 },
    );
  });

  void it('any escaped spelling of a denied or internal name is refused', () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom('vpn.mycompany.com', 'MyCompany.com', 'db.corp', 'nas.home.arpa', 'build.internal')
          .chain((name) =>
            escapedForm(name).chain((v) =>
              fc
                .constantFrom(`hostnames:${v}`, `hostnames:"${v}"`, v, `services.port:22 AND (${v})`)
                .map((query) => ({ name, query })),
            ),
          ),
        ({ name, query }) => {
          const r = gate.query(query);
          assert.ok(r, `sent: ${query}`);
          assert.equal(r.value, name.toLowerCase(), query);
        },
      ),
      { numRuns: 300 },
    );
  });
});
