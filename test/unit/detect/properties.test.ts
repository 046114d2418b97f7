/**
 * Properties of the detector, checked with generated inputs:
 *  - completeness: valid IPv4 / IPv6 (every textual form) / CIDR / domains / defanged forms,
 *    embedded in random text between separators, are all found with exact ranges and values;
 *  - strictness: generated octal, hex, short, integer and over-long forms are never addresses;
 *  - the parsers agree with independent oracles (node:net, the WHATWG URL serializer);
 *  - refang is idempotent and inverts defanging;
 *  - scan time grows linearly on adversarial input (1x vs 10x, generous ratio, CPU time).
 */
import assert from 'node:assert/strict';
import { isIPv4, isIPv6 } from 'node:net';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  type Detection,
  detect,
  detectAt,
  detectInRange,
  detectTable,
  formatIPv6,
  MAX_RUN,
  parseIPv4,
  parseIPv6,
  refang,
} from '../../../src/core/detect';
import { scan, setFastPaths } from '../../../src/core/detect/scan';

const RUNS = { numRuns: 300 };

const byte = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(byte, byte, byte, byte).map((b) => b.join('.'));
// Zero groups are common in real addresses and are what compression is about.
const group = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 0, max: 0xffff }),
  fc.integer({ min: 0, max: 0xff }),
);
const groups = fc.array(group, { minLength: 8, maxLength: 8 });

/** RFC 5952 text from an independent implementation: the WHATWG URL host serializer. */
function oracleCanonical(g: number[]): string {
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    return `::ffff:${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
  }
  const full = g.map((x) => x.toString(16)).join(':');
  return new URL(`http://[${full}]`).hostname.slice(1, -1);
}

type V6Style = { kind: 'full' | 'compressed' | 'mixed'; pad: boolean; upper: boolean; run: number };

/** One of the many valid spellings of the same address. */
function v6Text(g: number[], style: V6Style): string {
  const hex = (x: number): string => {
    const h = style.pad ? x.toString(16).padStart(4, '0') : x.toString(16);
    return style.upper ? h.toUpperCase() : h;
  };
  const parts: string[] = g.map(hex);
  if (style.kind === 'mixed') {
    parts.splice(6, 2, `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`);
  }
  if (style.kind === 'full') return parts.join(':');
  // Compress one maximal run of zero groups (any of them, not necessarily the longest).
  const hexCount = style.kind === 'mixed' ? 6 : 8;
  const runs: [number, number][] = [];
  for (let i = 0; i < hexCount;) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < hexCount && g[j] === 0) j++;
    runs.push([i, j]);
    i = j;
  }
  if (runs.length === 0) return parts.join(':');
  const [a, b] = runs[style.run % runs.length];
  return `${parts.slice(0, a).join(':')}::${parts.slice(b).join(':')}`;
}

const v6Style = fc.record({
  kind: fc.constantFrom<V6Style['kind']>('full', 'compressed', 'mixed'),
  pad: fc.boolean(),
  upper: fc.boolean(),
  run: fc.nat(7),
});

const labelChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-');
const label = fc
  .string({ unit: labelChar, minLength: 1, maxLength: 12 })
  .filter((l) => !l.startsWith('-') && !l.endsWith('-'));
// TLDs that need no context in either mode (file extensions and words are tested by example).
const suffix = fc.constantFrom(
  'com',
  'net',
  'org',
  'de',
  'fr',
  'nl',
  'ru',
  'jp',
  'io',
  'co.uk',
  'com.au',
  'ch',
  'se',
);
const domain = fc
  .tuple(label, fc.array(label, { maxLength: 3 }), suffix)
  // The leading `hx` keeps the first label clear of code receivers (`this.`, `self.`) and of
  // minified-member pairs (`e.id`), which code mode leaves alone by design.
  .map(([first, rest, sfx]) => [`hx${first}`, ...rest, sfx].join('.'));

const MARKERS = ['[.]', '(.)', '{.}', '[dot]', '(dot)', '{dot}', '[DOT]'];

/** Replaces some dots with defang markers; at least one when `force`. */
function defang(s: string, picks: number[], force: boolean): string {
  let k = 0;
  let changed = false;
  const out = s.replace(/\./g, () => {
    const p = picks[k++ % picks.length];
    if (p < MARKERS.length) {
      changed = true;
      return MARKERS[p];
    }
    return '.';
  });
  if (force && !changed) return s.replace('.', MARKERS[picks[0] % MARKERS.length]);
  return out;
}

interface Item {
  text: string;
  expected: Omit<Detection, 'start' | 'end' | 'raw'> & { rawStart: number; rawEnd: number };
}

const withPort = (port: number | null): { port?: number } => (port === null ? {} : { port });

const item: fc.Arbitrary<Item> = fc.oneof<fc.Arbitrary<Item>[]>(
  fc.tuple(ipv4, fc.option(fc.integer({ min: 0, max: 65535 }))).map(([ip, port]) => ({
    text: port === null ? ip : `${ip}:${port}`,
    expected: { kind: 'ipv4', value: ip, defanged: false, rawStart: 0, rawEnd: ip.length, ...withPort(port) },
  })),
  fc.tuple(ipv4, fc.integer({ min: 0, max: 32 })).map(([ip, bits]) => ({
    text: `${ip}/${bits}`,
    expected: {
      kind: 'cidr',
      value: `${ip}/${bits}`,
      defanged: false,
      rawStart: 0,
      rawEnd: `${ip}/${bits}`.length,
    },
  })),
  fc
    .tuple(groups, v6Style, fc.option(fc.integer({ min: 1, max: 65535 })))
    .filter(([g, style]) => /[0-9]/.test(v6Text(g, style)) || !v6Text(g, style).includes('::'))
    .map(([g, style, port]) => {
      const t = v6Text(g, style);
      const value = oracleCanonical(g);
      return port === null
        ? { text: t, expected: { kind: 'ipv6', value, defanged: false, rawStart: 0, rawEnd: t.length } }
        : {
            text: `[${t}]:${port}`,
            expected: { kind: 'ipv6', value, defanged: false, port, rawStart: 1, rawEnd: t.length + 1 },
          };
    }),
  fc.tuple(groups, fc.integer({ min: 0, max: 128 })).map(([g, bits]) => {
    const t = `${v6Text(g, { kind: 'compressed', pad: false, upper: false, run: 0 })}/${bits}`;
    return {
      text: t,
      expected: {
        kind: 'cidr',
        value: `${oracleCanonical(g)}/${bits}`,
        defanged: false,
        rawStart: 0,
        rawEnd: t.length,
      },
    };
  }),
  fc.tuple(domain, fc.boolean(), fc.option(fc.integer({ min: 0, max: 65535 }))).map(([d, upper, port]) => {
    const t = upper ? d.toUpperCase() : d;
    return {
      text: port === null ? t : `${t}:${port}`,
      expected: {
        kind: 'domain',
        value: d,
        defanged: false,
        rawStart: 0,
        rawEnd: t.length,
        ...withPort(port),
      },
    };
  }),
  fc
    .tuple(fc.oneof(ipv4, domain), fc.array(fc.nat(MARKERS.length + 2), { minLength: 1, maxLength: 6 }))
    .map(([v, picks]) => {
      const t = defang(v, picks, true);
      return {
        text: t,
        expected: {
          kind: /[a-z]/.test(v) ? 'domain' : 'ipv4',
          value: v,
          defanged: true,
          rawStart: 0,
          rawEnd: t.length,
        },
      };
    }),
);

const before = fc.constantFrom(' ', '\n', '\t', ', ', '; ', '"', "'", '<', '|', '(', '=', ' -> ');
const after = fc.constantFrom(' ', '\n', '\t', ',', ';', '"', "'", '>', '|', ')', '\r\n');
// Filler can never form a token we detect: no digits, dots, colons, or the letter v (`version`),
// and it never ends in a word that makes the next number a section number (`Sec 1.2.3.4`).
const filler = fc
  .string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuwxyzABCXYZ _!?#*é中'),
    maxLength: 12,
  })
  .filter(
    (f) =>
      !/(?:^|[^a-z])(?:sections?|sect?|chapter|clause|para(?:graph)?|appendix|annex|fig(?:ure)?|step)$/i.test(
        f,
      ),
  );

void describe('detect: completeness (generated)', () => {
  void it('finds every embedded address, block and name with its exact range and value', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(filler, before, item, after), { minLength: 1, maxLength: 8 }),
        filler,
        (parts, tail) => {
          let text = '';
          const expected: Detection[] = [];
          for (const [f, b, it, a] of parts) {
            text += f + b;
            const start = text.length + it.expected.rawStart;
            const end = text.length + it.expected.rawEnd;
            text += it.text + a;
            const { rawStart: _s, rawEnd: _e, ...rest } = it.expected;
            expected.push({ ...rest, start, end, raw: text.slice(start, end) } as Detection);
          }
          text += tail;
          const found = detect(text);
          assert.deepEqual(detect(text, { mode: 'text' }), found);
          assert.deepEqual(detectTable(text).toArray(), found);
          const norm = (ds: Detection[]) => ds.map((d) => ({ ...d }));
          assert.deepEqual(
            norm(found).map(({ kind, start, end, raw, value, defanged, port }) => ({
              kind,
              start,
              end,
              raw,
              value,
              defanged,
              port,
            })),
            norm(expected).map(({ kind, start, end, raw, value, defanged, port }) => ({
              kind,
              start,
              end,
              raw,
              value,
              defanged,
              port,
            })),
          );
          // The hover's view agrees: every offset inside a detection yields that detection.
          for (const d of found) {
            for (const k of [d.start, (d.start + d.end) >> 1, d.end - 1]) {
              const at = detectAt(text, k);
              assert.equal(at?.start, d.start);
              assert.equal(at?.end, d.end);
            }
            assert.deepEqual(
              detectInRange(text, d.start, d.end).map((x) => x.value),
              [d.value],
            );
          }
        },
      ),
      RUNS,
    );
  });
});

void describe('detect: the two scan strategies agree', () => {
  // Large inputs jump between trigger characters with native searches; small ranges read every
  // character. Both must find exactly the same detections on any input.
  const pieces = [
    'a',
    '1',
    '.',
    ':',
    '[',
    ']',
    '(',
    ')',
    '{',
    '}',
    'd',
    'o',
    't',
    'D',
    '%',
    '2',
    'F',
    '-',
    '_',
    ' ',
    '\n',
    '/',
    '@',
    'é',
    'x',
    '::',
    '[.]',
    '(dot)',
    '%2F',
    'hxxp://',
    '8.8.8.8',
    '2001:db8::1',
    'example.com',
    '[dot]',
    '[:]',
    '10.0.0.0/8',
    'fe80',
    ':1',
    'ab:',
    '%eth0',
    '::ffff:',
    '1.2.3.4',
    '"',
  ];
  void it('every-character, trigger and compact-table scans yield identical detections', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 80 }), (parts) => {
        const t = parts.join('');
        const each = scan(t, 0, t.length, { strategy: 'each' });
        assert.deepEqual(scan(t, 0, t.length, { strategy: 'triggers' }), each, JSON.stringify(t));
        assert.deepEqual(
          scan(t, 0, t.length, { strategy: 'triggers', mode: 'text' }),
          scan(t, 0, t.length, { strategy: 'each', mode: 'text' }),
          JSON.stringify(t),
        );
        // The compact table holds the same detections, and builds the same values on demand.
        assert.deepEqual(detectTable(t).toArray(), detect(t), JSON.stringify(t));
        assert.deepEqual(
          detectTable(t, { mode: 'text' }).toArray(),
          detect(t, { mode: 'text' }),
          JSON.stringify(t),
        );
      }),
      { numRuns: Number(process.env.ODIN_FUZZ_RUNS ?? 3000) },
    );
  });
});

/** For every generated text, detect() and detectTable() answer the same with the scanner's shortcuts off. */
function assertShortcutsAgree(texts: fc.Arbitrary<string>): void {
  const all = (t: string) => [detect(t), detect(t, { mode: 'text' }), detectTable(t).toArray()];
  fc.assert(
    fc.property(texts, (t) => {
      const fast = all(t);
      setFastPaths(false);
      try {
        assert.deepEqual(fast, all(t), JSON.stringify(t));
      } finally {
        setFastPaths(true);
      }
    }),
    { numRuns: Number(process.env.ODIN_FUZZ_RUNS ?? 3000) },
  );
}

void describe('detect: special-case paths (generated)', () => {
  // Defanged dotted quads have a path of their own; it must find what the general run
  // analysis finds, with the same ranges and values.
  const quadPieces = [
    '1',
    '2',
    '5',
    '0',
    '25',
    '255',
    '256',
    '.',
    '[.]',
    '(.)',
    '{.}',
    '[dot]',
    '(DOT)',
    ' ',
    '/',
    '24',
    'a',
    '-',
    ':',
    '[',
    'é',
    '..',
    '8',
  ];
  const namePieces = [
    'ab',
    'evil',
    'com',
    'net',
    'co',
    'uk',
    'io',
    'x',
    'xn--p1ai',
    '-',
    '_',
    '.',
    '[.]',
    '(.)',
    '{.}',
    '[dot]',
    '(dot)',
    '{DoT}',
    ' ',
    '/',
    '//',
    'hxxp://',
    '@',
    ':',
    '1',
    'é',
    '(',
    'EXAMPLE',
    'py',
    'a-b',
  ];
  void it('defanged host names: fast path = general path', () => {
    assertShortcutsAgree(
      fc.array(fc.constantFrom(...namePieces), { maxLength: 30 }).map((parts) => parts.join('')),
    );
  });

  void it('ISO 8601 times: skipping them finds what the general path finds', () => {
    const digit = fc.constantFrom(...'0123456789');
    const d = (n: number) => fc.array(digit, { minLength: n, maxLength: n }).map((a) => a.join(''));
    const time = fc
      .tuple(d(4), d(2), d(2), d(2), d(2), d(2), fc.option(fc.nat(9)), fc.boolean())
      .map(([y, mo, da, h, mi, se, frac, z]) => {
        const f = frac === null ? '' : `.${'7'.repeat(frac)}`;
        return `${y}-${mo}-${da}T${h}:${mi}:${se}${f}${z ? 'Z' : ''}`;
      });
    const around = fc.constantFrom(
      '',
      ' ',
      '"',
      '@',
      '//',
      'x',
      '.com',
      '.1.2.3',
      ':1',
      '::1',
      '+00:00',
      '[.]io',
      '-',
      'a.b',
    );
    assertShortcutsAgree(fc.tuple(around, time, around).map(([a, t0, b]) => `${a}${t0}${b}`));
  });

  void it('defanged dotted quads: fast path = general path', () => {
    assertShortcutsAgree(
      fc.array(fc.constantFrom(...quadPieces), { maxLength: 40 }).map((parts) => parts.join('')),
    );
  });
});

void describe('detect: strictness (generated)', () => {
  const digits = (min: number, max: number) =>
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
  const leadingZero = fc.tuple(ipv4, fc.nat(3), digits(1, 2)).map(([ip, k, d]) =>
    ip
      .split('.')
      .map((o, i) => (i === k ? `0${d}` : o))
      .join('.'),
  );
  const hexPart = fc
    .tuple(ipv4, fc.nat(3), fc.integer({ min: 0, max: 255 }), fc.boolean())
    .map(([ip, k, v, up]) =>
      ip
        .split('.')
        .map((o, i) => (i === k ? `0${up ? 'X' : 'x'}${v.toString(16)}` : o))
        .join('.'),
    );
  const short = fc.array(byte, { minLength: 1, maxLength: 3 }).map((b) => b.join('.'));
  const integer = fc.oneof(
    digits(8, 10),
    fc.integer({ min: 0, max: 0xffffffff }).map((n) => `0${n.toString(8)}`),
  );
  const big = fc.tuple(ipv4, fc.nat(3), fc.integer({ min: 256, max: 999 })).map(([ip, k, v]) =>
    ip
      .split('.')
      .map((o, i) => (i === k ? String(v) : o))
      .join('.'),
  );
  const long = fc.array(byte, { minLength: 5, maxLength: 9 }).map((b) => b.join('.'));
  const badV6 = fc.oneof(
    fc
      .array(fc.integer({ min: 0, max: 0xffff }), { minLength: 9, maxLength: 12 })
      .map((g) => g.map((x) => x.toString(16)).join(':')),
    fc
      .tuple(fc.integer({ min: 1, max: 0xffff }), fc.integer({ min: 1, max: 0xffff }))
      .map(([a, b]) => `${a.toString(16)}::1::${b.toString(16)}`),
    fc.integer({ min: 0x10000, max: 0xfffff }).map((x) => `2001:${x.toString(16)}::1`),
    fc.tuple(leadingZero).map(([v4]) => `::ffff:${v4}`),
  );

  void it('never reads octal, hex, short, integer, out-of-range or over-long forms as addresses', () => {
    fc.assert(
      fc.property(
        fc.oneof(leadingZero, hexPart, short, integer, big, long, badV6),
        before,
        after,
        (bad, b, a) => {
          const hits = detect(`x${b}${bad}${a}y`).filter((d) => d.kind !== 'domain');
          assert.deepEqual(hits, [], bad);
        },
      ),
      RUNS,
    );
  });
});

void describe('IP parsers agree with independent oracles', () => {
  void it('IPv4: parseIPv4 accepts exactly what node:net isIPv4 accepts', () => {
    const chunk = fc.oneof(byte.map(String), digits3(), fc.constantFrom('00', '01', '256', '', 'a'));
    fc.assert(
      fc.property(fc.array(chunk, { minLength: 1, maxLength: 6 }), (cs) => {
        const s = cs.join('.');
        assert.equal(parseIPv4(s) >= 0, isIPv4(s), s);
      }),
      RUNS,
    );
  });

  void it('IPv6: every generated spelling parses, agrees with node:net, and formats per RFC 5952', () => {
    fc.assert(
      fc.property(groups, v6Style, (g, style) => {
        const t = v6Text(g, style);
        assert.equal(isIPv6(t), true, t);
        const parsed = parseIPv6(t);
        assert.ok(parsed, t);
        assert.equal(formatIPv6(parsed), oracleCanonical(g), t);
      }),
      RUNS,
    );
  });

  void it('IPv6: rejects what node:net rejects', () => {
    const piece = fc.constantFrom('', '0', '1', 'ffff', '12345', 'g', '1.2.3.4', '01.2.3.4', ':');
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 10 }), (ps) => {
        const s = ps.join(':');
        assert.equal(parseIPv6(s) !== undefined, isIPv6(s), s);
      }),
      RUNS,
    );
  });
});

function digits3(): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 4 });
}

void describe('refang', () => {
  const noisy = fc.string({
    unit: fc.constantFrom(
      '[',
      ']',
      '(',
      ')',
      '{',
      '}',
      '.',
      ':',
      '/',
      '@',
      'd',
      'o',
      't',
      'D',
      'O',
      'T',
      'a',
      'h',
      'x',
      'p',
      's',
      ' ',
    ),
    maxLength: 40,
  });

  void it('is idempotent', () => {
    fc.assert(
      fc.property(noisy, (s) => {
        const once = refang(s);
        assert.equal(refang(once), once, JSON.stringify(s));
      }),
      { numRuns: 2000 },
    );
  });

  void it('inverts defanging of names and addresses', () => {
    fc.assert(
      fc.property(
        fc.oneof(ipv4, domain),
        fc.array(fc.nat(MARKERS.length + 2), { minLength: 1, maxLength: 6 }),
        (v, picks) => {
          assert.equal(refang(defang(v, picks, false)), v);
          assert.equal(refang(`hxxps://${defang(v, picks, false)}/x`), `https://${v}/x`);
        },
      ),
      RUNS,
    );
  });

  void it('handles the documented forms', () => {
    assert.equal(
      refang('hxxps://evil[.]com/a hXXp://x(dot)org 1[.]2[.]3[.]4 a[at]b[.]c x[:]80 fxp://y{.}z'),
      'https://evil.com/a http://x.org 1.2.3.4 a@b.c x:80 ftp://y.z',
    );
    assert.equal(refang('[[.]] [[dot]]'), '. .');
  });
});

void describe('scan time is linear in the input', () => {
  /** CPU milliseconds of the best of three runs. */
  function cpuMs(text: string): number {
    let best = Infinity;
    for (let k = 0; k < 3; k++) {
      const c = process.cpuUsage();
      detect(text);
      const d = process.cpuUsage(c);
      best = Math.min(best, (d.user + d.system) / 1000);
    }
    return best;
  }

  // Inputs that break backtracking regexes or naive token loops: one long run, many short runs
  // that reach every analyser, and runs just under MAX_RUN.
  const nearMax = (unit: string): string => `${unit.repeat(Math.floor((MAX_RUN - 1) / unit.length))} `;
  const adversarial: [string, string][] = [
    ['one run of dots', '1.'],
    ['one run of dotted letters', 'a.'],
    ['one run of colons', ':'],
    ['one run of hex colons', 'a:'],
    ['one run of double colons', '1::'],
    ['one run of markers', '[.]a'],
    ['open brackets', '[(['],
    ['percent escapes', '%2F'],
    ['hyphens', 'a-.'],
    ['long hex', '0123456789abcdef'],
    ['addresses', '1.2.3.4 '],
    ['defanged addresses', '1.2.3[.]4 '],
    ['addresses with ports and blocks', 'x 1.2.3.4:80 10.0.0.0/8 '],
    ['IPv6 forms', '[::1]:80 fe80::1%eth0 ::ffff:1.2.3.4 '],
    ['names', 'a.b evil[.]com hxxp://c.de/ '],
    ['escaped names', '%2Fx.com '],
    ['mixed', 'x1.2.3.4:80/24[.]com::ff%e '],
    ['dotted runs near MAX_RUN', nearMax('a.')],
    ['colon runs near MAX_RUN', nearMax('1:')],
    ['hex-colon runs near MAX_RUN', nearMax('ab::')],
    ['marker runs near MAX_RUN', nearMax('a[.]')],
    ['digit runs near MAX_RUN', nearMax('1.2.3.4.')],
  ];
  const small = 100_000;

  for (const [name, unit] of adversarial) {
    void it(`${name}: 10x the input costs well under 100x the time`, () => {
      const one = unit.repeat(Math.ceil(small / unit.length));
      const ten = unit.repeat(Math.ceil((10 * small) / unit.length));
      cpuMs(one); // warm up
      const t1 = Math.max(cpuMs(one), 1);
      const t10 = cpuMs(ten);
      assert.ok(t10 / t1 < 40, `${name}: ${t1.toFixed(2)} ms → ${t10.toFixed(2)} ms`);
    });
  }

  void it('generated inputs: 10x costs well under 100x', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'1a.:[]()-%f_ '), minLength: 1, maxLength: 12 }),
        (unit) => {
          const one = unit.repeat(Math.ceil(small / unit.length));
          const ten = unit.repeat(Math.ceil((10 * small) / unit.length));
          cpuMs(one);
          const t1 = Math.max(cpuMs(one), 0.5);
          assert.ok(cpuMs(ten) / t1 < 40, JSON.stringify(unit));
        },
      ),
      { numRuns: 15 },
    );
  });

  void it('detectAt on a 5 MB single-line file reads only around the cursor', () => {
    const line = 'var a=b.c(d),e="8.8.8.8";'.repeat(200_000);
    const full = cpuMs(line);
    const c = process.cpuUsage();
    for (let k = 0; k < 100; k++) assert.equal(detectAt(line, 2_500_000 + 16)?.value, '8.8.8.8');
    const d = process.cpuUsage(c);
    assert.ok((d.user + d.system) / 1000 / 100 < full / 50, 'detectAt must not scan the whole line');
  });
});
