// The triage view's rows: one plain view model per indicator of a triage, every string
// capped. Pure: no `vscode` import.
import type { TriageRowView, TriageVerdictClass } from './rowView';
import { lookupKind, type Triage, type TriageRow } from './model';

const MAX_TEXT = 200;
const MAX_FILE_LABEL = 300;

const cap = (s: string | undefined, n = MAX_TEXT): string | undefined =>
  s === undefined ? undefined : s.length > n ? `${s.slice(0, n - 1)}…` : s;

/** The class a row is filtered and sorted by. */
export function verdictClass(r: TriageRow): TriageVerdictClass {
  switch (r.status) {
    case 'enriched':
      return r.verdict?.kind === 'host' && r.verdict.vulnerable ? 'vulnerable' : 'known';
    case 'unknown':
      return 'unknown';
    case 'local':
      return 'local';
    case 'failed':
      return 'failed';
    default:
      return 'pending';
  }
}

/** The rows of the view, in the triage's order; `fileLabel` turns a URI into a short path. */
export function rowViews(t: Triage, fileLabel: (uri: string) => string): TriageRowView[] {
  const labels = new Map<string, string>();
  const label = (uri: string): string => {
    let l = labels.get(uri);
    if (l === undefined) {
      l = cap(fileLabel(uri), MAX_FILE_LABEL) ?? '';
      labels.set(uri, l);
    }
    return l;
  };
  return t.rows.map((r, index) => rowView(r, index, label));
}

function rowView(r: TriageRow, index: number, label: (uri: string) => string): TriageRowView {
  const v: TriageRowView = {
    index,
    value: r.value,
    kind: r.kind,
    verdict: verdictClass(r),
    cves: 0,
    exploits: 0,
    tags: [],
    ports: [],
    count: r.count,
    first: `${label(r.first.uri)}${r.first.line !== undefined ? `:${r.first.line + 1}` : ''}`,
    details: lookupKind(r) !== undefined,
  };
  const reason = r.status === 'local' ? r.localReason : r.reason;
  if (reason && r.status !== 'enriched') v.reason = cap(reason);
  const verdict = r.verdict;
  if (verdict?.kind === 'host') {
    v.cves = verdict.cves;
    v.exploits = verdict.exploits;
    v.tags = verdict.tags.map((t) => cap(t, 60)!);
    v.ports = verdict.ports;
    if (verdict.maxScore !== undefined) v.maxScore = verdict.maxScore;
    if (verdict.maxSeverity) v.severity = cap(verdict.maxSeverity, 20);
    if (verdict.kev) v.kev = verdict.kev;
    if (verdict.ransomware) v.ransomware = true;
    if (verdict.epss !== undefined) v.epss = verdict.epss;
    if (verdict.exploited) v.exploited = cap(verdict.exploited, 120);
    if (verdict.org) v.org = cap(verdict.org);
    if (verdict.asn) v.asn = cap(verdict.asn, 20);
    if (verdict.country) v.country = cap(verdict.country, 40);
    if (verdict.products?.length) v.products = verdict.products.map((p) => cap(p, 60)!);
  } else if (verdict?.kind === 'domain') {
    if (verdict.registrar) v.registrar = cap(verdict.registrar);
    if (verdict.ageDays !== undefined) v.ageDays = verdict.ageDays;
    if (verdict.expires) v.expires = cap(verdict.expires, 20);
    if (verdict.subdomains !== undefined) v.subdomains = verdict.subdomains;
  }
  return v;
}
