/**
 * The lines of the tools' answers: counts, listings, aggregations and one record (host,
 * whois, history, bucket, subdomain) as compact text, every API string quoted (format.ts).
 *
 * Pure Node: no `vscode` import.
 */
import type { Aggregation, Bucket, DomainRecord, Host, Page, WhoisHistory, WhoisRecord } from '../api/types';
import { topCves } from '../core/cards/hoverCard';
import {
  epssText,
  feedNotes,
  hostExploitation,
  hostSignalText,
  kevText,
  type ExploitationView,
} from '../core/exploitation';
import type { LookupResult } from '../core/requests/layer';
import { vulnerability } from '../core/hosts/vulnerability';
import { daysUntil, snapshotDate, whoisTimeline } from '../core/whois/diff';
import { day, num, q, qList } from './format';

export function more(shown: number, total: number | undefined, what: string): string[] {
  if (total === undefined) return [];
  return total > shown ? [`… ${num(total - shown)} more ${what} not shown`] : [];
}

/** A listing tool's lines: how many match, one line a record, how many were left out. */
export function listed<T>(r: LookupResult<Page<T>>, line: (item: T) => string, what: string): string[] {
  const page = r.status === 'ok' ? r.value : { items: [] as T[], total: 0 };
  return [
    `matches: ${page.total !== undefined ? countLine(page.total) : `${num(page.items.length)} shown`}`,
    ...page.items.map(line),
    ...more(page.items.length, page.total, what),
  ];
}

export function aggregationLines(a: Aggregation): string[] {
  const lines = a.buckets.map(
    (b) => `${num(b.doc_count)}  ${q(b.key === null ? 'null' : String(b.key), 80)}`,
  );
  if (lines.length === 0) lines.push('no values');
  if (a.sum_other_doc_count > 0) lines.push(`… ${num(a.sum_other_doc_count)} more in other values`);
  return lines;
}

export function countLine(n: number): string {
  return n >= 10_000 ? `${num(n)} (the service caps counts at 10,000: at least this many)` : num(n);
}

/** One host's lines; with the feeds, its CVEs worst first by the one rule, each with KEV and EPSS. */
export function hostLines(host: Host, x?: ExploitationView): string[] {
  const lines: string[] = [];
  const asn = host.asn;
  const org = asn?.organization ?? host.whois?.organization;
  lines.push(`ip: ${q(host.ip, 60)}`);
  lines.push(`last seen: ${day(host.last_updated_at)}`);
  lines.push(`network: ${asn?.number ? q(asn.number, 20) : '-'} ${org ? q(org, 80) : ''}`.trimEnd());
  const loc = host.location;
  if (loc)
    lines.push(
      `location: ${
        [loc.city, loc.country_name ?? loc.country_code]
          .filter(Boolean)
          .map((x) => q(x, 60))
          .join(', ') || '-'
      }`,
    );
  const { top, total, exploits } = topCves(host, 8, x);
  const vuln = vulnerability(host);
  const signal = x && vuln.state === 'vulnerable' ? hostSignalText(hostExploitation(top, x)) : '';
  lines.push(
    vuln.state === 'vulnerable'
      ? `vulnerable: yes, ${signal ? `${signal}, ` : ''}${num(total)} CVE(s), ${num(exploits)} known exploit(s)`
      : vuln.state === 'unknown'
        ? `vulnerable: unknown, ${q(vuln.why, 60)}`
        : 'vulnerable: no known CVEs',
  );
  for (const c of top) {
    lines.push(
      `  ${q(c.id, 30)} ${c.severity}${c.score !== undefined ? ` ${c.score.toFixed(1)}` : ''}${c.exploit.length ? ' (exploit known)' : ''}${x ? signals(x, c.id) : ''}`,
    );
  }
  if (x && vuln.state === 'vulnerable') lines.push(`exploitation data: ${feedNotes(x, (d) => q(d, 120))}`);
  lines.push(...more(top.length, total, 'CVE(s)'));
  const services = [...host.services].sort((a, b) => a.port - b.port);
  lines.push(`open ports (${num(services.length)}):`);
  for (const s of services.slice(0, 12)) {
    const what = [s.name, s.product, s.version].filter((x): x is string => !!x && x.trim() !== '').join(' ');
    const http = s.modules.http;
    const title =
      http && typeof http.title === 'string' && http.title !== '' ? ` title ${q(http.title, 80)}` : '';
    const banner = !title && s.banner ? ` banner ${q(s.banner, 80)}` : '';
    lines.push(
      `  ${s.port}/${/^[a-z]{2,6}$/.test(s.protocol ?? '') ? s.protocol! : q(s.protocol ?? '?', 10)} ${what ? q(what, 60) : ''}${title}${banner}`.trimEnd(),
    );
  }
  lines.push(...more(Math.min(12, services.length), services.length, 'port(s)'));
  if (host.hostnames.length)
    lines.push(
      `hostnames (${num(host.hostnames.length)}): ${qList(
        host.hostnames.map((h) => h.name),
        6,
      )}`,
    );
  const domains = host.domains.map((d) => d.name).filter((n): n is string => !!n);
  if (domains.length) lines.push(`domains (${num(domains.length)}): ${qList(domains, 6)}`);
  if (host.tags.length)
    lines.push(
      `tags: ${qList(
        host.tags.map((t) => t.pretty_name ?? t.name),
        8,
        40,
      )}`,
    );
  return lines;
}

function signals(x: ExploitationView, id: string): string {
  const e = x.lookup(id);
  const bits = [e.kev ? kevText(e.kev) : '', e.epss ? epssText(e.epss) : ''].filter(Boolean);
  return bits.length ? ` · ${bits.join(' · ')}` : '';
}

export function hostSummaryLine(h: Host): string {
  const { top, total } = topCves(h, 1);
  const org = h.asn?.organization ?? h.whois?.organization;
  const ports = [...new Set(h.services.map((s) => s.port))].sort((a, b) => a - b);
  const portText =
    ports.length > 8 ? `${ports.slice(0, 8).join(',')},+${ports.length - 8}` : ports.join(',') || '-';
  const state = vulnerability(h).state;
  const vuln =
    total > 0
      ? `${num(total)} CVE(s), worst ${q(top[0].id, 30)}${top[0].score !== undefined ? ` ${top[0].score.toFixed(1)}` : ''}`
      : state === 'vulnerable'
        ? 'vulnerable'
        : state === 'unknown'
          ? 'vulnerability unknown (CVE data unreadable)'
          : 'no known CVEs';
  const cc = h.location?.country_code ?? h.asn?.country_code;
  return `${q(h.ip, 45)} ${org ? q(org, 50) : '-'} ${cc ? q(cc, 4) : '-'} ports ${portText}; ${vuln}`;
}

export function whoisLines(w: WhoisRecord, now: number): string[] {
  const lines: string[] = [];
  lines.push(`domain: ${q(w.domain_name, 80)}`);
  lines.push(`registrar: ${q(w.registrar?.name, 80)}`);
  lines.push(`created: ${day(w.created_date)}, updated: ${day(w.updated_date)}`);
  const left = daysUntil(w.expires_date, now);
  lines.push(
    `expires: ${day(w.expires_date)}${left === undefined ? '' : left < 0 ? ' (expired)' : ` (in ${num(left)} days)`}`,
  );
  if (w.domain_status.length) lines.push(`status: ${qList(w.domain_status, 5, 60)}`);
  lines.push(`name servers: ${qList(w.name_servers, 6)}`);
  const r = w.registrant_contact;
  if (r) lines.push(`registrant: ${q(r.company ?? r.name, 80)} ${q(r.country ?? r.country_code, 40)}`);
  return lines;
}

export function historyLines(h: WhoisHistory): string[] {
  if (h.records.length === 0) return ['history: no earlier snapshots'];
  const timeline = whoisTimeline(h.records);
  const dates = timeline.map((t) => snapshotDate(t.record)).filter((d): d is string => !!d);
  const lines = [
    `history: ${num(h.records.length)} snapshot(s)${dates.length ? ` from ${day(dates[0])} to ${day(dates[dates.length - 1])}` : ''}`,
  ];
  const registrars = new Set(h.records.map((r) => r.registrar?.name).filter(Boolean));
  if (registrars.size > 1) lines.push(`  registrars over time: ${num(registrars.size)}`);
  const changes = timeline.flatMap((t) => t.changes.map((c) => ({ at: snapshotDate(t.record), c })));
  lines.push(`  changes between snapshots: ${num(changes.length)}`);
  const recent = changes.slice(-6).reverse();
  for (const { at, c } of recent) {
    lines.push(
      `  ${day(at)} ${q(c.field, 40)} ${c.kind}: ${c.before !== undefined ? q(c.before, 60) : '-'} -> ${c.after !== undefined ? q(c.after, 60) : '-'}`,
    );
  }
  lines.push(...more(recent.length, changes.length, 'change(s)'));
  return lines;
}

export function bucketLine(b: Bucket): string {
  const facts = [
    b.provider ? q(b.provider, 12) : '',
    b.region ? q(b.region, 30) : '',
    b.open === false ? 'closed' : 'open',
    b.files !== undefined ? `${num(b.files)} files` : '',
    b.sensitive_files ? `${num(b.sensitive_files)} sensitive` : '',
    b.labels.length ? `labels ${qList(b.labels, 5, 20)}` : '',
    b.last_found_at ? `last found ${day(b.last_found_at)}` : '',
  ].filter(Boolean);
  return `${q(b.name, 80)} ${facts.join(', ')}`;
}

export function domainLine(d: DomainRecord): string {
  return `${q(d.subdomain ?? d.domain, 120)}${d.added_at ? ` added ${day(d.added_at)}` : ''}`;
}
