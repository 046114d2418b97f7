/**
 * The two public exploitation feeds, generated small and consistent with the emulator's
 * CVEs, so the demo shows KEV and EPSS and the tests never reach the internet:
 *   GET /feeds/kev.json       the CISA KEV catalogue's JSON shape (some entries with
 *                             ransomware use "Known")
 *   GET /feeds/epss.csv.gz    FIRST's EPSS CSV (gzip; `#model_version:…,score_date:…`, then
 *                             `cve,epss,percentile`): every catalogue CVE plus a long tail
 * No key is needed (a key sent is logged as `hadKey`, which the tests refuse). Both answer
 * `ETag` and `Last-Modified` and honour `If-None-Match` / `If-Modified-Since` with 304.
 * Faults per feed (`setFeedFault`, `POST /__admin/feeds {kev?, epss?}`): `malformed` (an
 * HTML page), `truncated` (the first half of the bytes), `stale` (dated 30 days ago),
 * `fail` (503), `ok`.
 */
import { createHash } from 'node:crypto';
import type * as http from 'node:http';
import { gzipSync } from 'node:zlib';
import { CVES } from './catalog';
import { DAY } from './clock';

export type FeedFault = 'ok' | 'malformed' | 'truncated' | 'stale' | 'fail';
export const FEED_FAULTS: readonly FeedFault[] = ['ok', 'malformed', 'truncated', 'stale', 'fail'];
export type FeedKind = 'kev' | 'epss';
export const FEED_PATHS: Readonly<Record<FeedKind, string>> = {
  kev: '/feeds/kev.json',
  epss: '/feeds/epss.csv.gz',
};

/** Catalogue CVEs listed as known exploited: [added, ransomware use]. */
export const EMULATOR_KEV: Readonly<Record<string, readonly [string, boolean]>> = {
  'CVE-2021-41773': ['2021-11-03', false],
  'CVE-2021-42013': ['2021-11-03', true],
  'CVE-2019-0708': ['2021-11-03', true],
  'CVE-2021-26855': ['2021-11-03', true],
  'CVE-2021-34473': ['2021-11-03', true],
  'CVE-2019-10149': ['2021-11-03', false],
  'CVE-2015-1635': ['2022-02-10', false],
  'CVE-2015-1427': ['2022-03-25', false],
  'CVE-2022-0543': ['2022-03-28', false],
  'CVE-2017-7494': ['2023-03-30', false],
  'CVE-2024-6387': ['2024-07-15', false],
};

/** Rows in the EPSS tail beyond the catalogue's CVEs. */
const TAIL = 3000;

function hash01(s: string): number {
  return createHash('sha256').update(s).digest().readUInt32BE(0) / 0x100000000;
}

function dayOf(ms: number): string {
  return new Date(Math.floor(ms / DAY) * DAY).toISOString().slice(0, 10);
}

/** The KEV catalogue's text, dated `day`. */
export function kevFeedText(day: string): string {
  const vulnerabilities = Object.entries(EMULATOR_KEV).map(([id, [added, ransomware]]) => ({
    cveID: id,
    vendorProject: 'Emulator',
    product: 'Generated',
    vulnerabilityName: `${id} (emulator copy)`,
    dateAdded: added,
    shortDescription: CVES[id]?.summary.slice(0, 200) ?? '',
    requiredAction: 'Apply mitigations per vendor instructions or discontinue use of the product.',
    dueDate: added,
    knownRansomwareCampaignUse: ransomware ? 'Known' : 'Unknown',
    notes: '',
    cwes: [],
  }));
  return JSON.stringify({
    title: 'CISA Catalog of Known Exploited Vulnerabilities (emulator copy)',
    catalogVersion: day.replaceAll('-', '.'),
    dateReleased: `${day}T17:00:00.0000Z`,
    count: vulnerabilities.length,
    vulnerabilities,
  });
}

/** The EPSS CSV's text, dated `day`: catalogue CVEs (KEV ones high) and a low tail. */
export function epssFeedText(day: string): string {
  const scores = new Map<string, number>();
  for (const id of Object.keys(CVES)) {
    const h = hash01(id);
    scores.set(id, EMULATOR_KEV[id] ? 0.6 + 0.39 * h : 0.001 + 0.3 * h * h);
  }
  for (let i = 0; i < TAIL; i++) {
    const id = `CVE-${2015 + (i % 11)}-${String(20000 + i).padStart(5, '0')}`;
    scores.set(id, 0.0004 + 0.05 * hash01(id) ** 4);
  }
  const ranked = [...scores.values()].sort((a, b) => a - b);
  const percentile = (s: number): number => {
    let lo = 0;
    let hi = ranked.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ranked[mid]! <= s) lo = mid + 1;
      else hi = mid;
    }
    return lo / ranked.length;
  };
  const lines = [`#model_version:v2025.03.14,score_date:${day}T12:55:00Z`, 'cve,epss,percentile'];
  for (const id of [...scores.keys()].sort()) {
    const s = scores.get(id)!;
    lines.push(`${id},${s.toFixed(5)},${percentile(s).toFixed(5)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The bytes a feed path serves under a fault, with its date. */
export function feedBody(kind: FeedKind, fault: FeedFault, now: number): { body: Buffer; day: string } {
  const day = dayOf(fault === 'stale' ? now - 30 * DAY : now);
  const html = '<html><body><h1>Access Denied</h1></body></html>\n';
  let body: Buffer;
  if (kind === 'kev') body = Buffer.from(fault === 'malformed' ? html : kevFeedText(day));
  else body = gzipSync(Buffer.from(fault === 'malformed' ? html : epssFeedText(day)));
  if (fault === 'truncated') body = body.subarray(0, Math.floor(body.length / 2));
  return { body, day };
}

/** Answers a feed request (GET or HEAD); returns the status sent. */
export function serveFeed(
  kind: FeedKind,
  fault: FeedFault,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  now = Date.now(),
): number {
  if (fault === 'fail') {
    res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
    return 503;
  }
  const { body, day } = feedBody(kind, fault, now);
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
  const lastModified = new Date(`${day}T17:00:00Z`).toUTCString();
  const headers = {
    etag,
    'last-modified': lastModified,
    'cache-control': 'max-age=3600',
    'content-type': kind === 'kev' ? 'application/json' : 'application/gzip',
  };
  const inm = req.headers['if-none-match'];
  const ims = req.headers['if-modified-since'];
  const notModified =
    inm !== undefined
      ? inm.split(',').some((t) => t.trim() === etag)
      : ims !== undefined && Date.parse(ims) >= Date.parse(lastModified);
  if (notModified) {
    res.writeHead(304, headers).end();
    return 304;
  }
  res.writeHead(200, { ...headers, 'content-length': String(body.length) });
  res.end(req.method === 'HEAD' ? undefined : body);
  return 200;
}
