/**
 * What the host suites of the Results view's pages share (map, charts, affordances): the
 * search feature, and a command run on a set's tree node as its menu runs it.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { SearchFeature } from '../../src/extension/search';
import type { ResultSet } from '../../src/extension/search/results/resultSet';
import { getTestApi } from './index';

/** The search feature (loaded on first use). */
export async function feature(): Promise<SearchFeature> {
  const f = (await getTestApi()).search.feature;
  assert.ok(f, 'the search feature');
  return f;
}

/**
 * Runs `command` on the tree node of `set` (as its inline action or context menu does) and
 * resolves with what it returned, checked to name the set, and when it was run (a page's
 * `rendered` report after that is the page it opened).
 */
export async function runOnSetNode<R extends { setId?: string }>(
  set: ResultSet,
  command: string,
): Promise<{ result: R; since: number }> {
  const node = (await feature()).results.getChildren().find((n) => n.type === 'set' && n.set.id === set.id);
  assert.ok(node, 'the set node');
  const since = Date.now();
  const result = await vscode.commands.executeCommand<R | undefined>(command, node);
  assert.strictEqual(result?.setId, set.id, `${command} on the set node`);
  return { result, since };
}
