/**
 * The scanner held to the reference detector (reference.ts): the same detections on generated
 * texts (fast-check), on every file of the sample workspace and on the detection tests' own
 * sources, in both modes and through both scan strategies and the compact table.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { detect, detectTable } from '../../../src/core/detect';
import { scan } from '../../../src/core/detect/scan';
import type { DetectOptions } from '../../../src/core/detect/types';
import { referenceDetect } from './reference';

const root = path.resolve(__dirname, '../../../..');
const MODES: DetectOptions[] = [{ mode: 'code' }, { mode: 'text' }];

function agree(text: string): void {
  for (const opts of MODES) {
    const want = referenceDetect(text, opts);
    const label = `${opts.mode}: ${JSON.stringify(text.length > 300 ? `${text.slice(0, 300)}…` : text)}`;
    assert.deepEqual(detect(text, opts), want, label);
    assert.deepEqual(scan(text, 0, text.length, { ...opts, strategy: 'triggers' }), want, label);
    assert.deepEqual(detectTable(text, opts).toArray(), want, label);
  }
}

const octet = fc.oneof(fc.integer({ min: 0, max: 255 }).map(String), fc.constantFrom('256', '01', '999'));
const quad = fc.tuple(octet, octet, octet, octet).map((p) => p.join('.'));
const hex = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
const ipv6 = fc.oneof(
  fc.tuple(hex, hex).map(([a, b]) => `2001:db8::${a}:${b}`),
  fc.tuple(hex, hex, hex).map(([a, b, c]) => `fe80::${a}:${b}:${c}`),
  fc.constantFrom(
    '::1',
    '::',
    '::ffff:1.2.3.4',
    '2001:0db8:0000:0000:0000:ff00:0042:8329',
    'a::b',
    'Foo::Bar',
  ),
);
const names = fc.constantFrom(
  'example.com',
  'api.example.co.uk',
  'www.example.dev',
  'user.name',
  'setup.py',
  'Date.now',
  'this.foo.bar',
  'com.example.app',
  'evil-site.xyz',
  'bücher-login.de',
  'раураl.com',
  'münchen.de',
  'EXAMPLE.ORG',
  '_dmarc.example.com',
  'e.id',
);
const core = fc.oneof(
  quad,
  quad.map((q) => q.replace(/\.(\d+)$/, '[.]$1')),
  quad.map((q) => `${q}/${(q.length % 40) + 0}`),
  quad.map((q) => `${q}-${q}`),
  ipv6,
  ipv6.map((a) => `[${a}]:8443`),
  ipv6.map((a) => `${a}/64`),
  ipv6.map((a) => `${a}%eth0`),
  names,
  names.map((n) => n.replace(/\.([a-z]+)$/i, '[.]$1')),
  names.map((n) => n.replace(/\./, '(dot)')),
  fc.constantFrom('1.2.3.4.5', '1.1', '2025-11-21T08:30:01.120Z', '08:14:02', 'a.b_c', 'v1.2.3.4'),
);
const prefix = fc.constantFrom(
  '',
  '',
  'http://',
  'hxxps://',
  'hxxp[:]//',
  '[://]',
  'user@',
  'me[at]',
  'Version=',
  'Section ',
  '§ ',
  'Chrome/',
  'src/',
  '"',
  "'",
  '(',
  'x',
  'ü',
  'ip:',
);
const suffix = fc.constantFrom(
  '',
  '',
  ':443',
  ':80:90',
  '/24',
  '(',
  ' = 1',
  '.',
  '"',
  "'",
  ')',
  'ü',
  '%2F',
  ']',
);
const token = fc.tuple(prefix, core, suffix).map((p) => p.join(''));
const separator = fc.constantFrom(' ', '\n', ', ', '; ', '\t', ' - ', '|');

void describe('detect: the scanner agrees with the reference detector', () => {
  void it('on generated texts of indicators, look-alikes and their contexts', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(token, separator), { maxLength: 12 }), (parts) => {
        agree(parts.map(([t, s]) => t + s).join(''));
      }),
      { numRuns: Number(process.env.ODIN_FUZZ_RUNS ?? 3000) },
    );
  });

  void it('on every file of the sample workspace', () => {
    const dir = path.join(root, 'test/fixtures/sample-workspace');
    const files = (d: string): string[] =>
      fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(d, e.name);
        return e.isDirectory() ? files(p) : [p];
      });
    for (const f of files(dir)) agree(fs.readFileSync(f, 'utf8'));
  });

  void it("on the detection tests' own sources (code and prose full of near misses)", () => {
    for (const f of ['detect.test.ts', 'samples.test.ts', 'properties.test.ts']) {
      agree(fs.readFileSync(path.join(root, 'test/unit/detect', f), 'utf8'));
    }
  });
});
