/**
 * Hover enrichment inside the real VS Code host: hover cards through
 * `vscode.executeHoverProvider` on the sample workspace and on generated big files, and the
 * emulator's request log as the witness of what was (never) sent.
 */
import * as assert from 'assert';
import * as inspector from 'node:inspector';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { detect } from '../../src/core/detect';
import type { ListedIndicators } from '../../src/extension/testApi';
import {
  clearEmulatorLog,
  emulatorAdmin,
  emulatorLog,
  extension,
  getTestApi,
  lookupLog,
  testEnv,
  waitFor,
} from './index';
import { lookUpFreely, odinHover, setUser } from './support';
import { feedNote } from '../../src/core/exploitation';
import type { HostCursor } from '../../src/api/types';
import { OdinClient } from '../../src/api/client';

/** The text of every hover at `position` that came from ODIN. */
/**
 * The ODIN card at a position. A hover answers within a few seconds whatever the API does;
 * when it says "not answered yet" (a busy test machine), this hovers again, as a user would.
 */

function workspaceFile(rel: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return vscode.Uri.joinPath(folder.uri, rel);
}

/** Position of the `nth` occurrence of `needle` in the file (plus `delta` characters). */
async function positionOf(uri: vscode.Uri, needle: string, delta = 1, nth = 0): Promise<vscode.Position> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const text = doc.getText();
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`${needle} not in ${uri.fsPath}`);
  }
  return doc.positionAt(at + delta);
}

async function logText(): Promise<string> {
  return (await emulatorLog()).map((e) => JSON.stringify(e)).join('\n');
}

/** How many logged requests name `value` (in the path or the body). */
async function requestsFor(value: string): Promise<number> {
  return (await emulatorLog()).filter((e) => JSON.stringify(e).includes(value)).length;
}

/** Card text without our own command links must contain no live Markdown/HTML syntax. */
function assertInert(card: string): void {
  const rest = card.replace(/\[[^\]\\]*\]\(command:odin\.[A-Za-z]+\?[A-Za-z0-9%._-]* "[^"()\\]*"\)/g, '');
  for (const m of rest.matchAll(/[[\]<>`]/g)) {
    const slashes = /\\*$/.exec(rest.slice(0, m.index))?.[0].length ?? 0;
    assert.strictEqual(
      slashes % 2,
      1,
      `unescaped ${m[0]} in: ${rest.slice(Math.max(0, (m.index ?? 0) - 40), (m.index ?? 0) + 20)}`,
    );
  }
  assert.ok(!/command:(?!odin\.)/.test(rest.replace(/command\\:/g, '')), 'a foreign command link');
}

/** Undoes the defang markers the sample report uses. */
function refangForTest(raw: string): string {
  return raw.replace(/\[\.\]|\(\.\)|\(dot\)/g, '.');
}

const PRIVATE = [
  /\b10\.\d+\.\d+\.\d+/,
  /\b192\.168\.\d+\.\d+/,
  /\b172\.(1[6-9]|2\d|3[01])\.\d+\.\d+/,
  /\b127\.\d+\.\d+\.\d+/,
  /fe80:/i,
  /corp\.internal/,
  /\.local\b/,
  /\.lan\b/,
  /\.home\.arpa/,
];

describe('hover', function () {
  this.timeout(120_000);
  // Generous limits: these tests hover hundreds of values on purpose.
  lookUpFreely();

  describe('trusted workspace', function () {
    before(function () {
      if (!vscode.workspace.isTrusted) this.skip();
    });

    it('shows a host card for a public IP in an nginx log, with our command links only', async () => {
      await clearEmulatorLog();
      const uri = workspaceFile('logs/nginx-access.log');
      const card = await odinHover(uri, await positionOf(uri, '45.33.32.156'));
      assert.ok(card, 'an ODIN hover');
      assert.match(card, /\*\*ODIN · 45\\\.33\\\.32\\\.156\*\*/);
      assert.match(card, /Open ports \(\d+\)/);
      assert.match(card, /Vulnerable:\*\* yes/);
      assert.match(card, /command:odin\.openHostDetails\?%5B%2245\.33\.32\.156%22%5D/);
      assertInert(card);
      assert.strictEqual(await requestsFor('45.33.32.156'), 1);
    });

    it('leads a host card with KEV and EPSS from the feeds, the known exploited CVE first', async () => {
      const api = await getTestApi();
      // The feeds come from the emulator (user settings of the host run), loaded on first need.
      const store = await api.connection.feeds.ensure();
      const today = new Date().toISOString().slice(0, 10);
      assert.strictEqual(feedNote(store.kevStatus()), `KEV from ${today}`);
      assert.strictEqual(feedNote(store.epssStatus()), `EPSS from ${today}`);
      const uri = workspaceFile('logs/nginx-access.log');
      const card = await odinHover(uri, await positionOf(uri, '45.33.32.156'));
      assert.ok(card, 'an ODIN hover');
      // Apache 2.4.49: CVE-2021-42013 is in the emulator's KEV (ransomware "Known").
      assert.match(
        card,
        /Vulnerable:\*\* yes · Known exploited \(KEV, added 2021-11-03; used by ransomware\) · CVSS 10\.0/,
      );
      assert.match(
        card,
        /\*\*Top CVEs:\*\* CVE\\-2021\\-42013 [A-Z]+ 9\.8 \(KEV, ransomware; EPSS [\d.]+%\) · /,
      );
      assert.doesNotMatch(card, /KEV from|EPSS from/, 'fresh feeds go unsaid on a hover');
      assertInert(card);
      const feedRequests = ((await emulatorLog()) as { path: string; hadKey: boolean }[]).filter((e) =>
        e.path.startsWith('/feeds/'),
      );
      assert.ok(
        feedRequests.every((e) => !e.hadKey),
        'no feed request carried the key',
      );
    });

    it('shows local facts for a private address and sends nothing', async () => {
      await clearEmulatorLog();
      const uri = workspaceFile('logs/nginx-access.log');
      const card = await odinHover(uri, await positionOf(uri, '10.0.4.17'));
      assert.ok(card);
      assert.match(card, /10\\\.0\\\.4\\\.17\*\* is .*not looked up/);
      assert.match(card, /RFC 1918|[Pp]rivate/);
      assert.strictEqual((await lookupLog()).length, 0);
    });

    it('shows local facts for an internal name and sends nothing', async () => {
      await clearEmulatorLog();
      const uri = workspaceFile('logs/app.jsonl');
      const card = await odinHover(uri, await positionOf(uri, 'db.corp.internal', 4));
      assert.ok(card, 'an ODIN hover on an internal name');
      assert.match(card, /db\\\.corp\\\.internal\*\* is Private\\-use TLD \\\.internal/);
      assert.match(card, /not looked up/);
      assert.strictEqual((await lookupLog()).length, 0);
    });

    it('shows whois essentials and the subdomain count for a domain', async () => {
      const uri = workspaceFile('logs/app.jsonl');
      const card = await odinHover(uri, await positionOf(uri, 'api.acme-logistics.com', 2));
      assert.ok(card);
      assert.match(card, /whois of acme\\-logistics\\\.com/);
      assert.match(card, /Registrar:/);
      assert.match(card, /Known subdomains:\*\* [\d,]+/);
      assert.match(card, /Name servers:/);
    });

    it('warns when a domain expires soon', async () => {
      const uri = workspaceFile('logs/apache-access.log');
      const card = await odinHover(uri, await positionOf(uri, 'northwind-traders.net', 2));
      assert.ok(card);
      assert.match(card, /⚠ expire/);
    });

    it('refangs defanged indicators and says so', async () => {
      const uri = workspaceFile('reports/threat-report.md');
      const card = await odinHover(uri, await positionOf(uri, '185.220.101[.]34', 2));
      assert.ok(card);
      assert.match(
        card,
        /ODIN · 185\\\.220\\\.101\\\.34\*\* \(refanged from 185\\\.220\\\.101\\\[\\\.\\\]34\)/,
      );
    });

    it('counts known hosts in a CIDR block', async () => {
      const doc = await vscode.workspace.openTextDocument({
        content: 'allow 45.33.32.0/24;',
        language: 'plaintext',
      });
      const card = await odinHover(doc.uri, new vscode.Position(0, 8));
      assert.ok(card);
      // The card's Markdown escapes the slash (no autolink can form); it reads "45.33.32.0/24".
      assert.match(card, /ODIN · 45\\\.33\\\.32\\\.0\\\/24/);
      assert.match(card, /Known hosts in this block:\*\* [\d,]+/);
    });

    it('shows the host card for a /32 block (Terraform cidr_blocks)', async () => {
      const uri = workspaceFile('infra/main.tf');
      const card = await odinHover(uri, await positionOf(uri, '104.16.132.229/32', 3));
      assert.ok(card);
      assert.match(card, /ODIN · 104\\\.16\\\.132\\\.229\*\*/);
      assert.match(card, /Open ports/);
    });

    it('renders hostile scan data inert', async () => {
      const uri = workspaceFile('logs/ufw.log');
      const card = await odinHover(uri, await positionOf(uri, '193.42.33.7'));
      assert.ok(card);
      assertInert(card);
      assert.ok(!/(?<!\\)<script/.test(card), 'raw HTML');
    });

    it('never sends a private, special or internal value, hovering every indicator of every sample file', async () => {
      await clearEmulatorLog();
      const folder = vscode.workspace.workspaceFolders![0].uri;
      const files = await vscode.workspace.findFiles('**/*', '**/node_modules/**');
      assert.ok(files.length >= 10, `sample files: ${files.length}`);
      let hovered = 0;
      for (const uri of files) {
        const doc = await vscode.workspace.openTextDocument(uri);
        const text = doc.getText();
        for (const d of detect(text, { mode: 'text' })) {
          await odinHover(uri, doc.positionAt(d.start + 1));
          hovered++;
        }
        // Plus every word-ish position on lines that mention internal names.
        for (const m of text.matchAll(/corp\.internal|\.local\b/g)) {
          await odinHover(uri, doc.positionAt((m.index ?? 0) - 2));
        }
      }
      assert.ok(hovered > 50, `hovered ${hovered} indicators under ${folder.fsPath}`);
      const log = await logText();
      for (const re of PRIVATE)
        assert.ok(!re.test(log), `sent something matching ${re}:\n${log.slice(0, 2000)}`);
    });

    it('sends at most one request per IP when 100 IPs are hovered again and again', async () => {
      await clearEmulatorLog();
      const ips = Array.from({ length: 100 }, (_, i) => `45.79.${Math.floor(i / 50) + 10}.${(i % 50) + 10}`);
      const doc = await vscode.workspace.openTextDocument({
        content: ips.map((ip) => `${ip} GET /`).join('\n'),
        language: 'log',
      });
      for (let round = 0; round < 3; round++) {
        // Hovers in parallel as well: the request layer keeps one request in flight per target.
        await Promise.all(ips.map((_, line) => odinHover(doc.uri, new vscode.Position(line, 2))));
      }
      const log = await emulatorLog();
      for (const ip of ips) {
        const n = log.filter((e) => JSON.stringify(e).includes(ip)).length;
        assert.ok(n <= 1, `${ip}: ${n} requests`);
      }
      assert.ok(log.length >= 90, `expected ~100 requests, got ${log.length}`);
    });

    it('in onCommand mode shows a "Look up now" link and sends nothing', async () => {
      await setUser('lookups.mode', 'onCommand');
      try {
        await clearEmulatorLog();
        const doc = await vscode.workspace.openTextDocument({
          content: 'peer 45.79.200.1 closed',
          language: 'log',
        });
        const card = await odinHover(doc.uri, new vscode.Position(0, 7));
        assert.ok(card);
        assert.match(card, /not looked up/);
        assert.match(card, /command:odin\.lookup\?/);
        assert.strictEqual((await lookupLog()).length, 0);
      } finally {
        await setUser('lookups.mode', undefined);
      }
    });

    it('pauses automatic lookups, keeps showing cached cards, and resumes', async () => {
      const api = await getTestApi();
      const uri = workspaceFile('logs/nginx-access.log');
      const cachedPos = await positionOf(uri, '45.33.32.156');
      assert.ok(await odinHover(uri, cachedPos));
      api.lookups().pause({ reason: 'quota', message: 'Your ODIN credits are used up.' });
      try {
        assert.strictEqual(api.ui.contextValue('odin.lookupsPaused'), true);
        await clearEmulatorLog();
        const doc = await vscode.workspace.openTextDocument({
          content: 'from 45.79.201.9 port 22',
          language: 'log',
        });
        const paused = await odinHover(doc.uri, new vscode.Position(0, 7));
        assert.ok(paused);
        assert.match(paused, /credits are used up/);
        assert.match(paused, /command:odin\.resumeLookups/);
        const cached = await odinHover(uri, cachedPos);
        assert.ok(cached && /Open ports/.test(cached), 'the cached card is still shown');
        assert.strictEqual((await lookupLog()).length, 0);
        await vscode.commands.executeCommand('odin.resumeLookups');
        assert.strictEqual(api.lookups().paused, undefined);
        assert.strictEqual(api.ui.contextValue('odin.lookupsPaused'), false);
        const after = await odinHover(doc.uri, new vscode.Position(0, 7));
        assert.ok(after && !/paused|credits/.test(after));
      } finally {
        api.lookups().resume();
      }
    });

    it('reads YAML and JSON as data: a name under a word TLD is a host there, not in code', async () => {
      const yaml = await vscode.workspace.openTextDocument({
        content: 'upstream:\n  host: shop.acme-logistics.cloud\n',
        language: 'yaml',
      });
      const json = await vscode.workspace.openTextDocument({
        content: '{ "host": "shop.acme-logistics.cloud" }',
        language: 'json',
      });
      const ts = await vscode.workspace.openTextDocument({
        content: 'const n = user.name;\n',
        language: 'typescript',
      });
      assert.match(
        (await odinHover(yaml.uri, new vscode.Position(1, 10))) ?? '',
        /shop\\.acme\\-logistics\\.cloud|acme\\-logistics\\.cloud/,
      );
      assert.match((await odinHover(json.uri, new vscode.Position(0, 15))) ?? '', /acme\\-logistics\\.cloud/);
      assert.strictEqual(await odinHover(ts.uri, new vscode.Position(0, 13)), undefined);
    });

    it('pauses after a real 401, 402 or 403 from the service, says why, and resumes', async () => {
      const api = await getTestApi();
      const cases: Array<[number, RegExp, string]> = [
        [401, /rejected the API key/, '45.79.201.11'],
        [402, /credits are used up/, '45.79.201.12'],
        [403, /refused access/, '45.79.201.13'],
      ];
      try {
        for (const [status, message, ip] of cases) {
          await emulatorAdmin('POST', 'faults', {
            fault: { kind: 'status', status },
            count: -1,
            path: '^/v1/',
          });
          await clearEmulatorLog();
          const doc = await vscode.workspace.openTextDocument({
            content: `from ${ip} port 22 and 45.79.201.99`,
            language: 'log',
          });
          const card = await odinHover(doc.uri, new vscode.Position(0, 7));
          assert.ok(card, `${status}: a card`);
          assert.match(card, message, `${status}: ${card}`);
          await waitFor(
            () => api.ui.contextValue('odin.lookupsPaused') === true,
            5000,
            'the paused context key',
          );
          const sent = (await lookupLog()).length;
          assert.ok(sent >= 1, `${status}: the refused request`);
          // Paused: the next uncached value is not even tried.
          const next = await odinHover(
            doc.uri,
            new vscode.Position(0, doc.getText().indexOf('45.79.201.99') + 1),
          );
          assert.ok(next && message.test(next), `${status}: ${next}`);
          assert.match(next, /command:odin\.resumeLookups/);
          assert.strictEqual((await lookupLog()).length, sent, `${status}: nothing sent while paused`);
          await emulatorAdmin('DELETE', 'faults');
          await vscode.commands.executeCommand('odin.resumeLookups');
          assert.strictEqual(api.ui.contextValue('odin.lookupsPaused'), false);
          const after = await odinHover(doc.uri, new vscode.Position(0, 7));
          assert.ok(
            after && /Open ports|no scan data/.test(after) && !message.test(after),
            `${status}: ${after}`,
          );
        }
      } finally {
        await emulatorAdmin('DELETE', 'faults');
        api.lookups().resume();
      }
    });

    it('lists the unique indicators of a threat report, sends nothing, and goes to the one picked', async () => {
      await clearEmulatorLog();
      const uri = workspaceFile('reports/threat-report.md');
      const editor = await vscode.window.showTextDocument(uri);
      editor.selection = new vscode.Selection(0, 0, 0, 0);
      const list = await vscode.commands.executeCommand<ListedIndicators>('odin.listIndicators');
      try {
        assert.ok(list, 'a list');
        const byValue = new Map(list.items.map((i) => [i.value, i]));
        const paypal = byValue.get('secure-login-paypa1.com');
        assert.ok(paypal && paypal.count >= 3 && paypal.defanged, JSON.stringify(paypal));
        const rdp = byValue.get('52.14.88.213');
        assert.ok(rdp && rdp.count === 2 && rdp.defanged, JSON.stringify(rdp));
        assert.ok(byValue.has('159.89.214.31'));
        assert.ok(byValue.has('evil-payload.xyz'));
        for (const local of ['10.0.22.114', '10.0.0.5', '192.168.10.4']) {
          assert.ok(list.local.includes(local), `${local} is kept local: ${list.local.join(', ')}`);
        }
        assert.ok(!list.local.includes('185.220.101.34'));
        assert.strictEqual((await lookupLog()).length, 0, 'listing sends nothing');
        // The picker is open with the most frequent value first; accepting it selects its
        // first occurrence, as written.
        const first = list.items[0];
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        const active = await waitFor(
          () => {
            const e = vscode.window.activeTextEditor;
            return e && !e.selection.isEmpty ? e : undefined;
          },
          10_000,
          'the picked indicator selected',
        );
        assert.ok(active);
        assert.strictEqual(active.document.offsetAt(active.selection.start), first.first);
        assert.strictEqual(
          refangForTest(active.document.getText(active.selection)).toLowerCase(),
          first.value,
        );
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      }
    });

    it('lists the indicators of a large document on worker threads, in the extension host', async () => {
      // ~9 MB: nine 1 MB chunks, enough for the workers (src/core/detect/parallel.ts).
      const lines = Array.from(
        { length: 150_000 },
        (_, k) => `2026-11-21T03:12:00Z conn from 45.1.${k % 200}.7 to cdn${k % 40}.example-shop.com ok`,
      );
      const doc = await vscode.workspace.openTextDocument({ content: lines.join('\n'), language: 'log' });
      await vscode.window.showTextDocument(doc);
      try {
        const list = await vscode.commands.executeCommand<ListedIndicators>('odin.listIndicators');
        assert.ok(list, 'a list');
        const byValue = new Map(list.items.map((i) => [i.value, i]));
        assert.strictEqual(list.items.length, 240);
        assert.strictEqual(byValue.get('45.1.0.7')?.count, 750);
        assert.strictEqual(byValue.get('cdn0.example-shop.com')?.count, 3750);
        assert.strictEqual(byValue.get('45.1.0.7')?.first, lines[0]!.indexOf('45.1.0.7'));
        const logDir = (await getTestApi()).connection.logFolder;
        const logged = (): string =>
          fs.existsSync(logDir)
            ? fs
                .readdirSync(logDir)
                .map((f) => fs.readFileSync(path.join(logDir, f), 'utf8'))
                .join('\n')
            : '';
        await waitFor(
          () => /List: \d+ chunks read on \d+ worker threads/.test(logged()),
          5000,
          'the workers ran',
        );
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
    });

    it('odin.lookup refuses arguments that are not one IP or domain', async () => {
      await clearEmulatorLog();
      for (const bad of [
        { ip: '8.8.8.8' },
        ['8.8.8.8'],
        '8.8.8.8 9.9.9.9',
        'x'.repeat(1000),
        '10.0.0.1; rm -rf /',
      ]) {
        await vscode.commands.executeCommand('odin.lookup', bad);
      }
      assert.strictEqual((await lookupLog()).length, 0);
    });

    describe('big files', function () {
      let dir = '';
      before(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-hover-big-'));
        // A 20 MB access log: one public IP per line among private ones.
        const lines: string[] = [];
        let size = 0;
        for (let i = 0; size < 20 * 1024 * 1024; i++) {
          const line = `${i % 7 === 0 ? '45.33.32.156' : `10.1.${(i >> 8) & 255}.${i & 255}`} - - [21/Nov/2025:08:14:02 +0000] "GET /item/${i} HTTP/1.1" 200 ${i % 9000} "-" "Mozilla/5.0"`;
          lines.push(line);
          size += line.length + 1;
        }
        fs.writeFileSync(path.join(dir, 'big.log'), lines.join('\n'));
        // A 5 MB minified bundle on one line with an IP in the middle and at the end.
        const chunk = 'function a(b){return b&&b.c?b.c(1,2):void 0};var d={e:"f",g:[1,2,3]};';
        const half = chunk.repeat(Math.ceil((2.5 * 1024 * 1024) / chunk.length));
        fs.writeFileSync(
          path.join(dir, 'bundle.min.js'),
          `${half}var api="https://8.8.8.8/x";${half}var z="45.33.32.156";`,
        );
      });
      after(() => fs.rmSync(dir, { recursive: true, force: true }));

      it('hovers an IP deep in a 20 MB log quickly', async () => {
        const uri = vscode.Uri.file(path.join(dir, 'big.log'));
        const doc = await vscode.workspace.openTextDocument(uri);
        const line = doc.lineCount - 1 - ((doc.lineCount - 1) % 7);
        const t0 = Date.now();
        const card = await odinHover(uri, new vscode.Position(line, 3));
        assert.ok(card && /45\\\.33\\\.32\\\.156/.test(card), String(card));
        assert.ok(Date.now() - t0 < 5000, `${Date.now() - t0} ms`);
        const priv = await odinHover(uri, new vscode.Position(line + 1 < doc.lineCount ? line + 1 : 1, 3));
        assert.ok(priv && /not looked up/.test(priv));
      });

      it('hovers inside a 5 MB one-line minified file', async () => {
        // Our provider alone (the odin.test.hover hook): the built-in JavaScript hover of a
        // 5 MB line is the language server's business, not ours.
        const uri = vscode.Uri.file(path.join(dir, 'bundle.min.js'));
        const doc = await vscode.workspace.openTextDocument(uri);
        const text = doc.lineAt(0).text;
        const probe = (ch: number) =>
          vscode.commands.executeCommand<{ ms: number; markdown?: string }>(
            'odin.test.hover',
            uri.toString(),
            0,
            ch,
          );
        const mid = await probe(text.indexOf('8.8.8.8') + 1);
        assert.ok(mid.markdown && /ODIN · 8\\.8\\.8\\.8/.test(mid.markdown), String(mid.markdown));
        const end = await probe(text.lastIndexOf('45.33.32.156') + 1);
        assert.ok(end.markdown && /45\\.33\\.32\\.156/.test(end.markdown));
        // Nothing on plain code. Speed is the bench's business (npm run bench), not a timed
        // assertion here: the times are logged for the reader of the host log.
        const none = await probe(10);
        assert.strictEqual(none.markdown, undefined);
        const warm = await probe(text.indexOf('8.8.8.8') + 1);
        assert.ok(warm.markdown && /8\\.8\\.8\\.8/.test(warm.markdown));
        console.log(
          `[hover] 5 MB line: ${none.ms.toFixed(1)} ms on plain code, ${warm.ms.toFixed(1)} ms for a cached IP`,
        );
      });
    });
  });

  describe('Restricted Mode', function () {
    before(function () {
      if (vscode.workspace.isTrusted) this.skip();
    });

    it('shows local facts only and sends no request at all', async () => {
      await clearEmulatorLog();
      const doc = await vscode.workspace.openTextDocument({
        content: '45.33.32.156 8.8.8.8 acme-logistics.com 104.16.132.0/24 10.0.0.1',
        language: 'log',
      });
      for (const [ch, re] of [
        [2, /45\\\.33\\\.32\\\.156/],
        [15, /8\\\.8\\\.8\\\.8/],
        [25, /acme\\-logistics/],
        [45, /104\\\.16\\\.132\\\.0\\\/24/],
        [62, /10\\\.0\\\.0\\\.1/],
      ] as const) {
        const card = await odinHover(doc.uri, new vscode.Position(0, ch));
        assert.ok(card && re.test(card), `${ch}: ${card}`);
        assert.match(card, /not looked up/);
      }
      const files = await vscode.workspace.findFiles('**/*');
      for (const uri of files) {
        const d = await vscode.workspace.openTextDocument(uri);
        for (const hit of detect(d.getText(), { mode: 'text', limit: 50 }))
          await odinHover(uri, d.positionAt(hit.start + 1));
      }
      assert.strictEqual((await lookupLog()).length, 0, await logText());
    });
  });
});

/**
 * Hover latency, run by scripts/bench/hover.mjs (which sets ODIN_BENCH_OUT and starts the
 * emulator with a fixed latency). Times are the provider's own, through the `odin.test.hover`
 * hook; the emulator round trip is measured with the same client in the same run.
 */
describe('hover-bench', function () {
  this.timeout(300_000);
  const out = process.env.ODIN_BENCH_OUT ?? '';

  before(function () {
    if (!out || !testEnv.emulatorUrl) this.skip();
  });

  it('measures warm and cold hovers against the emulator round trip', async () => {
    const api = await getTestApi();
    await waitFor(() => api.key.has(), 10_000, 'the API key');
    // The direct round trip: a client of the run's emulator and key, as the extension's is.
    const emulatorClient = new OdinClient({ baseUrl: testEnv.emulatorUrl, apiKey: () => testEnv.apiKey });
    // The same client from the extension's own bundle (the module it loaded): the hover and its
    // round trip then run the same parse and normalisation, warmed alike. The copy above (the
    // tests' build) lists the IPs, which warms its normalisation on a thousand hosts that the
    // extension's copy never saw: the earlier measure's round trip.
    const dist = path.join(fs.realpathSync(extension().extensionPath), 'dist', 'connection.js');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const bundled = require(dist) as { OdinClient: typeof OdinClient };
    const sameCodeClient = new bundled.OdinClient({
      baseUrl: testEnv.emulatorUrl,
      apiKey: () => testEnv.apiKey,
    });
    const n = Number(process.env.ODIN_BENCH_N ?? 30);
    const ips: string[] = [];
    for (let start: HostCursor | undefined, pages = 0; ips.length <= 2 * n && pages < 10; pages++) {
      const page = await emulatorClient.searchHosts({ query: '*', limit: 100, ...(start ? { start } : {}) });
      ips.push(...page.items.map((h) => h.ip).filter((ip) => /^\d+\.\d+\.\d+\.\d+$/.test(ip)));
      start = page.next;
      if (!start) break;
    }
    assert.ok(ips.length > 2 * n + 1, `only ${ips.length} IPv4 hosts`);
    // Each IP is asked twice, once straight from the client (the round trip) and once by a
    // cold hover, in alternating order: the overhead is the difference for the same answer
    // (same body, same parse), so the hosts' different sizes do not count as overhead.
    // The first n IPs are hovered by calling the provider's hook directly (as VS Code calls the
    // provider: no command); the next n through `executeCommand('odin.test.hover')`, the
    // earlier measure, whose command sends the workbench an activation event on each call and
    // whose answer lands in this process while the hover waits for ODIN (reported beside).
    const paired = ips.slice(0, 2 * n);
    const first = ips[2 * n];
    const doc = await vscode.workspace.openTextDocument({
      content: [...paired, first]
        .map((ip) => `${ip} - - [21/Nov/2025:08:14:02 +0000] "GET / HTTP/1.1" 200 1`)
        .join('\n'),
      language: 'log',
    });
    const probe = (line: number) =>
      vscode.commands.executeCommand<{ ms: number; markdown?: string }>(
        'odin.test.hover',
        doc.uri.toString(),
        line,
        3,
      );
    const probeDirect = (line: number) => api.ui.hover(doc.uri.toString(), line, 3);
    api.lookups().cache.clear();
    // The session's first hover also loads the KEV and EPSS copies on disk: reported apart.
    const firstHover = (await probe(2 * n)).ms;
    const direct = { roundTrip: [] as number[], cold: [] as number[], overhead: [] as number[] };
    const viaCommand = { roundTrip: [] as number[], cold: [] as number[], overhead: [] as number[] };
    // ODIN_BENCH_CPU_PROFILE=<file>: a V8 CPU profile of the cold hovers, to find their cost
    // (`node scripts/bench/hover.mjs`, then `summarise` of scripts/profile-activation.mjs).
    const profiler = process.env.ODIN_BENCH_CPU_PROFILE ? await startProfile() : undefined;
    const pair = async (
      line: number,
      into: typeof direct,
      hoverOf: (line: number) => PromiseLike<{ ms: number; markdown?: string }>,
      client: Pick<OdinClient, 'getHost'>,
      clientFirst: boolean,
    ): Promise<void> => {
      const roundTrip = async (): Promise<number> => {
        const t0 = performance.now();
        await client.getHost(paired[line]);
        return performance.now() - t0;
      };
      const hover = async (): Promise<number> => {
        const r = await hoverOf(line);
        assert.ok(r.markdown?.includes('Open ports'), r.markdown);
        return r.ms;
      };
      let rt: number;
      let c: number;
      if (clientFirst) {
        rt = await roundTrip();
        c = await hover();
      } else {
        c = await hover();
        rt = await roundTrip();
      }
      into.roundTrip.push(rt);
      into.cold.push(c);
      into.overhead.push(c - rt);
    };
    // The two measures interleaved, so neither has the other's warm-up. A hover that follows
    // another with no turn between (never so in VS Code: each hover is a message of its own)
    // also sizes the one before for the cache (ResultCache leaves that to the next turn): the
    // earlier measure keeps its order (a hover first after a hover, half the time), the hook's
    // never follows a hover.
    for (let i = 0; i < n; i++) {
      if (i % 2 === 0) {
        await pair(i, direct, probeDirect, sameCodeClient, true);
        await pair(n + i, viaCommand, probe, emulatorClient, true);
      } else {
        await pair(n + i, viaCommand, probe, emulatorClient, false);
        await pair(i, direct, probeDirect, sameCodeClient, false);
      }
    }
    if (profiler)
      fs.writeFileSync(process.env.ODIN_BENCH_CPU_PROFILE ?? '', JSON.stringify(await profiler()));
    const warm: number[] = [];
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < n; i++) warm.push((await probe(i)).ms);
    }
    // End to end through the workbench (what `vscode.executeHoverProvider` costs, all providers).
    const e2e: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await odinHover(doc.uri, new vscode.Position(i, 3));
      e2e.push(performance.now() - t0);
    }
    fs.writeFileSync(
      out,
      JSON.stringify({
        firstHover,
        ...direct,
        viaCommand,
        warm,
        e2e,
        sent: api.lookups().sent,
      }),
    );
  });
});

/** Starts this process's V8 profiler (50 µs samples); the returned function stops it. */
async function startProfile(): Promise<() => Promise<unknown>> {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) =>
      session.post(method, params, (err, r) => (err ? reject(err) : resolve(r))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 50 });
  await post('Profiler.start');
  return async () => {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    session.disconnect();
    return profile;
  };
}
