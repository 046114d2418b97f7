/**
 * Charts: a summary opens as a chart page (src/extension/charts/chartView.ts) in the real
 * host. The page's `rendered` reports and the messages it sends are read through the test
 * API's recorder of the webview kit's events; a bar's message is delivered the way the
 * webview posts it, through the page's own validation, and the narrowed search must appear
 * in the Results view with the query the tree's own "Narrow" gives.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { chartBars } from '../../src/common/charts/bars';
import { timeHistogram } from '../../src/common/charts/timeHistogram';
import { narrowQuery } from '../../src/core/query';
import { FIXTURE_HOSTS } from '../../src/emulator/fixtures';
import type { RunSummary, ResultSet } from '../../src/extension/testApi';
import { getTestApi, testEnv, waitFor } from './index';
import { feature, runOnSetNode } from './results';

async function summary(args: Record<string, unknown>): Promise<ResultSet> {
  const r = (await vscode.commands.executeCommand('odin.summarizeHosts', args)) as RunSummary;
  assert.ok(r?.status === 'ready' && r.setId, JSON.stringify(r));
  const set = (await feature()).results.get(r.setId);
  assert.ok(set, 'the summary is in the Results view');
  return set;
}

/** Opens the chart of `set` from its tree node (as the inline action does); resolves with its first render. */
async function openChart(set: ResultSet): Promise<{ generation: number; bars: number }> {
  const api = await getTestApi();
  const { result, since } = await runOnSetNode<{ setId: string; bars: number }>(set, 'odin.openChart');
  const e = await api.pages.waitForRendered('chart', set.id, since, 60_000);
  assert.strictEqual(e.bars, result.bars, 'the page drew every bar');
  return e;
}

describe('charts', function () {
  this.timeout(180_000);

  before(async function () {
    if (!testEnv.emulatorUrl || testEnv.run === 'restricted') this.skip();
    await getTestApi();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('draws a port summary with an "other" bar, and a bar narrows the search as the tree does', async () => {
    const api = await getTestApi();
    const set = await summary({ field: 'services.port', query: '*', limit: 5 });
    assert.ok(set.sumOther > 0, 'the summary leaves values out');
    const rendered = await openChart(set);
    assert.strictEqual(rendered.bars, 6, 'five values and "other"');

    // The bar the page sends for the largest bucket; what the tree's Narrow does with the same facet.
    const facets = set.items.flatMap((i) => (i.t === 'facet' ? [i] : []));
    const top = chartBars(facets.map((f) => f.v))[0]!;
    const facet = facets[top.bucket!]!;
    const expected = narrowQuery(set.spec.query ?? '', facet.field, facet.v.key);
    const deliver = api.pages.receivers.get(`chart:${set.id}`);
    assert.ok(deliver, 'the chart page is open');
    const rejected = api.pages.rejected;
    deliver({ type: 'narrow', generation: rendered.generation, bucket: top.bucket });
    const f = await feature();
    const narrowed = await waitFor(
      () =>
        f.results
          .getChildren()
          .find(
            (n) =>
              n.type === 'set' &&
              n.set.spec.kind === 'hosts' &&
              n.set.spec.query === expected &&
              n.set.status === 'ready',
          ),
      30_000,
      `the narrowed search ${expected}`,
    );
    assert.ok(narrowed && narrowed.type === 'set' && narrowed.set.items.length > 0);
    assert.strictEqual(api.pages.rejected, rejected, 'the page message was accepted');
  });

  it('draws a summary over a time field as a histogram over time (bins, oldest first; a bin does not narrow)', async () => {
    const api = await getTestApi();
    const set = await summary({ field: 'last_updated_at', query: '*', limit: 50 });
    const facets = set.items.flatMap((i) => (i.t === 'facet' ? [i.v] : []));
    assert.ok(facets.length > 1, 'dates to bin');
    const expected = timeHistogram(facets, set.sumOther);
    const rendered = await openChart(set);
    assert.strictEqual(rendered.bars, expected.bars.length, `bins by ${expected.unit}`);
    assert.strictEqual(expected.unparsed, 0, 'every key read as a date');
    // A bin spans many values: the page offers no narrowing, and the extension ignores one.
    const f = await feature();
    const count = f.results.getChildren().length;
    const accepted = api.pages.accepted.narrow ?? 0;
    api.pages.receivers.get(`chart:${set.id}`)!({
      type: 'narrow',
      generation: rendered.generation,
      bucket: 0,
    });
    await waitFor(
      () => ((api.pages.accepted.narrow ?? 0) > accepted ? true : undefined),
      10_000,
      'the message handled',
    );
    assert.strictEqual(f.results.getChildren().length, count, 'no narrowed search');
  });

  it('refuses what a page must not send and ignores a bar of an old generation', async () => {
    const api = await getTestApi();
    const set = await summary({ field: 'services.port', query: '*', limit: 3 });
    const rendered = await openChart(set);
    const deliver = api.pages.receivers.get(`chart:${set.id}`)!;
    const f = await feature();
    // The view keeps the last few sets only: a new set is a new id, not a longer list.
    const ids = (): string[] => f.results.getChildren().flatMap((n) => (n.type === 'set' ? [n.set.id] : []));
    const before = new Set(ids());
    const added = (): string[] => ids().filter((id) => !before.has(id));
    const rejected = api.pages.rejected;
    deliver({ type: 'narrow', generation: rendered.generation, field: 'ip', key: '10.0.0.1' });
    deliver({ type: 'command', command: 'workbench.action.terminal.new' });
    deliver({ type: 'saveSvg', svg: 1 });
    assert.strictEqual(api.pages.rejected, rejected + 3, 'three messages refused');
    // An old generation's bar and a bucket the summary does not have: accepted, then ignored.
    const accepted = api.pages.accepted.narrow ?? 0;
    deliver({ type: 'narrow', generation: rendered.generation + 1, bucket: 0 });
    deliver({ type: 'narrow', generation: rendered.generation, bucket: 99 });
    assert.strictEqual(api.pages.accepted.narrow, accepted + 2);
    // A third, valid one, to know the first two were handled before it: the one new set.
    deliver({ type: 'narrow', generation: rendered.generation, bucket: 0 });
    await waitFor(() => (added().length > 0 ? true : undefined), 30_000, 'the valid narrow ran');
    assert.strictEqual(added().length, 1, 'only the valid bar narrowed');
  });

  it("draws the hostile host's hostnames (every payload) as bucket keys", async () => {
    const api = await getTestApi();
    const set = await summary({ field: 'hostnames.name', query: `ip:${FIXTURE_HOSTS.hostile}` });
    const keys = set.items.flatMap((i) => (i.t === 'facet' ? [String(i.v.key)] : []));
    assert.ok(
      keys.some((k) => k.includes('<script>')),
      'the summary holds the payloads',
    );
    const rejected = api.pages.rejected;
    const rendered = await openChart(set);
    assert.strictEqual(rendered.bars, keys.length);
    assert.strictEqual(api.pages.rejected, rejected, 'the page sent nothing unexpected');
  });

  it('says what it opens: a search that is not a summary has no chart', async () => {
    const r = (await vscode.commands.executeCommand('odin.searchHosts', {
      query: 'services.port:443',
      pageSize: 5,
    })) as RunSummary;
    assert.ok(r.setId);
    const out = await vscode.commands.executeCommand('odin.openChart', r.setId);
    assert.strictEqual(out, undefined);
    assert.ok(!(await getTestApi()).pages.open.has(`chart:${r.setId}`));
  });
});
