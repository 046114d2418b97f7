// The WebAssembly run finder (src/wasm/runs.ts) against the JavaScript scans, on large texts
// where the scanner uses it by default. The generated tests in properties.test.ts compare the
// strategies on small texts with chunks of every size; these cover real logs, ranges, blobs
// without whitespace, and the compiled module being the one its source compiles to.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { detectTable } from '../../../src/core/detect';
import { hasRunFinder, scan } from '../../../src/core/detect/scan';

const root = path.resolve(__dirname, '../../../..');

/** A log of every line shape the benchmark uses, repeated to `size` characters. */
function log(size: number): string {
  const lines = [
    '203.0.113.7 - - [21/Nov/2025:08:14:02 +0000] "GET /wp-login.php HTTP/1.1" 404 512 "https://shop.acme-logistics.com/" "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0.0.0 Safari/537.36"',
    'Nov 21 03:12:44 bastion sshd[21412]: Failed password for invalid user admin from 185.220.101.34 port 51234 ssh2',
    '{"ts":"2025-11-21T08:30:09.902Z","level":"info","server":"2a01:4f8:1c1e::8a2e","fallback":"10.0.0.1","query":"cdn.jsdelivr.net"}',
    'Nov 21 05:00:01 edge kernel: [UFW BLOCK] IN=eth0 MAC=02:42:ac:11:00:02:02:42:ac:11:00:01:08:00 SRC=45.83.64.1 DST=192.168.1.9',
    '-A INPUT -s 91.198.174.0/24 -p tcp --dport 22 -j DROP # ipv6: 2001:db8::/32 [::1]:8080 fe80::1%eth0',
    'IOC: hxxps://evil123[.]ru/gate.php seen from 52[.]14[.]88[.]213 and phish-site(dot)com, 1(.)2(.)3(.)4 %2F%2Fx.example.org',
    'Section 2.8.3.2, version 1.0.0.0, 10.0.0.1-10.0.0.9, user@mail.contoso.co.uk, Date.now(), a.b.c.d.e.f',
  ];
  let out = '';
  for (let i = 0; out.length < size; i++) out += `${lines[i % lines.length]}\n`;
  return out;
}

void describe('detect: WebAssembly run finder', () => {
  void it('loads where WebAssembly exists (Node, the extension host)', () => {
    assert.equal(hasRunFinder(), true);
  });

  void it('finds what the JavaScript scans find in a large log, in chunks of any size', () => {
    const text = log(300_000);
    const each = scan(text, 0, text.length, { strategy: 'each' });
    assert.ok(each.length > 5_000, String(each.length));
    for (const chunk of [1, 7, 64, 1000, 65_536]) {
      assert.deepEqual(scan(text, 0, text.length, { strategy: 'wasm', chunk }), each, `chunk ${chunk}`);
    }
    // The default for large texts, compact results included.
    assert.deepEqual(scan(text, 0, text.length), each);
    assert.deepEqual(detectTable(text).toArray(), each);
  });

  void it('reads ranges of a large text as the JavaScript scans do', () => {
    const text = log(400_000);
    for (const [from, to] of [
      [0, 70_000],
      [12_345, 160_000],
      [100_001, 100_001],
      [333_333, 400_000],
    ]) {
      assert.deepEqual(
        scan(text, from, to, { strategy: 'wasm', chunk: 4096 }),
        scan(text, from, to, { strategy: 'each' }),
        `${from}-${to}`,
      );
    }
  });

  void it('reads stretches without whitespace (blobs, minified lines) with the JavaScript scan', () => {
    const blob = 'A'.repeat(150_000);
    const minified = 'var a="8.8.8.8",b="https://evil.example.com/x",c=[1.2,3.4];'.repeat(3000);
    for (const text of [`${blob}.8.8.8.8 ${blob}`, `1.1.1.1 ${minified} 9.9.9.9`, `${minified}`]) {
      assert.deepEqual(
        scan(text, 0, text.length, { strategy: 'wasm' }),
        scan(text, 0, text.length, { strategy: 'each' }),
      );
    }
  });

  void it('keeps what it knows about names right when thousands of them share its slots', () => {
    // More distinct names, TLDs and defanged spellings than the finder has slots, in an order
    // that puts names of one slot in the same chunk: a name must never be taken for another.
    const parts: string[] = [];
    const tlds = ['com', 'net', 'org', 'io', 'zz', 'qq', 'exe', 'py', 'COM', 'Net', 'abcd', 'xn--p1ai'];
    for (let i = 0; i < 24_000; i++) {
      const j = (i * 7919) % 24_000;
      const tld = tlds[j % tlds.length];
      parts.push(
        j % 5 === 0
          ? `h${j}[.]ex${j % 97}(dot)${tld}`
          : j % 7 === 0
            ? `-.H${j}.Ex.${tld}.`
            : `h${j}.ex${j % 97}.${tld}`,
        j % 3 === 0 ? '"\n' : ' ',
      );
    }
    const text = parts.join('') + parts.slice(0, 20_000).join('');
    const each = scan(text, 0, text.length, { strategy: 'each' });
    assert.ok(each.length > 10_000, String(each.length));
    for (const chunk of [65_536, 4096]) {
      // Twice: the second scan starts with every slot taken.
      for (let pass = 0; pass < 2; pass++) {
        assert.deepEqual(scan(text, 0, text.length, { strategy: 'wasm', chunk }), each, `chunk ${chunk}`);
      }
    }
  });

  void it('decides addresses in plain context as the TypeScript analysis does, and leaves it every other', () => {
    // Each token in each context, in a text large enough for the finder.
    const tokens = [
      '10.0.0.1',
      '999.1.1.1',
      '256.1.2.3',
      '1.2.3.255',
      '1.2.3.1.0',
      '10.0.0.01',
      '01.2.3.4',
      '1.2.3.4.',
      '1.2.3.4/24',
      '1.2.3.4/33',
      '1.2.3.4:80',
      '1::',
      '::1',
      'a::b',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      '12345::1',
      'dead::beef',
      '1:2:3:4:5:6:7::',
      '::',
      '1:2:3:4:5:6:7:8::',
      'ABCD:EF01::1',
      '2001:db8::1',
      'fe80::1%eth0',
      '2001:db8::/32',
      '2001:db8::1x',
      'x2001:db8::1',
      '2001:db8:0:0:0:0:2:1',
      '1:2:3:4:5:6:7',
      'api.example.com',
      'API.Example.COM',
      'Date.now',
      'user.name',
      'setup.py',
      'www.setup.py',
      'collator.compare',
      'e.id',
      'a.b.c.d.e.f',
      'evil[.]com',
      'bad-site(dot)com',
      'x.co.uk',
      'co.uk',
      'this.x.com',
      'com.example.app',
      'mail.contoso.co.uk.',
      'api.example.dev',
      '1.2.3[.]4',
      '1[.]2(.)3{dot}4',
      '01.2.3[.]4',
      '1.2.3[.]4.',
      '999.1.1[.]1',
      '.1.2[.]3.4',
      '2001[:]db8[:]0[:]0[:]0[:]0[:]0[:]1',
      '2001:db8:0:0[:]0:0:0:1',
      '2001:db8:abcd::1234:5678',
    ];
    const before = [
      ' ',
      '"',
      "'",
      '/',
      '//',
      '\\',
      'C:\\logs\\',
      'admin(at)',
      'admin[AT]',
      'http://',
      'hxxp://',
      '@',
      '[',
      '(',
      ']',
      ')',
      'é',
      'Version ',
      'version=',
      'Section ',
      'sections ',
      'Paragraph ',
      'subsection ',
      'sect. ',
      'figs ',
      'step ',
      'Annex\t',
      'Fig. ',
      '§ ',
      'ip=',
      'from ',
    ];
    const after = [
      ' ',
      '"',
      "'",
      '/',
      '/24',
      '/024',
      '/24.a',
      '/24.',
      '/129',
      ']',
      ']:80',
      '%eth0',
      '%eth0.1x',
      '%eth0.',
      'é',
      'x',
      '.',
      ':',
      '',
      '(',
      '@x',
      ' = 1',
      '\t\t=',
      '     =',
    ];
    const lines: string[] = [];
    for (const t of tokens)
      for (const b of before) for (const a of after) lines.push(`${'x'.repeat(30)} ${b}${t}${a} end`);
    let text = lines.join('\n');
    while (text.length < 150_000) text += `\n${text}`;
    for (const mode of ['code', 'text'] as const) {
      const each = scan(text, 0, text.length, { strategy: 'each', mode });
      // Twice: the second time, the finder knows every name.
      for (let pass = 0; pass < 2; pass++) {
        assert.deepEqual(scan(text, 0, text.length, { strategy: 'wasm', mode }), each, mode);
      }
      assert.deepEqual(detectTable(text, { mode }).toArray(), each, mode);
    }
  });

  void it('is compiled from its source: src/core/detect/runsWasm.ts is what src/wasm/runs.ts builds to', () => {
    const out = execFileSync(process.execPath, [path.join(root, 'scripts/build-wasm.mjs'), '--check'], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.match(out, /up to date/);
  });
});
