/**
 * `odin_triage`: every indicator of a text scanned locally, the public ones enriched from
 * ODIN in few requests (IPs batched), one verdict line each, the most serious first. What it
 * sends is known after the local scan (`prepareLocal`), and it never sends more than
 * `maxRequests` requests, nor more than its confirmation said: the count is a request budget
 * the request layer enforces (a refused batch is looked up singly only within it, else the
 * answer says "over budget").
 *
 * Pure Node: no `vscode` import.
 */
import { RequestBudget } from '../core/requests/budget';
import {
  account,
  OVER_BUDGET,
  buildTriage,
  enrich,
  guardedSource,
  layerSource,
  preview,
  type EnrichmentSource,
  type Preview,
  type Triage,
  type TriageRow,
  verdictRisk,
} from '../core/triage';
import { compareRisk, type ExploitationView } from '../core/exploitation';
import { day, framed, num, q, qList } from './format';
import type { ValueKind } from './gate';
import { localText, MAX_INDICATOR_TEXT } from './indicatorTool';
import { validateInput, type Input } from './schema';
import { int, NotSpentError, tool, ToolRefusal, type ToolContext } from './toolKit';

/** Default and largest number of requests one triage call may send without being asked for more. */
export const TRIAGE_DEFAULT_MAX_REQUESTS = 20;
export const TRIAGE_MAX_REQUESTS = 500;
const TRIAGE_ROWS = 25;

/** The triage's privacy check and a source whose every lookup passes the agent gate again. */
function agentTriageSource(c: ToolContext, x?: ExploitationView): EnrichmentSource {
  const source = layerSource({
    layer: c.requests,
    client: () => c.client(),
    batching: true,
    automatic: true,
    ...(x ? { exploitation: () => x } : {}),
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
  const scan = await localText(input, c, 'triage', signal);
  const t = await buildTriage(
    [{ uri: 'agent:text', text: scan.text }],
    (kind, value) => {
      // The plan: the privacy decision alone; each value is decided again as it is sent.
      const r = c.gate.privacy(value, kind === 'domain' ? 'domain' : kind === 'cidr' ? 'cidr' : 'ip');
      return r.allowed ? { allowed: true, reason: '' } : { allowed: false, reason: r.why ?? r.reason };
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
        : v.cvesUnknown
          ? `vulnerability unknown: ${q(v.cvesUnknown, 60)}`
          : 'no known CVEs',
      v.exploited ? v.exploited : '',
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
  wire: 'Sends only those public values to the configured ODIN API (POST /v1/hosts/search, GET /v1/domain/whois/{domain}).',
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
    // The count this confirmation shows is the most the run may send.
    run: (cc, s) => runTriageTool(input, cc, s, p.requests),
    ...(over ? {} : { requests: p.requests }),
    ...(over ? { note: previewSentence(p, c.origin(), source) + over } : {}),
  };
};

async function runTriageTool(
  input: Input,
  c: ToolContext,
  signal?: AbortSignal,
  /** The request count the confirmation showed, when it showed one. */
  confirmed?: number,
): Promise<string> {
  const blocked = c.gate.blocked();
  if (blocked) throw new ToolRefusal(blocked);
  const cap = int(input, 'maxRequests', TRIAGE_DEFAULT_MAX_REQUESTS);
  const max = int(input, 'max', TRIAGE_ROWS);
  const { triage: t, preview: p, source } = await scanForTriage(input, c, signal);
  const notes: string[] = [];
  let summary: string;
  let requests = 0;
  const limit = Math.min(cap, confirmed ?? cap);
  if (p.requests > limit) {
    summary = `${account(t).summary}`;
    notes.push(
      p.requests > cap
        ? `Not enriched: this triage needs ${num(p.requests)} request(s), more than maxRequests (${num(cap)}). Nothing was sent; call again with maxRequests ${num(Math.min(p.requests, TRIAGE_MAX_REQUESTS))}${p.requests > TRIAGE_MAX_REQUESTS ? ' on a smaller part of the text' : ''}, or triage in VS Code ("ODIN: Triage Indicators in File").`
        : `Not enriched: this triage now needs ${num(p.requests)} request(s), more than the ${num(limit)} confirmed. Nothing was sent; call again to confirm the new count.`,
    );
  } else {
    // Over the session budget: nothing is sent (not the batch and then a refusal halfway).
    const ledger = c.requests.ledger;
    if (ledger && !ledger.fits(p.requests)) throw new NotSpentError(p.requests, ledger.snapshot());
    // KEV and EPSS order the answer (local feeds; nothing is asked about a CVE).
    const x = await c.exploitation?.().catch(() => undefined);
    const acc = await enrich(t, agentTriageSource(c, x), {
      batching: true,
      signal,
      budget: new RequestBudget(limit),
    });
    summary = acc.summary;
    requests = acc.requests;
    if (acc.stoppedBecause === OVER_BUDGET) {
      const left = t.rows.filter((r) => r.status === 'pending' && r.reason?.startsWith(OVER_BUDGET)).length;
      notes.push(
        `Over budget: ODIN refused the batched host search, and looking up the ${num(left)} IP address(es) left one by one would send more than the ${num(limit)} request(s) agreed to. Nothing more was sent. Triage in VS Code ("ODIN: Triage Indicators in File"), which asks before single lookups, or triage a smaller part of the text.`,
      );
    }
  }
  // Worst first: the verdict class, then the one rule of core/exploitation (KEV, EPSS, CVSS).
  const rows = [...t.rows].sort(
    (a, b) =>
      triageRank(b) - triageRank(a) ||
      compareRisk(verdictRisk(a.verdict), verdictRisk(b.verdict)) ||
      b.count - a.count,
  );
  const vulnerable = t.rows.filter((r) => r.verdict?.kind === 'host' && r.verdict.vulnerable).length;
  const lines = [
    `indicators: ${num(t.rows.length)} unique${t.truncated ? '+' : ''} in ${num(t.occurrences)} occurrence(s); ${num(p.private)} never sent (private or internal); ${num(vulnerable)} vulnerable host(s)`,
    `enrichment: ${summary}${requests === 0 && p.requests > limit ? '; 0 requests sent' : ''}; ${num(p.cached)} answered from the cache`,
    ...rows.slice(0, max).map(triageLine),
  ];
  if (rows.length > max) lines.push(`… ${num(rows.length - max)} more indicator(s) not shown`);
  return framed({ title: `ODIN triage of ${source}`, lines, notes });
}
