/**
 * The MCP server in plain Node through the official SDK's client over stdio: the shipped
 * bundle (dist/mcp.js) is spawned with the key in its environment and the emulator as its
 * base URL. It lists the tools, answers each, reports refusals and API errors as short
 * tool errors and bad arguments as protocol errors, and never prints the key.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { AGENT_TOOLS, JSON_BYTES_PER_CHAR, MAX_INDICATOR_TEXT, MCP_MESSAGE_BYTES } from '../../../src/agent';
import { lookupsFromEnv, writePolicyFile } from '../../../src/agent/mcp/policy';
import type { GateSettings } from '../../../src/core/gate';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import { startHostileUpstream } from '../../../src/emulator/injection';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { NOTEBOOK_FOLDER, SAMPLE_CALLS } from './support';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
const BUNDLE = path.join(ROOT, 'dist', 'mcp.js');
const KEY = 'odin-mcp-test-key-7f3a9c2e';
/** The tools that read only this machine (the text given, a workspace file). */
const CLOSED_WORLD = new Set(['odin_list_indicators', 'odin_notebook_record']);

interface Session {
  client: Client;
  stderr: string[];
  close(): Promise<void>;
}

async function connect(env: Record<string, string>, args: string[] = []): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUNDLE, ...args],
    env,
    // The workspace of the file-reading tools when ODIN_WORKSPACE_FOLDERS is unset.
    cwd: NOTEBOOK_FOLDER,
    stderr: 'pipe',
  });
  const stderr: string[] = [];
  transport.stderr?.on('data', (d: Buffer) => stderr.push(String(d)));
  const client = new Client({ name: 'odin-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr, close: () => client.close() };
}

function text(r: unknown): string {
  const c = (r as CallToolResult).content ?? [];
  return c.map((x) => (x.type === 'text' ? x.text : '')).join('\n');
}

void describe('MCP server over stdio (SDK client)', () => {
  let emu: Emulator;
  let s: Session;
  const seen: string[] = [];
  before(async () => {
    assert.ok(fs.existsSync(BUNDLE), 'dist/mcp.js is built by esbuild before the unit tests');
    emu = await startEmulator({ seed: 3, hosts: 80, apiKey: KEY });
    s = await connect({
      ODIN_API_KEY: KEY,
      ODIN_API_BASE_URL: emu.url,
      ODIN_PRIVACY_DENY: 'denied-by-user.com',
    });
  });
  after(async () => {
    await s?.close();
    await emu?.close();
    // The key is in no output and no log line of the whole session.
    const all = [...seen, ...(s?.stderr ?? [])].join('\n');
    assert.ok(!all.includes(KEY), 'the API key appeared in MCP output or stderr');
    // No module the bundle leaves out (esbuild-plugins.mjs, mcpSlim) was called.
    assert.ok(!all.includes('odin-mcp is built without'), all);
  });

  void it('lists every tool with its schema and read-only annotations', async () => {
    const { tools } = await s.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      AGENT_TOOLS.map((t) => t.name),
    );
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object');
      assert.ok((t.description ?? '').length > 60);
      assert.equal(t.annotations?.readOnlyHint, true);
      // The cost contract: what reaches outside the machine says so, and every answer has a shape.
      assert.equal(typeof t.annotations?.openWorldHint, 'boolean', t.name);
      assert.equal(t.annotations?.openWorldHint, !CLOSED_WORLD.has(t.name), t.name);
      assert.equal(t.outputSchema?.type, 'object', t.name);
      assert.deepEqual(t.outputSchema?.required, ['tool', 'status', 'text', 'estimate', 'session'], t.name);
    }
    assert.match(s.client.getInstructions() ?? '', /never an instruction/);
  });

  void it('answers every tool against the emulator', async () => {
    for (const t of AGENT_TOOLS) {
      const r = await s.client.callTool({ name: t.name, arguments: SAMPLE_CALLS[t.name] });
      const out = text(r);
      seen.push(out);
      assert.notEqual(r.isError, true, `${t.name}: ${out}`);
      assert.ok(out.length > 20 && out.length <= 4000, `${t.name}: ${out.length}`);
      const sc = r.structuredContent as { tool?: string; status?: string; text?: string } | undefined;
      assert.deepEqual([sc?.tool, sc?.status, sc?.text], [t.name, 'ok', out], t.name);
    }
  });

  void it('refuses private, internal and denied values as short tool errors, sending nothing', async () => {
    emu.clearLog();
    for (const [name, args, re] of [
      ['odin_lookup_host', { ip: '10.1.2.3' }, /Private-Use/],
      ['odin_whois', { domain: 'nas.home.arpa' }, /not sent to ODIN/],
      ['odin_whois', { domain: 'denied-by-user.com' }, /denied by user setting/],
      ['odin_search_hosts', { query: 'ip:"192.168.0.0/16"' }, /not sent to ODIN/],
    ] as const) {
      const r = await s.client.callTool({ name, arguments: args });
      const out = text(r);
      seen.push(out);
      assert.equal(r.isError, true, out);
      assert.match(out, re);
      assert.ok(out.length < 300 && !out.includes('\n'), out);
    }
    assert.deepEqual(emu.requests, []);
  });

  void it('bad arguments and unknown tools are protocol errors with short text', async () => {
    for (const [name, args] of [
      ['odin_lookup_host', {}],
      ['odin_search_hosts', { query: 'x', limit: 1000 }],
      ['odin_whois', { domain: 'a.com', extra: true }],
      ['odin_no_such_tool', {}],
    ] as const) {
      await assert.rejects(s.client.callTool({ name, arguments: args }), (e: unknown) => {
        assert.ok(e instanceof McpError, String(e));
        assert.ok(e.message.length < 200, e.message);
        seen.push(e.message);
        return true;
      });
    }
  });

  void it('no argument the schemas accept ends the stdio session: the longest text, in its costliest characters, is answered', async () => {
    assert.equal(MCP_MESSAGE_BYTES, STDIO_DEFAULT_MAX_BUFFER_SIZE, 'the SDK transport limit we size for');
    for (const t of AGENT_TOOLS) {
      const props = Object.values(t.inputSchema.properties) as { type: string; maxLength?: number }[];
      const chars = props.reduce((n, p) => n + (p.type === 'string' ? (p.maxLength ?? Infinity) : 0), 0);
      assert.ok(
        chars * JSON_BYTES_PER_CHAR + 64 * 1024 <= MCP_MESSAGE_BYTES,
        `${t.name}: ${chars} characters`,
      );
    }
    // \u0001 is written as 6 bytes in the JSON-RPC line: the largest message a schema allows.
    const r = await s.client.callTool({
      name: 'odin_list_indicators',
      arguments: { text: `8.8.8.8 ${'\u0001'.repeat(MAX_INDICATOR_TEXT - 8)}` },
    });
    assert.notEqual(r.isError, true, text(r));
    assert.match(text(r), /8\.8\.8\.8/);
    await assert.rejects(
      s.client.callTool({
        name: 'odin_list_indicators',
        arguments: { text: 'x'.repeat(MAX_INDICATOR_TEXT + 1) },
      }),
      (e: unknown) => e instanceof McpError && /longer than/.test(e.message),
    );
    // The session is still there.
    const again = await s.client.callTool({ name: 'odin_list_indicators', arguments: { text: '1.1.1.1' } });
    assert.match(text(again), /1\.1\.1\.1/);
  });

  void it('an API error is a short tool error without the key', async () => {
    const bad = await connect({ ODIN_API_KEY: `${KEY}-wrong`, ODIN_API_BASE_URL: emu.url });
    try {
      const r = await bad.client.callTool({ name: 'odin_lookup_host', arguments: { ip: '8.8.8.8' } });
      const out = text(r);
      assert.equal(r.isError, true);
      assert.match(out, /API key/);
      assert.ok(!`${out}${bad.stderr.join('')}`.includes(KEY));
    } finally {
      await bad.close();
    }
  });

  void it('with ODIN_LOOKUPS=off every sending tool refuses and nothing is sent', async () => {
    const off = await connect({ ODIN_API_KEY: KEY, ODIN_API_BASE_URL: emu.url, ODIN_LOOKUPS: 'off' });
    emu.clearLog();
    try {
      for (const t of AGENT_TOOLS) {
        const r = await off.client.callTool({ name: t.name, arguments: SAMPLE_CALLS[t.name] });
        assert.equal(r.isError === true, !t.local, `${t.name}: ${text(r)}`);
      }
      assert.deepEqual(emu.requests, []);
    } finally {
      await off.close();
    }
  });

  void it('ODIN_LOOKUPS is off for every spelling that is not a known "on" (fails closed)', async () => {
    for (const v of [
      'off',
      'OFF',
      ' off ',
      'Off\n',
      'false',
      'FALSE',
      '0',
      'no',
      'disabled',
      '',
      'of',
      'onn',
    ])
      assert.equal(lookupsFromEnv(v), 'off', JSON.stringify(v));
    for (const v of [undefined, 'on', 'ON', ' onHover ', 'oncommand', 'true', '1', 'yes'])
      assert.equal(lookupsFromEnv(v), 'on', JSON.stringify(v));
    // The server itself: ` OFF ` sends nothing.
    const off = await connect({ ODIN_API_KEY: KEY, ODIN_API_BASE_URL: emu.url, ODIN_LOOKUPS: ' OFF ' });
    emu.clearLog();
    try {
      const r = await off.client.callTool({ name: 'odin_lookup_host', arguments: { ip: '8.8.4.4' } });
      assert.equal(r.isError, true, text(r));
      assert.match(text(r), /lookups are off/);
      assert.deepEqual(emu.requests, []);
    } finally {
      await off.close();
    }
  });

  void it('a running server obeys the policy file on every call: lookups off, a deny entry, Restricted Mode, no file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-mcp-policy-'));
    const file = path.join(dir, 'mcp', 'policy-window.json');
    const policy: GateSettings = {
      mode: 'onHover',
      trusted: true,
      userAllow: [],
      userDeny: [],
      workspaceDeny: [],
    };
    // As the extension writes it (src/extension/agent/mcp.ts), before VS Code starts the server.
    await writePolicyFile(file, policy);
    // Lists in the environment are not what decides once a policy file is named.
    const run = await connect({
      ODIN_API_KEY: KEY,
      ODIN_API_BASE_URL: emu.url,
      ODIN_POLICY_FILE: file,
      ODIN_LOOKUPS: 'on',
    });
    const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
      const r = (await run.client.callTool({ name, arguments: args })) as CallToolResult;
      seen.push(text(r));
      return r;
    };
    try {
      emu.clearLog();
      const sent = await call('odin_lookup_host', { ip: FIXTURE_HOSTS.webServer });
      assert.notEqual(sent.isError, true, text(sent));
      assert.equal(emu.requests.length, 1, 'the first call sends');

      // The user turns lookups off in VS Code: the extension rewrites the file.
      await writePolicyFile(file, { ...policy, mode: 'off' });
      emu.clearLog();
      for (const [name, args] of [
        ['odin_count_hosts', { query: 'services.port:443' }],
        ['odin_whois', { domain: FIXTURE_DOMAINS.corp }],
      ] as const) {
        const r = await call(name, args);
        assert.equal(r.isError, true, text(r));
        assert.match(text(r), /lookups are off/);
      }
      assert.deepEqual(emu.requests, [], 'nothing is sent once lookups are off');

      // On again, with a deny entry for the domain: that one is refused, others are sent.
      await writePolicyFile(file, { ...policy, mode: 'onCommand', userDeny: [FIXTURE_DOMAINS.corp] });
      emu.clearLog();
      const denied = await call('odin_whois', { domain: FIXTURE_DOMAINS.corp });
      assert.equal(denied.isError, true);
      assert.match(text(denied), /denied by user setting/);
      const query = await call('odin_count_hosts', { query: `hostnames:www.${FIXTURE_DOMAINS.corp}` });
      assert.equal(query.isError, true);
      assert.deepEqual(emu.requests, []);

      // The window is in Restricted Mode: nothing is sent.
      await writePolicyFile(file, { ...policy, trusted: false });
      const restricted = await call('odin_count_hosts', { query: 'services.port:22' });
      assert.match(text(restricted), /Restricted Mode/);

      // The file is gone (the window closed) or broken: the server fails closed.
      fs.rmSync(file);
      const gone = await call('odin_count_hosts', { query: 'services.port:22' });
      assert.equal(gone.isError, true);
      assert.match(text(gone), /nothing is sent/);
      fs.writeFileSync(file, '{"version":1,"mode":"onHover","trusted":true}');
      const broken = await call('odin_count_hosts', { query: 'services.port:22' });
      assert.equal(broken.isError, true);
      assert.deepEqual(emu.requests, []);

      await writePolicyFile(file, policy);
      const back = await call('odin_count_hosts', { query: 'services.port:22' });
      assert.notEqual(back.isError, true, text(back));
      assert.equal(emu.requests.length, 1);
    } finally {
      await run.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  void it('a key echoed by the upstream reaches no MCP output, not even a prefix', async () => {
    const echo = await startHostileUpstream(emu.url, { echoKey: true });
    const run = await connect({ ODIN_API_KEY: KEY, ODIN_API_BASE_URL: echo.url });
    try {
      const outputs: string[] = [];
      for (const t of AGENT_TOOLS.filter((x) => !x.local)) {
        const r = await run.client.callTool({ name: t.name, arguments: SAMPLE_CALLS[t.name] });
        outputs.push(text(r));
      }
      const all = outputs.join('\n');
      seen.push(all);
      assert.match(all, /‹redacted›/, 'the echoed key reached the server');
      // "odin-mcp" alone is the server's name: the parts checked carry the key's own text.
      for (const part of [KEY.slice(0, 12), ...[...KEY.slice(9)].map((_c, i) => KEY.slice(9 + i, 17 + i))]) {
        if (part.length < 8) continue;
        assert.ok(!all.includes(part), `a part of the key survived: ${part}`);
      }
    } finally {
      await run.close();
      await echo.close();
    }
  });

  void it('refuses a base URL that is not https or loopback http, before reading anything', () => {
    for (const url of ['http://api.example.com', 'ftp://127.0.0.1', 'https://user:pw@api.example.com']) {
      const r = spawnSync(process.execPath, [BUNDLE, '--base-url', url], {
        env: { ODIN_API_KEY: KEY },
        input: '',
        encoding: 'utf8',
        timeout: 20_000,
      });
      assert.equal(r.status, 2, `${url}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /refusing the API base URL/);
      assert.ok(!r.stderr.includes(KEY));
    }
  });
});

void describe('MCP server with ODIN_SESSION_BUDGET (started as the README says)', () => {
  let emu: Emulator;
  let s: Session;
  before(async () => {
    emu = await startEmulator({ seed: 3, hosts: 80, apiKey: KEY });
    s = await connect({ ODIN_API_KEY: KEY, ODIN_API_BASE_URL: emu.url, ODIN_SESSION_BUDGET: '3' });
  });
  after(async () => {
    await s?.close();
    await emu?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await s.client.callTool({ name, arguments: args });
    return { out: text(r), isError: r.isError, sc: r.structuredContent as Structured };
  };

  void it('spends up to 3 credits, then answers "not spent" and sends nothing; the quota says so', async () => {
    emu.clearLog();
    for (const port of [22, 80, 443]) {
      const r = await call('odin_count_hosts', { query: `services.port:${port}` });
      assert.equal(r.sc.status, 'ok', r.out);
    }
    assert.equal(emu.requests.length, 3);
    assert.deepEqual(
      r3(await call('odin_count_hosts', { query: 'services.port:22' })),
      ['ok', 3, 0],
      'cached: free',
    );
    const before = emu.requests.length;
    const over = await call('odin_search_hosts', { query: 'services.port:8080', limit: 5 });
    assert.notEqual(over.isError, true, 'an answer the agent acts on, not a failure');
    assert.equal(over.sc.status, 'notSpent');
    assert.match(
      over.out,
      /^Not spent: this call needs 1 credit\(s\) and the session budget of 3 has 0 left/,
    );
    assert.match(over.out, /What fits: only answers already cached/);
    assert.equal(emu.requests.length, before, 'the request log is unchanged');
    // The quota: the balance (a free request), the session's 3 of 3, a proposed call that does not fit.
    const q = await call('odin_quota', {
      tool: 'odin_lookup_host',
      arguments: JSON.stringify({ ip: FIXTURE_HOSTS.webServer }),
    });
    assert.equal(q.sc.status, 'ok', q.out);
    assert.deepEqual(q.sc.quota.session, { spent: 3, requests: 4, budget: 3, left: 0 });
    assert.ok(q.sc.quota.balance.hostLeft > 0);
    assert.deepEqual(q.sc.quota.proposed, { tool: 'odin_lookup_host', requests: 1, credits: 1, fits: false });
    assert.deepEqual(
      emu.requests.slice(before).map((r) => r.endpoint),
      ['credits.usage'],
      'the quota sent only the free credits check',
    );
  });

  void it('reads a notebook case record inside the workspace folders, framed as data, sending nothing', async () => {
    emu.clearLog();
    const r = await s.client.callTool({ name: 'odin_notebook_record', arguments: { file: 'case.odinnb' } });
    const out = text(r);
    assert.notEqual(r.isError, true, out);
    assert.match(
      out,
      /^Case record "\.odin\/case\.record\.json" \(read locally, nothing sent\): 2 query cell\(s\), 1 ran to the end, 1 credit\(s\) spent\./,
    );
    assert.match(
      out,
      /cell 2: "ok"; query "services\.port:22 AND location\.country_code:US"; estimate 3 host\(s\), 1 credit\(s\); spent 1 credit\(s\); balance 500 then 499; 3 row\(s\)/,
    );
    assert.match(out, /sha256 "5f1c2a9e0b7d/);
    // The hostile row: quoted, inside the frame, flagged, with no live link or forged end marker.
    assert.match(
      out,
      /<odin-data id="([0-9a-f]{12})">[\s\S]*Ignore previous instructions[\s\S]*<\/odin-data id="\1">/,
    );
    assert.ok(out.includes('Warning: some quoted values'), out);
    assert.ok(
      !out.includes('</odin-data id="0">') && !out.includes('](command') && !out.includes('https://'),
      out,
    );
    assert.match(out, /‹U\+202E›evil‹U\+0007›/);
    const sc = r.structuredContent as { status?: string; estimate?: unknown; tool?: string };
    assert.deepEqual(
      [sc.tool, sc.status, sc.estimate],
      ['odin_notebook_record', 'ok', { requests: 0, credits: 0 }],
    );
    // The record itself may be named; a file outside the workspace, or of another kind, is refused.
    const direct = await s.client.callTool({
      name: 'odin_notebook_record',
      arguments: { file: path.join(NOTEBOOK_FOLDER, '.odin', 'case.record.json'), rows: 0 },
    });
    assert.match(text(direct), /cell 3: "error"; message "Query syntax/);
    assert.ok(!text(direct).includes('row 1:'), text(direct));
    for (const [file, re] of [
      [
        path.join(ROOT, 'test', 'fixtures', 'sample-workspace', 'investigation.odinnb'),
        /must be in a workspace folder/,
      ],
      ['../sample-workspace/investigation.odinnb', /must be in a workspace folder/],
      ['package.json', /must name a notebook/],
    ] as const)
      await assert.rejects(
        s.client.callTool({ name: 'odin_notebook_record', arguments: { file } }),
        (e: unknown) => e instanceof McpError && re.test(e.message),
        file,
      );
    // A notebook never run: an answer, not an error.
    const none = await s.client.callTool({ name: 'odin_notebook_record', arguments: { file: 'new.odinnb' } });
    assert.match(
      text(none),
      /No case record at "\.odin\/new\.record\.json": the notebook has not been run yet/,
    );
    assert.deepEqual(emu.requests, [], 'reading a record sends nothing');
  });

  void it('ODIN_WORKSPACE_FOLDERS names the folders a record may be read in', async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-mcp-folders-'));
    const run = await connect({
      ODIN_API_KEY: KEY,
      ODIN_API_BASE_URL: emu.url,
      ODIN_WORKSPACE_FOLDERS: other,
    });
    try {
      // The folder it started in is no longer one: the fixture is outside.
      await assert.rejects(
        run.client.callTool({
          name: 'odin_notebook_record',
          arguments: { file: path.join(NOTEBOOK_FOLDER, 'case.odinnb') },
        }),
        (e: unknown) => e instanceof McpError && /must be in a workspace folder/.test(e.message),
      );
      // A link inside the folder to the record outside it is outside.
      fs.mkdirSync(path.join(other, '.odin'));
      fs.symlinkSync(
        path.join(NOTEBOOK_FOLDER, '.odin', 'case.record.json'),
        path.join(other, '.odin', 'linked.record.json'),
      );
      await assert.rejects(
        run.client.callTool({ name: 'odin_notebook_record', arguments: { file: 'linked.odinnb' } }),
        (e: unknown) => e instanceof McpError && /must be in a workspace folder/.test(e.message),
      );
      fs.copyFileSync(
        path.join(NOTEBOOK_FOLDER, '.odin', 'case.record.json'),
        path.join(other, '.odin', 'copy.record.json'),
      );
      const r = await run.client.callTool({
        name: 'odin_notebook_record',
        arguments: { file: 'copy.odinnb' },
      });
      assert.match(text(r), /3 row\(s\)/);
    } finally {
      await run.close();
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  void it('a 402 is "not entitled" for the tool, never retried', async () => {
    const t = await connect({ ODIN_API_KEY: KEY, ODIN_API_BASE_URL: emu.url });
    try {
      emu.setCredits({ host: 0 });
      emu.clearLog();
      const r = await t.client.callTool({
        name: 'odin_lookup_host',
        arguments: { ip: FIXTURE_HOSTS.webServer },
      });
      const sc = r.structuredContent as { status?: string };
      assert.equal(sc.status, 'notEntitled', text(r));
      assert.match(text(r), /^Not entitled: ODIN answered 402/);
      assert.equal(emu.requests.length, 1, 'one request, no retry');
    } finally {
      emu.setCredits({ host: 1_000_000 });
      await t.close();
    }
  });
});

/** What the tests read of a structured answer. */
interface Structured {
  status: string;
  session: { spent: number };
  estimate: { credits: number };
  quota: {
    session: unknown;
    balance: { hostLeft: number };
    proposed: unknown;
  };
}

function r3(r: { sc: Structured }): unknown[] {
  return [r.sc.status, r.sc.session.spent, r.sc.estimate.credits];
}
