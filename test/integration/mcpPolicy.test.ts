/**
 * The MCP server as VS Code starts it (the resolved definition: command, arguments and
 * environment), driven by the official SDK client inside the real VS Code: it sends while
 * lookups are on; once the user turns lookups off in the settings, or adds a deny entry,
 * the same running server sends nothing ("off" is off for a running server too).
 * And a zoned global IPv6 address hovers to a card about the address, not an error card.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../src/emulator/fixtures';
import { clearEmulatorLog, getTestApi, lookupLog, testEnv, waitFor } from './index';
import { lookUpFreely, odinHover, setUser } from './support';

function text(r: unknown): string {
  return ((r as CallToolResult).content ?? []).map((x) => (x.type === 'text' ? x.text : '')).join('\n');
}

describe('MCP server started from the definition obeys the current settings', function () {
  this.timeout(120_000);
  lookUpFreely();
  let client: Client | undefined;
  let policyFile = '';

  before(async function () {
    // Trusted only: in Restricted Mode the tools send nothing (agent.test.ts proves that).
    if (!vscode.workspace.isTrusted) this.skip();
    const api = await getTestApi();
    if (!api.agent.mcpRegistered) this.skip();
    const def = await api.agent.resolveMcp();
    assert.ok(def, 'the definition resolves');
    policyFile = String(def.env.ODIN_POLICY_FILE ?? '');
    assert.ok(policyFile.endsWith('.json'), 'the definition names the policy file');
    for (const old of ['ODIN_LOOKUPS', 'ODIN_PRIVACY_ALLOW', 'ODIN_PRIVACY_DENY'])
      assert.ok(!(old in def.env), `${old} would hold the value of the server's start`);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(def.env)) if (v !== null) env[k] = String(v);
    client = new Client({ name: 'odin-host-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: def.command, args: def.args, env, stderr: 'ignore' }),
    );
  });

  after(async () => {
    await client?.close();
    await setUser('privacy.deny', undefined);
  });

  const policy = (): { mode?: string; userDeny?: string[] } =>
    JSON.parse(fs.readFileSync(policyFile, 'utf8')) as { mode?: string; userDeny?: string[] };

  it('sends while on; sends nothing once lookups are off or a deny entry covers the value', async () => {
    const c = client!;
    assert.ok(!fs.readFileSync(policyFile, 'utf8').includes(testEnv.apiKey), 'the key is not in the file');
    await clearEmulatorLog();
    const first = await c.callTool({ name: 'odin_lookup_host', arguments: { ip: FIXTURE_HOSTS.webServer } });
    assert.notStrictEqual(first.isError, true, text(first));
    assert.strictEqual((await lookupLog()).length, 1, 'the running server sends while lookups are on');

    await setUser('lookups.mode', 'off');
    await waitFor(() => policy().mode === 'off', 10_000, 'the policy file to say off');
    await clearEmulatorLog();
    const off = await c.callTool({ name: 'odin_whois', arguments: { domain: FIXTURE_DOMAINS.corp } });
    assert.strictEqual(off.isError, true, text(off));
    assert.match(text(off), /lookups are off/);
    assert.deepStrictEqual(await lookupLog(), []);

    await setUser('lookups.mode', undefined);
    await setUser('privacy.deny', [FIXTURE_DOMAINS.corp]);
    await waitFor(
      () => policy().mode !== 'off' && (policy().userDeny ?? []).includes(FIXTURE_DOMAINS.corp),
      10_000,
      'the policy file to hold the deny entry',
    );
    await clearEmulatorLog();
    const denied = await c.callTool({ name: 'odin_whois', arguments: { domain: FIXTURE_DOMAINS.corp } });
    assert.strictEqual(denied.isError, true, text(denied));
    assert.match(text(denied), /denied by user setting/);
    const inQuery = await c.callTool({
      name: 'odin_count_hosts',
      arguments: { query: `hostnames:www.${FIXTURE_DOMAINS.corp.replace(/\./g, '\\.')}` },
    });
    assert.strictEqual(inQuery.isError, true, text(inQuery));
    assert.deepStrictEqual(await lookupLog(), []);
    assert.ok(vscode.workspace.isTrusted);
  });
});

describe('hover of a zoned global IPv6 address', function () {
  this.timeout(60_000);
  lookUpFreely();
  // Trusted only: in Restricted Mode a hover sends nothing (hover.test.ts proves that).
  before(function () {
    if (!vscode.workspace.isTrusted) this.skip();
  });

  it('shows the card of the address without its zone, and sends the address only', async () => {
    const doc = await vscode.workspace.openTextDocument({
      content: `ping ${FIXTURE_HOSTS.ipv6}%eth0 ok\n`,
    });
    await clearEmulatorLog();
    const card = await odinHover(doc.uri, new vscode.Position(0, 8));
    assert.ok(card, 'an ODIN hover');
    assert.match(card, /\*\*ODIN · 2606\\:4700\\:4700\\:\\:1111\*\*/);
    assert.doesNotMatch(card, /eth0/);
    assert.match(card, /Open ports|no scan data/);
    const paths = (await lookupLog()).map((e) => String((e as { path?: unknown }).path ?? ''));
    assert.ok(paths.length >= 1, 'the address was looked up');
    for (const p of paths) assert.doesNotMatch(p, /eth0|%25/, p);
  });
});
