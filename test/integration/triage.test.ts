/**
 * Bulk triage inside the real VS Code host: `odin.triage` / `odin.triageReport` on the sample
 * workspace's logs and on a generated 50 MB log of 10,000 unique public IPs, with the
 * emulator's request log as the witness of what was (never) sent, its credit budget for a
 * 402 midway, and injected faults (429, reset).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { FIXTURE_HOSTS } from '../../src/emulator/fixtures';
import type { TestApi, TriageRenderedEvent, TriageResult } from '../../src/extension/testApi';
import { clearEmulatorLog, emulatorAdmin, getTestApi, lookupLog, testEnv, waitFor } from './index';
import { odinHover } from './support';

/** The triage page's `rendered` reports so far. */
const triageReports = (api: TestApi): TriageRenderedEvent[] =>
  api.pages.rendered.filter((e): e is TriageRenderedEvent => e.page === 'triage');

function workspaceFile(rel: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return vscode.Uri.joinPath(folder.uri, rel);
}

const LOGS = [
  'auth.log',
  'nginx-access.log',
  'apache-access.log',
  'ufw.log',
  'vpc-flow.log',
  'app.jsonl',
].map((f) => workspaceFile(`logs/${f}`).toString());

async function triage(args: { uris?: string[]; send?: boolean }): Promise<TriageResult> {
  const r = await vscode.commands.executeCommand<TriageResult | undefined>('odin.triage', args);
  assert.ok(r, 'odin.triage returned a result');
  return r;
}

const PRIVATE = /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|127\.)/;

/** Every value the emulator was sent (paths and bodies), as one text. */
async function sentText(): Promise<string> {
  return (await lookupLog()).map((e) => JSON.stringify(e)).join('\n');
}

describe('triage', function () {
  this.timeout(240_000);

  before(async function () {
    // These tests enrich through the emulator and read the sample workspace's logs; the
    // Restricted Mode run opens the hostile workspace, where triage stays local (off.test.ts).
    if (!testEnv.emulatorUrl || testEnv.run === 'restricted') this.skip();
    await getTestApi();
  });
  afterEach(async () => {
    await emulatorAdmin('DELETE', 'faults');
    await emulatorAdmin('POST', 'credits', { host: 1_000_000 });
    (await getTestApi()).lookups().resume();
  });

  it('previews the sample logs without sending anything (send: false)', async () => {
    await clearEmulatorLog();
    const r = await triage({ uris: LOGS, send: false });
    assert.strictEqual((await lookupLog()).length, 0, 'nothing sent');
    assert.ok(r.local);
    const scanner = r.indicators.find((i) => i.value === '185.220.101.34');
    assert.ok(scanner && scanner.count > 5, 'the scanner of auth.log is counted');
    assert.ok(
      r.indicators.some((i) => PRIVATE.test(i.value) && i.status === 'local'),
      'private addresses stay local',
    );
    assert.ok(r.preview.requests >= 1 && r.preview.requests <= r.preview.toSend);
  });

  it('enriches the sample logs: expected verdicts, requests within the preview, no private value sent', async () => {
    await clearEmulatorLog();
    const pre = await triage({ uris: LOGS, send: false });
    const r = await triage({ uris: LOGS, send: true });
    assert.strictEqual(r.requests, (await lookupLog()).length);
    assert.ok(r.requests <= pre.preview.requests, `${r.requests} <= ${pre.preview.requests}`);
    const text = await sentText();
    for (const i of r.indicators)
      if (PRIVATE.test(i.value))
        assert.ok(!text.includes(`"${i.value}"`) && !text.includes(`:${i.value} `), i.value);
    const scanner = r.indicators.find((i) => i.value === '185.220.101.34');
    assert.strictEqual(scanner?.status, 'enriched');
    assert.strictEqual(scanner?.verdict?.kind, 'host');
    assert.strictEqual(r.partial, false, r.summary);
    // A re-run sends nothing: every answer is cached.
    await clearEmulatorLog();
    const again = await triage({ uris: LOGS, send: true });
    assert.strictEqual(again.requests, 0);
    assert.ok(again.indicators.filter((i) => i.status === 'enriched').every((i) => !i.sent));
    // Every report format renders from the last triage.
    for (const format of ['md', 'csv', 'json', 'stix', 'misp']) {
      const rep = await vscode.commands.executeCommand<string>('odin.triageReport', { format });
      assert.ok(typeof rep === 'string' && rep.length > 100, format);
      if (format !== 'md' && format !== 'csv') JSON.parse(rep);
    }
    const md = await vscode.commands.executeCommand<string>('odin.triageReport', { format: 'md' });
    assert.ok(md.includes('185[.]220[.]101[.]34'), 'Markdown is defanged');
  });

  it('a refused batch (400) sends no single lookup without a new yes: the count of the preview is what reaches ODIN', async () => {
    const api = await getTestApi();
    api.lookups().cache.clear();
    api.ui.triage().state.last = undefined;
    await emulatorAdmin('POST', 'faults', {
      path: '^/v1/hosts/search',
      fault: { kind: 'status', status: 400 },
      count: -1,
    });
    await clearEmulatorLog();
    const r = await triage({ uris: LOGS, send: true });
    const log = (await lookupLog()) as { path?: string }[];
    assert.ok(r.preview.requests > 0);
    assert.strictEqual(r.requests, log.length, 'the count is what reached the emulator');
    assert.ok(
      log.length <= r.preview.requests,
      `${log.length} requests, the preview said ${r.preview.requests}`,
    );
    assert.ok(
      !log.some((e) => /^\/v1\/hosts\/[0-9a-fA-F:.]+\/?$/.test(e.path ?? '')),
      'no single host lookup',
    );
    assert.match(r.summary, /over budget \(batched search refused\); \d+ requests? sent$/);
    api.lookups().cache.clear();
    api.ui.triage().state.last = undefined;
  });

  it('shows verdict decorations from the cache only, when turned on', async () => {
    const api = await getTestApi();
    const uri = workspaceFile('logs/auth.log');
    await triage({ uris: [uri.toString()], send: true });
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const cfg = vscode.workspace.getConfiguration('odin.triage');
    await cfg.update('decorations', true, vscode.ConfigurationTarget.Global);
    try {
      await clearEmulatorLog();
      const deco = api.ui.triage().setDecorations(true)!;
      deco.update();
      assert.ok((deco.shown.get(uri.toString()) ?? 0) > 0, 'a verdict after a known indicator');
      assert.strictEqual((await lookupLog()).length, 0, 'decorations send nothing');
    } finally {
      await cfg.update('decorations', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('shows the triage view from the last triage, sending nothing by itself', async () => {
    const api = await getTestApi();
    const r = await triage({ uris: LOGS, send: true });
    const probe = {
      get rendered() {
        return triageReports(api);
      },
    };
    const since = Date.now();
    await clearEmulatorLog();
    await vscode.commands.executeCommand('odin.showTriage');
    const shown = (await waitFor(
      () => probe.rendered.find((e) => e.at >= since),
      60_000,
      'the view rendered',
    ))!;
    assert.strictEqual(shown.rows, r.indicators.length, 'one row per indicator');
    assert.ok(shown.dom > 0 && shown.dom <= shown.rows, `only rows in view are built (${shown.dom})`);
    // A new triage updates the open view (a new generation).
    await triage({ uris: [LOGS[0]!], send: true });
    const next = (await waitFor(
      () => probe.rendered.find((e) => e.generation > shown.generation),
      60_000,
      'the view followed the new triage',
    ))!;
    assert.ok(next.rows < shown.rows);
    const sent = await lookupLog();
    assert.strictEqual(sent.length, 0, 'showing the view sent nothing (all answers cached)');
    api.ui.triage().view()?.dispose();
  });

  it('puts one known exploited CVE at CVSS 7.5 above ten CVEs at 9.8 in the view; the header charts and filters', async () => {
    const api = await getTestApi();
    // The feeds come from the emulator (user settings of the host run).
    await api.connection.feeds.ensure();
    const uri = workspaceFile('logs/exposure-scan.log');
    await triage({ uris: [uri.toString()], send: true });
    const probe = {
      get rendered() {
        return triageReports(api);
      },
    };
    const since = Date.now();
    await vscode.commands.executeCommand('odin.showTriage');
    const shown = (await waitFor(
      () => probe.rendered.find((e) => e.at >= since && e.top !== undefined),
      60_000,
      'the view rendered',
    ))!;
    // The order as the page shows it (its default sort), read from its own report.
    const rows = api.ui.triage().state.last!.rows;
    const order = shown.top!.map((i) => rows[i]!.value);
    const kevAt = order.indexOf(FIXTURE_HOSTS.kevOne);
    const tenAt = order.indexOf(FIXTURE_HOSTS.tenCritical);
    assert.ok(kevAt >= 0 && tenAt >= 0, order.join(', '));
    assert.ok(kevAt < tenAt, `KEV host first: ${order.join(', ')}`);
    // The header's model, as posted with the rows.
    const view = api.ui.triage().view()!;
    const glance = view.glance();
    const band = glance.charts.find((c) => c.id === 'band')!;
    assert.strictEqual(band.keys[0], 'kev', 'the worst band drawn first is KEV');
    const verdict = glance.charts.find((c) => c.id === 'verdict')!;
    const vulnerable = verdict.bars.find((b) => verdict.keys[b.bucket!] === 'vulnerable')!;
    assert.strictEqual(vulnerable.count, 2);
    const product = glance.charts.find((c) => c.id === 'product')!;
    assert.ok(product.bars.length > 0 && product.bars.length <= 6, 'top 5 + other at most');
    // A bar click, as the page reports it: ids and counts only; the view names the bar's key.
    const deliver = api.pages.receivers.get('triage:triage')!;
    const rejected = api.pages.rejected;
    deliver({
      type: 'glanceFilter',
      generation: shown.generation,
      chart: 'band',
      bucket: 0,
      shown: 1,
      top: [rows.findIndex((r) => r.value === FIXTURE_HOSTS.kevOne)],
    });
    const report = await waitFor(() => view.glanceFilter(), 10_000, 'the filter noted');
    assert.deepStrictEqual(report, { chart: 'band', key: 'kev', shown: 1, top: [FIXTURE_HOSTS.kevOne] });
    deliver({
      type: 'glanceFilter',
      generation: shown.generation,
      chart: 'band',
      key: 'kev',
      shown: 1,
      top: [],
    });
    assert.strictEqual(api.pages.rejected, rejected + 1, 'a value instead of an id is refused');
    // The hover of each leads with its worst signal: KEV for the one, CVSS 9.8 for the ten.
    const text = (await vscode.workspace.openTextDocument(uri)).getText();
    const doc = await vscode.workspace.openTextDocument(uri);
    const one = await odinHover(uri, doc.positionAt(text.indexOf(FIXTURE_HOSTS.kevOne) + 1));
    assert.match(one ?? '', /Vulnerable:\*\* yes · Known exploited \(KEV, added 2021-11-03\) · CVSS 7\.5/);
    const ten = await odinHover(uri, doc.positionAt(text.indexOf(FIXTURE_HOSTS.tenCritical) + 1));
    assert.match(ten ?? '', /Vulnerable:\*\* yes · (EPSS [^·]+ · )?CVSS 9\.8/);
    assert.doesNotMatch(ten ?? '', /Known exploited/);
    view.dispose();
  });

  it('lists vulnerable hosts of infrastructure files in Problems from the cache only, with "Open details"', async () => {
    const api = await getTestApi();
    const uri = workspaceFile('infra/main.tf');
    await triage({ uris: [uri.toString()], send: true });
    const cfg = vscode.workspace.getConfiguration('odin.triage');
    await cfg.update('problems', true, vscode.ConfigurationTarget.Global);
    try {
      await clearEmulatorLog();
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      const problems = api.ui.triage().setProblems(true)!;
      problems.update(doc);
      const diags = await waitFor(
        () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'ODIN'),
        10_000,
        'ODIN problems',
      );
      assert.ok(diags.length >= 1, 'a problem for the vulnerable web server');
      // main.tf names the RDP host (52.14.88.213) before the web server: both are vulnerable.
      const d = diags.find((x) => doc.getText(x.range) === '45.33.32.156')!;
      assert.ok(d, `problems: ${diags.map((x) => doc.getText(x.range)).join(', ')}`);
      assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Warning);
      assert.match(
        d.message,
        /45\.33\.32\.156 is a vulnerable host according to ODIN: (?:Known exploited \(KEV[^)]*\); )?\d+ CVEs/,
      );
      assert.ok(
        !diags.some((x) => /^(10\.|192\.168\.)/.test(doc.getText(x.range))),
        'never a private address',
      );
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        uri,
        d.range,
        vscode.CodeActionKind.QuickFix.value,
      );
      const fix = actions.find((a) => a.title === 'Open details of 45.33.32.156');
      assert.ok(fix, `quick fixes: ${actions.map((a) => a.title).join(', ')}`);
      assert.deepStrictEqual(fix.command?.arguments, ['45.33.32.156']);
      assert.strictEqual(fix.command?.command, 'odin.openHostDetails');
      // Written otherwise (defanged in a comment, as a ticket would paste it): the entry's
      // range covers the text as written, and the fix still opens the canonical IP.
      const defanged = workspaceFile('infra/defanged-it.tf');
      fs.writeFileSync(defanged.fsPath, '# the jump host, from ticket SEC-7: 45[.]33[.]32[.]156\n');
      try {
        const ddoc = await vscode.workspace.openTextDocument(defanged);
        problems.update(ddoc);
        const dd = await waitFor(
          () => vscode.languages.getDiagnostics(defanged).find((x) => x.source === 'ODIN'),
          10_000,
          'the ODIN problem of the defanged IP',
        );
        assert.strictEqual(ddoc.getText(dd!.range), '45[.]33[.]32[.]156', 'the range is the text as written');
        const dfixes = await vscode.commands.executeCommand<vscode.CodeAction[]>(
          'vscode.executeCodeActionProvider',
          defanged,
          dd!.range,
          vscode.CodeActionKind.QuickFix.value,
        );
        const dfix = dfixes.find((a) => a.command?.command === 'odin.openHostDetails');
        assert.ok(dfix, `quick fixes: ${dfixes.map((a) => a.title).join(', ')}`);
        assert.strictEqual(dfix.title, 'Open details of 45.33.32.156');
        assert.deepStrictEqual(dfix.command?.arguments, ['45.33.32.156'], 'the canonical IP, not the text');
      } finally {
        fs.rmSync(defanged.fsPath, { force: true });
      }
      // A log is not an infrastructure file: no entries there.
      const log = workspaceFile('logs/auth.log');
      problems.update(await vscode.workspace.openTextDocument(log));
      assert.strictEqual(vscode.languages.getDiagnostics(log).filter((x) => x.source === 'ODIN').length, 0);
      assert.strictEqual((await lookupLog()).length, 0, 'the Problems entries sent nothing');
    } finally {
      await cfg.update('problems', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.strictEqual(
      vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'ODIN').length,
      0,
      'turned off: entries gone',
    );
  });

  it('shows the credits left in the status bar, warning when they run low', async () => {
    const api = await getTestApi();
    await emulatorAdmin('POST', 'credits', { host: 42 });
    await vscode.commands.executeCommand('odin.refreshCredits');
    const item = api.ui.statusItems().get('odin.credits');
    assert.ok(item, 'the credits item');
    await waitFor(() => /\b42\b/.test(item.text), 5000, 'the credits item shows 42');
    assert.match(
      item.text,
      /^\$\(warning\) [\d,/]+ · 42$/,
      'low: the warning icon; spent (this session) · balance',
    );
    assert.ok(item.backgroundColor instanceof vscode.ThemeColor, 'low: the warning background');
    await emulatorAdmin('POST', 'credits', { host: 1_000_000 });
    await vscode.commands.executeCommand('odin.refreshCredits');
    await waitFor(() => item.text.includes('1,000,000'), 5000, 'the credits item shows 1,000,000');
    assert.match(item.text, /^\$\(credit-card\) /);
    assert.strictEqual(item.backgroundColor, undefined);
  });

  it('stays local with lookups off', async () => {
    const cfg = vscode.workspace.getConfiguration('odin');
    await cfg.update('lookups.mode', 'off', vscode.ConfigurationTarget.Global);
    try {
      await clearEmulatorLog();
      const r = await triage({ uris: [LOGS[3]!], send: true });
      assert.match(r.local ?? '', /off/);
      assert.strictEqual((await lookupLog()).length, 0);
    } finally {
      await cfg.update('lookups.mode', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('refuses files outside the workspace', async () => {
    await clearEmulatorLog();
    const r = await vscode.commands.executeCommand('odin.triage', {
      uris: ['file:///etc/hosts'],
      send: true,
    });
    assert.strictEqual(r, undefined);
    assert.strictEqual((await lookupLog()).length, 0);
  });

  describe('a 50 MB log with 10,000 unique public IPs', () => {
    let uri: string;
    const unique = 10_000;
    before(() => {
      const ips: string[] = [];
      for (let i = 0; i < unique; i++)
        ips.push(`${45 + (i % 3)}.${(i >> 8) & 255}.${i & 255}.${77 + (i % 5)}`);
      const lines: string[] = [];
      let size = 0;
      for (let n = 0; size < 50 * 1024 * 1024; n++) {
        const line = `2026-11-21T03:12:${String(n % 60).padStart(2, '0')}Z conn from ${ips[n % unique]} to 10.0.${n % 250}.4 via 192.168.1.${n % 250} ok`;
        lines.push(line);
        size += line.length + 1;
      }
      const file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'logs', 'big-triage.log');
      fs.writeFileSync(file, lines.join('\n'));
      uri = vscode.Uri.file(file).toString();
    });

    it('a cancel midway keeps the partial rows; a re-run sends only what is missing', async () => {
      const api = await getTestApi();
      // Slow answers, so the run is still going when it is cancelled (as with the progress notification's Cancel).
      await emulatorAdmin('POST', 'faults', {
        path: '^/v1/hosts/search',
        fault: { kind: 'latency', ms: 150 },
        count: -1,
      });
      api.lookups().cache.clear();
      api.ui.triage().state.last = undefined;
      await clearEmulatorLog();
      const running = vscode.commands.executeCommand<TriageResult | undefined>('odin.triage', {
        uris: [uri],
        send: true,
      });
      await waitFor(async () => (await lookupLog()).length >= 12, 120_000, 'a dozen requests sent');
      api.ui.triage().state.running?.abort();
      const first = (await running)!;
      await emulatorAdmin('DELETE', 'faults');
      assert.ok(first.partial, first.summary);
      assert.match(first.summary, /cancelled/);
      const doneValues = new Set(
        first.indicators.filter((i) => i.status === 'enriched' || i.status === 'unknown').map((i) => i.value),
      );
      assert.ok(doneValues.size > 0 && doneValues.size < unique, `${doneValues.size} rows kept`);
      // The view's state keeps the partial rows too.
      const kept = api.ui
        .triage()
        .state.last!.rows.filter((r) => r.status === 'enriched' || r.status === 'unknown').length;
      assert.strictEqual(kept, doneValues.size);
      // The re-run asks only for what is missing: no value answered before is in any query.
      await clearEmulatorLog();
      const rest = await triage({ uris: [uri], send: true });
      assert.strictEqual(rest.partial, false, rest.summary);
      const missing = unique - doneValues.size;
      assert.ok(rest.requests <= Math.ceil(missing / 50), `${rest.requests} requests for ${missing} missing`);
      const asked = new Set([...(await sentText()).matchAll(/ip:\\?"?([0-9.]+)/g)].map((m) => m[1]!));
      assert.strictEqual(asked.size, missing, 'every missing value asked once');
      for (const v of asked) assert.ok(!doneValues.has(v), `${v} was answered before and sent again`);
      // The next test starts from nothing known.
      api.lookups().cache.clear();
      api.ui.triage().state.last = undefined;
    });

    it('402 midway keeps the partial rows; a re-run sends only what is missing; faults do not lose rows', async () => {
      const pre = await triage({ uris: [uri], send: false });
      const publicRows = pre.indicators.filter((i) => i.status !== 'local');
      assert.strictEqual(publicRows.length, unique);
      assert.strictEqual(pre.preview.mode, 'batched');
      await clearEmulatorLog();
      await emulatorAdmin('POST', 'credits', { host: 100 });
      const first = await triage({ uris: [uri], send: true });
      assert.ok(first.partial);
      assert.match(first.summary, /not: credits used up/);
      assert.ok(first.requests <= pre.preview.requests);
      const done = first.indicators.filter((i) => i.status === 'enriched' || i.status === 'unknown').length;
      assert.ok(done > 0 && done < unique, String(done));
      const text = await sentText();
      assert.ok(
        !/"(10\.0\.|192\.168\.)/.test(text) && !/ip:(10\.0\.|192\.168\.)/.test(text),
        'no private value sent',
      );
      // A 429 with a long Retry-After and a reset, then the rest: nothing done is lost.
      (await getTestApi()).lookups().resume();
      await emulatorAdmin('POST', 'credits', { host: 1_000_000 });
      await emulatorAdmin('POST', 'faults', {
        path: '^/v1/hosts/search',
        fault: { kind: 'status', status: 429, retryAfter: '120' },
        count: 1,
      });
      const limited = await triage({ uris: [uri], send: true });
      const limitedDone = limited.indicators.filter(
        (i) => i.status === 'enriched' || i.status === 'unknown',
      ).length;
      assert.ok(limitedDone >= done, 'rows kept');
      (await getTestApi()).lookups().resume();
      await emulatorAdmin('DELETE', 'faults');
      await emulatorAdmin('POST', 'faults', {
        path: '^/v1/hosts/search',
        fault: { kind: 'reset' },
        count: 1,
      });
      await clearEmulatorLog();
      const missing = unique - limitedDone;
      const rest = await triage({ uris: [uri], send: true });
      assert.ok(
        rest.requests <= Math.ceil(missing / 50) + 2,
        `${rest.requests} requests for ${missing} missing`,
      );
      if (rest.partial) {
        assert.match(rest.summary, /reset|network/);
        const last = await triage({ uris: [uri], send: true });
        assert.strictEqual(last.partial, false, last.summary);
      }
      // Everything known now: a final run sends nothing.
      await clearEmulatorLog();
      const cached = await triage({ uris: [uri], send: true });
      assert.strictEqual(cached.requests, 0);
      assert.strictEqual(cached.partial, false);
    });
  });
});

describe('triage in Restricted Mode', function () {
  this.timeout(60_000);

  before(function () {
    // The Restricted Mode run only (the hostile workspace, not trusted).
    if (!testEnv.emulatorUrl || vscode.workspace.isTrusted) this.skip();
  });

  it('stays local even with send: true: the rows of the scan, no request', async () => {
    await clearEmulatorLog();
    const r = await triage({ uris: [workspaceFile('honeypot.log').toString()], send: true });
    assert.match(r.local ?? '', /Restricted Mode/);
    assert.ok(
      r.indicators.some((i) => i.value === '185.220.101.34'),
      'the scan still lists the indicators',
    );
    assert.strictEqual(r.requests, 0);
    assert.ok(r.indicators.every((i) => !i.sent));
    assert.strictEqual((await lookupLog()).length, 0, 'nothing sent');
  });
});
