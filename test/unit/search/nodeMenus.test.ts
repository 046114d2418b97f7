/**
 * The menus of the two trees' nodes, read from package.json as VS Code reads them, against each
 * node kind's `contextValue` (src/core/results/nodeMenus.ts: its kind, then its
 * capabilities). Each menu entry tests one capability; every node kind gets exactly the menu
 * it got when the entries named lists of kinds (`BEFORE`: those regexes evaluated against the
 * kinds' context values of that time).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  CAPABILITIES,
  kindOf,
  NODE_CAPABILITIES,
  nodeContext,
  type NodeKind,
} from '../../../src/core/results/nodeMenus';
import { readManifest } from '../../support/manifest';

const root = join(__dirname, '..', '..', '..', '..');
const items = readManifest(root).contributes.menus['view/item/context'] as Array<{
  command: string;
  when?: string;
  group?: string;
}>;

const SAVED_VIEW_KINDS = new Set<string>([
  'odin.savedGroup',
  'odin.savedSearch',
  'odin.workspaceHunts',
  'odin.huntFile',
  'odin.hunt',
  'odin.news',
  'odin.newResult',
]);
const viewOf = (kind: string): string => (SAVED_VIEW_KINDS.has(kind) ? 'odin.savedSearches' : 'odin.results');

/** Whether a `when` clause of view/item/context holds on a node of `kind` in its view. */
function shownOn(when: string, kind: NodeKind): boolean {
  if (/view == ([\w.]+)/.exec(when)?.[1] !== viewOf(kind)) return false;
  const cv = nodeContext(kind);
  const eq = /viewItem == ([\w.]+)/.exec(when)?.[1];
  if (eq !== undefined) return eq === cv;
  const re = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(when)?.[1];
  assert.ok(re !== undefined, `a viewItem condition in "${when}"`);
  return new RegExp(re).test(cv);
}

/** The menu entries on a node of `kind`, as `command@group`, sorted. */
const menuOf = (kind: NodeKind): string[] =>
  items
    .filter((e) => shownOn(e.when ?? '', kind))
    .map((e) => `${e.command}@${e.group ?? ''}`)
    .sort();

/** The menus each node kind had when the entries listed kinds (`viewItem =~ /^odin\.(a|b|…)$/`). */
const BEFORE: Record<NodeKind, readonly string[]> = {
  'odin.host': [
    'odin.copyValue@9_copy@1',
    'odin.hostCves@2_host@1',
    'odin.hostExploits@2_host@2',
    'odin.openHostDetails@navigation@1',
    'odin.searchSimilar@navigation@2',
  ],
  'odin.service': ['odin.copyValue@9_copy@1'],
  'odin.domain': [
    'odin.copyValue@9_copy@1',
    'odin.openWhoisDetails@navigation@1',
    'odin.whois@2_domain@1',
    'odin.whoisHistory@2_domain@2',
  ],
  'odin.bucket': ['odin.copyValue@9_copy@1'],
  'odin.cve': ['odin.copyValue@9_copy@1', 'odin.hostCve@2_host@3'],
  'odin.exploit': ['odin.copyValue@9_copy@1'],
  'odin.whois': [
    'odin.copyValue@9_copy@1',
    'odin.openWhoisDetails@navigation@1',
    'odin.whoisHistory@2_domain@2',
  ],
  'odin.facet': [
    'odin.copyValue@9_copy@1',
    'odin.narrowByFacet@inline',
    'odin.narrowByFacet@navigation@1',
    'odin.openChart@navigation@3',
    'odin.summarizeResultsBy@inline',
    'odin.summarizeResultsBy@navigation@2',
  ],
  'odin.count': ['odin.copyValue@9_copy@1'],
  'odin.value': ['odin.copyValue@9_copy@1'],
  'odin.error': ['odin.copyValue@9_copy@1', 'odin.retry@inline', 'odin.retry@navigation@1'],
  'odin.note': ['odin.copyValue@9_copy@1'],
  'odin.loadMore': ['odin.loadAll@inline', 'odin.loadAll@navigation@2', 'odin.loadMore@navigation@1'],
  'odin.loading': [],
  'odin.empty': [],
  'odin.resultSet': [
    'odin.clearResults@3_set@4',
    'odin.copyValue@9_copy@1',
    'odin.exportResults@3_set@2',
    'odin.loadAll@navigation@2',
    'odin.refreshResults@3_set@3',
    'odin.refreshResults@inline',
    'odin.saveSearch@3_set@1',
  ],
  'odin.resultSet.summarisable': [
    'odin.clearResults@3_set@4',
    'odin.copyValue@9_copy@1',
    'odin.exportResults@3_set@2',
    'odin.loadAll@navigation@2',
    'odin.refreshResults@3_set@3',
    'odin.refreshResults@inline',
    'odin.saveSearch@3_set@1',
    'odin.summarizeResultsBy@3_set@0',
  ],
  'odin.resultSet.hosts': [
    'odin.clearResults@3_set@4',
    'odin.copyValue@9_copy@1',
    'odin.exportResults@3_set@2',
    'odin.loadAll@navigation@2',
    'odin.refreshResults@3_set@3',
    'odin.refreshResults@inline',
    'odin.saveSearch@3_set@1',
    'odin.showOnMap@3_set@1',
    'odin.showOnMap@inline',
    'odin.summarizeResultsBy@3_set@0',
  ],
  'odin.summarySet': [
    'odin.changeFacetCount@3_set@0',
    'odin.clearResults@3_set@4',
    'odin.copyValue@9_copy@1',
    'odin.exportResults@3_set@2',
    'odin.openChart@3_set@0',
    'odin.openChart@inline',
    'odin.refreshResults@3_set@3',
    'odin.refreshResults@inline',
    'odin.saveSearch@3_set@1',
    'odin.summarizeResultsBy@3_set@0',
  ],
  'odin.summarySet.countries': [
    'odin.changeFacetCount@3_set@0',
    'odin.clearResults@3_set@4',
    'odin.copyValue@9_copy@1',
    'odin.exportResults@3_set@2',
    'odin.openChart@3_set@0',
    'odin.openChart@inline',
    'odin.refreshResults@3_set@3',
    'odin.refreshResults@inline',
    'odin.saveSearch@3_set@1',
    'odin.showSummaryOnMap@3_set@1',
    'odin.summarizeResultsBy@3_set@0',
  ],
  'odin.savedGroup': [],
  'odin.savedSearch': [
    'odin.deleteSavedSearch@4_delete@1',
    'odin.duplicateSavedSearch@2_edit@3',
    'odin.editSavedSearch@2_edit@2',
    'odin.moveSavedSearchDown@3_order@2',
    'odin.moveSavedSearchUp@3_order@1',
    'odin.renameSavedSearch@2_edit@1',
    'odin.runSavedSearch@1_run@1',
    'odin.runSavedSearch@inline',
  ],
  'odin.workspaceHunts': [],
  'odin.huntFile': ['odin.openHuntInFile@1_run@2'],
  'odin.hunt': [
    'odin.openHuntInFile@1_run@2',
    'odin.openHuntInFile@inline@2',
    'odin.runHunt@1_run@1',
    'odin.runHunt@inline@1',
  ],
  'odin.news': [],
  'odin.newResult': [],
};

test('every node kind gets the menu it had when the menus listed kinds', () => {
  assert.deepEqual(Object.keys(NODE_CAPABILITIES).sort(), Object.keys(BEFORE).sort());
  for (const kind of Object.keys(BEFORE) as NodeKind[]) {
    assert.deepEqual(menuOf(kind), [...BEFORE[kind]].sort(), `${kind} (${nodeContext(kind)})`);
  }
});

test('each tree menu entry tests one capability, never a list of kinds', () => {
  for (const e of items) {
    const when = e.when ?? '';
    assert.doesNotMatch(when, /viewItem ==/, `${e.command}: a capability, not a kind: "${when}"`);
    const re = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(when)?.[1];
    assert.ok(re !== undefined, `${e.command}: a viewItem condition in "${when}"`);
    assert.doesNotMatch(re, /\|/, `${e.command}: an alternation in "${when}"`);
    const cap = /^\\b(\w+)\\b$/.exec(re)?.[1];
    assert.ok(cap && cap in CAPABILITIES, `${e.command}: "${re}" is not \\b<capability>\\b`);
  }
});

test('every capability is tested by a menu, and none is a word of a kind (it would match the kind)', () => {
  const tested = new Set(items.map((e) => /\\b(\w+)\\b/.exec(e.when ?? '')?.[1]));
  const kindWords = new Set(Object.keys(NODE_CAPABILITIES).flatMap((k) => k.split('.')));
  for (const cap of Object.keys(CAPABILITIES)) {
    assert.ok(tested.has(cap), `${cap}: no menu tests it`);
    assert.ok(!kindWords.has(cap), `${cap} is also a word of a node kind`);
  }
});

test('a context value names its kind first', () => {
  assert.equal(nodeContext('odin.resultSet.hosts').split(' ')[0], 'odin.resultSet.hosts');
  assert.equal(kindOf(nodeContext('odin.summarySet')), 'odin.summarySet');
  assert.equal(nodeContext('odin.loading'), 'odin.loading');
  assert.equal(kindOf(undefined), undefined);
});
