/**
 * What the host suites of the Results and Saved Searches views share: the trees as the user
 * sees them (through the test API's `tree` verb), a result set read from its tree node, and a
 * command run on a set's tree node as its menu runs it.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ResultNode, ResultSet, SavedNode, TestApi, TestTree } from '../../src/extension/testApi';
import { getTestApi } from './index';

/** The two trees and the saved-search store (the search feature loads on first use). */
export interface Views {
  /** `get`: the result set of a root node (the set a command on that node acts on). */
  results: TestTree<ResultNode> & { get(id: unknown): ResultSet | undefined };
  saved: TestTree<SavedNode>;
  store: ReturnType<TestApi['savedStore']>;
  /** The Results view's description, read when asked. */
  resultsView: { readonly description: string | undefined };
}

export async function feature(): Promise<Views> {
  const api = await getTestApi();
  const results = api.tree('results');
  return {
    results: {
      ...results,
      get: (id) => {
        for (const n of results.getChildren()) if (n.type === 'set' && n.set.id === id) return n.set;
        return undefined;
      },
    },
    saved: api.tree('saved'),
    store: api.savedStore(),
    resultsView: {
      get description() {
        return api.tree('results').description;
      },
    },
  };
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
