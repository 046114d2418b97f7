/**
 * The tools that ask the ODIN API: a host, whois, subdomains, and searches, counts and
 * summaries over hosts, buckets and files. Each one names exactly what it sends
 * (`sends`), passes every value through the agent gate first, and answers in framed lines.
 *
 * Pure Node: no `vscode` import.
 */
import { searchVia } from '../core/search';
import {
  bucketLine,
  countLine,
  domainLine,
  historyLines,
  hostLines,
  hostSummaryLine,
  listed,
  whoisLines,
} from './answerLines';
import { framed, q } from './format';
import { countTool, searchTool, summaryTool } from './queryTools';
import {
  cacheNote,
  DEFAULT_RESULTS,
  domainName,
  gated,
  gatedQuery,
  hostIp,
  int,
  limit,
  sends,
  str,
  tool,
  toolErrorText,
} from './toolKit';

export const lookupHost = tool({
  name: 'odin_lookup_host',
  title: 'ODIN: look up a host',
  description:
    'Looks up one public IP address in ODIN internet scan data: owner network (ASN), location, open ports with the software seen, the worst CVEs and whether exploits are known, hostnames and tags. Use it to judge whether an IP seen in a log or config is exposed or vulnerable. Private and internal addresses are refused without sending anything.',
  wire: 'Sends the IP address to the configured ODIN API (GET /v1/hosts/{ip}): 1 request, none when the answer is cached.',
  inputSchema: { type: 'object', properties: { ip: hostIp }, required: ['ip'], additionalProperties: false },
  prepare(input, ctx) {
    const ip = gated(ctx.gate, str(input, 'ip'), 'ip');
    return {
      sends: sends(ctx.origin(), `the IP address ${ip}`, 'GET /v1/hosts/{ip}'),
      plan: [{ spec: { kind: 'host', ip } }],
      async run(c, signal) {
        const r = await searchVia(c, { kind: 'host', ip }, { signal, automatic: true });
        if (r.status === 'notFound') {
          return framed({
            title: `ODIN host ${ip}: not found`,
            lines: ['ODIN has no scan record of this IP address.'],
            notes: cacheNote(r, c),
          });
        }
        const x = await c.exploitation?.().catch(() => undefined);
        return framed({ title: `ODIN host ${ip}`, lines: hostLines(r.value, x), notes: cacheNote(r, c) });
      },
    };
  },
});

export const searchHosts = searchTool({
  name: 'odin_search_hosts',
  title: 'ODIN: search hosts',
  description:
    'Searches ODIN internet scan data for hosts matching a query and lists them compactly (IP, network owner, country, open ports, worst CVE), with the total number of matches. Use odin_count_hosts when only the number matters, and odin_summarize_hosts to see the top values of a field.',
  example: 'Example: services.software.product:"nginx" AND is_vuln:true',
  endpoint: 'POST /v1/hosts/search',
  search: 'hosts',
  heading: 'ODIN host search ',
  line: hostSummaryLine,
  what: 'host(s)',
});

export const countHosts = countTool({
  name: 'odin_count_hosts',
  title: 'ODIN: count hosts',
  description:
    'Counts the hosts in ODIN internet scan data that match a query (one cheap request; no host details). Use it to size an exposure, e.g. how many hosts in a network or country run a vulnerable product.',
  example: 'Example: ip:"203.0.113.0/24" or services.port:3389',
  endpoint: 'POST /v1/hosts/count',
  search: 'hostCount',
  heading: 'ODIN host count ',
  label: 'hosts',
});

export const summarizeHosts = summaryTool({
  name: 'odin_summarize_hosts',
  title: 'ODIN: summarize hosts by a field',
  description:
    'Groups the hosts matching a query by one field and returns the most common values with their counts (e.g. which products, ports or countries dominate). Cheaper than listing hosts.',
  fields: 'e.g. services.port, services.software.product, location.country_code, asn.organization.',
  example: 'Example: services.port:22',
  endpoint: 'POST /v1/hosts/summary',
  search: 'hostSummary',
  heading: 'ODIN hosts ',
});

export const whois = tool({
  name: 'odin_whois',
  title: 'ODIN: whois of a domain',
  description:
    'Returns the current whois record of a registered domain (registrar, dates, days until expiry, status, name servers, registrant organisation) and a summary of its whois history (snapshots, registrar and field changes over time). Use it to judge a domain seen in a log, e-mail or threat report.',
  wire: 'Sends the domain name to the configured ODIN API (GET /v1/domain/whois/{domain} and …/historical): 2 requests, none when the answer is cached.',
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
      plan: [{ spec: { kind: 'whois', domain } }, { spec: { kind: 'whoisHistory', domain } }],
      async run(c, signal) {
        const [cur, hist] = await Promise.allSettled([
          searchVia(c, { kind: 'whois', domain }, { signal, automatic: true }),
          searchVia(c, { kind: 'whoisHistory', domain }, { signal, automatic: true }),
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
  wire: 'Sends the domain name to the configured ODIN API (POST /v1/domain/subdomain/count): 1 request, none when the answer is cached.',
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
      plan: [{ spec: { kind: 'subdomainCount', domain } }],
      async run(c, signal) {
        const r = await searchVia(c, { kind: 'subdomainCount', domain }, { signal, automatic: true });
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
  wire: 'Sends the domain name and the keyword to the configured ODIN API (POST /v1/domain/search): 1 request, none when the answer is cached.',
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
      plan: [{ spec: { kind: 'domains', domain, ...(keyword ? { keyword } : {}) }, page: { limit: n } }],
      async run(c, signal) {
        const r = await searchVia(
          c,
          { kind: 'domains', domain, ...(keyword ? { keyword } : {}) },
          { signal, automatic: true, page: { limit: n } },
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

export const searchBuckets = searchTool({
  name: 'odin_search_buckets',
  title: 'ODIN: search exposed buckets',
  description:
    'Searches the cloud storage buckets ODIN found open to the internet (AWS, GCP, DigitalOcean, Linode) and lists them with provider, file counts and sensitivity labels. Use it to check whether an organisation leaks files.',
  example: 'Example: name:"acme" or labels:credential AND provider:aws',
  endpoint: 'POST /v1/exposed/buckets/search',
  search: 'buckets',
  heading: 'ODIN exposed buckets ',
  line: bucketLine,
  what: 'bucket(s)',
});

export const countFiles = countTool({
  name: 'odin_count_files',
  title: 'ODIN: count exposed files',
  description:
    'Counts the files in exposed cloud storage buckets that match a query (e.g. by extension, bucket name or sensitivity).',
  example: 'Example: ext:sql or bucket:"acme-backups"',
  endpoint: 'POST /v1/exposed/files/count',
  search: 'fileCount',
  heading: 'ODIN exposed file count ',
  label: 'files',
});

export const summarizeFiles = summaryTool({
  name: 'odin_summarize_files',
  title: 'ODIN: summarize exposed files by a field',
  description:
    'Groups the exposed files matching a query by one field (e.g. extension, bucket, category) and returns the most common values with counts.',
  fields: 'e.g. ext, bucket, category.',
  example: 'Example: bucket:"acme-backups"',
  endpoint: 'POST /v1/exposed/files/summary',
  search: 'fileSummary',
  heading: 'ODIN exposed files ',
});
