/**
 * The committed baseline: findings a team accepted, each with a reason, an expiry date and
 * who added it. A baselined finding is reported as such (SARIF suppressions, JUnit skipped)
 * and does not fail the run until its entry expires; then it counts as new again.
 *
 *   { "version": 1, "entries": [ { "fingerprint": "…", "file": "hunts/web.odinq",
 *     "hunt": "Exposed RDP", "subject": "52.14.88.213", "reason": "jump host, tracked in SEC-12",
 *     "expires": "2027-03-01", "addedBy": "alice" } ] }
 *
 * Plain Node: no `vscode` import.
 */
import type { Finding } from './findings';

export interface BaselineEntry {
  fingerprint: string;
  file: string;
  hunt: string;
  subject: string;
  reason: string;
  /** YYYY-MM-DD, the last day the entry holds. */
  expires: string;
  addedBy: string;
}

export interface Baseline {
  version: 1;
  entries: BaselineEntry[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const FIELDS = ['fingerprint', 'file', 'hunt', 'subject', 'reason', 'expires', 'addedBy'] as const;

/** The baseline in `text`; an Error naming the entry at fault otherwise. */
export function parseBaseline(text: string): Baseline {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const r = raw as { version?: unknown; entries?: unknown };
  if (typeof raw !== 'object' || raw === null || r.version !== 1 || !Array.isArray(r.entries))
    throw new Error('expected {"version": 1, "entries": [...]}');
  const entries = r.entries.map((e: unknown, i): BaselineEntry => {
    const o = e as Record<string, unknown>;
    for (const k of FIELDS)
      if (typeof o?.[k] !== 'string' || (k !== 'subject' && o[k] === ''))
        throw new Error(`entry ${i + 1}: "${k}" must be a non-empty string`);
    if (!DATE.test(o.expires as string) || Number.isNaN(Date.parse(o.expires as string)))
      throw new Error(`entry ${i + 1}: "expires" must be a date YYYY-MM-DD`);
    if (!/^[0-9a-f]{64}$/.test(o.fingerprint as string))
      throw new Error(`entry ${i + 1}: "fingerprint" must be 64 hex digits`);
    return Object.fromEntries(FIELDS.map((k) => [k, o[k] as string])) as unknown as BaselineEntry;
  });
  return { version: 1, entries };
}

export function baselineText(b: Baseline): string {
  const sorted = [...b.entries].sort(
    (x, y) =>
      x.file.localeCompare(y.file) || x.hunt.localeCompare(y.hunt) || x.subject.localeCompare(y.subject),
  );
  return `${JSON.stringify({ version: 1, entries: sorted }, null, 2)}\n`;
}

/** Today as YYYY-MM-DD in UTC. */
export function today(now = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** Marks each finding new, baselined or expired (an expired entry counts as new again). */
export function applyBaseline(findings: Finding[], b: Baseline | undefined, day: string): void {
  if (!b) return;
  const byPrint = new Map(b.entries.map((e) => [e.fingerprint, e]));
  for (const f of findings) {
    const e = byPrint.get(f.fingerprint);
    if (!e) continue;
    f.state = e.expires >= day ? 'baselined' : 'expired';
    f.baseline = { reason: e.reason, expires: e.expires, addedBy: e.addedBy };
  }
}

/** The baseline with every new or expired finding accepted (expired entries renewed). */
export function updateBaseline(
  b: Baseline | undefined,
  findings: readonly Finding[],
  entry: { reason: string; expires: string; addedBy: string },
): Baseline {
  const byPrint = new Map((b?.entries ?? []).map((e) => [e.fingerprint, e]));
  for (const f of findings) {
    if (f.state === 'baselined') continue;
    byPrint.set(f.fingerprint, {
      fingerprint: f.fingerprint,
      file: f.file,
      hunt: f.hunt,
      subject: f.subject,
      ...entry,
    });
  }
  return { version: 1, entries: [...byPrint.values()] };
}

export function isDate(s: string): boolean {
  return DATE.test(s) && !Number.isNaN(Date.parse(s));
}
