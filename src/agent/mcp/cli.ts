/**
 * `odin-mcp` / `npm run --silent mcp`: the ODIN MCP server on stdio.
 *
 *   ODIN_API_KEY           the API key (environment only: never a flag, never a file)
 *   --base-url <url>       or ODIN_API_BASE_URL; https, or http on loopback only
 *   ODIN_LOOKUPS=off       refuse every tool that would send something (anything but a known
 *                          "on" spelling is off: `OFF`, ` off `, `false`, `0`, `disabled` ...)
 *   ODIN_PRIVACY_ALLOW     comma-separated IPs, CIDR blocks or domain suffixes that may be sent
 *   ODIN_PRIVACY_DENY      comma-separated entries never sent
 *   ODIN_SESSION_BUDGET    the most credits this server process may spend (a whole number);
 *                          a call that would pass it sends nothing and answers "not spent"
 *   ODIN_POLICY_FILE       set by the VS Code extension: a file with the window's lookups mode,
 *                          trust and privacy lists, read on every call (policy.ts); when set,
 *                          it alone decides (ODIN_LOOKUPS and the lists above are not read),
 *                          and a missing or unreadable file sends nothing
 *   ODIN_WORKSPACE_FOLDERS the folders whose files a tool may read (a notebook's case record),
 *                          separated like PATH; unset: the folder the server started in
 *   ODIN_FEEDS_DIR         set by the VS Code extension: the folder of its KEV and EPSS copies
 *                          (read, never downloaded here)
 *   ODIN_FEEDS_KEV_URL     the URLs those copies must come from (the extension's settings, or
 *   ODIN_FEEDS_EPSS_URL    the demo's); unset: the published feeds. A copy of any other URL
 *                          (the demo's emulator) is "unavailable", never "not in KEV"
 *
 * stdout carries the protocol only; log lines go to stderr, with the key redacted.
 */
import * as path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { checkBaseUrl } from '../../api/http';
import { FeedFiles, Feeds } from '../../core/exploitation';
import { DEFAULT_EPSS_URL, DEFAULT_KEV_URL } from '../../core/exploitation/feed';
import { budgetFromEnv, createSession } from '../../core/requests/session';
import { redactSecrets } from '../../core/text/redact';
import { createGate, type GateSettings } from '../gate';
import { lookupsFromEnv, readPolicyFile } from './policy';
import { createMcpServer } from './server';

declare const ODIN_VERSION: string | undefined;
const VERSION = typeof ODIN_VERSION === 'string' ? ODIN_VERSION : '0.0.0';
export const DEFAULT_BASE_URL = 'https://api.odin.io';

function list(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The agent gate's settings from the policy file the extension keeps (read per call: the
 * user's current mode, trust and lists); when it cannot be read, nothing is sent.
 */
export function settingsFromFile(file: string): GateSettings {
  const r = readPolicyFile(file);
  if ('error' in r) {
    const why = `The settings of the VS Code window that started this ODIN server cannot be read (${r.error}): nothing is sent.`;
    return { blocked: () => why };
  }
  const s = r.settings;
  return {
    mode: s.mode,
    trusted: s.trusted,
    allow: s.userAllow,
    deny: s.userDeny,
    workspaceDeny: s.workspaceDeny,
  };
}

/** The base URL from the flag or the environment, or why it is refused. */
export function baseUrlFrom(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): { url: string } | { error: string } {
  let raw = env.ODIN_API_BASE_URL?.trim() || DEFAULT_BASE_URL;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--base-url') raw = argv[++i] ?? '';
    else if (a.startsWith('--base-url=')) raw = a.slice('--base-url='.length);
  }
  const check = checkBaseUrl(raw);
  return check.ok
    ? { url: check.prefix }
    : { error: `odin-mcp: refusing the API base URL: ${check.reason}.` };
}

export async function main(argv = process.argv.slice(2), env = process.env): Promise<void> {
  const key = env.ODIN_API_KEY?.trim() || undefined;
  const secrets = (): string[] => (key ? [key] : []);
  const log = (line: string): void => {
    process.stderr.write(`${redactSecrets(line, secrets())}\n`);
  };
  if (argv.includes('--help') || argv.includes('-h')) {
    log(
      'odin-mcp: the ODIN MCP server on stdio. Key from ODIN_API_KEY; --base-url <https url> or ODIN_API_BASE_URL; ODIN_LOOKUPS=off; ODIN_PRIVACY_ALLOW / ODIN_PRIVACY_DENY (comma-separated).',
    );
    return;
  }
  const base = baseUrlFrom(argv, env);
  if ('error' in base) {
    log(base.error);
    process.exitCode = 2;
    return;
  }
  const budget = budgetFromEnv(env);
  if ('error' in budget) {
    log(`odin-mcp: ${budget.error}.`);
    process.exitCode = 2;
    return;
  }
  if (!key) log('odin-mcp: ODIN_API_KEY is not set; the tools that query ODIN will answer with an error.');
  const debug = env.ODIN_MCP_DEBUG === '1';
  // One session: client, cache, limiter, request layer and the ledger every tool spends through.
  const session = createSession({
    baseUrl: base.url,
    apiKey: () => key,
    userAgent: `odin-mcp/${VERSION}`,
    budget: budget.budget,
    log: (level, msg) => {
      if (debug || level === 'warn' || level === 'error') log(`odin-mcp ${level}: ${msg}`);
    },
  });
  const { origin, requests } = session;
  const policyFile = env.ODIN_POLICY_FILE?.trim() || undefined;
  const gate = createGate(
    policyFile
      ? () => settingsFromFile(policyFile)
      : {
          allow: list(env.ODIN_PRIVACY_ALLOW),
          deny: list(env.ODIN_PRIVACY_DENY),
          mode: lookupsFromEnv(env.ODIN_LOOKUPS) === 'off' ? 'off' : 'onCommand',
        },
  );
  // The KEV and EPSS copies the editor keeps: read, never downloaded here (no request at all).
  const feedsDir = env.ODIN_FEEDS_DIR?.trim() || undefined;
  const feeds = feedsDir
    ? new Feeds(
        new FeedFiles({ dir: feedsDir, fetch: () => Promise.reject(new Error('no downloads')) }),
        () => ({
          enabled: true,
          kevUrl: env.ODIN_FEEDS_KEV_URL?.trim() || DEFAULT_KEV_URL,
          epssUrl: env.ODIN_FEEDS_EPSS_URL?.trim() || DEFAULT_EPSS_URL,
          mayDownload: { ok: false, reason: 'the MCP server reads the copies VS Code downloaded' },
        }),
      )
    : undefined;
  const folders = (env.ODIN_WORKSPACE_FOLDERS ?? '')
    .split(path.delimiter)
    .map((s) => s.trim())
    .filter(Boolean);
  if (folders.length === 0) folders.push(process.cwd());
  const server = createMcpServer({
    ctx: {
      client: () => session.client(),
      requests,
      gate,
      origin: () => origin,
      secrets,
      workspaceFolders: () => folders,
      ...(feeds ? { exploitation: () => feeds.ensure() } : {}),
    },
    version: VERSION,
    secrets,
    log: debug ? log : undefined,
  });
  const transport = new StdioServerTransport();
  const stop = (): void => {
    session.dispose();
    void server.close();
  };
  transport.onclose = () => session.dispose();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  await server.connect(transport);
  log(`odin-mcp ${VERSION}: serving ${origin} on stdio`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`odin-mcp: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
