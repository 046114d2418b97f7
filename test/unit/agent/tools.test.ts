/**
 * The agent tools end to end in plain Node against the emulator over loopback: every tool
 * answers; a hostile upstream's prompt-injection payloads stay quoted, framed and bounded;
 * private and internal values are refused before any request; "lookups off" sends nothing.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  AGENT_TOOLS,
  ConfirmedCalls,
  DATA_NOTICE,
  findTool,
  INJECTION_WARNING,
  invokeTool,
  MAX_OUTPUT_CHARS,
  ToolInputError,
  ToolRefusal,
  toolErrorText,
} from '../../../src/agent';
import {
  FIXTURE_BUCKETS,
  FIXTURE_DOMAINS,
  FIXTURE_HOSTS,
  FIXTURE_UNKNOWN_IP,
} from '../../../src/emulator/fixtures';
import { startHostileUpstream, type HostileUpstream } from '../../../src/emulator/injection';
import { startEmulator, type Emulator } from '../../../src/emulator/server';
import { SAMPLE_CALLS, toolContext } from './support';

/** Calls that reach the hostile fixtures (or any data: the upstream poisons every free-text field). */
const HOSTILE_CALLS: Record<string, Record<string, unknown>> = {
  ...SAMPLE_CALLS,
  odin_lookup_host: { ip: FIXTURE_HOSTS.hostile },
  odin_whois: { domain: FIXTURE_DOMAINS.hostile },
  odin_search_subdomains: { domain: FIXTURE_DOMAINS.hostile, limit: 5 },
  odin_search_buckets: { query: `name:"${FIXTURE_BUCKETS.hostile}"`, limit: 5 },
};

void describe('agent tools', () => {
  let emu: Emulator;
  let hostile: HostileUpstream;
  before(async () => {
    emu = await startEmulator({ seed: 3, hosts: 80 });
    hostile = await startHostileUpstream(emu.url);
  });
  after(async () => {
    await hostile.close();
    await emu.close();
  });

  void it('the shared tool code imports nothing from vscode', () => {
    const dir = path.join(__dirname, '..', '..', '..', '..', 'src', 'agent');
    for (const f of fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .filter((x) => x.endsWith('.ts'))) {
      assert.doesNotMatch(fs.readFileSync(path.join(dir, f), 'utf8'), /from 'vscode'|require\('vscode'\)/, f);
    }
  });

  void it('every tool has a calling example here and a schema a model can read', () => {
    assert.deepEqual(Object.keys(SAMPLE_CALLS).sort(), AGENT_TOOLS.map((t) => t.name).sort());
    for (const t of AGENT_TOOLS) {
      assert.match(t.name, /^odin_[a-z_]+$/);
      // Under the 1,024 characters a function description may have in the common model APIs.
      assert.ok(t.description.length > 60 && t.description.length < 1000, t.name);
      assert.equal(t.inputSchema.type, 'object');
      assert.equal(t.inputSchema.additionalProperties, false);
      for (const [k, p] of Object.entries(t.inputSchema.properties))
        assert.ok(p.description.length > 5, `${t.name}.${k}`);
    }
  });

  void it('every tool answers against the emulator, compactly', async () => {
    const ctx = toolContext(emu.url, emu.apiKey);
    for (const t of AGENT_TOOLS) {
      const out = await invokeTool(t, SAMPLE_CALLS[t.name], ctx);
      assert.ok(out.length <= MAX_OUTPUT_CHARS, `${t.name}: ${out.length} chars`);
      if (!t.local) {
        assert.ok(out.includes(DATA_NOTICE), t.name);
        assert.match(out, /<odin-data id="[0-9a-f]{12}">[\s\S]*<\/odin-data id="[0-9a-f]{12}">/, t.name);
      }
      assert.doesNotMatch(out, /\{"|\[object|undefined|NaN/, `${t.name} leaks raw JSON or undefined: ${out}`);
    }
    const host = await invokeTool(findTool('odin_lookup_host')!, { ip: FIXTURE_HOSTS.webServer }, ctx);
    assert.match(host, /open ports \(\d+\)/);
    assert.match(host, /vulnerable: yes/);
    const whois = await invokeTool(findTool('odin_whois')!, { domain: FIXTURE_DOMAINS.corp }, ctx);
    assert.match(whois, /registrar: "/);
    assert.match(whois, /history: \d+ snapshot/);
    const ind = await invokeTool(findTool('odin_list_indicators')!, SAMPLE_CALLS.odin_list_indicators, ctx);
    assert.match(
      ind,
      new RegExp(`"${FIXTURE_HOSTS.scanner.replace(/\./g, '\\.')}" ipv4 x2; may be looked up`),
    );
    assert.match(ind, /"10\.0\.0\.7" ipv4 x1; never sent: /);
    assert.match(ind, /"evil\.example\.com" domain x1 \(defanged\)/);
    const missing = await invokeTool(findTool('odin_lookup_host')!, { ip: FIXTURE_UNKNOWN_IP }, ctx);
    assert.match(missing, /not found/);
  });

  void it('triage: the run uses the text its confirmation was prepared on, not the editor active by then', async () => {
    const confirmedText = `GET / from ${FIXTURE_HOSTS.webServer}`;
    let active = { text: confirmedText, source: '"confirmed.log"' };
    const ctx = { ...toolContext(emu.url, emu.apiKey), localText: async () => active };
    const tool = findTool('odin_triage')!;
    const calls = new ConfirmedCalls();
    const prepared = await calls.prepare(tool, {}, ctx);
    assert.match(prepared.sends ?? '', /Triage of "confirmed\.log": 1 unique indicator/);
    // The user switches editors before answering the confirmation.
    active = { text: `other hosts 8.8.8.8 1.1.1.1 ${FIXTURE_HOSTS.scanner}`, source: '"other.log"' };
    emu.clearLog();
    const out = await calls.run(tool, {}, ctx);
    assert.match(out, new RegExp(`"${FIXTURE_HOSTS.webServer.replace(/\./g, '\\.')}" ipv4`));
    assert.ok(!out.includes('8.8.8.8') && !out.includes('other.log'), out);
    assert.ok(!JSON.stringify(emu.requests).includes('8.8.8.8'), 'nothing of the other editor was sent');
    // The kept text serves one run: the next call without a confirmation reads the editor again.
    assert.match(await calls.run(tool, {}, ctx), /8\.8\.8\.8/);
  });

  void it('triage: the confirmation gives the request count after a local scan; verdicts worst first; private never sent; a cap sends nothing', async () => {
    const ctx = toolContext(emu.url, emu.apiKey);
    const tool = findTool('odin_triage')!;
    emu.clearLog();
    const prepared = await tool.prepareLocal!(SAMPLE_CALLS.odin_triage, ctx);
    assert.deepEqual(emu.requests, [], 'preparing sends nothing');
    assert.match(prepared.sends ?? '', /4 unique indicator\(s\) \(3 IP, 1 domain, 0 CIDR\)/);
    assert.match(prepared.sends ?? '', /1 private or internal: never sent/);
    assert.match(
      prepared.sends ?? '',
      /Sends 3 IP address\(es\) and domain name\(s\) to ODIN at http:\/\/127\.0\.0\.1:\d+ in 2 request\(s\)/,
    );
    const out = await invokeTool(tool, SAMPLE_CALLS.odin_triage, ctx);
    assert.ok(out.length <= MAX_OUTPUT_CHARS);
    const sent = JSON.stringify(emu.requests);
    assert.equal(emu.requests.length, 2, sent);
    assert.ok(!sent.includes('10.0.0.7'), 'the private address was not sent');
    const lines = out.split('\n');
    const first = lines.findIndex((l) => l.startsWith(`"${FIXTURE_HOSTS.webServer}"`));
    assert.ok(first > 0 && /VULNERABLE, \d+ CVE/.test(lines[first]!), out);
    assert.ok(lines.findIndex((l) => l.startsWith('"10.0.0.7"')) > first, 'vulnerable before private');
    assert.match(out, /"10\.0\.0\.7" ipv4 x1; never sent: "/);
    assert.match(out, new RegExp(`"${FIXTURE_DOMAINS.corp.replace(/\./g, '\\.')}" domain x1; registrar "`));
    assert.match(out, /enrichment: 3 of 3 enriched; 2 requests sent/);
    // Again: all cached, nothing sent; the confirmation says so.
    emu.clearLog();
    assert.match(
      await invokeTool(tool, SAMPLE_CALLS.odin_triage, ctx),
      /0 requests sent; 3 answered from the cache/,
    );
    assert.equal((await tool.prepareLocal!(SAMPLE_CALLS.odin_triage, ctx)).sends, undefined);
    assert.deepEqual(emu.requests, []);
    // More requests than allowed: nothing sent, the count needed said.
    const many = Array.from({ length: 60 }, (_, i) => `198.51.${i}.7 x.${i}.acme-logistics.com`).join('\n');
    const fresh = toolContext(emu.url, emu.apiKey);
    const capped = await invokeTool(tool, { text: `${many}\n8.8.4.4`, maxRequests: 3 }, fresh);
    assert.match(capped, /needs \d+ request\(s\), more than maxRequests \(3\)\. Nothing was sent/);
    assert.match(
      (await tool.prepareLocal!({ text: many, maxRequests: 3 }, fresh)).note ?? '',
      /more than maxRequests/,
    );
    assert.deepEqual(emu.requests, []);
    // Long lists end with "N more".
    const long = await invokeTool(tool, { text: many, maxRequests: 500, max: 5 }, fresh);
    assert.match(long, /… \d+ more indicator\(s\) not shown/);
  });

  void it('triage: a refused batch is not looked up one by one past maxRequests or the confirmed count: "over budget"', async () => {
    const tool = findTool('odin_triage')!;
    const text = emu.dataset.hosts
      .slice(0, 50)
      .map((h) => h.ip)
      .join('\n');
    emu.injectFault({ path: '^/v1/hosts/search', fault: { kind: 'status', status: 400 }, count: -1 });
    try {
      // maxRequests: 1 (before: the batch and 50 single lookups, 51 requests).
      emu.clearLog();
      const out = await invokeTool(tool, { text, maxRequests: 1 }, toolContext(emu.url, emu.apiKey));
      assert.equal(emu.requests.length, 1, JSON.stringify(emu.requests.map((q) => q.endpoint)));
      assert.match(out, /over budget \(batched search refused\); 1 request sent/);
      assert.match(out, /Over budget: ODIN refused the batched host search/);
      // The confirmation's count ("in 1 request(s)") is the limit even under a larger maxRequests.
      emu.clearLog();
      const ctx = toolContext(emu.url, emu.apiKey);
      const prepared = await tool.prepareLocal!({ text, maxRequests: 100 }, ctx);
      assert.match(prepared.sends ?? '', /in 1 request\(s\)/);
      const confirmed = await prepared.run(ctx);
      assert.equal(emu.requests.length, 1);
      assert.match(confirmed, /1 request sent/);
      // The product's path (the language-model tool): ConfirmedCalls prepares the confirmation,
      // then runs the call after the user's yes. The count shown is its ceiling there too
      // (before: the run prepared afresh and sent the batch and 50 single lookups).
      emu.clearLog();
      const calls = new ConfirmedCalls();
      const fresh = toolContext(emu.url, emu.apiKey);
      const shown = await calls.prepare(tool, { text, maxRequests: 100 }, fresh);
      assert.match(shown.sends ?? '', /in 1 request\(s\)/);
      const ran = await calls.run(tool, { text, maxRequests: 100 }, fresh);
      assert.equal(emu.requests.length, 1, JSON.stringify(emu.requests.map((q) => q.endpoint)));
      assert.match(ran, /1 request sent/);
    } finally {
      emu.clearFaults();
    }
  });

  void it('a second identical call is answered from the shared cache', async () => {
    const ctx = toolContext(emu.url, emu.apiKey);
    emu.clearLog();
    await invokeTool(findTool('odin_count_subdomains')!, { domain: FIXTURE_DOMAINS.corp }, ctx);
    const again = await invokeTool(findTool('odin_count_subdomains')!, { domain: FIXTURE_DOMAINS.corp }, ctx);
    assert.equal(emu.requests.length, 1);
    assert.match(again, /from the local cache/);
  });

  void it('prompt-injection payloads from a hostile upstream stay quoted, framed and bounded', async () => {
    const ctx = toolContext(hostile.url, emu.apiKey);
    let warned = 0;
    const outputs: string[] = [];
    for (const t of AGENT_TOOLS.filter((x) => !x.local)) {
      const out = await invokeTool(t, HOSTILE_CALLS[t.name], ctx);
      outputs.push(out);
      const where = `${t.name}:\n${out.slice(0, 600)}`;
      assert.ok(out.length <= MAX_OUTPUT_CHARS, `${t.name}: ${out.length} chars`);
      const opens = [...out.matchAll(/<odin-data id="([0-9a-f]+)">/g)];
      const closes = [...out.matchAll(/<\/odin-data id="([0-9a-f]+)">/g)];
      assert.equal(opens.length, 1, where);
      assert.equal(closes.length, 1, where);
      assert.equal(opens[0][1], closes[0][1]);
      // Nothing a renderer or a model would act on survives.
      for (const bad of [
        /<\|im_start\|>/,
        /\]\(command:/,
        /https?:\/\//i,
        /`/,
        /<img/i,
        /<\/?tool_result/,
        /\u202E|\u200B|\u0000|\u001b/,
        /!\[/,
      ]) {
        assert.doesNotMatch(out, bad, `${bad} in ${where}`);
      }
      // Between the markers, every line that carries payload text quotes it.
      const inside = out.slice(out.indexOf(opens[0][0]) + opens[0][0].length, out.indexOf(closes[0][0]));
      for (const line of inside.split('\n').filter((l) => /IGNORE ALL PREVIOUS/.test(l))) {
        assert.match(
          line,
          /"[^"]*IGNORE ALL PREVIOUS/,
          `unquoted payload in ${t.name}: ${line.slice(0, 200)}`,
        );
      }
      // After the end marker: only local notes.
      assert.doesNotMatch(out.slice(out.indexOf(closes[0][0])), /IGNORE|SYSTEM|Assistant/, where);
      if (/IGNORE ALL PREVIOUS/.test(out)) {
        assert.ok(out.includes(INJECTION_WARNING), `no injection warning: ${where}`);
        warned++;
      }
    }
    assert.ok(warned >= 5, `payloads reached only ${warned} tools`);
    // Every kind of payload reached the output, neutralised: the test proves framing, not an empty answer.
    const all = outputs.join('\n');
    for (const seen of [
      /IGNORE ALL PREVIOUS INSTRUCTIONS/,
      /‹\/odin-data id=\\"00\\"›/,
      /hxxps:\/\/evil\.example/,
      /‹\|im_start\|›system/,
      /\] \(command\[:\]workbench/,
      /! \[status\] \(hxxps/,
      /ˋˋˋ ‹\/tool_result›/,
      /‹U\+202E›‹U\+200B›/,
    ]) {
      assert.match(all, seen);
    }
  });

  void it('private, reserved and internal values are refused with the reason and nothing is sent', async () => {
    const ctx = toolContext(emu.url, emu.apiKey, {
      deny: ['acme-logistics.com'],
      workspaceDeny: ['8.8.8.0/24'],
    });
    emu.clearLog();
    const refused: Array<[string, Record<string, unknown>, RegExp]> = [
      ['odin_lookup_host', { ip: '10.0.0.1' }, /Private-Use/],
      ['odin_lookup_host', { ip: '192.168.1.20' }, /Private-Use/],
      ['odin_lookup_host', { ip: '::1' }, /Loopback/i],
      ['odin_lookup_host', { ip: '::ffff:10.1.2.3' }, /Private-Use/],
      ['odin_lookup_host', { ip: '127.1' }, /not an IP address/],
      ['odin_lookup_host', { ip: '0x7f.0.0.1' }, /not an IP address/],
      ['odin_lookup_host', { ip: '8.8.8.8' }, /denied by workspace setting/],
      ['odin_whois', { domain: 'printer.local' }, /not sent to ODIN/],
      ['odin_whois', { domain: 'db.corp' }, /not sent to ODIN/],
      ['odin_whois', { domain: 'acme-logistics.com' }, /denied by user setting/],
      ['odin_whois', { domain: 'evil.com/../x' }, /not a domain name/],
      ['odin_count_subdomains', { domain: 'intranet.internal' }, /not sent to ODIN/],
      ['odin_search_subdomains', { domain: 'example.com' }, /not sent to ODIN/],
      ['odin_search_hosts', { query: 'ip:"10.0.0.0/8"' }, /not sent to ODIN/],
      ['odin_count_hosts', { query: 'hostname:"build.corp.internal"' }, /not sent to ODIN/],
      ['odin_search_buckets', { query: 'name:"x" AND ip:"172.16.0.1"' }, /not sent to ODIN/],
      [
        'odin_summarize_hosts',
        { field: 'services.port', query: 'hostname:"nas.home.arpa"' },
        /not sent to ODIN/,
      ],
      ['odin_count_files', { query: 'bucket:"x.lan"' }, /not sent to ODIN/],
    ];
    for (const [name, input, reason] of refused) {
      await assert.rejects(invokeTool(findTool(name)!, input, ctx), (e: unknown) => {
        assert.ok(e instanceof ToolRefusal, `${name} ${JSON.stringify(input)}: ${String(e)}`);
        assert.match(toolErrorText(e), reason);
        assert.ok(toolErrorText(e).length < 300);
        return true;
      });
    }
    assert.deepEqual(emu.requests, []);
  });

  void it('a key echoed by the upstream reaches no tool output, not even a prefix (redacted before any cut)', async () => {
    const key = 'odin-ECHOED-k3y-5e1f9a7b3c2d4e6f8a0b';
    const own = await startEmulator({ seed: 3, hosts: 80, apiKey: key });
    const echo = await startHostileUpstream(own.url, { echoKey: true });
    try {
      const ctx = toolContext(echo.url, key);
      const outputs: string[] = [];
      for (const t of AGENT_TOOLS.filter((x) => !x.local)) {
        outputs.push(await invokeTool(t, HOSTILE_CALLS[t.name], ctx));
        // Again from the cache: cached answers are redacted too.
        outputs.push(await invokeTool(t, HOSTILE_CALLS[t.name], ctx));
      }
      const all = outputs.join('\n');
      assert.match(all, /‹redacted›/, 'the echoed key reached the tools');
      for (let i = 0; i + 8 <= key.length; i++) {
        const part = key.slice(i, i + 8);
        assert.ok(!all.includes(part), `a part of the key survived: ${part}`);
      }
    } finally {
      await echo.close();
      await own.close();
    }
  });

  void it('Lucene escapes do not hide a private, internal or denied value in a query', async () => {
    const ctx = toolContext(emu.url, emu.apiKey, { deny: ['mycompany.com'] });
    emu.clearLog();
    for (const [name, input, reason] of [
      [
        'odin_search_hosts',
        { query: 'ip:10\\.0\\.0\\.1' },
        /^10\.0\.0\.1 is Private-Use \(RFC 1918\): not sent to ODIN/,
      ],
      ['odin_count_hosts', { query: 'hostnames:db\\.corp' }, /^db\.corp is Internal name/],
      [
        'odin_count_hosts',
        { query: 'vpn.mycompany\\.com' },
        /^vpn\.mycompany\.com is not sent to ODIN: denied/,
      ],
      ['odin_search_buckets', { query: 'ip:10\\u002e0\\u002e0\\u002e7' }, /^10\.0\.0\.7 is Private-Use/],
      ['odin_summarize_hosts', { field: 'services.port', query: 'ip:10.0.0.*' }, /^10\.0\.0\.0\/24 is/],
    ] as const) {
      await assert.rejects(invokeTool(findTool(name)!, input, ctx), (e: unknown) => {
        assert.ok(e instanceof ToolRefusal, `${name} ${JSON.stringify(input)}: ${String(e)}`);
        assert.match(toolErrorText(e), reason);
        return true;
      });
    }
    assert.deepEqual(emu.requests, []);
  });

  void it('with lookups off nothing is sent, but local tools still work', async () => {
    const ctx = toolContext(emu.url, emu.apiKey, {
      blocked: () => 'ODIN lookups are off (setting odin.lookups.mode).',
    });
    emu.clearLog();
    for (const t of AGENT_TOOLS.filter((x) => !x.local)) {
      await assert.rejects(invokeTool(t, SAMPLE_CALLS[t.name], ctx), /lookups are off/);
    }
    assert.match(
      await invokeTool(findTool('odin_list_indicators')!, SAMPLE_CALLS.odin_list_indicators, ctx),
      /Indicators in/,
    );
    assert.deepEqual(emu.requests, []);
  });

  void it('bad input is refused before anything is sent', async () => {
    const ctx = toolContext(emu.url, emu.apiKey);
    emu.clearLog();
    const bad: Array<[string, unknown]> = [
      ['odin_lookup_host', {}],
      ['odin_lookup_host', { ip: 42 }],
      ['odin_lookup_host', { ip: '8.8.8.8', extra: 1 }],
      ['odin_search_hosts', { query: '', limit: 5 }],
      ['odin_search_hosts', { query: 'x', limit: 500 }],
      ['odin_search_hosts', { query: 'x', limit: 2.5 }],
      ['odin_whois', 'acme.com'],
      ['odin_search_hosts', { query: 'x'.repeat(2001) }],
    ];
    for (const [name, input] of bad) {
      await assert.rejects(
        invokeTool(findTool(name)!, input, ctx),
        ToolInputError,
        `${name} ${JSON.stringify(input)}`,
      );
    }
    assert.deepEqual(emu.requests, []);
  });

  void it('API errors end as short text without the key', async () => {
    const ctx = toolContext(emu.url, 'wrong-key-SECRET-1234');
    const err = await invokeTool(findTool('odin_lookup_host')!, { ip: FIXTURE_HOSTS.resolver }, ctx).catch(
      (e: unknown) => e,
    );
    const text = toolErrorText(err);
    assert.match(text, /API key/);
    assert.doesNotMatch(text + ctx.logs.join('\n'), /SECRET-1234/);
  });

  void it('a cancelled call rejects and leaves nothing running', async () => {
    const ctx = toolContext(emu.url, emu.apiKey);
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(
      invokeTool(findTool('odin_search_hosts')!, { query: '*' }, ctx, ac.signal),
      (e: unknown) => {
        assert.match(toolErrorText(e), /cancelled/);
        return true;
      },
    );
  });
});
