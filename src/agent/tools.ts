/**
 * The ODIN tools for agents, shared by the VS Code language-model tools and the MCP
 * server: names, descriptions written for a model, input schemas, what each call sends,
 * and compact, framed answers (see format.ts). Every value a tool sends passes the agent
 * gate first (gate.ts); every request goes through the shared request layer (cache, one
 * request per target, client-side limits, pause after auth/quota answers).
 *
 * Pure Node: no `vscode` import.
 */
import type { OdinClient } from '../api/client';
import { OdinApiError } from '../api/errors';
import type { Aggregation, Bucket, DomainRecord, Host, Page, WhoisHistory, WhoisRecord } from '../api/types';
import { topCves } from '../core/hoverCard';
import { listIndicators } from '../core/indicators';
import {
  account,
  buildTriage,
  enrich,
  guardedSource,
  layerSource,
  preview,
  type EnrichmentSource,
  type Preview,
  type Triage,
  type TriageRow,
} from '../core/triage';
import { LocalRateLimitError } from '../core/limiter';
import { LookupsPausedError, type LookupResult, type RequestLayer } from '../core/requests';
import { daysUntil, snapshotDate, whoisTimeline } from '../core/whoisDiff';
import { day, framed, num, plain, q, qList } from './format';
import type { AgentGate, ValueKind } from './gate';
import { ToolInputError, validateInput, type Input, type ObjectSchema } from './schema';

export { ToolInputError } from './schema';

/** What the tools need from their surface. */
export interface ToolContext {
  client(): OdinClient;
  requests: RequestLayer;
  gate: AgentGate;
  /** The API origin requests go to (named in confirmations). */
  origin(): string;
  now?: () => number;
  /**
   * Local text for the indicator tool when the call names a file or none (the editor's
   * selection or document in VS Code). Absent on surfaces that only take text.
   */
  localText?: (file: string | undefined, signal?: AbortSignal) => Promise<{ text: string; source: string }>;
}

/** The gate refused: nothing was sent. The message says why. */
export class ToolRefusal extends Error {
  override readonly name = 'ToolRefusal';
}

/** A prepared call: what it sends (undefined: nothing leaves the machine) and how to run it. */
export interface PreparedCall {
  sends?: string;
  /** Why nothing will be sent although the tool could send (shown instead of a confirmation). */
  note?: string;
  run(ctx: ToolContext, signal?: AbortSignal): Promise<string>;
}

export interface AgentTool {
  /** Stable tool name (`odin_…`), the same on both surfaces. */
  name: string;
  /** Short human title (confirmations, tool pickers). */
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  /** Reads local text only and sends nothing. */
  local: boolean;
  /** Validates and gates the input; throws ToolInputError or ToolRefusal, never sends. */
  prepare(input: unknown, ctx: Pick<ToolContext, 'gate' | 'origin'>): PreparedCall;
  /**
   * For a tool whose cost is known only after reading local text and the cache (the
   * triage): the same as `prepare`, after a local scan. Sends nothing.
   */
  prepareLocal?(input: unknown, ctx: ToolContext, signal?: AbortSignal): Promise<PreparedCall>;
}

/** Most results a search tool returns (the API's limit; costs credits). */
export const MAX_RESULTS = 25;
const DEFAULT_RESULTS = 10;

const QUERY_HELP =
  'ODIN query language: field:value terms joined with AND / OR / NOT and parentheses, quotes for phrases, e.g. services.port:22 AND location.country_code:DE, or services.modules.http.title:"admin". ';

const query = (what: string): ObjectSchema['properties'][string] => ({
  type: 'string',
  description: `${QUERY_HELP}${what}`,
  minLength: 1,
  maxLength: 2000,
});
const limit = {
  type: 'integer',
  description: `How many results to return (1-${MAX_RESULTS}, default ${DEFAULT_RESULTS}). Each result costs API credits; ask for few.`,
  minimum: 1,
  maximum: MAX_RESULTS,
  default: DEFAULT_RESULTS,
} as const;
const field = (what: string): ObjectSchema['properties'][string] => ({
  type: 'string',
  description: `The field to group by, ${what}`,
  minLength: 1,
  maxLength: 100,
});

// ------------------------------------------------------------------ helpers

function str(input: Input, key: string): string {
  const v = input[key];
  return typeof v === 'string' ? v.trim() : '';
}

function int(input: Input, key: string, fallback: number): number {
  const v = input[key];
  return typeof v === 'number' ? v : fallback;
}

function gated(gate: AgentGate, raw: string, kind: ValueKind): string {
  const blocked = gate.blocked();
  if (blocked) throw new ToolRefusal(blocked);
  const r = gate.value(raw, kind);
  if (!r.allowed) throw new ToolRefusal(r.reason);
  return r.value;
}

function gatedQuery(gate: AgentGate, raw: string): string {
  const blocked = gate.blocked();
  if (blocked) throw new ToolRefusal(blocked);
  const r = gate.query(raw);
  if (!r.allowed) throw new ToolRefusal(r.reason);
  return raw;
}

/** The confirmation sentence: exactly what leaves the machine, and where to. */
function sends(origin: string, what: string, endpoints: string): string {
  return `Sends ${what} to ODIN at ${origin} (${endpoints}), unless the answer is cached.`;
}

/** One request through the shared layer; "not found" is a value, other errors are thrown. */
async function fetchVia<T>(
  ctx: ToolContext,
  kind: string,
  target: string,
  fetcher: (signal: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
): Promise<LookupResult<T>> {
  // Agents are not the user's own hand: the automatic-lookup limits and pauses apply.
  return ctx.requests.get(kind, target, fetcher, { signal, automatic: true });
}

/** Where an answer came from when it was the local cache (empty for a fresh one). */
function cacheNote(r: LookupResult<unknown>, c: Pick<ToolContext, 'now'>): string[] {
  if (!r.fromCache) return [];
  const now = c.now?.() ?? Date.now();
  const mins = Math.max(0, Math.round((now - r.storedAt) / 60_000));
  const age =
    mins < 60
      ? `${mins} min`
      : mins < 2880
        ? `${Math.round(mins / 60)} h`
        : `${Math.round(mins / 1440)} days`;
  return [`(answered from the local cache, ${age} old${r.stale ? ', stale' : ''})`];
}

/** Short text for any error a tool run ends with (no stack, no key, no raw body). */
export function toolErrorText(err: unknown): string {
  if (err instanceof ToolRefusal || err instanceof ToolInputError) return err.message;
  if (err instanceof LookupsPausedError) return `ODIN lookups are paused: ${err.message}`;
  if (err instanceof LocalRateLimitError) {
    return `The local limit of ODIN lookups per minute was reached; try again in ${Math.ceil(err.retryAfterMs / 1000)} s.`;
  }
  if (err instanceof OdinApiError) {
    if (err.kind === 'auth') return 'ODIN rejected the API key, or none is set.';
    return err.message;
  }
  return 'The ODIN tool failed.';
}

function more(shown: number, total: number | undefined, what: string): string[] {
  if (total === undefined) return [];
  return total > shown ? [`… ${num(total - shown)} more ${what} not shown`] : [];
}

/** A listing tool's lines: how many match, one line a record, how many were left out. */
function listed<T>(r: LookupResult<Page<T>>, line: (item: T) => string, what: string): string[] {
  const page = r.status === 'ok' ? r.value : { items: [] as T[], total: 0 };
  return [
    `matches: ${page.total !== undefined ? countLine(page.total) : `${num(page.items.length)} shown`}`,
    ...page.items.map(line),
    ...more(page.items.length, page.total, what),
  ];
}

function aggregationLines(a: Aggregation): string[] {
  const lines = a.buckets.map(
    (b) => `${num(b.doc_count)}  ${q(b.key === null ? 'null' : String(b.key), 80)}`,
  );
  if (lines.length === 0) lines.push('no values');
  if (a.sum_other_doc_count > 0) lines.push(`… ${num(a.sum_other_doc_count)} more in other values`);
  return lines;
}

function countLine(n: number): string {
  return n >= 10_000 ? `${num(n)} (the service caps counts at 10,000: at least this many)` : num(n);
}

// ------------------------------------------------------------------ formatting of records

function hostLines(host: Host): string[] {
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
  const { top, total, exploits } = topCves(host, 8);
  lines.push(
    host.is_vuln || total > 0
      ? `vulnerable: yes, ${num(total)} CVE(s), ${num(exploits)} known exploit(s)`
      : 'vulnerable: no known CVEs',
  );
  for (const c of top) {
    lines.push(
      `  ${q(c.id, 30)} ${c.severity}${c.score !== undefined ? ` ${c.score.toFixed(1)}` : ''}${c.exploit.length ? ' (exploit known)' : ''}`,
    );
  }
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

function hostSummaryLine(h: Host): string {
  const { top, total } = topCves(h, 1);
  const org = h.asn?.organization ?? h.whois?.organization;
  const ports = [...new Set(h.services.map((s) => s.port))].sort((a, b) => a - b);
  const portText =
    ports.length > 8 ? `${ports.slice(0, 8).join(',')},+${ports.length - 8}` : ports.join(',') || '-';
  const vuln =
    total > 0
      ? `${num(total)} CVE(s), worst ${q(top[0].id, 30)}${top[0].score !== undefined ? ` ${top[0].score.toFixed(1)}` : ''}`
      : 'no known CVEs';
  const cc = h.location?.country_code ?? h.asn?.country_code;
  return `${q(h.ip, 45)} ${org ? q(org, 50) : '-'} ${cc ? q(cc, 4) : '-'} ports ${portText}; ${vuln}`;
}

function whoisLines(w: WhoisRecord, now: number): string[] {
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

function historyLines(h: WhoisHistory): string[] {
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

function bucketLine(b: Bucket): string {
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

function domainLine(d: DomainRecord): string {
  return `${q(d.subdomain ?? d.domain, 120)}${d.added_at ? ` added ${day(d.added_at)}` : ''}`;
}

// ------------------------------------------------------------------ the tools

const hostIp = {
  type: 'string',
  description:
    'A public IPv4 or IPv6 address, e.g. 45.33.32.156 (private, reserved and internal addresses are refused).',
  minLength: 1,
  maxLength: 100,
} as const;
const domainName = {
  type: 'string',
  description:
    'A registered domain name, e.g. example.com (internal names such as .local, .corp or .internal are refused).',
  minLength: 1,
  maxLength: 253,
} as const;

function tool(
  def: Omit<AgentTool, 'prepare' | 'local'> & {
    local?: boolean;
    prepare: (input: Input, ctx: Pick<ToolContext, 'gate' | 'origin'>) => PreparedCall;
  },
): AgentTool {
  return {
    ...def,
    local: def.local ?? false,
    prepare: (input, ctx) => def.prepare(validateInput(def.inputSchema, input), ctx),
  };
}

export const lookupHost = tool({
  name: 'odin_lookup_host',
  title: 'ODIN: look up a host',
  description:
    'Looks up one public IP address in ODIN internet scan data: owner network (ASN), location, open ports with the software seen, the worst CVEs and whether exploits are known, hostnames and tags. Use it to judge whether an IP seen in a log or config is exposed or vulnerable. Private and internal addresses are refused without sending anything.',
  inputSchema: { type: 'object', properties: { ip: hostIp }, required: ['ip'], additionalProperties: false },
  prepare(input, ctx) {
    const ip = gated(ctx.gate, str(input, 'ip'), 'ip');
    return {
      sends: sends(ctx.origin(), `the IP address ${ip}`, 'GET /v1/hosts/{ip}'),
      async run(c, signal) {
        const r = await fetchVia(c, 'host', ip, (s) => c.client().getHost(ip, { signal: s }), signal);
        if (r.status === 'notFound') {
          return framed({
            title: `ODIN host ${ip}: not found`,
            lines: ['ODIN has no scan record of this IP address.'],
            notes: cacheNote(r, c),
          });
        }
        return framed({ title: `ODIN host ${ip}`, lines: hostLines(r.value), notes: cacheNote(r, c) });
      },
    };
  },
});

export const searchHosts = tool({
  name: 'odin_search_hosts',
  title: 'ODIN: search hosts',
  description:
    'Searches ODIN internet scan data for hosts matching a query and lists them compactly (IP, network owner, country, open ports, worst CVE), with the total number of matches. Use odin_count_hosts when only the number matters, and odin_summarize_hosts to see the top values of a field.',
  inputSchema: {
    type: 'object',
    properties: { query: query('Example: services.software.product:"nginx" AND is_vuln:true'), limit },
    required: ['query'],
    additionalProperties: false,
  },
  prepare(input, ctx) {
    const qy = gatedQuery(ctx.gate, str(input, 'query'));
    const n = int(input, 'limit', DEFAULT_RESULTS);
    return {
      sends: sends(
        ctx.origin(),
        `the query ${JSON.stringify(qy)} (up to ${n} results)`,
        'POST /v1/hosts/search',
      ),
      async run(c, signal) {
        const r = await fetchVia<Page<Host>>(
          c,
          'agent.searchHosts',
          JSON.stringify([qy, n]),
          (s) => c.client().searchHosts({ query: qy, limit: n }, { signal: s }),
          signal,
        );
        const lines = listed(r, hostSummaryLine, 'host(s)');
        return framed({ title: `ODIN host search ${q(qy, 200)}`, lines, notes: cacheNote(r, c) });
      },
    };
  },
});

export const countHosts = tool({
  name: 'odin_count_hosts',
  title: 'ODIN: count hosts',
  description:
    'Counts the hosts in ODIN internet scan data that match a query (one cheap request; no host details). Use it to size an exposure, e.g. how many hosts in a network or country run a vulnerable product.',
  inputSchema: {
    type: 'object',
    properties: { query: query('Example: ip:"203.0.113.0/24" or services.port:3389') },
    required: ['query'],
    additionalProperties: false,
  },
  prepare(input, ctx) {
    const qy = gatedQuery(ctx.gate, str(input, 'query'));
    return {
      sends: sends(ctx.origin(), `the query ${JSON.stringify(qy)}`, 'POST /v1/hosts/search, 1 result'),
      async run(c, signal) {
        const r = await fetchVia(
          c,
          'agent.countHosts',
          qy,
          async (s) => (await c.client().searchHosts({ query: qy, limit: 1 }, { signal: s })).total ?? 0,
          signal,
        );
        const n = r.status === 'ok' ? r.value : 0;
        return framed({
          title: `ODIN host count ${q(qy, 200)}`,
          lines: [`hosts: ${countLine(n)}`],
          notes: cacheNote(r, c),
        });
      },
    };
  },
});

export const summarizeHosts = tool({
  name: 'odin_summarize_hosts',
  title: 'ODIN: summarize hosts by a field',
  description:
    'Groups the hosts matching a query by one field and returns the most common values with their counts (e.g. which products, ports or countries dominate). Cheaper than listing hosts.',
  inputSchema: {
    type: 'object',
    properties: {
      field: field('e.g. services.port, services.software.product, location.country_code, asn.organization.'),
      query: query('Example: services.port:22'),
      limit,
    },
    required: ['field', 'query'],
    additionalProperties: false,
  },
  prepare(input, ctx) {
    const qy = gatedQuery(ctx.gate, str(input, 'query'));
    const f = gatedQuery(ctx.gate, str(input, 'field'));
    const n = int(input, 'limit', DEFAULT_RESULTS);
    return {
      sends: sends(
        ctx.origin(),
        `the field ${JSON.stringify(f)} and the query ${JSON.stringify(qy)}`,
        'POST /v1/hosts/summary',
      ),
      async run(c, signal) {
        const r = await fetchVia(
          c,
          'agent.summarizeHosts',
          JSON.stringify([f, qy, n]),
          (s) => c.client().summarizeHosts({ field: f, query: qy, limit: n }, { signal: s }),
          signal,
        );
        const lines = r.status === 'ok' ? aggregationLines(r.value) : ['no values'];
        return framed({ title: `ODIN hosts ${q(qy, 200)} by ${q(f, 80)}`, lines, notes: cacheNote(r, c) });
      },
    };
  },
});

export const whois = tool({
  name: 'odin_whois',
  title: 'ODIN: whois of a domain',
  description:
    'Returns the current whois record of a registered domain (registrar, dates, days until expiry, status, name servers, registrant organisation) and a summary of its whois history (snapshots, registrar and field changes over time). Use it to judge a domain seen in a log, e-mail or threat report.',
  inputSchema: {
    type: 'object',
    properties: { domain: domainName },
    required: ['domain'],
    additionalProperties: false,
  },
  prepare(input, ctx) {
    const domain = gated(ctx.gate, str(input, 'domain'), 'domain');
    return {
      sends: sends(
        ctx.origin(),
        `the domain name ${domain}`,
        'GET /v1/domain/whois/{domain} and …/historical',
      ),
      async run(c, signal) {
        const [cur, hist] = await Promise.allSettled([
          fetchVia(c, 'whois', domain, (s) => c.client().getWhois(domain, { signal: s }), signal),
          fetchVia(
            c,
            'agent.whoisHistory',
            domain,
            (s) => c.client().getWhoisHistory(domain, { signal: s }),
            signal,
          ),
        ]);
        if (cur.status === 'rejected') throw cur.reason;
        const now = c.now?.() ?? Date.now();
        const lines: string[] = [];
        if (cur.value.status === 'notFound') lines.push('ODIN has no current whois record of this domain.');
        else lines.push(...whoisLines(cur.value.value, now));
        if (hist.status === 'fulfilled') {
          lines.push(...(hist.value.status === 'ok' ? historyLines(hist.value.value) : ['history: none']));
        } else {
          lines.push(`history: not available (${toolErrorText(hist.reason)})`);
        }
        return framed({ title: `ODIN whois ${domain}`, lines, notes: cacheNote(cur.value, c) });
      },
    };
  },
});

export const countSubdomains = tool({
  name: 'odin_count_subdomains',
  title: 'ODIN: count subdomains',
  description:
    'Counts the subdomains ODIN has recorded under a registered domain (the size of its visible attack surface).',
  inputSchema: {
    type: 'object',
    properties: { domain: domainName },
    required: ['domain'],
    additionalProperties: false,
  },
  prepare(input, ctx) {
    const domain = gated(ctx.gate, str(input, 'domain'), 'domain');
    return {
      sends: sends(ctx.origin(), `the domain name ${domain}`, 'POST /v1/domain/subdomain/count'),
      async run(c, signal) {
        const r = await fetchVia(
          c,
          'subdomains',
          domain,
          (s) => c.client().countSubdomains({ domain }, { signal: s }),
          signal,
        );
        const n = r.status === 'ok' ? r.value : 0;
        return framed({
          title: `ODIN subdomains of ${domain}`,
          lines: [`subdomains: ${countLine(n)}`],
          notes: cacheNote(r, c),
        });
      },
    };
  },
});

export const searchSubdomains = tool({
  name: 'odin_search_subdomains',
  title: 'ODIN: search subdomains',
  description:
    'Lists subdomains ODIN has recorded under a registered domain, newest first, optionally only those containing a keyword (e.g. "vpn", "dev", "admin").',
  inputSchema: {
    type: 'object',
    properties: {
      domain: domainName,
      keyword: {
        type: 'string',
        description: 'Only names containing this text, e.g. "vpn".',
        maxLength: 100,
      },
      limit,
    },
    required: ['domain'],
    additionalProperties: false,
  },
  prepare(input, ctx) {
    const domain = gated(ctx.gate, str(input, 'domain'), 'domain');
    const keyword = str(input, 'keyword') || undefined;
    if (keyword) gatedQuery(ctx.gate, keyword);
    const n = int(input, 'limit', DEFAULT_RESULTS);
    return {
      sends: sends(
        ctx.origin(),
        `the domain name ${domain}${keyword ? ` and the keyword ${JSON.stringify(keyword)}` : ''} (up to ${n} results)`,
        'POST /v1/domain/search',
      ),
      async run(c, signal) {
        const r = await fetchVia<Page<DomainRecord>>(
          c,
          'agent.searchSubdomains',
          JSON.stringify([domain, keyword ?? '', n]),
          (s) => c.client().searchDomains({ domain, keyword, limit: n }, { signal: s }),
          signal,
        );
        const lines = listed(r, domainLine, 'subdomain(s)');
        return framed({
          title: `ODIN subdomains of ${domain}${keyword ? ` containing ${q(keyword, 100)}` : ''}`,
          lines,
          notes: cacheNote(r, c),
        });
      },
    };
  },
});

export const searchBuckets = tool({
  name: 'odin_search_buckets',
  title: 'ODIN: search exposed buckets',
  description:
    'Searches the cloud storage buckets ODIN found open to the internet (AWS, GCP, DigitalOcean, Linode) and lists them with provider, file counts and sensitivity labels. Use it to check whether an organisation leaks files.',
  inputSchema: {
    type: 'object',
    properties: { query: query('Example: name:"acme" or labels:credential AND provider:aws'), limit },
    required: ['query'],
    additionalProperties: false,
  },
  prepare(input, ctx) {
    const qy = gatedQuery(ctx.gate, str(input, 'query'));
    const n = int(input, 'limit', DEFAULT_RESULTS);
    return {
      sends: sends(
        ctx.origin(),
        `the query ${JSON.stringify(qy)} (up to ${n} results)`,
        'POST /v1/exposed/buckets/search',
      ),
      async run(c, signal) {
        const r = await fetchVia<Page<Bucket>>(
          c,
          'agent.searchBuckets',
          JSON.stringify([qy, n]),
          (s) => c.client().searchBuckets({ query: qy, limit: n }, { signal: s }),
          signal,
        );
        const lines = listed(r, bucketLine, 'bucket(s)');
        return framed({ title: `ODIN exposed buckets ${q(qy, 200)}`, lines, notes: cacheNote(r, c) });
      },
    };
  },
});

export const countFiles = tool({
  name: 'odin_count_files',
  title: 'ODIN: count exposed files',
  description:
    'Counts the files in exposed cloud storage buckets that match a query (e.g. by extension, bucket name or sensitivity).',
  inputSchema: {
    type: 'object',
    properties: { query: query('Example: ext:sql or bucket:"acme-backups"') },
    required: ['query'],
    additionalProperties: false,
  },
  prepare(input, ctx) {
    const qy = gatedQuery(ctx.gate, str(input, 'query'));
    return {
      sends: sends(ctx.origin(), `the query ${JSON.stringify(qy)}`, 'POST /v1/exposed/files/count'),
      async run(c, signal) {
        const r = await fetchVia(
          c,
          'agent.countFiles',
          qy,
          (s) => c.client().countFiles({ query: qy }, { signal: s }),
          signal,
        );
        const n = r.status === 'ok' ? r.value : 0;
        return framed({
          title: `ODIN exposed file count ${q(qy, 200)}`,
          lines: [`files: ${countLine(n)}`],
          notes: cacheNote(r, c),
        });
      },
    };
  },
});

export const summarizeFiles = tool({
  name: 'odin_summarize_files',
  title: 'ODIN: summarize exposed files by a field',
  description:
    'Groups the exposed files matching a query by one field (e.g. extension, bucket, category) and returns the most common values with counts.',
  inputSchema: {
    type: 'object',
    properties: {
      field: field('e.g. ext, bucket, category.'),
      query: query('Example: bucket:"acme-backups"'),
      limit,
    },
    required: ['field', 'query'],
    additionalProperties: false,
  },
  prepare(input, ctx) {
    const qy = gatedQuery(ctx.gate, str(input, 'query'));
    const f = gatedQuery(ctx.gate, str(input, 'field'));
    const n = int(input, 'limit', DEFAULT_RESULTS);
    return {
      sends: sends(
        ctx.origin(),
        `the field ${JSON.stringify(f)} and the query ${JSON.stringify(qy)}`,
        'POST /v1/exposed/files/summary',
      ),
      async run(c, signal) {
        const r = await fetchVia(
          c,
          'agent.summarizeFiles',
          JSON.stringify([f, qy, n]),
          (s) => c.client().summarizeFiles({ field: f, query: qy, limit: n }, { signal: s }),
          signal,
        );
        const lines = r.status === 'ok' ? aggregationLines(r.value) : ['no values'];
        return framed({
          title: `ODIN exposed files ${q(qy, 200)} by ${q(f, 80)}`,
          lines,
          notes: cacheNote(r, c),
        });
      },
    };
  },
});

/** Most characters of text the indicator tool reads (a big log is fine; a disk image is not). */
export const MAX_INDICATOR_TEXT = 20_000_000;

export const listIndicatorsTool = tool({
  name: 'odin_list_indicators',
  title: 'ODIN: list indicators in text',
  local: true,
  description:
    'Lists the IP addresses, CIDR blocks and domain names in a text (a log, config or threat report; defanged forms like 1.2.3[.]4 are recognised), most frequent first, and says for each whether ODIN may look it up or why it never leaves the machine (private, reserved, internal). Runs locally and sends nothing. Use it before the lookup tools.',
  inputSchema: {
    type: 'object',
    properties: {
      text: {
        type: 'string',
        description: 'The text to scan. Give this, or file.',
        maxLength: MAX_INDICATOR_TEXT,
      },
      file: {
        type: 'string',
        description:
          "In VS Code: a workspace file path to scan instead of text. With neither, the active editor's selection (or whole file) is scanned.",
        maxLength: 1000,
      },
      max: {
        type: 'integer',
        description: 'Most indicators to list (default 50).',
        minimum: 1,
        maximum: 200,
        default: 50,
      },
    },
    additionalProperties: false,
  },
  prepare(input, ctx) {
    const text = typeof input.text === 'string' ? input.text : undefined;
    const file = str(input, 'file') || undefined;
    const max = int(input, 'max', 50);
    return {
      async run(c, signal) {
        let scan = text === undefined ? undefined : { text, source: 'the text' };
        if (!scan) {
          if (!c.localText) throw new ToolInputError('Pass the text to scan in "text".');
          scan = await c.localText(file, signal);
        }
        if (scan.text.length > MAX_INDICATOR_TEXT)
          throw new ToolInputError('The text is too large to scan here.');
        return indicatorsAnswer(
          await listIndicators(scan.text, { signal, maxUnique: 10_000 }),
          ctx.gate,
          max,
          scan.source,
        );
      },
    };
  },
});

/** The indicator list as text: value, kind, count, and whether it may be looked up. */
export function indicatorsAnswer(
  list: Awaited<ReturnType<typeof listIndicators>>,
  gate: AgentGate,
  max: number,
  source: string,
): string {
  const lines = [
    `Indicators in ${source} (found locally, nothing sent): ${num(list.items.length)} unique${list.truncated ? '+' : ''}, ${num(list.total)} occurrence(s).`,
  ];
  for (const it of list.items.slice(0, max)) {
    const kind = it.kind === 'domain' ? 'domain' : it.kind === 'cidr' ? 'cidr' : 'ip';
    const v = gate.value(it.value, kind);
    const verdict = v.allowed
      ? 'may be looked up'
      : `never sent: ${v.reason.replace(/^.*? is not sent to ODIN: /, '')}`;
    lines.push(
      `${q(it.value, 100)} ${it.kind} x${num(it.count)}${it.defanged ? ' (defanged)' : ''}; ${verdict}`,
    );
  }
  if (list.items.length > max) lines.push(`… ${num(list.items.length - max)} more indicator(s) not shown`);
  return plain(lines);
}

/** Default and largest number of requests one triage call may send without being asked for more. */
export const TRIAGE_DEFAULT_MAX_REQUESTS = 20;
export const TRIAGE_MAX_REQUESTS = 500;
const TRIAGE_ROWS = 25;

/** The triage's privacy check and a source whose every lookup passes the agent gate again. */
function agentTriageSource(c: ToolContext): EnrichmentSource {
  const source = layerSource({
    layer: c.requests,
    client: () => c.client(),
    batching: true,
    automatic: true,
  });
  const pass = (value: string, kind: ValueKind): string => {
    const r = c.gate.value(value, kind);
    if (!r.allowed) throw new ToolRefusal(r.reason);
    return r.value;
  };
  return guardedSource(source, pass);
}

async function scanForTriage(
  input: Input,
  c: ToolContext,
  signal?: AbortSignal,
): Promise<{ triage: Triage; preview: Preview; source: string }> {
  const text = typeof input.text === 'string' ? input.text : undefined;
  const file = str(input, 'file') || undefined;
  let scan = text === undefined ? undefined : { text, source: 'the text' };
  if (!scan) {
    if (!c.localText) throw new ToolInputError('Pass the text to triage in "text".');
    scan = await c.localText(file, signal);
  }
  if (scan.text.length > MAX_INDICATOR_TEXT)
    throw new ToolInputError('The text is too large to triage here.');
  const t = await buildTriage(
    [{ uri: 'agent:text', text: scan.text }],
    (kind, value) => {
      const r = c.gate.value(value, kind === 'domain' ? 'domain' : kind === 'cidr' ? 'cidr' : 'ip');
      return r.allowed
        ? { allowed: true, reason: '' }
        : { allowed: false, reason: r.reason.replace(/^.*? is not sent to ODIN: /, '') };
    },
    { signal, maxUnique: 10_000 },
  );
  return { triage: t, preview: preview(t, agentTriageSource(c)), source: scan.source };
}

const TRIAGE_RANK: Record<string, number> = {
  vulnerable: 5,
  failed: 4,
  enriched: 3,
  pending: 2,
  unknown: 1,
  local: 0,
};

function triageRank(r: TriageRow): number {
  return r.status === 'enriched' && r.verdict?.kind === 'host' && r.verdict.vulnerable
    ? TRIAGE_RANK.vulnerable!
    : (TRIAGE_RANK[r.status] ?? 0);
}

/** One row of the triage answer: value, kind, count, verdict (API text quoted). */
function triageLine(r: TriageRow): string {
  const head = `${q(r.value, 100)} ${r.kind} x${num(r.count)}`;
  const v = r.verdict;
  if (r.status === 'local') return `${head}; never sent: ${q(r.localReason ?? 'private', 80)}`;
  if (r.status === 'unknown') return `${head}; unknown to ODIN`;
  if (r.status === 'pending') return `${head}; not enriched${r.reason ? `: ${q(r.reason, 80)}` : ''}`;
  if (r.status === 'failed') return `${head}; failed: ${q(r.reason ?? 'error', 80)}`;
  if (v?.kind === 'host') {
    const bits = [
      v.vulnerable
        ? `VULNERABLE, ${num(v.cves)} CVE(s)${v.maxScore !== undefined ? ` max CVSS ${v.maxScore.toFixed(1)}` : ''}${v.maxSeverity ? ` ${v.maxSeverity}` : ''}`
        : 'no known CVEs',
      v.exploits ? `${num(v.exploits)} exploit(s)` : '',
      v.cveIds.length ? `worst ${qList(v.cveIds, 3, 20)}` : '',
      v.ports.length
        ? `ports ${v.ports.slice(0, 8).join(',')}${v.ports.length > 8 ? `,+${v.ports.length - 8}` : ''}`
        : '',
      v.org || v.asn
        ? `network ${[v.asn ? q(v.asn, 20) : '', v.org ? q(v.org, 60) : ''].filter(Boolean).join(' ')}`
        : '',
      v.country ? `country ${q(v.country, 20)}` : '',
      v.tags.length ? `tags ${qList(v.tags, 4, 30)}` : '',
    ];
    return `${head}; ${bits.filter(Boolean).join('; ')}`;
  }
  if (v?.kind === 'domain') {
    const bits = [
      v.registrar ? `registrar ${q(v.registrar, 60)}` : '',
      v.created
        ? `created ${day(v.created)}${v.ageDays !== undefined ? ` (${num(v.ageDays)} days old)` : ''}`
        : '',
      v.expires ? `expires ${day(v.expires)}` : '',
      v.subdomains !== undefined ? `${num(v.subdomains)} subdomain(s)` : '',
    ];
    return `${head}; ${bits.filter(Boolean).join('; ') || 'whois known'}`;
  }
  return head;
}

function previewSentence(p: Preview, origin: string, source: string): string {
  const ips = p.byKind.ipv4 + p.byKind.ipv6;
  return (
    `Triage of ${source}: ${num(p.unique)} unique indicator(s) (${num(ips)} IP, ${num(p.byKind.domain)} domain, ${num(p.byKind.cidr)} CIDR), found locally. ` +
    `${num(p.private)} private or internal: never sent. ${num(p.cached)} answered from the local cache. ` +
    (p.requests > 0
      ? `Sends ${num(p.toSend)} IP address(es) and domain name(s) to ODIN at ${origin} in ${num(p.requests)} request(s) (IPs batched into ip: host searches, POST /v1/hosts/search; domains GET /v1/domain/whois/{domain}).`
      : 'Sends nothing: every answer is cached or nothing may be sent.')
  );
}

export const triageFileTool = tool({
  name: 'odin_triage',
  title: 'ODIN: triage a file',
  description:
    'Triages every IP address and domain name in a text or workspace file (a log, config or threat report): scans locally, then enriches the public ones from ODIN in few requests (IPs batched into host searches; answers already cached cost nothing) and returns one line per indicator with its verdict (vulnerable with CVE count and worst CVSS, exploits, open ports, network owner, country; for domains registrar, age and expiry), the most serious first. Private, reserved and internal values are never sent. Use it instead of many single lookups when a text holds more than a few indicators. It sends at most maxRequests requests: a bigger triage answers with the count needed and sends nothing.',
  inputSchema: {
    type: 'object',
    properties: {
      text: {
        type: 'string',
        description: 'The text to triage. Give this, or file.',
        maxLength: MAX_INDICATOR_TEXT,
      },
      file: {
        type: 'string',
        description:
          "In VS Code: a workspace file path to triage instead of text. With neither, the active editor's selection (or whole file) is triaged.",
        maxLength: 1000,
      },
      maxRequests: {
        type: 'integer',
        description: `Most requests this call may send (default ${TRIAGE_DEFAULT_MAX_REQUESTS}, at most ${TRIAGE_MAX_REQUESTS}); each costs API credits.`,
        minimum: 1,
        maximum: TRIAGE_MAX_REQUESTS,
        default: TRIAGE_DEFAULT_MAX_REQUESTS,
      },
      max: {
        type: 'integer',
        description: `Most indicators to list (default ${TRIAGE_ROWS}).`,
        minimum: 1,
        maximum: 100,
        default: TRIAGE_ROWS,
      },
    },
    additionalProperties: false,
  },
  prepare(input, ctx) {
    // What it sends is known only after the local scan (prepareLocal); without one, say the bound.
    const blocked = ctx.gate.blocked();
    if (blocked) throw new ToolRefusal(blocked);
    const cap = int(input, 'maxRequests', TRIAGE_DEFAULT_MAX_REQUESTS);
    return {
      sends: `Sends the public IP addresses and domain names of the text to ODIN at ${ctx.origin()} in at most ${num(cap)} request(s); private and internal values are never sent.`,
      run: (c, signal) => runTriageTool(input, c, signal),
    };
  },
});
triageFileTool.prepareLocal = async (raw, c, signal) => {
  const input = validateInput(triageFileTool.inputSchema, raw);
  const blocked = c.gate.blocked();
  if (blocked) throw new ToolRefusal(blocked);
  const { preview: p, source } = await scanForTriage(input, c, signal);
  const cap = int(input, 'maxRequests', TRIAGE_DEFAULT_MAX_REQUESTS);
  const over = p.requests > cap ? ` That is more than maxRequests (${num(cap)}): nothing will be sent.` : '';
  return {
    sends: p.requests > 0 && !over ? previewSentence(p, c.origin(), source) : undefined,
    run: (cc, s) => runTriageTool(input, cc, s),
    ...(over ? { note: previewSentence(p, c.origin(), source) + over } : {}),
  };
};

async function runTriageTool(input: Input, c: ToolContext, signal?: AbortSignal): Promise<string> {
  const blocked = c.gate.blocked();
  if (blocked) throw new ToolRefusal(blocked);
  const cap = int(input, 'maxRequests', TRIAGE_DEFAULT_MAX_REQUESTS);
  const max = int(input, 'max', TRIAGE_ROWS);
  const { triage: t, preview: p, source } = await scanForTriage(input, c, signal);
  const notes: string[] = [];
  let summary: string;
  let requests = 0;
  if (p.requests > cap) {
    summary = `${account(t).summary}`;
    notes.push(
      `Not enriched: this triage needs ${num(p.requests)} request(s), more than maxRequests (${num(cap)}). Nothing was sent; call again with maxRequests ${num(Math.min(p.requests, TRIAGE_MAX_REQUESTS))}${p.requests > TRIAGE_MAX_REQUESTS ? ' on a smaller part of the text' : ''}, or triage in VS Code ("ODIN: Triage Indicators in File").`,
    );
  } else {
    const acc = await enrich(t, agentTriageSource(c), { batching: true, signal });
    summary = acc.summary;
    requests = acc.requests;
  }
  const rows = [...t.rows].sort(
    (a, b) =>
      triageRank(b) - triageRank(a) ||
      (b.verdict?.kind === 'host' ? (b.verdict.maxScore ?? -1) : -1) -
        (a.verdict?.kind === 'host' ? (a.verdict.maxScore ?? -1) : -1) ||
      b.count - a.count,
  );
  const vulnerable = t.rows.filter((r) => r.verdict?.kind === 'host' && r.verdict.vulnerable).length;
  const lines = [
    `indicators: ${num(t.rows.length)} unique${t.truncated ? '+' : ''} in ${num(t.occurrences)} occurrence(s); ${num(p.private)} never sent (private or internal); ${num(vulnerable)} vulnerable host(s)`,
    `enrichment: ${summary}; ${num(requests)} request(s) sent, ${num(p.cached)} answered from the cache`,
    ...rows.slice(0, max).map(triageLine),
  ];
  if (rows.length > max) lines.push(`… ${num(rows.length - max)} more indicator(s) not shown`);
  return framed({ title: `ODIN triage of ${source}`, lines, notes });
}

/** Every tool, in the order both surfaces list them. */
export const AGENT_TOOLS: readonly AgentTool[] = [
  lookupHost,
  searchHosts,
  countHosts,
  summarizeHosts,
  whois,
  countSubdomains,
  searchSubdomains,
  searchBuckets,
  countFiles,
  summarizeFiles,
  listIndicatorsTool,
  triageFileTool,
];

export function findTool(name: string): AgentTool | undefined {
  return AGENT_TOOLS.find((t) => t.name === name);
}

/**
 * Runs one tool call end to end: validate, gate, run. The answer is text; a refusal,
 * bad input or API error is thrown as an error whose message is short (`toolErrorText`).
 */
export async function invokeTool(
  tool: AgentTool,
  input: unknown,
  ctx: ToolContext,
  signal?: AbortSignal,
): Promise<string> {
  // `prepareLocal` only serves confirmations: a run scans for itself.
  const call = tool.prepare(input, ctx);
  return call.run(ctx, signal);
}
