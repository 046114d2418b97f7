/**
 * ODIN for agents inside the real VS Code: every language-model tool through
 * `vscode.lm.invokeTool` against the emulator (answers), against a hostile upstream whose
 * free-text fields carry prompt-injection payloads (framed and bounded), with private
 * inputs (refused, no request) and with lookups off (no request); the confirmation says
 * what is sent; the MCP server definition is offered only when asked for and carries the key only when resolved. In
 * Restricted Mode every sending tool refuses and nothing reaches any server.
 */
import * as assert from 'assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../src/emulator/fixtures';
import { startHostileUpstream, type HostileUpstream } from '../../src/emulator/injection';
import {
  clearEmulatorLog,
  emulatorAdmin,
  EXTENSION_ID,
  getTestApi,
  lookupLog,
  testEnv,
  waitFor,
} from './index';
import { lookUpFreely, odinHover, setUser } from './support';

const CALLS: Record<string, Record<string, unknown>> = {
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
  odin_list_indicators: { text: `from ${FIXTURE_HOSTS.scanner} and 10.0.0.7 via evil[.]example.com` },
  odin_triage: {
    text: `from ${FIXTURE_HOSTS.webServer} and ${FIXTURE_HOSTS.scanner} and 10.0.0.7 via ${FIXTURE_DOMAINS.corp}`,
  },
  // Answered from the local KEV/EPSS copies: sends nothing, quotes no scan data.
  odin_known_exploited: { cves: 'CVE-2021-44228, CVE-2024-3400' },
  // A notebook's case record in the workspace (written by the suite's `before`): a local file.
  odin_notebook_record: { file: 'agent-case.odinnb' },
  // The balance (a free credits check) and a proposed call's estimate, from the cache.
  odin_quota: { tool: 'odin_count_hosts', arguments: '{"query":"services.port:22"}' },
};
/** Tools that answer locally: nothing is sent, nothing needs the gate. */
const LOCAL = new Set(['odin_list_indicators', 'odin_known_exploited', 'odin_notebook_record']);
/** The case record the notebook tool reads: the unit tests' hostile fixture, copied into the workspace. */
const RECORD_FIXTURE = path.join(
  __dirname,
  '..',
  '..',
  '..',
  'test',
  'fixtures',
  'notebook-record',
  '.odin',
  'case.record.json',
);
const SENDING = Object.keys(CALLS).filter((n) => !LOCAL.has(n));

async function invoke(name: string, input: Record<string, unknown>): Promise<string> {
  const cts = new vscode.CancellationTokenSource();
  try {
    const r = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cts.token);
    return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
  } finally {
    cts.dispose();
  }
}

async function refused(name: string, input: Record<string, unknown>, why: RegExp): Promise<void> {
  await assert.rejects(invoke(name, input), (e: unknown) => {
    const m = e instanceof Error ? e.message : String(e);
    assert.match(m, why, `${name} ${JSON.stringify(input)}: ${m}`);
    return true;
  });
}

describe('agent tools', function () {
  this.timeout(120_000);
  lookUpFreely();
  const recordFile = (): string =>
    path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.odin', 'agent-case.record.json');
  before(() => {
    fs.mkdirSync(path.dirname(recordFile()), { recursive: true });
    fs.copyFileSync(RECORD_FIXTURE, recordFile());
  });
  after(() => fs.rmSync(recordFile(), { force: true }));

  it('registers every tool in vscode.lm.tools', async () => {
    const api = await getTestApi();
    // The workbench sends the list after it has evaluated the tools' `when` clauses.
    await waitFor(
      () => Object.keys(CALLS).every((n) => vscode.lm.tools.some((t) => t.name === n)),
      10_000,
      `every tool in vscode.lm.tools: ${vscode.lm.tools.map((t) => t.name).join(', ')}`,
    );
    const names = vscode.lm.tools.map((t) => t.name);
    for (const n of Object.keys(CALLS)) assert.ok(names.includes(n), `${n} not in vscode.lm.tools`);
    assert.deepStrictEqual([...api.agent.toolNames].sort(), Object.keys(CALLS).sort());
  });

  describe("the tools' when clauses, as the workbench evaluates them", function () {
    // VS Code 1.103 lists in vscode.lm.tools only the tools whose `when` clause holds (what an
    // agent is offered); 1.139 lists disabled tools there too (getAllToolsIncludingDisabled),
    // so only a host that filters can show from here what the workbench makes of the clauses.
    const [major, minor] = vscode.version.split('.').map(Number);
    const filters = major === 1 && minor <= 103;
    const listed = (): string[] =>
      vscode.lm.tools.map((t) => t.name).filter((n) => Object.keys(CALLS).includes(n));
    const onlyLocal = (): boolean => {
      const names = listed();
      return names.length === LOCAL.size && names.every((n) => LOCAL.has(n));
    };
    const all = (): boolean => listed().length === Object.keys(CALLS).length;

    it('with a key and lookups on, every tool is listed', async () => {
      await waitFor(all, 10_000, `every ODIN tool listed; listed: ${listed().join(', ')}`);
    });

    it('with lookups off, only the tools that answer locally are listed', async function () {
      if (!filters) this.skip();
      await setUser('lookups.mode', 'off');
      try {
        await waitFor(onlyLocal, 10_000, 'only the local tools listed with lookups off');
      } finally {
        await setUser('lookups.mode', undefined);
      }
      await waitFor(all, 10_000, 'every tool listed again with lookups on');
    });

    it('without a key, only the tools that answer locally are listed', async function () {
      if (!filters) this.skip();
      const api = await getTestApi();
      const envKey = process.env.ODIN_API_KEY;
      try {
        delete process.env.ODIN_API_KEY;
        await api.key.clear();
        assert.strictEqual(api.key.source(), 'none');
        await waitFor(
          onlyLocal,
          10_000,
          `only the local tools listed without a key; listed: ${listed().join(', ')}`,
        );
      } finally {
        if (envKey !== undefined) process.env.ODIN_API_KEY = envKey;
        if (testEnv.keyVia === 'testApi') await api.key.store(testEnv.apiKey);
        else await api.key.refresh();
      }
      await waitFor(all, 10_000, 'every tool listed again with the key back');
    });
  });

  describe('trusted workspace', function () {
    before(function () {
      if (!vscode.workspace.isTrusted) this.skip();
    });

    it("the agent's host count is answered from the cache the CIDR hover filled (one count, one key)", async () => {
      const api = await getTestApi();
      api.lookups().cache.clear();
      const doc = await vscode.workspace.openTextDocument({
        content: 'allow 45.33.32.0/24;',
        language: 'plaintext',
      });
      const card = await odinHover(doc.uri, new vscode.Position(0, 8));
      const known = /Known hosts in this block:\*\* ([\d,]+)/.exec(card ?? '')?.[1];
      assert.ok(known, `the hover's count: ${card}`);
      await clearEmulatorLog();
      const out = await invoke('odin_count_hosts', { query: 'ip:"45.33.32.0/24"' });
      assert.match(out, new RegExp(`hosts: ${known}\\b`));
      assert.match(out, /answered from the local cache/);
      assert.deepStrictEqual(await lookupLog(), [], 'the agent sent nothing');
    });

    it('the triage confirmed for 1 request sends at most 1 when the service refuses batches (the product path: prepare, then invoke)', async () => {
      const api = await getTestApi();
      // Fifty public addresses no other test looks up: one batched search, or fifty single lookups.
      const text = Array.from({ length: 50 }, (_, i) => `45.33.40.${i + 1}`).join('\n');
      const input = { text, maxRequests: 100 };
      const p = await api.agent.prepare('odin_triage', input);
      const message = p?.confirmationMessages?.message;
      // The confirmation is Markdown with the model's text escaped: read it unescaped.
      const shown = (typeof message === 'string' ? message : (message?.value ?? '')).replace(/\\/g, '');
      assert.match(shown, /in 1 request\(s\)/);
      await emulatorAdmin('POST', 'faults', {
        fault: { kind: 'status', status: 400 },
        count: -1,
        path: '^/v1/hosts/search',
      });
      try {
        await clearEmulatorLog();
        const out = await invoke('odin_triage', input);
        const log = await lookupLog();
        assert.ok(log.length <= 1, `sent ${log.length}: ${JSON.stringify(log).slice(0, 300)}`);
        assert.match(out, /1 request sent/);
      } finally {
        await emulatorAdmin('DELETE', 'faults');
      }
    });

    it('every tool answers through vscode.lm.invokeTool against the emulator', async () => {
      for (const [name, input] of Object.entries(CALLS)) {
        const out = await invoke(name, input);
        assert.ok(out.length > 20 && out.length <= 4000, `${name}: ${out.length} chars`);
        if (!LOCAL.has(name))
          assert.match(out, /<odin-data id="[0-9a-f]+">[\s\S]*<\/odin-data id="[0-9a-f]+">/, name);
      }
      assert.match(await invoke('odin_lookup_host', CALLS.odin_lookup_host), /open ports \(\d+\)/);
      assert.match(
        await invoke('odin_list_indicators', CALLS.odin_list_indicators),
        /"10\.0\.0\.7" ipv4 x1; never sent/,
      );
    });

    it('the confirmation says exactly what is sent, and local tools ask nothing', async () => {
      const api = await getTestApi();
      const p = await api.agent.prepare('odin_lookup_host', { ip: FIXTURE_HOSTS.webServer });
      const msg = p?.confirmationMessages?.message;
      const text = typeof msg === 'string' ? msg : (msg?.value ?? '');
      assert.match(text, /45\\\.33\\\.32\\\.156/);
      assert.ok(text.includes(new URL(testEnv.emulatorUrl).port), text);
      const q = await api.agent.prepare('odin_search_hosts', { query: '[x](command:evil) services.port:22' });
      const qt = String((q?.confirmationMessages?.message as vscode.MarkdownString | undefined)?.value ?? '');
      assert.ok(!/\]\(command:/.test(qt), qt);
      assert.strictEqual(
        (await api.agent.prepare('odin_list_indicators', { text: '1.1.1.1' }))?.confirmationMessages,
        undefined,
      );
      assert.strictEqual(
        (await api.agent.prepare('odin_lookup_host', { ip: '10.0.0.1' }))?.confirmationMessages,
        undefined,
      );
    });

    it("each tool's chat line names it by the manifest's display name as VS Code resolved it", async () => {
      // The words come from package.nls(.<lang>).json through VS Code (the German case:
      // test/unit/agent/prepared.test.ts); here the host resolves the %key% itself.
      const api = await getTestApi();
      const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
        contributes: { languageModelTools: Array<{ name: string; displayName: string }> };
      };
      for (const [name, input] of Object.entries(CALLS)) {
        const shown = pkg.contributes.languageModelTools.find((t) => t.name === name)?.displayName ?? '';
        assert.match(shown, /^ODIN: [^%]+$/, name);
        const p = await api.agent.prepare(name, input);
        assert.ok(String(p?.invocationMessage).startsWith(shown), `${name}: ${String(p?.invocationMessage)}`);
        if (p?.confirmationMessages) assert.strictEqual(p.confirmationMessages.title, shown, name);
      }
    });

    it("a tool's file argument is read only inside the workspace folders: a link inside to a file outside is refused", async () => {
      const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-outside-'));
      const secret = path.join(outside, 'secret.log');
      fs.writeFileSync(secret, `login from ${FIXTURE_HOSTS.scanner}\n`);
      const inside = path.join(folder, 'agent-inside.log');
      fs.writeFileSync(inside, `login from ${FIXTURE_HOSTS.webServer}\n`);
      const toOutside = path.join(folder, 'agent-link-out.log');
      const toInside = path.join(folder, 'agent-link-in.log');
      const dirOut = path.join(folder, 'agent-dir-out');
      fs.symlinkSync(secret, toOutside);
      fs.symlinkSync(inside, toInside);
      fs.symlinkSync(outside, dirOut);
      try {
        // A file of the workspace and a link to one are read.
        for (const file of ['agent-inside.log', inside, 'agent-link-in.log'])
          assert.match(
            await invoke('odin_list_indicators', { file }),
            new RegExp(FIXTURE_HOSTS.webServer.replace(/\./g, '\\.')),
            file,
          );
        // Outside, through a link to the file or to its folder, by `..` or by absolute path.
        const rel = path.relative(folder, secret);
        for (const file of ['agent-link-out.log', toOutside, 'agent-dir-out/secret.log', rel, secret])
          await refused('odin_list_indicators', { file }, /must be in a workspace folder/);
        await refused('odin_triage', { file: 'agent-link-out.log' }, /must be in a workspace folder/);
      } finally {
        for (const f of [toOutside, toInside, dirOut, inside]) fs.rmSync(f, { force: true });
        fs.rmSync(outside, { recursive: true, force: true });
      }
    });

    it("a notebook's case record is read as framed data, with nothing sent", async () => {
      await clearEmulatorLog();
      const out = await invoke('odin_notebook_record', CALLS.odin_notebook_record);
      assert.match(
        out,
        /^Case record "\.odin\/agent-case\.record\.json" \(read locally, nothing sent\): 2 query cell\(s\)/,
      );
      const frame = /<odin-data id="([0-9a-f]{12})">([\s\S]*)<\/odin-data id="\1">/.exec(out);
      assert.ok(frame?.[2].includes('Ignore previous instructions'), out);
      assert.ok(!out.includes('](command') && !out.includes('https://'), out);
      const p = await (await getTestApi()).agent.prepare('odin_notebook_record', CALLS.odin_notebook_record);
      assert.strictEqual(p?.confirmationMessages, undefined, 'a local read asks nothing');
      // Outside the workspace folders: refused (the same check as every file argument).
      await refused(
        'odin_notebook_record',
        { file: path.join(os.tmpdir(), 'x.odinnb') },
        /must be in a workspace folder/,
      );
      assert.deepStrictEqual(await lookupLog(), []);
    });

    it('private and internal inputs are refused with the reason, and nothing is sent', async () => {
      await clearEmulatorLog();
      await refused('odin_lookup_host', { ip: '192.168.10.4' }, /Private-Use/);
      await refused('odin_lookup_host', { ip: 'fe80::1%eth0' }, /not sent to ODIN/);
      await refused('odin_whois', { domain: 'build.corp.internal' }, /not sent to ODIN/);
      await refused('odin_count_subdomains', { domain: 'printer.local' }, /not sent to ODIN/);
      await refused('odin_search_hosts', { query: 'ip:"10.0.0.0/8"' }, /not sent to ODIN/);
      assert.deepStrictEqual(await lookupLog(), []);
    });

    it('with lookups off nothing is sent by any tool', async () => {
      await setUser('lookups.mode', 'off');
      try {
        await clearEmulatorLog();
        for (const name of SENDING) await refused(name, CALLS[name], /lookups are off/);
        assert.match(await invoke('odin_list_indicators', CALLS.odin_list_indicators), /Indicators in/);
        assert.deepStrictEqual(await lookupLog(), []);
      } finally {
        await setUser('lookups.mode', undefined);
      }
    });

    it('offers the MCP server definition only when odin.agent.offerMcpServer is on (no tool twice)', async function () {
      const api = await getTestApi();
      if (!api.agent.mcpRegistered) this.skip();
      assert.deepStrictEqual(api.agent.mcpDefinitions(), []);
      await setUser('agent.offerMcpServer', true);
      try {
        await waitFor(() => api.agent.mcpDefinitions().length === 1, 10_000, 'the definition offered');
      } finally {
        await setUser('agent.offerMcpServer', undefined);
      }
      await waitFor(() => api.agent.mcpDefinitions().length === 0, 10_000, 'the definition withdrawn');
    });

    it('a hostile upstream: prompt-injection payloads stay quoted inside the frame and bounded', async () => {
      const api = await getTestApi();
      let hostile: HostileUpstream | undefined;
      try {
        hostile = await startHostileUpstream(testEnv.emulatorUrl);
        const h = hostile;
        await api.connection.setDemo({ url: h.url, apiKey: testEnv.apiKey, close: () => Promise.resolve() });
        api.lookups().cache.clear();
        const calls: Record<string, Record<string, unknown>> = {
          ...CALLS,
          odin_lookup_host: { ip: FIXTURE_HOSTS.hostile },
          odin_whois: { domain: FIXTURE_DOMAINS.hostile },
          odin_search_subdomains: { domain: FIXTURE_DOMAINS.hostile, limit: 5 },
        };
        let payloads = 0;
        for (const name of SENDING) {
          const out = await invoke(name, calls[name]);
          assert.ok(out.length <= 4000, `${name}: ${out.length}`);
          const ids = [...out.matchAll(/<\/?odin-data id="([0-9a-f]+)">/g)];
          assert.strictEqual(ids.length, 2, `${name}: ${out.slice(0, 400)}`);
          for (const bad of [
            /<\|im_start\|>/,
            /\]\(command:/,
            /https?:\/\//i,
            /`/,
            /<img/i,
            /\u202E|\u0000/,
          ]) {
            assert.ok(!bad.test(out), `${bad} in ${name}: ${out.slice(0, 400)}`);
          }
          const tail = out.slice(out.lastIndexOf('</odin-data'));
          assert.ok(!/IGNORE|SYSTEM/.test(tail), `${name}: payload after the frame`);
          if (/IGNORE ALL PREVIOUS/.test(out)) {
            payloads++;
            assert.match(out, /prompt injection/);
          }
        }
        assert.ok(payloads >= 5, `payloads reached ${payloads} tools`);
        assert.ok(h.requests.length > 0);
      } finally {
        await api.connection.setDemo(undefined);
        await hostile?.close();
        api.lookups().cache.clear();
      }
    });

    it('a cancelled invocation stops', async () => {
      const cts = new vscode.CancellationTokenSource();
      cts.cancel();
      await assert.rejects(
        Promise.resolve(
          vscode.lm.invokeTool(
            'odin_search_hosts',
            { input: { query: '*' }, toolInvocationToken: undefined },
            cts.token,
          ),
        ),
      );
      cts.dispose();
    });

    it('the MCP server definition carries the key only when VS Code resolves it to start the server', async function () {
      const api = await getTestApi();
      if (!api.agent.mcpRegistered) this.skip();
      for (const d of api.agent.mcpDefinitions())
        assert.ok(!('ODIN_API_KEY' in d.env), 'key in a cached definition');
      const resolved = await api.agent.resolveMcp();
      assert.strictEqual(resolved?.env.ODIN_API_KEY, testEnv.apiKey);
      assert.strictEqual(resolved?.env.ODIN_API_BASE_URL, api.connection.baseUrl());
      assert.ok(resolved?.args[0]?.endsWith('mcp.js'));
    });
  });

  describe('Restricted Mode', function () {
    before(function () {
      if (vscode.workspace.isTrusted) this.skip();
    });

    it('every sending tool refuses and nothing is sent; the local tool still answers', async () => {
      await clearEmulatorLog();
      for (const name of SENDING) await refused(name, CALLS[name], /Restricted Mode/);
      assert.match(await invoke('odin_list_indicators', CALLS.odin_list_indicators), /Indicators in/);
      assert.match(
        await invoke('odin_notebook_record', CALLS.odin_notebook_record),
        /read locally, nothing sent/,
      );
      assert.deepStrictEqual(await lookupLog(), []);
    });
  });
});
