/**
 * Maps: a host search drawn on a map page (src/extension/map/mapView.ts) in the real host,
 * and a summary by country as a choropleth. The page's `rendered` reports and the messages it
 * sends are read through the test API's recorder of the webview kit's events; a point's
 * message is delivered the way the webview posts it (through the page's own validation), and
 * the host page of that point's host must open, as the tree's host node opens it.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { mapHosts } from '../../src/core/map/mapModel';
import { FIXTURE_HOSTS } from '../../src/emulator/fixtures';
import type { MapSummary, RunSummary, ResultSet } from '../../src/extension/testApi';
import { getTestApi, testEnv, waitFor } from './index';
import { feature, runOnSetNode } from './results';

async function search(query: string, pageSize = 25): Promise<ResultSet> {
  const r = (await vscode.commands.executeCommand('odin.searchHosts', { query, pageSize })) as RunSummary;
  assert.ok(r?.status === 'ready' && r.setId, JSON.stringify(r));
  const set = (await feature()).results.get(r.setId);
  assert.ok(set, 'the search is in the Results view');
  return set;
}

/** Opens the map of `set` from its tree node (as the inline action does); resolves with its first render. */
async function openMap(
  set: ResultSet,
  command: 'odin.showOnMap' | 'odin.showSummaryOnMap' = 'odin.showOnMap',
): Promise<{ summary: MapSummary; generation: number; points: number; countries: number }> {
  const api = await getTestApi();
  const { result: summary, since } = await runOnSetNode<MapSummary>(set, command);
  const e = await api.pages.waitForRendered('map', set.id, since, 60_000);
  return { summary, generation: e.generation, points: e.points, countries: e.countries };
}

/** What the page lists for `set` (the same pure function the map command calls). */
async function placed(set: ResultSet): Promise<ReturnType<typeof mapHosts>> {
  return mapHosts(
    set.items.flatMap((i) => (i.t === 'host' ? [i.v] : [])),
    (await getTestApi()).connection.feeds.store,
  );
}

describe('map', function () {
  this.timeout(180_000);

  before(async function () {
    if (!testEnv.emulatorUrl || testEnv.run === 'restricted') this.skip();
    await getTestApi();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("draws a search's hosts, and a point opens its host's page as the tree does", async () => {
    const api = await getTestApi();
    const set = await search('services.port:443');
    const { summary, generation, points } = await openMap(set);
    const { hosts, skipped } = await placed(set);
    assert.strictEqual(summary.mode, 'points');
    assert.ok(points > 0 && points === summary.shown, `points ${points}, summary ${summary.shown}`);
    assert.strictEqual(summary.skipped, skipped);
    assert.ok(hosts.length > 0);

    // The message the page sends for a click on a point: the index of its first (worst) host.
    const deliver = api.pages.receivers.get(`map:${set.id}`);
    assert.ok(deliver, 'the map page is open');
    const rejected = api.pages.rejected;
    const since = Date.now();
    deliver({ type: 'openHost', generation, host: 0 });
    const ip = hosts[0]!.ip;
    await waitFor(
      () => api.pages.rendered.find((e) => e.page === 'host' && e.id === ip && e.at >= since),
      90_000,
      `the host page of ${ip}`,
    );
    assert.strictEqual(api.pages.rejected, rejected, 'the page message was accepted');
  });

  it('refuses what a page must not send and ignores a point of an old generation', async () => {
    const api = await getTestApi();
    const set = await search('services.port:22', 5);
    const { generation } = await openMap(set);
    const deliver = api.pages.receivers.get(`map:${set.id}`)!;
    const rejected = api.pages.rejected;
    deliver({ type: 'openHost', generation, ip: FIXTURE_HOSTS.hostile });
    deliver({ type: 'openHost', generation, host: '0' });
    deliver({ type: 'command', command: 'workbench.action.terminal.new' });
    deliver({ type: 'savePng', png: 'https://evil.example/x.png' });
    assert.strictEqual(api.pages.rejected, rejected + 4, 'four messages refused');
    const accepted = api.pages.accepted.openHost ?? 0;
    const since = Date.now();
    deliver({ type: 'openHost', generation: generation + 1, host: 0 });
    deliver({ type: 'openHost', generation, host: 9_999 });
    assert.strictEqual(api.pages.accepted.openHost, accepted + 2, 'accepted, then ignored');
    assert.ok(
      !api.pages.rendered.some((e) => (e.page === 'host' || e.page === 'whois') && e.at >= since),
      'no host page opened',
    );
  });

  it("draws the hostile host's hostnames and organisation as labels, inert", async () => {
    const api = await getTestApi();
    const set = await search(`ip:${FIXTURE_HOSTS.hostile}`);
    const { hosts } = await placed(set);
    assert.ok(
      hosts.some((h) => h.hostname.includes('<script>')),
      'the labels hold the payloads',
    );
    const rejected = api.pages.rejected;
    const { points } = await openMap(set);
    assert.strictEqual(points, 1);
    assert.strictEqual(api.pages.rejected, rejected, 'the page sent nothing unexpected');
  });

  it('draws a summary by country as a choropleth', async () => {
    const api = await getTestApi();
    const r = (await vscode.commands.executeCommand('odin.summarizeHosts', {
      field: 'location.country_code',
      query: '*',
    })) as RunSummary;
    assert.ok(r?.status === 'ready' && r.setId, JSON.stringify(r));
    const set = (await feature()).results.get(r.setId)!;
    const rejected = api.pages.rejected;
    const { summary, countries } = await openMap(set, 'odin.showSummaryOnMap');
    assert.strictEqual(summary.mode, 'countries');
    assert.ok(countries > 0 && countries === summary.shown);
    assert.strictEqual(api.pages.rejected, rejected);
  });

  it('says what it draws: a summary by port has no map', async () => {
    const r = (await vscode.commands.executeCommand('odin.summarizeHosts', {
      field: 'services.port',
      query: '*',
      limit: 3,
    })) as RunSummary;
    assert.ok(r.setId);
    assert.strictEqual(await vscode.commands.executeCommand('odin.showSummaryOnMap', r.setId), undefined);
    assert.ok(!(await getTestApi()).pages.open.has(`map:${r.setId}`));
  });
});
