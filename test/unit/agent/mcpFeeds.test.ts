/**
 * The MCP server (dist/mcp.js) reads the KEV and EPSS copies the extension keeps in its
 * global storage (`<globalStorage>/feeds`, written by the same FeedFiles the extension uses,
 * here from the emulator's feeds) and puts them in its answers; with no copy, or a stale
 * one, it says so. It downloads nothing itself (the emulator's log shows no feed request).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FeedFiles } from '../../../src/core/exploitation';
import { FEED_PATHS } from '../../../src/emulator/feeds';
import { FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import { startEmulator, type Emulator } from '../../../src/emulator/server';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
const BUNDLE = path.join(ROOT, 'dist', 'mcp.js');
const KEY = 'odin-mcp-feeds-key-5b1d';

/** A global storage folder with the feed copies as the extension writes them. */
async function storage(emu: Emulator): Promise<string> {
  const global = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-mcp-feeds-'));
  const files = new FeedFiles({ dir: path.join(global, 'feeds'), fetch: (i, init) => fetch(i, init) });
  for (const kind of ['kev', 'epss'] as const) {
    const r = await files.refresh(kind, `${emu.url}${FEED_PATHS[kind]}`);
    assert.equal(r, 'downloaded', `${kind}: ${JSON.stringify(r)}`);
  }
  return global;
}

/** The URLs a window's copies come from, as the extension tells the server (null: none told). */
type From = { kev: string; epss: string } | null;

async function ask(
  emu: Emulator,
  globalStorage: string,
  name: string,
  args: Record<string, unknown>,
  from: From = { kev: `${emu.url}${FEED_PATHS.kev}`, epss: `${emu.url}${FEED_PATHS.epss}` },
) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUNDLE],
    env: {
      ODIN_API_KEY: KEY,
      ODIN_API_BASE_URL: emu.url,
      // What the extension's MCP server definition sets (src/extension/agent/mcp.ts).
      ODIN_FEEDS_DIR: path.join(globalStorage, 'feeds'),
      ...(from ? { ODIN_FEEDS_KEV_URL: from.kev, ODIN_FEEDS_EPSS_URL: from.epss } : {}),
    },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'odin-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return (r.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  } finally {
    await client.close();
  }
}

void describe('MCP server: KEV and EPSS from the copies in global storage', () => {
  let emu: Emulator;
  const dirs: string[] = [];
  const today = new Date().toISOString().slice(0, 10);
  before(async () => {
    assert.ok(fs.existsSync(BUNDLE), 'dist/mcp.js is built by esbuild before the unit tests');
    emu = await startEmulator({ hosts: 60, apiKey: KEY });
  });
  after(async () => {
    await emu?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  void it('answers "known exploited" and a host lookup with KEV and EPSS, downloading nothing', async () => {
    const dir = await storage(emu);
    dirs.push(dir);
    emu.clearLog();
    const out = await ask(emu, dir, 'odin_known_exploited', { cves: 'CVE-2023-25690 and CVE-2021-41773' });
    const lines = out.split('\n');
    assert.equal(lines[0], `1 of 2 CVE(s) known exploited. Sources: KEV from ${today} · EPSS from ${today}.`);
    assert.match(lines[1]!, /^CVE-2021-41773: Known exploited \(KEV, added 2021-11-03\) · EPSS [\d.]+% /);
    assert.match(lines[2]!, /^CVE-2023-25690: not in KEV · EPSS [\d.]+%/);
    // A host answer leads with its worst signal: the one KEV CVE at 7.5.
    const host = await ask(emu, dir, 'odin_lookup_host', { ip: FIXTURE_HOSTS.kevOne });
    assert.match(host, /Known exploited \(KEV, added 2021-11-03\)/);
    assert.match(host, /CVE-2021-41773/);
    assert.ok(
      emu.requests.every((r) => !r.path.startsWith('/feeds/')),
      'the MCP server downloaded no feed',
    );
  });

  void it('says the feeds are unavailable when there is no copy, never "not in KEV"', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-mcp-feeds-'));
    dirs.push(empty);
    const out = await ask(emu, empty, 'odin_known_exploited', { cves: 'CVE-2021-41773' });
    assert.match(out, /KEV unavailable: "not downloaded[^·]* · EPSS unavailable: "not downloaded/);
    assert.match(out, /CVE-2021-41773: KEV unknown · EPSS unknown/);
    assert.doesNotMatch(out, /not in KEV/);
  });

  void it('says a folder the demo wrote is not the feeds: "unavailable", never "not in KEV"', async () => {
    // The demo's emulator wrote these copies; the server is told the user's URLs, or none.
    const dir = await storage(emu);
    dirs.push(dir);
    const user = { kev: 'https://feeds.example.org/kev.json', epss: 'https://feeds.example.org/epss.csv.gz' };
    for (const from of [user, null]) {
      const out = await ask(
        emu,
        dir,
        'odin_known_exploited',
        { cves: 'CVE-2021-44228 and CVE-2023-4966' },
        from,
      );
      assert.match(out, /KEV unavailable: [^·]* · EPSS unavailable: /);
      assert.match(out, /CVE-2021-44228: KEV unknown · EPSS unknown/);
      assert.doesNotMatch(out, /not in KEV|no EPSS/);
    }
  });

  void it('says a copy older than a week is stale', async () => {
    emu.setFeedFault('kev', 'stale');
    emu.setFeedFault('epss', 'stale');
    try {
      const dir = await storage(emu);
      dirs.push(dir);
      const out = await ask(emu, dir, 'odin_known_exploited', { cves: 'CVE-2021-41773' });
      assert.match(out, /KEV from \d{4}-\d{2}-\d{2} \(stale: older than a week\)/);
      assert.match(out, /EPSS from \d{4}-\d{2}-\d{2} \(stale: older than a week\)/);
    } finally {
      emu.setFeedFault('kev', 'ok');
      emu.setFeedFault('epss', 'ok');
    }
  });
});
