/**
 * Detection by example: every textual form we promise to find (with exact ranges), every form we
 * promise never to read as an address or a domain, defanged indicators, the code-vs-text modes,
 * and the range APIs the hover uses.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Detection, detect, detectAt, detectInRange, MAX_RUN } from '../../../src/core/detect';
import { NAME_LETTER_RANGES } from '../../../src/core/detect/chars';

type Row = [
  kind: Detection['kind'],
  raw: string,
  value: string,
  extra?: { port?: number; defanged?: boolean },
];

/** Detections as rows, after checking that every range slices back to its raw text. */
function rows(text: string, opts?: Parameters<typeof detect>[1]): Row[] {
  return detect(text, opts).map((d) => {
    assert.equal(text.slice(d.start, d.end), d.raw, `range of ${d.raw}`);
    const extra: { port?: number; defanged?: boolean } = {};
    if (d.port !== undefined) extra.port = d.port;
    if (d.defanged) extra.defanged = true;
    return Object.keys(extra).length > 0 ? [d.kind, d.raw, d.value, extra] : [d.kind, d.raw, d.value];
  });
}

const values = (text: string, opts?: Parameters<typeof detect>[1]): string[] =>
  detect(text, opts).map((d) => d.value);

void describe('detect: IPv4', () => {
  void it('finds a dotted quad with its exact range', () => {
    assert.deepEqual(detect('from 185.220.101.34 port 22'), [
      { kind: 'ipv4', start: 5, end: 19, raw: '185.220.101.34', value: '185.220.101.34', defanged: false },
    ]);
  });

  void it('takes the port of ip:port but not into the range', () => {
    assert.deepEqual(detect("rdpJump: '52.14.88.213:3389',"), [
      {
        kind: 'ipv4',
        start: 10,
        end: 22,
        raw: '52.14.88.213',
        value: '52.14.88.213',
        defanged: false,
        port: 3389,
      },
    ]);
  });

  void it('finds the boundary values and sentence-final addresses', () => {
    assert.deepEqual(values('0.0.0.0 and 255.255.255.255. Then 8.8.8.8, (1.1.1.1) [9.9.9.9] "4.4.4.4"'), [
      '0.0.0.0',
      '255.255.255.255',
      '8.8.8.8',
      '1.1.1.1',
      '9.9.9.9',
      '4.4.4.4',
    ]);
  });

  void it('finds both ends of a range', () => {
    assert.deepEqual(values('allow 10.0.0.1-10.0.0.9 only'), ['10.0.0.1', '10.0.0.9']);
  });

  void it('ignores ports out of range but keeps the address', () => {
    assert.deepEqual(rows('1.2.3.4:99999 5.6.7.8:0'), [
      ['ipv4', '1.2.3.4', '1.2.3.4'],
      ['ipv4', '5.6.7.8', '5.6.7.8', { port: 0 }],
    ]);
  });
});

void describe('detect: strict IPv4 (never an address)', () => {
  const never = [
    '012.0.0.1',
    '1.2.3.04',
    '0x7f.1',
    '0x7f.0.0.1',
    '127.1',
    '127.0.1',
    '017700000001',
    '2130706433',
    '999.1.1.1',
    '256.0.0.1',
    '1.2.3.4.5',
    '1.3.6.1.4.1',
    '.1.3.6.1',
    '.1.2.3.4',
    'v2.0.1',
    'v1.2.3.4',
    '1.2.3',
    '1.2.3.4a',
    'a1.2.3.4',
    '1.2.3.4-beta',
    '1..2.3.4',
    '١.٢.٣.٤',
    'Chrome/120.0.0.0',
    'Version=4.0.0.0',
    'AssemblyVersion("1.0.0.0")',
    '"version": "1.2.3.4"',
    'Section 2.8.3.2',
    'see sections 4.1.2.3 and',
    'Chapter 1.2.3.4',
    'SECT. 1.2.3.4',
    '§ 2.8.3.2',
    '§2.8.3.2',
  ];
  for (const text of never) {
    void it(`does not read ${JSON.stringify(text)} as an address`, () => {
      assert.deepEqual(
        detect(` ${text} `).filter((d) => d.kind !== 'domain'),
        [],
      );
    });
  }

  void it('reads an address after a comment sign or a heading mark', () => {
    assert.deepEqual(values('# 10.0.0.1 gateway\n### 2.8.3.2 Zone transfers\n#2.8.3.2'), [
      '10.0.0.1',
      '2.8.3.2',
      '2.8.3.2',
    ]);
  });

  void it('reads an address after other words, or after a numbering word set apart by no space', () => {
    assert.deepEqual(values('from 2.8.3.2, subsection 1.2.3.4, section=5.6.7.8, C# 9.9.9.9'), [
      '2.8.3.2',
      '1.2.3.4',
      '5.6.7.8',
      '9.9.9.9',
    ]);
  });

  void it('still reads an address in a URL path', () => {
    assert.deepEqual(values('GET /api/ip/1.2.3.4 and http://5.6.7.8/x'), ['1.2.3.4', '5.6.7.8']);
  });
});

void describe('detect: IPv6', () => {
  const cases: [string, string][] = [
    ['2001:db8::1', '2001:db8::1'],
    ['2001:0DB8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['fe80::1c2a:3bff:fe4d:5e6f', 'fe80::1c2a:3bff:fe4d:5e6f'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['::ffff:1.2.3.4', '::ffff:1.2.3.4'],
    ['::FFFF:0102:0304', '::ffff:1.2.3.4'],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304'],
    ['2606:4700:4700::1111', '2606:4700:4700::1111'],
  ];
  for (const [text, value] of cases) {
    void it(`reads ${text} as ${value}`, () => {
      assert.deepEqual(rows(` ${text} `), [['ipv6', text, value]]);
    });
  }

  void it('keeps a zone id in the range and the value', () => {
    assert.deepEqual(detect('ping fe80::1%eth0 now'), [
      { kind: 'ipv6', start: 5, end: 17, raw: 'fe80::1%eth0', value: 'fe80::1%eth0', defanged: false },
    ]);
  });

  void it('reads a bracketed address with its port', () => {
    assert.deepEqual(detect('connect [2001:db8::1]:443 ok'), [
      {
        kind: 'ipv6',
        start: 9,
        end: 20,
        raw: '2001:db8::1',
        value: '2001:db8::1',
        defanged: false,
        port: 443,
      },
    ]);
    assert.deepEqual(rows('http://[fe80::1%25en0]:8080/'), [
      ['ipv6', 'fe80::1%25en0', 'fe80::1%en0', { port: 8080 }],
    ]);
    assert.deepEqual(rows('listen [::1]:80;'), [['ipv6', '::1', '::1', { port: 80 }]]);
  });

  void it('separates a label before the address', () => {
    assert.deepEqual(values('ip:2001:db8::5 SRC=2a01:4f8:c17:b8f::2'), [
      '2001:db8::5',
      '2a01:4f8:c17:b8f::2',
    ]);
  });

  const never = [
    'std::vector',
    'Foo::Bar',
    'a::b',
    'dead::beef',
    'x[::2]',
    'a[1::3]',
    'xs[::-1]',
    '1::Int',
    'Foo::1',
    '12:34:56',
    '2025:08:14:02',
    '02:42:ac:11:00:02:02:42:ac:11:00:01:08:00',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '12345::1',
    '::',
    'fe80::1g',
  ];
  for (const text of never) {
    void it(`does not read ${JSON.stringify(text)} as an address`, () => {
      assert.deepEqual(detect(` ${text} `), []);
    });
  }
});

void describe('detect: CIDR', () => {
  void it('reads IPv4 and IPv6 blocks with the prefix in the range', () => {
    assert.deepEqual(rows('route 10.0.0.0/8 via 192.168.1.1; 2001:db8::/32 and 0.0.0.0/0'), [
      ['cidr', '10.0.0.0/8', '10.0.0.0/8'],
      ['ipv4', '192.168.1.1', '192.168.1.1'],
      ['cidr', '2001:db8::/32', '2001:db8::/32'],
      ['cidr', '0.0.0.0/0', '0.0.0.0/0'],
    ]);
  });

  void it('keeps host bits as written (ip addr output)', () => {
    assert.deepEqual(rows('inet 10.0.12.5/24 brd'), [['cidr', '10.0.12.5/24', '10.0.12.5/24']]);
  });

  void it('validates the prefix length: an invalid one leaves a plain address', () => {
    assert.deepEqual(rows('10.0.0.0/33 10.0.0.0/08 2001:db8::/129 1.2.3.4/24x'), [
      ['ipv4', '10.0.0.0', '10.0.0.0'],
      ['ipv4', '10.0.0.0', '10.0.0.0'],
      ['ipv6', '2001:db8::', '2001:db8::'],
      ['ipv4', '1.2.3.4', '1.2.3.4'],
    ]);
  });
});

void describe('detect: domains', () => {
  void it('finds names under ICANN suffixes, lower-cased', () => {
    assert.deepEqual(rows('see WWW.Example.COM and api.acme-logistics.co.uk.', { mode: 'text' }), [
      ['domain', 'WWW.Example.COM', 'www.example.com'],
      ['domain', 'api.acme-logistics.co.uk', 'api.acme-logistics.co.uk'],
    ]);
  });

  void it('reads host:port and URLs', () => {
    assert.deepEqual(rows('https://portal.acme-logistics.com/orders api.github.com:443'), [
      ['domain', 'portal.acme-logistics.com', 'portal.acme-logistics.com'],
      ['domain', 'api.github.com', 'api.github.com', { port: 443 }],
    ]);
  });

  void it('yields the domain part of an e-mail address, never the local part', () => {
    assert.deepEqual(rows('mail john.doe@example.com or first.name@corp.example.org'), [
      ['domain', 'example.com', 'example.com'],
      ['domain', 'corp.example.org', 'corp.example.org'],
    ]);
  });

  void it('allows leading service labels', () => {
    assert.deepEqual(values('_dmarc.example.com _sip._tcp.example.net'), [
      '_dmarc.example.com',
      '_sip._tcp.example.net',
    ]);
  });

  const never = [
    'console.log',
    'os.path',
    'foo.exe',
    'README.md',
    'package.json',
    'index.ts',
    'setup.py',
    'main.rs',
    'App.java',
    'libc.so',
    'bundle.js.map',
    'main.tf',
    'this.foo.bar',
    'self.user.name',
    'window.location.href',
    'com.example.app',
    'org.apache.commons',
    'db.corp.internal',
    'printer.local',
    'host.lan',
    'co.uk',
    'com',
    'foo.bar(x)',
    'a.b.name = 1',
    'src/setup.py',
    'C:\\temp\\evil.com',
    '1.2.3.com1',
    'my_host.example.com',
    '-.com',
    'a..com',
    'ex--.com',
  ];
  for (const text of never) {
    void it(`does not read ${JSON.stringify(text)} as a domain`, () => {
      assert.deepEqual(
        detect(` ${text} `).filter((d) => d.kind === 'domain'),
        [],
      );
    });
  }

  void it('in code mode rejects member-name TLDs without context, in text mode accepts them', () => {
    const text = 'user.name logger.info post.id evil.info';
    assert.deepEqual(values(text), []);
    assert.deepEqual(values(text, { mode: 'text' }), ['user.name', 'logger.info', 'post.id', 'evil.info']);
    assert.deepEqual(values('fetch("https://evil.info/x") bad-site.info'), ['evil.info', 'bad-site.info']);
  });

  void it('in code mode treats word TLDs and Class.member spellings as code', () => {
    const code = 'return collator.compare; Version.zero _Version.zero Date.now cfg.cloud it.ch r1.st e.cA';
    assert.deepEqual(values(code), []);
    assert.deepEqual(values(code, { mode: 'text' }), [
      'collator.compare',
      'version.zero',
      'date.now',
      'cfg.cloud',
      'it.ch',
      'r1.st',
      'e.ca',
    ]);
    assert.deepEqual(values('see `chalk.red.yellow.green` and WWW.EXAMPLE.DE or t.co but "https://t.co/x"'), [
      'www.example.de',
      't.co',
    ]);
    // Quoted names of three labels or more are values; hyphens and www. are context too.
    assert.deepEqual(values(`host = 'api.example.dev'; b = "example.dev"; c = my-site.cloud; www.shop.app`), [
      'api.example.dev',
      'my-site.cloud',
      'www.shop.app',
    ]);
    assert.deepEqual(values('GitHub.com and https://GitHub.com/x', { mode: 'code' }), ['github.com']);
  });

  void it('accepts file-extension TLDs only with context', () => {
    assert.deepEqual(
      values('setup.py https://example.py/x www.python.py evil[.]zip shop.com.pl', { mode: 'text' }),
      ['example.py', 'www.python.py', 'evil.zip', 'shop.com.pl'],
    );
  });

  void it('finds domains next to CJK text; a Latin word glued to one is part of the name', () => {
    assert.deepEqual(values('访问example.com失败 and 192.168.1.1无法 but déjàexample.com'), [
      'example.com',
      '192.168.1.1',
      'xn--djexample-r1a1h.com',
    ]);
  });

  void it('reads as name letters only letters and marks of the Latin, Greek, Cyrillic and Armenian scripts', () => {
    const script = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}\p{M}]/u;
    for (const [from, to] of NAME_LETTER_RANGES) {
      for (let c = from; c <= to; c++) {
        const ch = String.fromCharCode(c);
        if (/\p{Cn}/u.test(ch)) continue; // unassigned
        assert.ok(script.test(ch) && /[\p{L}\p{M}]/u.test(ch), `U+${c.toString(16)} ${ch}`);
      }
    }
  });

  void it('finds names written in Unicode: shown as written, sent in punycode', () => {
    assert.deepEqual(rows('Phishing at bücher-login.de and https://раураl.com/login'), [
      ['domain', 'bücher-login.de', 'xn--bcher-login-thb.de'],
      ['domain', 'раураl.com', 'xn--l-7sba6dbr.com'],
    ]);
    // The whole word, never its ASCII tail (`nchen.de`).
    assert.deepEqual(rows('münchen.de'), [['domain', 'münchen.de', 'xn--mnchen-3ya.de']]);
    assert.deepEqual(
      detect('bücher[.]de').map((d) => [d.raw, d.value, d.defanged]),
      [['bücher[.]de', 'xn--bcher-kva.de', true]],
    );
    // Letters outside ASCII still glue to addresses, and a colon still separates.
    assert.deepEqual(values('ü1.2.3.4 2001:db8::1ü Адрес:1.2.3.4 x.com:bücher.de'), [
      '1.2.3.4',
      'x.com',
      'xn--bcher-kva.de',
    ]);
  });

  void it('trims a trailing dot and a leading cookie-domain dot', () => {
    assert.deepEqual(rows('example.com. .example.org'), [
      ['domain', 'example.com', 'example.com'],
      ['domain', 'example.org', 'example.org'],
    ]);
  });
});

void describe('detect: defanged forms', () => {
  void it('refangs every marker style and keeps the written range', () => {
    assert.deepEqual(
      rows(
        '1.2.3[.]4 1[.]2[.]3[.]4 1(.)2(.)3(.)4 1.2.3{.}4 example(dot)com example[dot]com evil[.]com x[DOT]org',
      ),
      [
        ['ipv4', '1.2.3[.]4', '1.2.3.4', { defanged: true }],
        ['ipv4', '1[.]2[.]3[.]4', '1.2.3.4', { defanged: true }],
        ['ipv4', '1(.)2(.)3(.)4', '1.2.3.4', { defanged: true }],
        ['ipv4', '1.2.3{.}4', '1.2.3.4', { defanged: true }],
        ['domain', 'example(dot)com', 'example.com', { defanged: true }],
        ['domain', 'example[dot]com', 'example.com', { defanged: true }],
        ['domain', 'evil[.]com', 'evil.com', { defanged: true }],
        ['domain', 'x[DOT]org', 'x.org', { defanged: true }],
      ],
    );
  });

  void it('marks hosts after hxxp:// as defanged', () => {
    assert.deepEqual(rows('hxxp://evil.com/a hxxps://evil[.]com/b hxxp[:]//bad[.]ru/ hxxp://1.2.3.4/'), [
      ['domain', 'evil.com', 'evil.com', { defanged: true }],
      ['domain', 'evil[.]com', 'evil.com', { defanged: true }],
      ['domain', 'bad[.]ru', 'bad.ru', { defanged: true }],
      ['ipv4', '1.2.3.4', '1.2.3.4', { defanged: true }],
    ]);
  });

  void it('reads a defanged CIDR block and a defanged host:port', () => {
    assert.deepEqual(rows('10.0.0[.]0/8 evil[.]com[:]8080'), [
      ['cidr', '10.0.0[.]0/8', '10.0.0.0/8', { defanged: true }],
      ['domain', 'evil[.]com', 'evil.com', { port: 8080, defanged: true }],
    ]);
  });

  void it('does not take brackets that are not markers', () => {
    assert.deepEqual(values('arr[0].com x(1).net f(.)'), []);
  });
});

void describe('detect: options and range APIs', () => {
  const text = 'a 8.8.8.8 b example.org c 2001:db8::1 d 10.0.0.0/8';

  void it('filters kinds and stops at a limit', () => {
    assert.deepEqual(values(text, { kinds: ['domain', 'cidr'] }), ['example.org', '10.0.0.0/8']);
    assert.deepEqual(values(text, { limit: 2 }), ['8.8.8.8', 'example.org']);
  });

  void it('detectAt finds the token under an offset, or the one ending there', () => {
    const at = (k: number): string | undefined => detectAt(text, k)?.value;
    assert.equal(at(2), '8.8.8.8');
    assert.equal(at(8), '8.8.8.8');
    assert.equal(at(9), '8.8.8.8'); // caret just after
    assert.equal(at(10), undefined);
    assert.equal(at(text.indexOf('db8')), '2001:db8::1');
    assert.equal(at(text.length - 1), '10.0.0.0/8');
    assert.equal(at(0), undefined);
  });

  void it('detectAt reads a defanged token whole from its middle', () => {
    const t = 'ioc: hxxps://evil[.]com/x';
    assert.deepEqual(detectAt(t, t.indexOf('[.]') + 1), {
      kind: 'domain',
      start: 13,
      end: 23,
      raw: 'evil[.]com',
      value: 'evil.com',
      defanged: true,
    });
  });

  void it('detectInRange returns what overlaps the range, read with its context', () => {
    const from = text.indexOf('example') + 3;
    assert.deepEqual(
      detectInRange(text, from, from + 1).map((d) => d.value),
      ['example.org'],
    );
    const line2 = 'x\nhxxp://evil.com/ 1.2.3.4\ny';
    const start = line2.indexOf('hxxp');
    assert.deepEqual(
      detectInRange(line2, start, line2.indexOf('\ny')).map((d) => [d.value, d.defanged]),
      [
        ['evil.com', true],
        ['1.2.3.4', false],
      ],
    );
  });

  void it('skips runs longer than MAX_RUN', () => {
    const blob = `${'a.'.repeat(MAX_RUN)}com`;
    assert.deepEqual(
      detect(`${blob} 8.8.8.8`).map((d) => d.value),
      ['8.8.8.8'],
    );
  });

  void it('handles empty, whitespace-only and out-of-range input', () => {
    assert.deepEqual(detect(''), []);
    assert.deepEqual(detect('   \n\t'), []);
    assert.equal(detectAt('', 0), undefined);
    assert.equal(detectAt('8.8.8.8', 100), undefined);
    assert.deepEqual(
      detectInRange('8.8.8.8', -5, 100).map((d) => d.value),
      ['8.8.8.8'],
    );
  });

  void it('treats percent-escapes as separators', () => {
    assert.deepEqual(values('GET /r?u=https%3A%2F%2Fevil.com%2Fpath'), ['evil.com']);
  });
});
