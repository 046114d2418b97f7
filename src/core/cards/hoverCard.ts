/**
 * Hover cards as Markdown text: what an IP, a CIDR block or a domain is, from the ODIN
 * answer or from local facts only. Pure string building (no `vscode`), so it is unit
 * tested against attacker-written scan data.
 *
 * Rules (SECURITY.md, "Rendering attacker strings"): every string that came from the API or
 * from the workspace goes through `escapeMarkdown`; the only links are our own commands,
 * built here with JSON arguments percent-encoded so no `)` or space can end them early;
 * no HTML, no theme icons, no code spans around untrusted text.
 */
import { SEVERITY_RANK, type Cve, type Host, type WhoisRecord } from '../../api/types';
import { certSummary, cvesHaveDetails, serviceSummary } from '../hosts/serviceText';
import { escapeMarkdown } from '../text/inert';
import { l10n } from '../text/l10n';
import { fmt } from '../text/numbers';
import { vulnerability } from '../hosts/vulnerability';
// The parts by file, not through the index: the index brings the feed parsers (and node:zlib),
// which activation must not load (it stays fast).
import { hostExploitation, hostSignalText, onceEach, type ExploitationView } from '../exploitation/host';
import { byRisk, compareIds } from '../exploitation/order';
import { cveRisk } from '../exploitation/risk';
import { feedNeedsNote, feedNote, shortSignals } from '../exploitation/text';

/**
 * The commands hover cards may link to; the hover's MarkdownString enables exactly these.
 * Each is a command of the command map (src/extension/commands.ts `HoverLinkCommands`),
 * registered at activation in every window: a link never names a missing command.
 */
export const HOVER_COMMANDS = {
  openHostDetails: 'odin.openHostDetails',
  openWhoisDetails: 'odin.openWhoisDetails',
  searchSimilar: 'odin.searchSimilar',
  copyValue: 'odin.copyValue',
  lookup: 'odin.lookup',
  resume: 'odin.resumeLookups',
} as const;
export const HOVER_COMMAND_IDS: readonly string[] = Object.values(HOVER_COMMANDS);

export interface CardOptions {
  /** Epoch ms, for "expires in N days" and "cached N min ago". */
  now: number;
  /** The indicator as written, when it was defanged (`1.2.3[.]4`): shown as "refanged from". */
  defangedFrom?: string;
  /** A name as written in Unicode (`bücher-login.de`), when the card is about its punycode. */
  writtenAs?: string;
  /** When the answer came from the cache: its age is shown, and whether it is stale. */
  cachedAt?: number;
  stale?: boolean;
  /** The KEV and EPSS feeds: CVEs ordered by the one rule and each with its signal. */
  exploitation?: ExploitationView;
}

const MAX_PORTS = 6;
const MAX_TAGS = 8;
const MAX_CVES = 3;
const MAX_NAME_SERVERS = 4;
const DAY_MS = 86_400_000;

/** `[label](command:id?args "tooltip")` with the arguments JSON-encoded; only our hover commands. */
export function commandLink(label: string, id: string, args: unknown[], tooltip: string): string {
  // l10n: English, for the log (a programming error)
  if (!HOVER_COMMAND_IDS.includes(id)) throw new Error(`not a hover command: ${id}`);
  // encodeURIComponent leaves !'()* alone; a ')' would end the link target.
  const encoded = encodeURIComponent(JSON.stringify(args)).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `[${escapeMarkdown(label)}](command:${id}?${encoded} "${tooltip.replace(/["\\()]/g, '')}")`;
}

function links(parts: string[]): string {
  return parts.filter((p) => p !== '').join(' · ');
}

function md(text: string | undefined, max = 120): string {
  return escapeMarkdown(text ?? '', max);
}

/** YYYY-MM-DD, or undefined for absent / unset (`0001-01-01…`) / unparsable dates. */
export function day(iso: string | undefined): string | undefined {
  if (!iso || iso.startsWith('0001-01-01')) return undefined;
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return undefined;
  return new Date(t).toISOString().slice(0, 10);
}

function ago(ms: number): string {
  const min = Math.max(0, Math.round(ms / 60_000));
  if (min < 1) return l10n.t('just now');
  if (min < 60) return l10n.t('{0} min ago', min);
  const h = Math.round(min / 60);
  if (h < 48) return l10n.t('{0} h ago', h);
  return l10n.t('{0} days ago', Math.round(h / 24));
}

function header(title: string, opts: CardOptions): string {
  const refanged = opts.defangedFrom
    ? ` ${l10n.t('(refanged from {0})', md(opts.defangedFrom, 80))}`
    : opts.writtenAs
      ? ` ${l10n.t('(written {0})', md(opts.writtenAs, 80))}`
      : '';
  return `**${title}**${refanged}`;
}

/**
 * How a card names the text it is about when that is not the value it looks up: a defanged
 * form (`1.2.3[.]4`), or a name written in Unicode (`bücher-login.de`, looked up in punycode).
 */
export function asWritten(ind: {
  kind: string;
  raw: string;
  value: string;
  defanged: boolean;
}): Pick<CardOptions, 'defangedFrom' | 'writtenAs'> {
  if (ind.defanged) return { defangedFrom: ind.raw };
  return ind.kind === 'domain' && ind.raw.toLowerCase() !== ind.value ? { writtenAs: ind.raw } : {};
}

function footer(opts: CardOptions, extra: string[] = []): string {
  const bits = [...extra];
  if (opts.cachedAt !== undefined) {
    bits.push(
      opts.stale
        ? l10n.t('cached {0}, may be outdated', ago(opts.now - opts.cachedAt))
        : l10n.t('cached {0}', ago(opts.now - opts.cachedAt)),
    );
  }
  return bits.length ? `_${bits.join(' · ')}_` : '';
}

function join(lines: string[]): string {
  // Two trailing spaces would be a hard break; a blank line between blocks is clearer.
  return lines.filter((l) => l !== '').join('\n\n');
}

/**
 * The top CVEs of a host, each once, and its exploit count: ordered by the one rule of
 * core/exploitation (KEV, then EPSS, then CVSS; severity and id break ties). Without the
 * feeds the rule falls back to CVSS.
 */
export function topCves(
  host: Host,
  max = MAX_CVES,
  x?: ExploitationView,
): { top: Cve[]; total: number; exploits: number } {
  const byId = new Map<string, Cve>();
  const exploitIds = new Set<string>();
  for (const service of host.services) {
    for (const cve of service.cve) {
      const known = byId.get(cve.id);
      if (!known || (cve.score ?? -1) > (known.score ?? -1)) byId.set(cve.id, cve);
      for (const e of cve.exploit) exploitIds.add(e.id);
    }
  }
  const all = byRisk(
    [...byId.values()],
    (c) => cveRisk(x?.lookup(c.id), c.score),
    (a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || compareIds(a.id, b.id),
  );
  return { top: all.slice(0, max), total: all.length, exploits: exploitIds.size };
}

/** The card's open ports: each with what it runs and says, and how many the host listed. */
function openPortsLine(host: Host): string {
  if (!host.services.length) return l10n.t('**Open ports:** none seen');
  const ports = [...host.services]
    .sort((a, b) => a.port - b.port)
    .slice(0, MAX_PORTS)
    .map((s) => {
      const proto = s.protocol ? `/${md(s.protocol, 10)}` : '';
      const what = [s.name, s.product, s.version].filter((x): x is string => !!x && x.trim() !== '');
      // What the service says: HTTP status, title and server, or its banner's first line.
      const says = serviceSummary(s);
      return `${s.port}${proto}${what.length ? ` ${md(what.join(' '), 60)}` : ''}${says ? ` — ${md(says, 80)}` : ''}`;
    });
  // A host listing more services than normalisation keeps says how many it listed.
  const listed = host.services.length + (host.services_omitted ?? 0);
  const more = listed > MAX_PORTS ? ` · ${l10n.t('+{0} more', fmt(listed - MAX_PORTS))}` : '';
  const list = `${ports.join(' · ')}${more}`;
  return host.services_omitted
    ? l10n.t('**Open ports ({0}, {1} kept):** {2}', fmt(listed), fmt(host.services.length), list)
    : l10n.t('**Open ports ({0}):** {1}', fmt(listed), list);
}

/** The card for a public IP that ODIN knows. */
export function hostCard(ip: string, host: Host, opts: CardOptions): string {
  // Three compact paragraphs (hard line breaks inside): who and where; what is exposed;
  // freshness and actions. A hover is small: the links must show without scrolling.
  const asn = host.asn;
  const org = asn?.organization ?? host.whois?.organization;
  const owner = [asn?.number ? md(asn.number, 20) : '', org ? md(org) : ''].filter(Boolean).join(' ');
  const loc = host.location;
  const place = [loc?.city, loc?.country_name ?? loc?.country_code ?? asn?.country_code]
    .filter((p): p is string => !!p && p.trim() !== '')
    .map((p) => md(p, 60))
    .join(', ');
  const seen = day(host.last_updated_at);
  const who = breaks([
    `${header(`ODIN · ${md(ip, 60)}`, opts)}${owner ? ` — ${owner}` : ''}`,
    [place, seen ? l10n.t('last seen {0}', seen) : ''].filter(Boolean).join(' · '),
  ]);

  const exposed: string[] = [openPortsLine(host)];
  let cert: string | undefined;
  for (const s of host.services) if ((cert = certSummary(s.tls)) !== undefined) break;
  if (cert) exposed.push(l10n.t('**Certificate:** {0}', md(cert, 160)));
  // Tags that hold (normalisation keeps a tag only when its value is true).
  if (host.tags.length) {
    const tags = host.tags.slice(0, MAX_TAGS).map((t) => `**${md(t.pretty_name ?? t.name, 40)}**`);
    const more = host.tags.length > MAX_TAGS ? ` · ${l10n.t('+{0} more', host.tags.length - MAX_TAGS)}` : '';
    exposed.push(l10n.t('**Tags:** {0}', `${tags.join(' · ')}${more}`));
  }
  const x = opts.exploitation && onceEach(opts.exploitation);
  const { top, total, exploits } = topCves(host, MAX_CVES, x);
  const vuln = vulnerability(host);
  const feedFooter: string[] = [];
  if (vuln.state === 'vulnerable') {
    // Exploits are only known from full CVE records (a search hit's `{id, severity}` says nothing of them).
    // Past the bound of CVEs a host keeps, the count is a floor ("5,000+ CVEs").
    const cves =
      total === 1 && !host.cves_cut
        ? l10n.t('1 CVE')
        : l10n.t('{0} CVEs', `${fmt(total)}${host.cves_cut ? '+' : ''}`);
    const known = exploits === 1 ? l10n.t('1 known exploit') : l10n.t('{0} known exploits', fmt(exploits));
    const counts = cvesHaveDetails(host.services) ? `${cves} · ${known}` : cves;
    if (x) {
      // The verdict leads with the worst exploitation signal, then the CVSS: a known exploited CVE outranks a higher score.
      const signal = hostSignalText(hostExploitation(allCves(host), x));
      exposed.push(l10n.t('**Vulnerable:** yes · {0}', signal ? `${signal} · ${counts}` : counts));
      // A hover is small: a feed is named only when it is stale or unusable (never a silent
      // "not exploited"); fresh feeds' dates are on the host page and in the reports.
      // A problem's detail can quote the feed's body (a parser's message): escaped like API text.
      for (const s of [x.kevStatus(), x.epssStatus()])
        if (feedNeedsNote(s))
          feedFooter.push(feedNote('detail' in s ? { ...s, detail: md(s.detail, 160) } : s));
    } else exposed.push(l10n.t('**Vulnerable:** yes · {0}', counts));
    if (top.length) {
      // One line, so the links stay visible without scrolling: the worst signal is in words
      // on the verdict line above, each CVE's in short here ("KEV, ransomware; EPSS 66.4%").
      const list = top.map((c) => {
        const signals = x ? shortSignals(x.lookup(c.id)) : '';
        return `${md(c.id, 40)} ${c.severity}${c.score !== undefined ? ` ${c.score.toFixed(1)}` : ''}${signals ? ` (${signals})` : ''}`;
      });
      exposed.push(l10n.t('**Top CVEs:** {0}', list.join(' · ')));
    }
  } else if (vuln.state === 'unknown') {
    exposed.push(l10n.t('**Vulnerable:** unknown, {0}', md(vuln.why, 80)));
  } else {
    exposed.push(l10n.t('**Vulnerable:** no known CVEs'));
  }

  const actions = links([
    commandLink(
      l10n.t('Open details'),
      HOVER_COMMANDS.openHostDetails,
      [ip],
      l10n.t('Open the full host details'),
    ),
    commandLink(
      l10n.t('Similar hosts'),
      HOVER_COMMANDS.searchSimilar,
      [ip],
      l10n.t('Search hosts like this one'),
    ),
    commandLink(l10n.t('Copy IP'), HOVER_COMMANDS.copyValue, [ip], l10n.t('Copy the IP address')),
  ]);
  return join([who, breaks(exposed), breaks([footer(opts, feedFooter), actions])]);
}

/** Every CVE of a host, highest score first (so the first of each id carries its highest score). */
function allCves(host: Host): Cve[] {
  return host.services.flatMap((s) => s.cve).sort((a, b) => (b.score ?? -1) - (a.score ?? -1));
}

/** Lines of one paragraph, with Markdown hard line breaks between them. */
function breaks(lines: string[]): string {
  return lines.filter((l) => l !== '').join('  \n');
}

/** ODIN answered "not found" for this IP. */
export function hostNotFoundCard(ip: string, opts: CardOptions): string {
  return join([
    header(`ODIN · ${md(ip, 60)}`, opts),
    l10n.t('ODIN has no scan data for this address.'),
    footer(opts),
    links([commandLink(l10n.t('Copy IP'), HOVER_COMMANDS.copyValue, [ip], l10n.t('Copy the IP address'))]),
  ]);
}

export type Part<T> = { ok: T } | { notFound: true } | { error: string } | { pending: string };

/** The card for a domain: whois essentials and the number of known subdomains. */
export function domainCard(
  domain: string,
  whois: Part<WhoisRecord>,
  subdomains: Part<number>,
  opts: CardOptions & { expiryWarningDays: number; hovered?: string },
): string {
  const title =
    opts.hovered && opts.hovered !== domain
      ? `${header(`ODIN · ${md(opts.hovered, 120)}`, opts)} ${l10n.t('(whois of {0})', md(domain, 120))}`
      : header(`ODIN · ${md(domain, 120)}`, opts);
  const lines: string[] = [title];
  if ('ok' in whois) {
    const w = whois.ok;
    if (w.registrar?.name) lines.push(l10n.t('**Registrar:** {0}', md(w.registrar.name)));
    const created = day(w.created_date);
    const expires = day(w.expires_date);
    const dates: string[] = [];
    if (created) dates.push(l10n.t('created {0}', created));
    if (expires) {
      const left = Math.floor((Date.parse(w.expires_date as string) - opts.now) / DAY_MS);
      if (left < 0) dates.push(l10n.t('**⚠ expired {0}**', expires));
      else if (left <= opts.expiryWarningDays)
        dates.push(
          left === 1
            ? l10n.t('**⚠ expires {0} (in 1 day)**', expires)
            : l10n.t('**⚠ expires {0} (in {1} days)**', expires, left),
        );
      else dates.push(l10n.t('expires {0}', expires));
    }
    if (dates.length) lines.push(dates.join(' · '));
    if (w.name_servers.length) {
      const ns = w.name_servers.slice(0, MAX_NAME_SERVERS).map((n) => md(n.toLowerCase(), 80));
      const more =
        w.name_servers.length > MAX_NAME_SERVERS
          ? ` · ${l10n.t('+{0} more', w.name_servers.length - MAX_NAME_SERVERS)}`
          : '';
      lines.push(l10n.t('**Name servers:** {0}', `${ns.join(' · ')}${more}`));
    }
  } else if ('notFound' in whois) {
    lines.push(l10n.t('No whois record in ODIN.'));
  } else if ('error' in whois) {
    lines.push(l10n.t('Whois: {0}', md(whois.error, 200)));
  } else {
    lines.push(l10n.t('Whois: {0}', md(whois.pending, 200)));
  }
  if ('ok' in subdomains) lines.push(l10n.t('**Known subdomains:** {0}', fmt(subdomains.ok)));
  else if ('error' in subdomains) lines.push(l10n.t('Subdomains: {0}', md(subdomains.error, 200)));
  const actions = links([
    'ok' in whois
      ? commandLink(
          l10n.t('Open whois'),
          HOVER_COMMANDS.openWhoisDetails,
          [domain],
          l10n.t('Open the full whois record'),
        )
      : '',
    commandLink(l10n.t('Copy domain'), HOVER_COMMANDS.copyValue, [domain], l10n.t('Copy the domain name')),
  ]);
  return join([lines[0], breaks(lines.slice(1)), breaks([footer(opts), actions])]);
}

/** The card for a CIDR block: how many hosts ODIN knows in it. */
export function cidrCard(cidr: string, total: Part<number>, opts: CardOptions): string {
  const lines = [header(`ODIN · ${md(cidr, 60)}`, opts)];
  if ('ok' in total) {
    // The live service caps totals at 10000.
    const n = total.ok >= 10_000 ? l10n.t('{0} or more', fmt(10_000)) : fmt(total.ok);
    lines.push(l10n.t('**Known hosts in this block:** {0}', n));
  } else if ('notFound' in total) {
    lines.push(l10n.t('**Known hosts in this block:** {0}', 0));
  } else if ('error' in total) {
    lines.push(md(total.error, 200));
  } else {
    lines.push(md(total.pending, 200));
  }
  const actions = links([
    commandLink(
      l10n.t('Search hosts in it'),
      HOVER_COMMANDS.searchSimilar,
      [cidr],
      l10n.t('Search the hosts in this block'),
    ),
    commandLink(l10n.t('Copy'), HOVER_COMMANDS.copyValue, [cidr], l10n.t('Copy the block')),
  ]);
  return join([lines[0], breaks(lines.slice(1)), breaks([footer(opts), actions])]);
}

/**
 * Local facts only: nothing was sent. `what` says what the value is (e.g. "Private-Use
 * (RFC 1918)"), `why` why it was not looked up; `lookupLink` offers an explicit lookup.
 */
export function localCard(
  value: string,
  facts: { what?: string; why: string; lookupLink?: boolean; resumeLink?: boolean },
  opts: CardOptions,
): string {
  const title = header(`ODIN · ${md(value, 120)}`, opts);
  return join([
    facts.what
      ? l10n.t('{0} is {1}: not looked up', title, md(facts.what, 200))
      : l10n.t('{0}: not looked up', title),
    md(facts.why, 300),
    links([
      facts.lookupLink
        ? commandLink(
            l10n.t('Look up now'),
            HOVER_COMMANDS.lookup,
            [value],
            l10n.t('Send this value to ODIN once'),
          )
        : '',
      facts.resumeLink
        ? commandLink(l10n.t('Resume lookups'), HOVER_COMMANDS.resume, [], l10n.t('Resume automatic lookups'))
        : '',
      commandLink(l10n.t('Copy'), HOVER_COMMANDS.copyValue, [value], l10n.t('Copy the value')),
    ]),
  ]);
}

/** A lookup failed: short user text, nothing else. */
export function errorCard(value: string, message: string, opts: CardOptions): string {
  return join([header(`ODIN · ${md(value, 120)}`, opts), md(message, 300)]);
}

/** The card of a lookup still under way (it goes on and fills the cache for the next hover). */
export function pendingCard(value: string, opts: CardOptions): string {
  return errorCard(value, l10n.t('ODIN has not answered yet: hover again in a moment.'), opts);
}
