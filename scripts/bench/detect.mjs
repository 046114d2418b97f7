// Detection throughput side by side, on the same 100 MB mixed log generated in memory: our
// single-pass scanner, the typical IP-lookup extension's regex extractor, and the npm
// `ioc-extractor` library (what the existing IOC-extraction extension for VS Code uses); and each
// one's precision and recall on a labelled sample. Then the before/after detection figures.
//
//   npx tsc -p . --outDir out && node scripts/bench/detect.mjs
//
// `run()` returns rows `{ name, value, unit, target?, note? }` for the bench runner.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { runDirectly } from '../args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);

/** Small deterministic PRNG (mulberry32) so every run scans the same text. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A mixed log of about `bytes` characters: access, auth, flow, firewall, JSON, rule and threat-report lines. */
export function generateLog(bytes, seed = 1) {
  const r = rng(seed);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const octet = () => Math.floor(r() * 256);
  const publicIp = () =>
    `${pick([45, 52, 91, 104, 151, 185, 193, 203, 8, 34])}.${octet()}.${octet()}.${octet()}`;
  const privateIp = () =>
    pick([
      `10.${octet()}.${octet()}.${octet()}`,
      `192.168.${octet()}.${octet()}`,
      `172.${16 + Math.floor(r() * 16)}.${octet()}.${octet()}`,
    ]);
  const ip = () => (r() < 0.6 ? publicIp() : privateIp());
  const hex = () => Math.floor(r() * 65536).toString(16);
  const ipv6 = () =>
    pick([
      `2a01:4f8:${hex()}:${hex()}::${hex()}`,
      `2606:4700:${hex()}::${hex()}`,
      `fe80::${hex()}:${hex()}%eth0`,
      `2001:db8::${hex()}`,
    ]);
  const domains = [
    'shop.acme-logistics.com',
    'api.northwind-traders.net',
    'cdn.jsdelivr.net',
    'www.google.com',
    'portal.example.org',
    'login.microsoftonline.com',
    'evil-payload.xyz',
    'mail.contoso.co.uk',
    'static.cloudflareinsights.com',
    'updates.vendor.io',
    'db.corp.internal',
    'printer.local',
  ];
  const paths = [
    '/',
    '/index.html',
    '/api/v1/orders?page=2',
    '/static/app.css',
    '/wp-login.php',
    '/.env',
    '/favicon.ico',
    '/download/report.pdf',
    '/healthz',
  ];
  const uas = [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    'curl/8.5.0',
    'kube-probe/1.30',
    'Mozilla/5.0 zgrab/0.x',
    'python-requests/2.31.0',
  ];
  const lines = [];
  let size = 0;
  while (size < bytes) {
    let line;
    switch (Math.floor(r() * 8)) {
      case 0:
        line = `${ip()} - - [21/Nov/2025:08:${10 + Math.floor(r() * 50)}:02 +0000] "GET ${pick(paths)} HTTP/1.1" ${pick([200, 304, 404])} ${Math.floor(r() * 99999)} "https://${pick(domains)}/" "${pick(uas)}"`;
        break;
      case 1:
        line = `Nov 21 03:12:${10 + Math.floor(r() * 50)} bastion sshd[${20000 + Math.floor(r() * 9999)}]: Failed password for invalid user admin from ${ip()} port ${1024 + Math.floor(r() * 60000)} ssh2`;
        break;
      case 2:
        line = `2 123456789012 eni-0a1b2c3d4e5f67890 ${ip()} ${ip()} ${Math.floor(r() * 65535)} 443 6 12 4410 1732172400 1732172460 ACCEPT OK`;
        break;
      case 3:
        line = `Nov 21 05:00:01 edge kernel: [812345.112233] [UFW BLOCK] IN=eth0 OUT= MAC=02:42:ac:11:00:02:02:42:ac:11:00:01:08:00 SRC=${ip()} DST=${privateIp()} LEN=44 TOS=0x00 PROTO=TCP SPT=43210 DPT=3389`;
        break;
      case 4:
        line = `{"ts":"2025-11-21T08:30:01.120Z","level":"info","msg":"request","client_ip":"${ip()}","host":"${pick(domains)}","path":"${pick(paths)}","status":200,"ms":41}`;
        break;
      case 5:
        line = `{"ts":"2025-11-21T08:30:09.902Z","level":"info","msg":"resolver","server":"${ipv6()}","fallback":"${ip()}","query":"${pick(domains)}"}`;
        break;
      case 6:
        line = `-A INPUT -s ${ip().replace(/\.\d+$/, '.0')}/${pick([8, 16, 24, 32])} -p tcp --dport 22 -j DROP # ipv6: ${pick(['2001:db8::/32', '::/0', `2a01:4f8:${hex()}::/48`])}`;
        break;
      default:
        line = `IOC: hxxps://${pick(['evil', 'c2', 'drop'])}${Math.floor(r() * 999)}[.]${pick(['com', 'net', 'ru', 'xyz'])}/gate.php seen from ${publicIp().replace(/\.(\d+)$/, '[.]$1')} and ${pick(['bad', 'phish'])}-site(dot)com`;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/**
 * The usual approach: two global regexes over the whole text, then per-match validation
 * (octets <= 255, and the name's suffix looked up in the public suffix list).
 */
function naiveMatches(text, tldts) {
  const ips = [];
  const names = [];
  for (const m of text.matchAll(/\b(?:\d{1,3}\.){3}\d{1,3}\b/g)) {
    if (m[0].split('.').every((o) => Number(o) <= 255)) ips.push(m[0]);
  }
  for (const m of text.matchAll(/\b(?:[a-z0-9-]+\.)+[a-z]{2,}\b/gi)) {
    const r = tldts.parse(m[0], { allowPrivateDomains: false });
    if (r.isIcann && r.domain) names.push(m[0]);
  }
  return { ips, names };
}

/** The naive extractor's counts (what the speed comparison times). */
export function naiveExtract(text, tldts) {
  const { ips, names } = naiveMatches(text, tldts);
  return { ips: ips.length, names: names.length };
}

/** The same extractor, reporting what it found (for precision and recall). */
export function naiveValues(text, tldts) {
  const { ips, names } = naiveMatches(text, tldts);
  return [...ips, ...names];
}

function iocVersion() {
  const file = path.join(root, 'node_modules/ioc-extractor/package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

/** `ioc-extractor` asked for what we detect: IPv4, IPv6 and domains (refanged by it). */
function iocValues(text, ioc) {
  const r = ioc.partialExtractIOC(text, ['ipv4s', 'ipv6s', 'domains']);
  return [...(r.ipv4s ?? []), ...(r.ipv6s ?? []), ...(r.domains ?? [])];
}

/**
 * A labelled sample: log, report and code lines with the indicators each holds (as values:
 * refanged, lower case, names in punycode), and look-alikes that are not indicators (versions,
 * section numbers, OIDs, file names, member accesses).
 */
export function labelledSample(lines = 3000, seed = 7) {
  const r = rng(seed);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const octet = () => 1 + Math.floor(r() * 254);
  const ip = () => `${pick([45, 52, 91, 104, 185, 203])}.${octet()}.${octet()}.${octet()}`;
  const hex = () => (1 + Math.floor(r() * 65534)).toString(16);
  const domains = [
    'shop.acme-logistics.com',
    'api.example.co.uk',
    'login.microsoftonline.com',
    'evil-payload.xyz',
    'cdn.jsdelivr.net',
  ];
  const out = [];
  const truth = new Set();
  for (let i = 0; i < lines; i++) {
    const a = ip();
    const b = ip();
    const d = pick(domains);
    const v6 = `2a01:4f8:${hex()}::${hex()}`;
    const n = Math.floor(r() * 999);
    const cases = [
      [
        `${a} - - [21/Nov/2025:08:14:03 +0000] "GET /static/app.css?v=1.2.3 HTTP/1.1" 200 18211 "https://${d}/cart" "Mozilla/5.0 AppleWebKit/537.36 Chrome/120.0.${n % 9}.${n % 7} Safari/537.36"`,
        [a, d],
      ],
      [`Nov 21 03:12:01 bastion sshd[20114]: Failed password for root from ${a} port 51422 ssh2`, [a]],
      [
        `{"ts":"2025-11-21T08:30:01.120Z","client_ip":"${a}","host":"${d}","upstream":"[${v6}]:443"}`,
        [a, d, v6],
      ],
      [
        `IOC: hxxps://drop${n}[.]com/gate.php seen from ${a.replace(/\.(\d+)$/, '[.]$1')} and phish${n}(dot)net`,
        [`drop${n}.com`, a, `phish${n}.net`],
      ],
      [`-A INPUT -s ${b.replace(/\.\d+$/, '.0')}/24 -p tcp --dport 22 -j DROP`, [b.replace(/\.\d+$/, '.0')]],
      [
        `See Section 4.1.${n % 9}.2 and RFC 1918; set version ${n % 5}.0.0.${n % 3}; edit setup.py and README.md; read user.name; OID 1.3.6.1.4.1.${n}`,
        [],
      ],
      [`const api = "https://${d}/v1"; const fallback = '${a}'; logger.info(config.data);`, [d, a]],
      [
        `phishing kit on bücher-login${n}.de, mirrored at ${b}`,
        [new URL(`http://bücher-login${n}.de`).hostname, b],
      ],
    ];
    const [line, labels] = pick(cases);
    out.push(line);
    for (const l of labels) truth.add(l.toLowerCase());
  }
  return { text: out.join('\n'), truth };
}

/** Precision and recall of `found` (values as reported) against `truth` (unique values). */
function score(found, truth) {
  const norm = (v) =>
    String(v)
      .toLowerCase()
      .replace(/\/\d+$/, '')
      .replace(/\.$/, '');
  const got = new Set(found.map(norm));
  let hit = 0;
  for (const v of got) if (truth.has(v)) hit++;
  return { precision: got.size ? hit / got.size : 1, recall: hit / truth.size };
}

/**
 * CPU time (user + system) of `fn`, and wall time. Throughput is computed from CPU time so a
 * loaded machine (CI, parallel builds) does not distort the comparison; wall time is reported
 * alongside.
 */
function time(fn) {
  // Start from a clean heap: collecting what the previous measurement left behind must not be
  // billed to this one (the object-per-hit run leaves hundreds of MB).
  collectGarbage();
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const result = fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  return { result, seconds: (c.user + c.system) / 1e6, wall };
}

/** A full garbage collection, without starting node with --expose-gc. */
const collectGarbage = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc');
})();

/** A trivial charCodeAt loop over the text: how fast this machine reads a string. */
function calibrate(text) {
  return time(() => {
    let x = 0;
    for (let i = 0; i < text.length; i++) x = (x + text.charCodeAt(i)) | 0;
    return x;
  });
}

const RUN_CLASS = new Uint8Array(65536);
for (let c = 48; c <= 57; c++) RUN_CLASS[c] = 1;
for (let c = 65; c <= 90; c++) RUN_CLASS[c] = 2;
for (let c = 97; c <= 122; c++) RUN_CLASS[c] = 2;
RUN_CLASS[46] = 4;
RUN_CLASS[58] = 8;
RUN_CLASS[45] = 16;
RUN_CLASS[95] = 16;

/**
 * The least any detector of this kind does: jump to every run holding a dot or a colon with
 * native searches, walk it once, and parse dotted quads; no IPv6, names, defang, context or
 * results. The least work for this text on this machine, not a detector (it reports version
 * numbers as addresses).
 */
export function minimalScan(text) {
  let pos = 0;
  let hits = 0;
  let nd = -2;
  let nc = -2;
  const n = text.length;
  for (;;) {
    if (nd !== -1 && nd < pos) nd = text.indexOf('.', pos);
    if (nc !== -1 && nc < pos) nc = text.indexOf(':', pos);
    let p = nd;
    if (nc !== -1 && (p === -1 || nc < p)) p = nc;
    if (p === -1) break;
    let s = p;
    while (s > pos && RUN_CLASS[text.charCodeAt(s - 1)] !== 0) s--;
    let e = p;
    let f = 0;
    while (e < n) {
      const k = RUN_CLASS[text.charCodeAt(e)];
      if (k === 0) break;
      f |= k;
      e++;
    }
    if (f === 5) {
      let parts = 0;
      let v = 0;
      let d = 0;
      let ok = true;
      for (let i = s; i < e && ok; i++) {
        const c = text.charCodeAt(i);
        if (c === 46) {
          ok = d > 0 && v <= 255;
          parts++;
          v = 0;
          d = 0;
        } else {
          v = v * 10 + c - 48;
          d++;
        }
      }
      if (ok && parts === 3 && d > 0 && v <= 255) hits++;
    }
    pos = e;
  }
  return hits;
}

/** Where the two disagree on IPv4 (by start offset), for the notes: not timed. */
function ipv4Diff(text, table) {
  const oursAt = new Set();
  for (let i = 0; i < table.length; i++) {
    const k = table.kind(i);
    if (k === 'ipv4' || (k === 'cidr' && !text.slice(table.start(i), table.end(i)).includes(':')))
      oursAt.add(table.start(i));
  }
  let naiveOnly = 0;
  const naiveAt = new Set();
  for (const m of text.matchAll(/\b(?:\d{1,3}\.){3}\d{1,3}\b/g)) {
    if (!m[0].split('.').every((o) => Number(o) <= 255)) continue;
    naiveAt.add(m.index);
    if (!oursAt.has(m.index)) naiveOnly++;
  }
  let oursOnly = 0;
  for (const at of oursAt) if (!naiveAt.has(at)) oursOnly++;
  return { naiveOnly, oursOnly };
}

export default async function run({ megabytes = 100, rounds = 3 } = {}) {
  const out = path.resolve(root, process.env.DETECT_OUT ?? 'out', 'src/core/detect/index.js');
  let detect;
  let detectTable;
  try {
    ({ detect, detectTable } = require(out));
  } catch (e) {
    throw new Error(`${out} not found: compile first (npx tsc -p . --outDir out). ${e}`);
  }
  const tldts = require('tldts');
  const ioc = require('ioc-extractor');
  const text = generateLog(megabytes * 1024 * 1024);
  const mb = text.length / (1024 * 1024);
  // Warm-up on a slice so both sides are measured with optimised code and warm caches.
  detectTable(text.slice(0, 2_000_000), { mode: 'text' });
  detect(text.slice(0, 2_000_000), { mode: 'text' });
  naiveExtract(text.slice(0, 2_000_000), tldts);
  // Best of interleaved rounds: on a shared machine the slowest rounds measure the neighbours.
  // "ours" is the detector with compact results (what a whole-file scan uses); "ours, as
  // objects" is the same scan building a Detection object and its strings per hit.
  let ours;
  let objects;
  let naive;
  let floor;
  let minimal;
  // ioc-extractor too, in each round (it runs a regex per kind, at a few MB/s: ~12 s a round):
  // its best against ours, so the comparison does not lean either way.
  let lib;
  for (let r = 0; r < rounds; r++) {
    const o = time(() => detectTable(text, { mode: 'text' }));
    const m = time(() => detect(text, { mode: 'text' }).length);
    const n = time(() => naiveExtract(text, tldts));
    const f = calibrate(text);
    const mi = time(() => minimalScan(text));
    const l = time(() => iocValues(text, ioc).length);
    if (!lib || l.seconds < lib.seconds) lib = l;
    if (!minimal || mi.seconds < minimal.seconds) minimal = mi;
    if (!ours || o.seconds < ours.seconds) ours = o;
    if (!objects || m.seconds < objects.seconds) objects = m;
    if (!naive || n.seconds < naive.seconds) naive = n;
    if (!floor || f.seconds < floor.seconds) floor = f;
  }
  const table = ours.result;
  const counts = { ipv4: 0, ipv6: 0, cidr: 0, domain: 0, defanged: 0 };
  for (let i = 0; i < table.length; i++) {
    counts[table.kind(i)]++;
    if (table.defanged(i)) counts.defanged++;
  }
  const sample = labelledSample();
  const scores = {
    ours: score(
      detect(sample.text, { mode: 'text' }).map((d) => d.value),
      sample.truth,
    ),
    naive: score(naiveValues(sample.text, tldts), sample.truth),
    ioc: score(iocValues(sample.text, ioc), sample.truth),
  };
  if (objects.result !== table.length)
    throw new Error(`detect() found ${objects.result}, the table ${table.length}`);
  const diff = ipv4Diff(text, table);
  const oursMBs = mb / ours.seconds;
  const objectsMBs = mb / objects.seconds;
  const naiveMBs = mb / naive.seconds;
  const iocMBs = mb / lib.seconds;
  const pr = (k) =>
    `precision ${(scores[k].precision * 100).toFixed(1)}%, recall ${(scores[k].recall * 100).toFixed(1)}%`;
  const note = `CPU time, best of ${rounds}`;
  // Nothing lost: today's detections of this log and of every sample file against the
  // figures recorded before the rules were restated (test/fixtures/detect-baseline.json).
  const { figures, compare, verdict } = await import('../detect-figures.mjs');
  const changes = compare(figures({ detect, detectTable }, text));
  const counted = (c) =>
    `ipv4 ${c.ipv4}, ipv6 ${c.ipv6}, cidr ${c.cidr}, domain ${c.domain}, defanged ${c.defanged}`;
  const beforeAfter = changes.map((c) => ({
    name: `detect: before/after ${c.key}`,
    value: verdict(c),
    unit: '',
    note: c.same
      ? `${c.after.sha256}: ${counted(c.after)}`
      : c.added
        ? `a sample file added after the baseline was recorded (nothing to compare): ${counted(c.after)}`
        : `${c.fix ? `${c.fix}; ` : ''}before ${JSON.stringify(c.before)}; after ${JSON.stringify(c.after)}`,
  }));
  return [
    {
      name: 'detect: input size',
      value: Number(mb.toFixed(1)),
      unit: 'MB',
      note: 'generated mixed log, one string',
    },
    {
      name: 'detect: ours throughput',
      value: Number(oursMBs.toFixed(1)),
      unit: 'MB/s',
      note: `compact results (detectTable); ${note}; wall ${(mb / ours.wall).toFixed(1)} MB/s`,
    },
    {
      name: 'detect: ours as objects',
      value: Number(objectsMBs.toFixed(1)),
      unit: 'MB/s',
      note: `detect(): a Detection object and its strings per hit; ${note}`,
    },
    {
      name: 'detect: naive regex throughput',
      value: Number(naiveMBs.toFixed(1)),
      unit: 'MB/s',
      note: `IPv4 + domain regexes, per-match PSL validation; ${note}; wall ${(mb / naive.wall).toFixed(1)} MB/s`,
    },
    {
      name: 'detect: charCodeAt loop',
      value: Number((mb / floor.seconds).toFixed(1)),
      unit: 'MB/s',
      note: 'an empty loop reading every character from JS: how fast this machine is',
    },
    {
      name: 'detect: minimal trigger scan',
      value: Number((mb / minimal.seconds).toFixed(1)),
      unit: 'MB/s',
      note: 'visits each run with a dot or colon once and parses dotted quads, nothing else: the least work of this design, so its speed bounds ours',
    },
    {
      name: 'detect: ioc-extractor throughput',
      value: Number(iocMBs.toFixed(1)),
      unit: 'MB/s',
      note: `npm ioc-extractor ${iocVersion()}, partialExtractIOC(ipv4s, ipv6s, domains); ${note}`,
    },
    {
      name: 'detect: speed ratio ours/naive',
      value: Number((oursMBs / naiveMBs).toFixed(2)),
      unit: 'x',
      target: '>= 1',
    },
    {
      name: 'detect: speed ratio ours/ioc-extractor',
      value: Number((oursMBs / iocMBs).toFixed(1)),
      unit: 'x',
      target: '>= 10',
    },
    {
      name: 'detect: labelled sample, ours',
      value: Number((scores.ours.recall * 100).toFixed(1)),
      unit: '% recall',
      note: `${pr('ours')} (${sample.truth.size} indicators; versions, OIDs, section numbers, file names and member accesses among them)`,
    },
    {
      name: 'detect: labelled sample, naive regex',
      value: Number((scores.naive.recall * 100).toFixed(1)),
      unit: '% recall',
      note: pr('naive'),
    },
    {
      name: 'detect: labelled sample, ioc-extractor',
      value: Number((scores.ioc.recall * 100).toFixed(1)),
      unit: '% recall',
      note: pr('ioc'),
    },
    { name: 'detect: ours found IPv4', value: counts.ipv4, unit: 'count' },
    { name: 'detect: ours found CIDR', value: counts.cidr, unit: 'count' },
    {
      name: 'detect: ours found IPv6',
      value: counts.ipv6,
      unit: 'count',
      note: 'the naive extractor finds none',
    },
    { name: 'detect: ours found domains', value: counts.domain, unit: 'count' },
    {
      name: 'detect: ours found defanged',
      value: counts.defanged,
      unit: 'count',
      note: 'the naive extractor finds none',
    },
    { name: 'detect: naive found IPv4', value: naive.result.ips, unit: 'count' },
    { name: 'detect: naive found domains', value: naive.result.names, unit: 'count' },
    {
      name: 'detect: IPv4 only naive reports',
      value: diff.naiveOnly,
      unit: 'count',
      note: 'version numbers such as Chrome/120.0.0.0',
    },
    {
      name: 'detect: IPv4 only ours reports',
      value: diff.oursOnly,
      unit: 'count',
      note: 'defanged addresses such as 185.220.101[.]34',
    },
    {
      name: 'detect: before/after unchanged',
      value: changes.filter((c) => c.same).length,
      unit: `of ${changes.length}`,
      note: `log, sample files and sources, both modes: same counts and checksum as the recorded baseline; ${changes.filter((c) => verdict(c) === 'fixed').length} listed fixes, ${changes.filter((c) => c.added).length} new (files added since), ${changes.filter((c) => verdict(c) === 'DIFF').length} unexplained`,
    },
    ...beforeAfter,
  ];
}

if (runDirectly(import.meta.url)) {
  const mbArg = process.argv.find((a) => a.startsWith('--mb='));
  const rows = await run(mbArg ? { megabytes: Number(mbArg.slice(5)) } : {});
  for (const row of rows)
    console.log(
      `${row.name.padEnd(36)} ${String(row.value).padStart(12)} ${row.unit}${row.target ? `  (target ${row.target})` : ''}${row.note ? `  ${row.note}` : ''}`,
    );
}
