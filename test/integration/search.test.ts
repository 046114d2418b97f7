/**
 * Command-palette searches and the results view inside the real VS Code host, against the
 * emulator: every search command end to end (arguments skip the prompts; the prompts are
 * driven in the UI test), the tree's content and paging over more than ten pages through
 * the TreeDataProvider itself, every injected fault shown as an error node that keeps the
 * loaded results, and export.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../src/emulator/fixtures';
import type { RunSummary, ResultNode as Node } from '../../src/extension/testApi';
import { kindOf } from '../../src/core/results/nodeMenus';
import { clearEmulatorLog, emulatorAdmin, getTestApi, lookupLog, testEnv, waitFor } from './index';
import { feature } from './results';

async function run(command: string, ...args: unknown[]): Promise<RunSummary> {
  const r = (await vscode.commands.executeCommand(command, ...args)) as RunSummary | undefined;
  if (!r) throw new Error(`${command} returned nothing`);
  return r;
}

/** The children of the result set `setId`, as the tree shows them. */
async function setNodes(setId: string): Promise<Node[]> {
  const f = await feature();
  const root = f.results.getChildren().find((n) => n.type === 'set' && n.set.id === setId);
  assert.ok(root, `set ${setId} is in the tree`);
  return f.results.getChildren(root);
}

const admin = emulatorAdmin;

const injectFault = (fault: unknown, count = 1): Promise<void> =>
  admin('POST', 'faults', { fault, count, path: '^/v1/hosts/search' });
const clearFaults = (): Promise<void> => admin('DELETE', 'faults');

describe('search commands and the results view', function () {
  this.timeout(180_000);

  before(function () {
    if (!testEnv.emulatorUrl || testEnv.run === 'restricted') this.skip();
  });
  afterEach(clearFaults);

  it('searches hosts into the tree: items, "Load more" with "N of TOTAL", view description', async () => {
    const f = await feature();
    const r = await run('odin.searchHosts', { query: '*', pageSize: 25 });
    assert.strictEqual(r.status, 'ready', r.error);
    assert.strictEqual(r.count, 25);
    assert.ok((r.total ?? 0) > 250, `total ${r.total}`);
    const nodes = await setNodes(r.setId!);
    assert.strictEqual(nodes.length, 26);
    assert.ok(nodes.slice(0, 25).every((n) => n.type === 'item' && n.item.t === 'host'));
    const more = f.results.getTreeItem(nodes[25]);
    assert.strictEqual(kindOf(more.contextValue), 'odin.loadMore');
    assert.strictEqual(more.description, `25 of ${r.total!.toLocaleString('en-US')} shown`);
    assert.strictEqual(more.command?.command, 'odin.loadMore');
    // The view's title follows the current set through an event: wait for it to settle.
    const expected = `25 of ${r.total!.toLocaleString('en-US')}`;
    await waitFor(
      () => f.resultsView.description === expected,
      5_000,
      `the view's title "${expected}"`,
    ).catch(() => undefined);
    assert.strictEqual(f.resultsView.description, expected);
    assert.strictEqual((await getTestApi()).ui.contextValue('odin.hasResults'), true);
    // The root node of the current set is expanded and labelled with the query.
    const root = f.results.getChildren()[0];
    const rootItem = f.results.getTreeItem(root);
    assert.strictEqual(rootItem.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    assert.match(String(rootItem.label), /Host search: \*/);
  });

  it('pages through more than ten pages with "Load more": no duplicates, count always visible', async () => {
    const f = await feature();
    const r = await run('odin.searchHosts', { query: '*', pageSize: 20 });
    for (let i = 0; i < 11; i++) {
      const s = await run('odin.loadMore', r.setId);
      assert.strictEqual(s.status, 'ready', s.error);
    }
    const nodes = await setNodes(r.setId!);
    const ips = nodes.flatMap((n) => (n.type === 'item' && n.item.t === 'host' ? [n.item.v.ip] : []));
    assert.strictEqual(ips.length, 240);
    assert.strictEqual(new Set(ips).size, 240, 'no host twice');
    const last = f.results.getTreeItem(nodes[nodes.length - 1]);
    assert.strictEqual(last.description, `240 of ${r.total!.toLocaleString('en-US')} shown`);
  });

  it('loads all pages of a result set (Load all) until the end', async () => {
    const f = await feature();
    const r = await run('odin.searchHosts', { query: 'services.port:3389', pageSize: 100 });
    assert.ok((r.total ?? 0) > 100, 'more than one page');
    assert.strictEqual(r.status, 'ready', r.error);
    // The question "Load all remaining results?" is answered by the argument here.
    const all = await run('odin.loadAll', r.setId, { confirmed: true });
    assert.strictEqual(all.status, 'ready');
    assert.strictEqual(all.count, all.total ?? all.count);
    const nodes = await setNodes(r.setId!);
    assert.ok(!nodes.some((n) => n.type === 'more'), 'no "Load more" at the end');
    assert.strictEqual(f.results.get(r.setId)?.hasMore, false);
  });

  it('a cancelled Load all keeps the pages already loaded', async () => {
    const f = await feature();
    const r = await run('odin.searchHosts', { query: '*', pageSize: 10 });
    const set = f.results.get(r.setId)!;
    const c = new AbortController();
    await set.loadAll(c.signal, (s) => {
      if (s.pages === 3) c.abort();
    });
    // The first page of 10, then pages of the API's largest size (100).
    assert.strictEqual(set.items.length, 210);
    assert.strictEqual(set.status, 'ready');
    const nodes = await setNodes(r.setId!);
    const last = f.results.getTreeItem(nodes[nodes.length - 1]);
    assert.strictEqual(kindOf(last.contextValue), 'odin.loadMore', 'Load more is offered again');
    const more = await run('odin.loadMore', r.setId);
    assert.strictEqual(more.count, 220);
  });

  it('hosts expand to services and CVEs with severity icons in theme colours', async () => {
    const f = await feature();
    const r = await run('odin.lookupHost', { ip: FIXTURE_HOSTS.webServer, view: 'results' });
    assert.strictEqual(r.status, 'ready', r.error);
    const [hostNode] = await setNodes(r.setId!);
    const services = f.results.getChildren(hostNode).filter((n) => n.type === 'service');
    assert.ok(services.length > 0);
    const withCves = services.find((s) => s.type === 'service' && s.service.cve.length > 0);
    assert.ok(withCves, 'a service with CVEs');
    const cves = f.results.getChildren(withCves).filter((n) => n.type === 'cve');
    const icon = f.results.getTreeItem(cves[0]).iconPath as vscode.ThemeIcon;
    assert.ok(icon instanceof vscode.ThemeIcon);
    assert.ok(icon.color instanceof vscode.ThemeColor);
    assert.strictEqual(kindOf(f.results.getTreeItem(hostNode).contextValue), 'odin.host');
  });

  it('lookupHost and whois open the details pages when they exist', async () => {
    assert.strictEqual((await run('odin.lookupHost', FIXTURE_HOSTS.webServer)).status, 'details');
    assert.strictEqual((await run('odin.whois', { domain: FIXTURE_DOMAINS.corp })).status, 'details');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('runs every other endpoint command end to end', async () => {
    const f = await feature();
    const ip = FIXTURE_HOSTS.webServer;
    const domain = FIXTURE_DOMAINS.corp;

    const summary = await run('odin.summarizeHosts', { field: 'services.port', query: '*' });
    assert.strictEqual(summary.status, 'ready', summary.error);
    const facets = await setNodes(summary.setId!);
    const facet = facets.find((n) => n.type === 'item' && n.item.t === 'facet');
    assert.ok(facet && facet.type === 'item' && facet.item.t === 'facet');
    const facetItem = f.results.getTreeItem(facet);
    assert.strictEqual(facetItem.command?.command, 'odin.narrowByFacet');
    const narrowed = await run('odin.narrowByFacet', ...(facetItem.command!.arguments ?? []));
    assert.strictEqual(narrowed.status, 'ready', narrowed.error);
    assert.strictEqual(narrowed.total, facet.item.v.doc_count, 'narrowing finds exactly the facet count');
    assert.match(f.results.get(narrowed.setId)!.spec.query!, /^services\.port:\d+$/);

    const cves = await run('odin.hostCves', { ip });
    assert.strictEqual(cves.status, 'ready', cves.error);
    assert.ok(cves.count! > 0);
    const firstCve = f.results.get(cves.setId)!.items[0];
    assert.ok(firstCve.t === 'cve');
    const one = await run('odin.hostCve', { ip, cve: firstCve.v.id });
    assert.strictEqual(one.status, 'ready', one.error);
    assert.strictEqual(one.count, 1);
    const exploits = await run('odin.hostExploits', { ip });
    assert.strictEqual(exploits.status, 'ready', exploits.error);

    const domains = await run('odin.searchDomains', { domain, pageSize: 5 });
    assert.strictEqual(domains.status, 'ready', domains.error);
    assert.ok(domains.count! > 0);
    const count = await run('odin.countDomains', { domain });
    assert.strictEqual(count.status, 'ready', count.error);
    const countNode = (await setNodes(count.setId!))[0];
    assert.match(String(f.results.getTreeItem(countNode).label), /^Domains: [\d,]+$/);
    assert.strictEqual((await run('odin.countSubdomains', { domain })).status, 'ready');
    assert.strictEqual((await run('odin.whois', { domain, view: 'results' })).status, 'ready');
    const history = await run('odin.whoisHistory', { domain });
    assert.strictEqual(history.status, 'ready', history.error);
    assert.ok(history.count! >= 1);

    const buckets = await run('odin.searchBuckets', {
      query: 'provider:aws',
      sortBy: 'files',
      sortDir: 'desc',
      pageSize: 10,
    });
    assert.strictEqual(buckets.status, 'ready', buckets.error);
    const bucketItems = f.results
      .get(buckets.setId)!
      .items.flatMap((i) => (i.t === 'bucket' ? [i.v.files ?? 0] : []));
    assert.deepStrictEqual(
      bucketItems,
      [...bucketItems].sort((a, b) => b - a),
      'sorted by files, descending',
    );
    assert.strictEqual((await run('odin.countFiles', { query: 'provider:aws' })).status, 'ready');
    assert.strictEqual((await run('odin.summarizeFiles', { field: 'ext', query: '*' })).status, 'ready');

    const fields = (await vscode.commands.executeCommand('odin.browseFields', {
      catalogue: 'hosts',
      list: true,
    })) as Array<{
      name: string;
      locked: boolean;
    }>;
    assert.ok(fields.some((x) => x.name === 'services.port'));
  });

  it('shows a rejected query (400) as an error node with Retry, and no notification from the tree', async () => {
    const f = await feature();
    const r = await run('odin.searchHosts', { query: 'services.port:(443' });
    assert.strictEqual(r.status, 'error');
    assert.strictEqual(r.errorKind, 'badRequest');
    const [err] = await setNodes(r.setId!);
    const item = f.results.getTreeItem(err);
    assert.strictEqual(kindOf(item.contextValue), 'odin.error');
    assert.strictEqual(item.command?.command, 'odin.retry');
    assert.ok(String(item.label).length > 0);
  });

  const faults: Array<[string, unknown, number, (() => Promise<void>)?]> = [
    ['401', { kind: 'status', status: 401 }, 1],
    ['402', { kind: 'status', status: 402 }, 1],
    ['429', { kind: 'status', status: 429 }, 5],
    ['500 HTML page', { kind: 'status', status: 500, html: true }, 5],
    ['connection reset', { kind: 'reset' }, 5],
    ['truncated body', { kind: 'truncated' }, 5],
  ];
  for (const [name, fault, count] of faults) {
    it(`keeps the loaded results when the next page fails: ${name}`, async () => {
      const f = await feature();
      const r = await run('odin.searchHosts', { query: '*', pageSize: 10 });
      assert.strictEqual(r.count, 10);
      await injectFault(fault, count);
      const failed = await run('odin.loadMore', r.setId);
      assert.strictEqual(failed.status, 'error', `${name}: ${JSON.stringify(failed)}`);
      assert.strictEqual(failed.count, 10, 'loaded results kept');
      const nodes = await setNodes(r.setId!);
      assert.strictEqual(nodes.length, 11);
      const err = f.results.getTreeItem(nodes[10]);
      assert.strictEqual(kindOf(err.contextValue), 'odin.error');
      assert.match(String(err.description), /10 of [\d,]+ kept/);
      await clearFaults();
      const retried = await run('odin.retry', r.setId);
      assert.strictEqual(retried.status, 'ready', retried.error);
      assert.strictEqual(retried.count, 20);
    });
  }

  it('keeps the loaded results when the next page times out', async () => {
    const cfg = vscode.workspace.getConfiguration('odin');
    await cfg.update('requestTimeoutSeconds', 1, vscode.ConfigurationTarget.Global);
    try {
      const r = await run('odin.searchHosts', { query: '*', pageSize: 10 });
      await injectFault({ kind: 'hang' }, 5);
      const failed = await run('odin.loadMore', r.setId);
      assert.strictEqual(failed.status, 'error');
      assert.strictEqual(failed.errorKind, 'timeout');
      assert.strictEqual(failed.count, 10);
    } finally {
      await cfg.update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('never sends private addresses or internal names (privacy filter)', async () => {
    await clearEmulatorLog();
    for (const [command, arg] of [
      ['odin.hostCves', { ip: '10.1.2.3' }],
      ['odin.lookupHost', { ip: '192.168.0.1', view: 'results' }],
      ['odin.whoisHistory', { domain: 'printer.local' }],
      ['odin.searchDomains', { domain: 'db.corp.internal' }],
    ] as const) {
      const r = await run(command, arg);
      assert.strictEqual(r.status, 'blocked', `${command} ${JSON.stringify(arg)}`);
    }
    assert.strictEqual((await lookupLog()).length, 0, 'no request reached the service');
  });

  it('sends nothing when lookups are off', async () => {
    const cfg = vscode.workspace.getConfiguration('odin');
    await cfg.update('lookups.mode', 'off', vscode.ConfigurationTarget.Global);
    try {
      await clearEmulatorLog();
      const r = await run('odin.searchHosts', { query: '*' });
      assert.strictEqual(r.status, 'blocked');
      assert.strictEqual((await lookupLog()).length, 0, 'no request reached the service');
    } finally {
      await cfg.update('lookups.mode', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('"Similar hosts" takes an IP (hover, host page) and "Search hosts in it" a block, through the gate', async () => {
    type Entry = { method: string; path: string; body?: { query?: string } };
    const api = await getTestApi();
    const ip = FIXTURE_HOSTS.webServer;
    api.lookups().forget('host', ip);
    await clearEmulatorLog();
    const similar = await run('odin.searchSimilar', ip);
    assert.strictEqual(similar.status, 'ready', similar.error);
    assert.ok(similar.count! >= 1, 'at least the host itself');
    let log = (await lookupLog()) as Entry[];
    assert.ok(
      log.some((e) => e.path === `/v1/hosts/${ip}`),
      'one host lookup',
    );
    assert.ok(
      log.some((e) => e.path === '/v1/hosts/search'),
      'then the search',
    );
    // A second time the host comes from the shared cache: only the search is sent.
    await clearEmulatorLog();
    assert.strictEqual((await run('odin.searchSimilar', ip)).status, 'ready');
    log = (await lookupLog()) as Entry[];
    assert.deepStrictEqual(
      log.map((e) => e.path),
      ['/v1/hosts/search'],
    );
    await clearEmulatorLog();
    const block = await run('odin.searchSimilar', '45.33.32.0/24');
    assert.strictEqual(block.status, 'ready', block.error);
    log = (await lookupLog()) as Entry[];
    assert.strictEqual(log.length, 1, JSON.stringify(log));
    assert.strictEqual(log[0].body?.query, 'ip:"45.33.32.0/24"');
    // The gate holds for strings too: a private address, a name, nothing sent.
    await clearEmulatorLog();
    for (const v of ['10.1.2.3', '192.168.0.0/16', 'example.com']) {
      assert.strictEqual((await run('odin.searchSimilar', v)).status, 'blocked', v);
    }
    assert.strictEqual((await lookupLog()).length, 0);
  });

  it('once lookups are off, "Load more", "Load all", export of all pages and the Similar buttons send nothing', async () => {
    const r = await run('odin.searchHosts', { query: '*', pageSize: 5 });
    assert.strictEqual(r.status, 'ready', r.error);
    const cfg = vscode.workspace.getConfiguration('odin');
    await cfg.update('lookups.mode', 'off', vscode.ConfigurationTarget.Global);
    try {
      await clearEmulatorLog();
      const more = await run('odin.loadMore', r.setId);
      assert.strictEqual(more.count, 5, 'nothing added');
      assert.strictEqual(more.errorKind, 'blocked', JSON.stringify(more));
      await run('odin.loadAll', r.setId, { confirmed: true }); // past its question
      await vscode.commands.executeCommand('odin.exportResults', {
        setId: r.setId,
        format: 'json',
        scope: 'all',
        target: 'editor',
      });
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      assert.strictEqual((await run('odin.searchSimilar', FIXTURE_HOSTS.webServer)).status, 'blocked');
      assert.strictEqual((await run('odin.searchSimilar', '45.33.32.0/24')).status, 'blocked');
      assert.strictEqual((await run('odin.refreshResults', r.setId)).status, 'blocked');
      assert.strictEqual((await lookupLog()).length, 0, JSON.stringify(await lookupLog()));
    } finally {
      await cfg.update('lookups.mode', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('exports the loaded pages to CSV and JSON files, formula cells defused', async () => {
    const r = await run('odin.searchHosts', { query: '*', pageSize: 15 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-export-'));
    const csvPath = path.join(dir, 'hosts.csv');
    const csv = (await vscode.commands.executeCommand('odin.exportResults', {
      setId: r.setId,
      format: 'csv',
      scope: 'loaded',
      target: 'file',
      path: csvPath,
    })) as { count: number; complete: boolean };
    assert.strictEqual(csv.count, 15);
    assert.strictEqual(csv.complete, false);
    const lines = fs.readFileSync(csvPath, 'utf8').trimEnd().split('\r\n');
    assert.match(lines[0], /^ip,ports,/);
    assert.ok(lines.length >= 16);
    assert.ok(!lines.slice(1).some((l) => /(^|,)[=+@]/.test(l)), 'no formula cell');

    const jsonPath = path.join(dir, 'hosts.json');
    await vscode.commands.executeCommand('odin.exportResults', {
      setId: r.setId,
      format: 'json',
      scope: 'loaded',
      target: 'file',
      path: jsonPath,
    });
    const json = JSON.parse(fs.readFileSync(jsonPath, 'utf8')) as {
      items: Array<{ ip: string }>;
      total: number;
      complete: boolean;
      records?: string;
    };
    assert.strictEqual(json.items.length, 15);
    assert.match(json.records ?? '', /^compact/, 'the export says its host records are compact');
    assert.strictEqual(json.complete, false);
  });

  it('exports all pages (loading the rest first) into an untitled editor', async () => {
    const r = await run('odin.searchHosts', { query: 'services.port:3389', pageSize: 100 });
    const out = (await vscode.commands.executeCommand('odin.exportResults', {
      setId: r.setId,
      format: 'json',
      scope: 'all',
      target: 'editor',
    })) as { count: number; complete: boolean };
    assert.strictEqual(out.complete, true);
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc?.isUntitled);
    const parsed = JSON.parse(doc.getText()) as { items: unknown[] };
    assert.strictEqual(parsed.items.length, out.count);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('copies a value, searches similar hosts, refreshes and clears', async () => {
    const f = await feature();
    const r = await run('odin.searchHosts', { query: '*', pageSize: 5 });
    const [hostNode] = await setNodes(r.setId!);
    assert.ok(hostNode.type === 'item' && hostNode.item.t === 'host');
    const copied = await vscode.commands.executeCommand('odin.copyValue', hostNode);
    assert.strictEqual(copied, hostNode.item.v.ip);
    assert.strictEqual(await vscode.env.clipboard.readText(), hostNode.item.v.ip);
    const similar = await run('odin.searchSimilar', hostNode);
    assert.strictEqual(similar.status, 'ready', similar.error);
    assert.ok(similar.count! >= 1, 'at least the host itself');
    const refreshed = await run('odin.refreshResults', r.setId);
    assert.strictEqual(refreshed.status, 'ready');
    await vscode.commands.executeCommand('odin.clearResults');
    assert.strictEqual(f.results.getChildren().length, 0);
    assert.strictEqual((await getTestApi()).ui.contextValue('odin.hasResults'), false);
  });
});
