/**
 * Small things a user trips over: the facet count of a summary can be changed, from the summary's node
 * (its context value offers "Change Facet Count…") and as a command argument.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { RunSummary } from '../../src/extension/testApi';
import { kindOf } from '../../src/core/results/nodeMenus';
import { testEnv } from './index';
import { feature } from './results';

describe('summaries: Change Facet Count…', function () {
  this.timeout(120_000);
  before(function () {
    if (!testEnv.emulatorUrl || testEnv.run === 'restricted') this.skip();
  });

  it('re-runs the summary with { setId, facetCount } and lists that many values at most', async () => {
    const f = await feature();
    const first = (await vscode.commands.executeCommand('odin.summarizeHosts', {
      field: 'services.port',
      query: '*',
      limit: 50,
    })) as RunSummary;
    assert.strictEqual(first.status, 'ready', first.error);
    assert.ok((first.count ?? 0) > 3, `the summary lists ${first.count} values`);
    const node = f.results.getChildren().find((n) => n.type === 'set' && n.set.id === first.setId);
    assert.ok(node, 'the summary is in the tree');
    assert.strictEqual(
      kindOf(f.results.getTreeItem(node).contextValue),
      'odin.summarySet',
      'the node offers the command',
    );

    const second = (await vscode.commands.executeCommand('odin.changeFacetCount', {
      setId: first.setId,
      facetCount: 3,
    })) as RunSummary;
    assert.strictEqual(second.status, 'ready', second.error);
    assert.strictEqual(second.count, 3);
    assert.strictEqual(f.results.get(second.setId!)?.spec.limit, 3);
    assert.strictEqual(f.results.get(first.setId!), undefined, 'the new summary replaces the old one');
  });

  it('a search that is not a summary has no facet count (the node does not offer it)', async () => {
    const f = await feature();
    const r = (await vscode.commands.executeCommand('odin.searchHosts', {
      query: '*',
      pageSize: 5,
    })) as RunSummary;
    const node = f.results.getChildren().find((n) => n.type === 'set' && n.set.id === r.setId);
    assert.ok(node);
    assert.strictEqual(kindOf(f.results.getTreeItem(node).contextValue), 'odin.resultSet.hosts');
    const none = await vscode.commands.executeCommand('odin.changeFacetCount', {
      setId: r.setId,
      facetCount: 3,
    });
    assert.strictEqual(none, undefined);
  });
});
