/**
 * A snapshot of what the hunts find, meant to be committed: one JSON line per host and
 * service, sorted, with no time in it, so that git's history of the file is the team's
 * exposure history and `git diff` shows only what changed.
 *
 * Plain Node: no `vscode` import.
 */
import type { Host } from '../api/types';
import { compareIds } from '../core/exploitation/order';
import type { ResultItem } from '../core/results/resultItem';
import type { HuntOutcome } from './run';

export const SNAPSHOT_FILE = 'hosts.jsonl';

export interface SnapshotCve {
  id: string;
  cvss?: number;
  exploit?: boolean;
}

/** One line of a snapshot: a service of a host. */
export interface SnapshotRow {
  ip: string;
  port: number;
  transport: string;
  service?: string;
  product?: string;
  version?: string;
  cert?: { sha256: string; notAfter?: string; subject?: string };
  cves: SnapshotCve[];
  hunts: string[];
}

function rowsOfHost(host: Host, hunt: string): SnapshotRow[] {
  return host.services.map((s) => {
    const cves = new Map<string, SnapshotCve>();
    for (const c of s.cve)
      cves.set(c.id, {
        id: c.id,
        ...(c.score !== undefined ? { cvss: c.score } : {}),
        ...(c.exploit.length ? { exploit: true } : {}),
      });
    const tls = s.tls;
    return {
      ip: host.ip,
      port: s.port,
      transport: s.protocol ?? 'tcp',
      ...(s.name ? { service: s.name } : {}),
      ...(s.product ? { product: s.product } : {}),
      ...(s.version ? { version: s.version } : {}),
      ...(tls?.fingerprintSha256
        ? {
            cert: {
              sha256: tls.fingerprintSha256,
              ...(tls.notAfter ? { notAfter: tls.notAfter } : {}),
              ...(tls.subject.commonName ? { subject: tls.subject.commonName } : {}),
            },
          }
        : {}),
      cves: [...cves.values()].sort((a, b) => compareIds(a.id, b.id)),
      hunts: [hunt],
    };
  });
}

export function rowKey(r: Pick<SnapshotRow, 'ip' | 'port' | 'transport'>): string {
  return `${r.ip}\0${r.port}\0${r.transport}`;
}

/** Collects rows as pages arrive (a host found by two hunts is one set of rows, both hunts named). */
export function snapshotRows(): {
  visit: (item: ResultItem, o: HuntOutcome) => void;
  size: () => number;
  rows: () => SnapshotRow[];
} {
  const rows = new Map<string, SnapshotRow>();
  return {
    visit: (item, o) => {
      if (item.t !== 'host') return;
      for (const r of rowsOfHost(item.v, `${o.hunt.file}#${o.hunt.key}`)) {
        const had = rows.get(rowKey(r));
        if (had) {
          if (!had.hunts.includes(r.hunts[0])) had.hunts.push(r.hunts[0]);
        } else rows.set(rowKey(r), r);
      }
    },
    size: () => rows.size,
    rows: () => [...rows.values()],
  };
}

function compareIp(a: string, b: string): number {
  const pa = a.includes(':') ? undefined : a.split('.').map(Number);
  const pb = b.includes(':') ? undefined : b.split('.').map(Number);
  if (pa && pb) {
    for (let i = 0; i < 4; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
    return 0;
  }
  if (pa) return -1;
  if (pb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareRows(a: SnapshotRow, b: SnapshotRow): number {
  return (
    compareIp(a.ip, b.ip) ||
    a.port - b.port ||
    (a.transport < b.transport ? -1 : a.transport > b.transport ? 1 : 0)
  );
}

/** Sorted JSON lines, keys in a fixed order, as chunks. */
export function* snapshotChunks(source: { rows: () => SnapshotRow[] }): Generator<string> {
  for (const r of source.rows().sort(compareRows)) {
    r.hunts.sort();
    yield `${JSON.stringify(r)}\n`;
  }
}

/** The rows of a snapshot file's text; an Error naming the line at fault otherwise. */
export function parseSnapshot(text: string, where: string): SnapshotRow[] {
  const out: SnapshotRow[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    let r: SnapshotRow;
    try {
      r = JSON.parse(lines[i]) as SnapshotRow;
    } catch {
      throw new Error(`${where}:${i + 1}: not a JSON line`);
    }
    if (typeof r?.ip !== 'string' || typeof r.port !== 'number' || !Array.isArray(r.cves))
      throw new Error(`${where}:${i + 1}: not a snapshot line (ip, port, cves)`);
    out.push({ ...r, transport: typeof r.transport === 'string' ? r.transport : 'tcp' });
  }
  return out;
}
