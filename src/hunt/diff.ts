/**
 * `odin-hunt diff <old> <new>`: what changed between two snapshots, per host: ports and
 * services that opened or closed, certificates that changed, CVEs that appeared or went.
 * Hosts whose new CVEs are known exploited (KEV), then likely to be (EPSS), then by CVSS
 * come first (the one ordering rule, core/exploitation/order.ts); KEV and EPSS are read from
 * the copies in `--feeds DIR` (kev.json, epss.csv.gz) when given, and nothing is downloaded.
 *
 * Each side is a snapshot folder (or its hosts.jsonl), or a git ref: `REF` reads
 * `REF:<--dir, default snapshots>/hosts.jsonl`, `REF:path` reads that folder at the ref.
 *
 * Plain Node: no `vscode` import.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compareRisk, ExploitationStore, parseEpssGzip, parseKev, type Risk } from '../core/exploitation';
import type { Args, Io } from './cli';
import { EXIT, type ExitCode } from './exit';
import { UsageError } from './load';
import { parseSnapshot, rowKey, SNAPSHOT_FILE, type SnapshotCve, type SnapshotRow } from './snapshot';

export interface CveChange extends SnapshotCve {
  kev?: boolean;
  epss?: number;
}

export interface HostChange {
  ip: string;
  /** `new`: the host was not in the old snapshot; `gone`: not in the new one. */
  status: 'new' | 'gone' | 'changed';
  opened: string[];
  closed: string[];
  changed: string[];
  certs: string[];
  cvesOpened: CveChange[];
  cvesClosed: CveChange[];
}

function read(spec: string, io: Io, dir: string): SnapshotRow[] {
  const abs = path.resolve(io.cwd, spec);
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  if (st) {
    const file = st.isDirectory() ? path.join(abs, SNAPSHOT_FILE) : abs;
    if (!fs.existsSync(file)) throw new UsageError(`${spec}: no ${SNAPSHOT_FILE} in this folder`);
    return parseSnapshot(fs.readFileSync(file, 'utf8'), path.relative(io.cwd, file));
  }
  // A git ref: never an option (a leading "-"), never a path outside the repository.
  if (spec.startsWith('-') || /[\s\0]/.test(spec)) throw new UsageError(`${spec}: not a folder or a git ref`);
  const colon = spec.indexOf(':');
  const ref = colon >= 0 ? spec.slice(0, colon) : spec;
  let where = colon >= 0 ? spec.slice(colon + 1) : dir;
  if (!where.endsWith('.jsonl')) where = `${where.replace(/\/+$/, '')}/${SNAPSHOT_FILE}`;
  let text: string;
  try {
    text = execFileSync('git', ['show', `${ref}:${where}`], {
      cwd: io.cwd,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    const why = (e as { stderr?: string }).stderr?.trim().split('\n')[0] ?? 'git failed';
    throw new UsageError(`${spec}: not a folder, and git cannot show ${ref}:${where} (${why})`);
  }
  return parseSnapshot(text, `${ref}:${where}`);
}

function describe(r: SnapshotRow): string {
  const what = [r.service, r.product, r.version].filter(Boolean).join(' ');
  return `${r.port}/${r.transport}${what ? ` ${what}` : ''}`;
}

function byHost(rows: SnapshotRow[]): Map<string, Map<string, SnapshotRow>> {
  const m = new Map<string, Map<string, SnapshotRow>>();
  for (const r of rows) {
    let h = m.get(r.ip);
    if (!h) m.set(r.ip, (h = new Map()));
    h.set(rowKey(r), r);
  }
  return m;
}

function cvesOf(rows: Iterable<SnapshotRow>): Map<string, SnapshotCve> {
  const m = new Map<string, SnapshotCve>();
  for (const r of rows) for (const c of r.cves) if (!m.has(c.id)) m.set(c.id, c);
  return m;
}

/** The changes between two snapshots, worst first. */
export function diffSnapshots(
  old: SnapshotRow[],
  now: SnapshotRow[],
  store?: ExploitationStore,
): HostChange[] {
  const a = byHost(old);
  const b = byHost(now);
  const risk = (c: SnapshotCve): CveChange => {
    const x = store?.lookup(c.id);
    return { ...c, ...(x?.kev ? { kev: true } : {}), ...(x?.epss ? { epss: x.epss.epss } : {}) };
  };
  const riskOf = (c: CveChange): Risk => ({ kev: !!c.kev, epss: c.epss, cvss: c.cvss });
  const out: HostChange[] = [];
  for (const ip of new Set([...a.keys(), ...b.keys()])) {
    const before = a.get(ip) ?? new Map<string, SnapshotRow>();
    const after = b.get(ip) ?? new Map<string, SnapshotRow>();
    const ch: HostChange = {
      ip,
      status: before.size === 0 ? 'new' : after.size === 0 ? 'gone' : 'changed',
      opened: [],
      closed: [],
      changed: [],
      certs: [],
      cvesOpened: [],
      cvesClosed: [],
    };
    for (const [k, r] of after) {
      const was = before.get(k);
      if (!was) ch.opened.push(describe(r));
      else if (describe(was) !== describe(r)) ch.changed.push(`${describe(was)} → ${describe(r)}`);
      if (was && was.cert?.sha256 !== r.cert?.sha256)
        ch.certs.push(
          `${r.port}/${r.transport}: ${was.cert ? `${was.cert.sha256.slice(0, 16)}…` : 'none'} → ${r.cert ? `${r.cert.sha256.slice(0, 16)}…${r.cert.notAfter ? ` (until ${r.cert.notAfter.slice(0, 10)})` : ''}` : 'none'}`,
        );
    }
    for (const [k, r] of before) if (!after.has(k)) ch.closed.push(describe(r));
    const ca = cvesOf(before.values());
    const cb = cvesOf(after.values());
    for (const [id, c] of cb) if (!ca.has(id)) ch.cvesOpened.push(risk(c));
    for (const [id, c] of ca) if (!cb.has(id)) ch.cvesClosed.push(risk(c));
    const order = (x: CveChange, y: CveChange): number =>
      compareRisk(riskOf(x), riskOf(y)) || (x.id < y.id ? -1 : 1);
    ch.cvesOpened.sort(order);
    ch.cvesClosed.sort(order);
    const any =
      ch.opened.length +
      ch.closed.length +
      ch.changed.length +
      ch.certs.length +
      ch.cvesOpened.length +
      ch.cvesClosed.length;
    if (any) out.push(ch);
  }
  const worst = (h: HostChange): Risk => (h.cvesOpened[0] ? riskOf(h.cvesOpened[0]) : { kev: false });
  return out.sort(
    (x, y) =>
      compareRisk(worst(x), worst(y)) ||
      y.cvesOpened.length - x.cvesOpened.length ||
      y.opened.length - x.opened.length ||
      (x.ip < y.ip ? -1 : x.ip > y.ip ? 1 : 0),
  );
}

function cveText(c: CveChange): string {
  const tags = [
    c.kev ? 'KEV' : '',
    c.epss !== undefined ? `EPSS ${c.epss.toFixed(3)}` : '',
    c.cvss !== undefined ? `CVSS ${c.cvss}` : '',
    c.exploit ? 'exploit known' : '',
  ]
    .filter(Boolean)
    .join(', ');
  return tags ? `${c.id} (${tags})` : c.id;
}

export function diffText(changes: HostChange[]): string {
  if (changes.length === 0) return 'No changes.\n';
  const lines: string[] = [];
  for (const h of changes) {
    lines.push(`${h.ip}${h.status === 'new' ? ' (new host)' : h.status === 'gone' ? ' (gone)' : ''}`);
    for (const c of h.cvesOpened) lines.push(`  + CVE ${cveText(c)}`);
    for (const p of h.opened) lines.push(`  + port ${p}`);
    for (const p of h.changed) lines.push(`  ~ service ${p}`);
    for (const p of h.certs) lines.push(`  ~ certificate ${p}`);
    for (const p of h.closed) lines.push(`  - port ${p}`);
    for (const c of h.cvesClosed) lines.push(`  - CVE ${cveText(c)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The KEV and EPSS copies in `dir` (`kev.json`, `epss.csv.gz`: the files the editor keeps, or
 * the feeds as downloaded), read with the editor's parsers; a copy that is missing or cannot
 * be read is said so (the order then falls back to CVSS), never guessed.
 */
async function feedsStore(dir: string | undefined, io: Io): Promise<ExploitationStore | undefined> {
  if (!dir) return undefined;
  const abs = path.resolve(io.cwd, dir);
  const store = new ExploitationStore();
  const kev = path.join(abs, 'kev.json');
  const epss = path.join(abs, 'epss.csv.gz');
  if (fs.existsSync(kev)) store.setKev(parseKev(fs.readFileSync(kev, 'utf8')));
  else io.err(`odin-hunt: ${dir}: no kev.json; KEV is not used in the order\n`);
  if (fs.existsSync(epss)) store.setEpss(await parseEpssGzip(fs.createReadStream(epss)));
  else io.err(`odin-hunt: ${dir}: no epss.csv.gz; EPSS is not used in the order\n`);
  return store;
}

export async function diffCommand(args: Args, io: Io): Promise<ExitCode> {
  if (args.positional.length !== 2) throw new UsageError('diff needs two snapshots: <old> <new>');
  const dir = args.flags.get('--dir') ?? 'snapshots';
  const [old, now] = args.positional.map((p) => read(p, io, dir));
  const changes = diffSnapshots(old, now, await feedsStore(args.flags.get('--feeds'), io));
  io.out(args.bools.has('--json') ? `${JSON.stringify(changes, null, 2)}\n` : diffText(changes));
  return EXIT.ok;
}
