/**
 * "Export case": a notebook's last case record with what its cells found in the exchange
 * formats, a STIX 2.1 bundle and a MISP event, written by the triage's writers
 * (core/triage/exchange.ts) over the hosts of the cells' sidecars. Each sidecar is read only
 * when its bytes still have the SHA-256 the record holds (a file changed since the run is
 * left out and said), and every line passes the API's own host normaliser. Pure: no VS Code.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { normalizeHost } from '../../api/normalize/hosts';
import { mispEvent, stixBundle } from '../triage/exchange';
import type { HostVerdict, Triage, TriageRow } from '../triage/model';
import { hostVerdict } from '../triage/verdict';
import { l10n } from '../text/l10n';
import { MAX_CELL_ROWS } from './execute';
import { readRecord, recordPaths, type CaseRecord, type RecordQueryCell } from './record';

/** Most unique hosts one export carries (ten cells at the service's cap). */
export const MAX_EXPORT_HOSTS = 100_000;

export interface CaseExport {
  /** The folder written: `.odin/<name>.export/` beside the notebook. */
  dir: string;
  /** The files written, by kind. */
  files: { record: string; markdown?: string; stix: string; misp: string };
  /** Unique hosts in the bundle and the event. */
  hosts: number;
  /** Query cells whose hosts are in it. */
  cells: number[];
  /** Cells left out, and why (no rows, a summary, a sidecar changed or missing). */
  skipped: { cell: number; why: string }[];
}

export interface CaseExportOptions {
  now?: Date;
  uuid?: () => string;
}

/** Where a notebook's export goes. */
export function exportDir(notebookFile: string): string {
  const base = path.basename(notebookFile).replace(/\.odinnb$/i, '');
  return path.join(recordPaths(notebookFile).dir, `${base}.export`);
}

/** Bytes read from a sidecar at a time (a 10,000-host sidecar is a few hundred MB). */
const CHUNK = 1 << 20;

/**
 * The verdicts of the hosts in one cell's sidecar, when its bytes hash to the record's
 * SHA-256; else why not. Read in chunks, one line at a time: only the verdicts are kept.
 * Lines that are not hosts (a summary's values) are not hosts of the case.
 */
async function cellHosts(
  recordDir: string,
  cell: RecordQueryCell,
): Promise<{ hosts: Array<{ ip: string; verdict: HostVerdict }> } | { why: string }> {
  if (cell.status !== 'ok') return { why: l10n.t('did not run to the end') };
  if (!cell.sidecar || !cell.sha256) return { why: l10n.t('no rows') };
  const file = path.resolve(recordDir, cell.sidecar);
  // The record names its sidecar; a record that names a file elsewhere is not followed.
  if (path.dirname(file) !== recordDir || !file.endsWith('.jsonl'))
    return { why: l10n.t('sidecar not beside the record') };
  let fd: fs.promises.FileHandle;
  try {
    fd = await fs.promises.open(file, 'r');
  } catch {
    return { why: l10n.t('its full result is gone: run it again') };
  }
  const hash = createHash('sha256');
  const hosts: Array<{ ip: string; verdict: HostVerdict }> = [];
  const decoder = new StringDecoder('utf8');
  const buf = Buffer.alloc(CHUNK);
  let rest = '';
  const take = (line: string): void => {
    if (!line || hosts.length >= MAX_CELL_ROWS) return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      return;
    }
    const h = normalizeHost(v);
    if (h) hosts.push({ ip: h.ip, verdict: hostVerdict(h) });
  };
  try {
    for (;;) {
      const { bytesRead } = await fd.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      const bytes = buf.subarray(0, bytesRead);
      hash.update(bytes);
      const lines = (rest + decoder.write(bytes)).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) take(line);
    }
  } finally {
    await fd.close();
  }
  take(rest + decoder.end());
  if (hash.digest('hex') !== cell.sha256)
    return { why: l10n.t('its full result changed since the run (SHA-256 differs): run it again') };
  return { hosts };
}

/** The hosts the record's cells found, as the triage's model (one row per unique host). */
export async function caseTriage(
  notebookFile: string,
  record: CaseRecord,
): Promise<{ triage: Triage; cells: number[]; skipped: CaseExport['skipped'] }> {
  const dir = recordPaths(notebookFile).dir;
  const rows = new Map<string, TriageRow>();
  const cells: number[] = [];
  const skipped: CaseExport['skipped'] = [];
  for (const c of record.cells) {
    if (c.kind !== 'query') continue;
    const got = await cellHosts(dir, c);
    if ('why' in got) {
      skipped.push({ cell: c.cell, why: got.why });
      continue;
    }
    if (got.hosts.length === 0) {
      skipped.push({ cell: c.cell, why: l10n.t('no hosts (a summary)') });
      continue;
    }
    cells.push(c.cell);
    for (const h of got.hosts) {
      const known = rows.get(h.ip);
      if (known) {
        known.count++;
        continue;
      }
      if (rows.size >= MAX_EXPORT_HOSTS) break;
      rows.set(h.ip, {
        value: h.ip,
        kind: h.ip.includes(':') ? 'ipv6' : 'ipv4',
        count: 1,
        first: { uri: path.basename(notebookFile), offset: 0, length: 0 },
        defanged: false,
        private: false,
        status: 'enriched',
        sent: false,
        fromCache: false,
        verdict: h.verdict,
      });
    }
  }
  return {
    triage: { rows: [...rows.values()], occurrences: rows.size, truncated: false, files: [notebookFile] },
    cells,
    skipped,
  };
}

/**
 * Writes the export of a notebook's last run: the record (and its Markdown twin), the STIX
 * 2.1 bundle and the MISP event of the hosts its cells found. Sends nothing.
 */
export async function exportCase(notebookFile: string, opts: CaseExportOptions = {}): Promise<CaseExport> {
  const record = readRecord(notebookFile);
  if (!record) throw new Error(l10n.t('The notebook has no case record yet: run it first.'));
  const name = path.basename(notebookFile);
  const { triage, cells, skipped } = await caseTriage(notebookFile, record);
  const title = l10n.t('ODIN case: {0}', name);
  const description = l10n.t(
    '{0} unique hosts found by {1} query cells of {2} (run {3}).',
    triage.rows.length,
    cells.length,
    name,
    record.updatedAt,
  );
  const report = { title, description, now: opts.now, ...(opts.uuid ? { uuid: opts.uuid } : {}) };
  const dir = exportDir(notebookFile);
  fs.mkdirSync(dir, { recursive: true });
  const write = (file: string, value: unknown): string => {
    const p = path.join(dir, file);
    fs.writeFileSync(p, `${JSON.stringify(value, null, 2)}\n`);
    return p;
  };
  const files: CaseExport['files'] = {
    record: write('record.json', record),
    stix: write('stix.json', stixBundle(triage, report)),
    misp: write('misp.json', mispEvent(triage, report)),
  };
  const md = recordPaths(notebookFile).record.replace(/\.json$/, '.md');
  if (fs.existsSync(md)) {
    files.markdown = path.join(dir, 'record.md');
    fs.copyFileSync(md, files.markdown);
  }
  return { dir, files, hosts: triage.rows.length, cells, skipped };
}
