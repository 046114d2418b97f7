/** A ToolContext over a real loopback emulator: client, in-memory request layer, gate. */
import * as path from 'node:path';
import { createGate, type GateSettings, type ToolContext } from '../../../src/agent';
import { OdinClient } from '../../../src/api/client';
import { ResultCache } from '../../../src/core/requests/cache';
import { Limiter } from '../../../src/core/requests/limiter';
import { RequestLayer } from '../../../src/core/requests/layer';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../../src/emulator/fixtures';

/** The workspace folder of the tools' file reads: a notebook and its case record (a hostile row in it). */
export const NOTEBOOK_FOLDER = path.join(
  __dirname,
  '..',
  '..',
  '..',
  '..',
  'test',
  'fixtures',
  'notebook-record',
);

export function toolContext(
  url: string,
  apiKey: string | undefined,
  gate: GateSettings = {},
): ToolContext & { logs: string[] } {
  const logs: string[] = [];
  const client = new OdinClient({
    baseUrl: url,
    apiKey: () => apiKey,
    timeoutMs: 5000,
    retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 500 },
    log: (level, msg) => logs.push(`${level} ${msg}`),
  });
  const hour = 3_600_000;
  const requests = new RequestLayer({
    cache: new ResultCache({
      ttlMs: { host: hour, whois: hour, count: hour, notFound: hour },
      maxEntries: 500,
    }),
    limiter: new Limiter({ perMinute: 600, maxConcurrent: 4 }),
    origin: () => new URL(url).origin,
  });
  return {
    client: () => client,
    requests,
    gate: createGate(gate),
    origin: () => new URL(url).origin,
    secrets: () => (apiKey ? [apiKey] : []),
    workspaceFolders: () => [NOTEBOOK_FOLDER],
    logs,
  };
}

/** One call per tool that finds data in the emulator's fixtures. */
export const SAMPLE_CALLS: Record<string, Record<string, unknown>> = {
  odin_lookup_host: { ip: FIXTURE_HOSTS.webServer },
  odin_search_hosts: { query: 'services.port:22', limit: 5 },
  odin_count_hosts: { query: 'services.port:22' },
  odin_summarize_hosts: { field: 'services.port', query: '*', limit: 5 },
  odin_whois: { domain: FIXTURE_DOMAINS.corp },
  odin_count_subdomains: { domain: FIXTURE_DOMAINS.corp },
  odin_search_subdomains: { domain: FIXTURE_DOMAINS.corp, limit: 5 },
  odin_search_buckets: { query: 'provider:aws', limit: 5 },
  odin_count_files: { query: '*' },
  odin_summarize_files: { field: 'ext', query: '*', limit: 5 },
  odin_list_indicators: {
    text: `sshd: Failed password from ${FIXTURE_HOSTS.scanner} port 22\nconnect 10.0.0.7 and evil[.]example.com ok ${FIXTURE_HOSTS.scanner}`,
  },
  odin_known_exploited: { cves: 'CVE-2021-44228, CVE-2021-42013 and CVE-2019-9511' },
  odin_notebook_record: { file: 'case.odinnb' },
  odin_quota: { tool: 'odin_count_hosts', arguments: '{"query":"services.port:22"}' },
  odin_triage: {
    text: `GET / from ${FIXTURE_HOSTS.webServer}\nsshd: Failed password from ${FIXTURE_HOSTS.scanner}\nproxy 10.0.0.7 to ${FIXTURE_DOMAINS.corp} and ${FIXTURE_HOSTS.webServer}`,
  },
};
