/**
 * The Results view's menus on a set node, read from package.json as VS Code reads them: the
 * map items only where the map can draw the set (`mapModeOf`: a host search, a host summary by
 * a country field), "Summarize Results By…" only where the set can be summarised (`summaryOf`:
 * the API summarises hosts and exposed files), and every other set menu on every kind of set
 * node as before the set nodes got a context value per kind.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { mapModeOf } from '../../../src/core/map/mapModel';
import { isSummary, KINDS, summaryOf, type SearchKind, type SearchSpec } from '../../../src/core/search';
import { kindOf, nodeContext } from '../../../src/core/results/nodeMenus';
import { setContextValue } from '../../../src/extension/search/results/nodeViews';
import { readManifest } from '../../support/manifest';

const root = join(__dirname, '..', '..', '..', '..');
const items = readManifest(root).contributes.menus['view/item/context'] as Array<{
  command: string;
  when?: string;
  group?: string;
}>;

/** Whether the `viewItem` part of a Results view `when` clause holds for `contextValue`. */
function shownOn(when: string, contextValue: string): boolean {
  if (!/\bview == odin\.results\b/.test(when)) return false;
  const eq = /viewItem == ([\w.]+)/.exec(when)?.[1];
  if (eq !== undefined) return eq === contextValue;
  const re = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(when)?.[1];
  assert.ok(re !== undefined, `a viewItem condition in "${when}"`);
  return new RegExp(re).test(contextValue);
}

/** The menu entries on a node of `contextValue`, as `command@group`. */
const menuOf = (contextValue: string): string[] =>
  items.filter((e) => shownOn(e.when ?? '', contextValue)).map((e) => `${e.command}@${e.group ?? ''}`);

/** One spec of every kind, and a host summary by each kind of field. */
const SPECS: SearchSpec[] = [
  ...(Object.keys(KINDS) as SearchKind[]).map((kind) => ({ kind, query: '*', field: 'services.port' })),
  { kind: 'hostSummary', query: '*', field: 'location.country_code' },
  { kind: 'hostSummary', query: '*', field: 'asn.country_code' },
];

const MAP_ITEMS = new Set(['odin.showOnMap', 'odin.showSummaryOnMap']);
const SUMMARISE = 'odin.summarizeResultsBy';
/** The menus that depend on the kind of set: the map items and Summarize Results By…. */
const BY_KIND = new Set([...MAP_ITEMS, SUMMARISE]);

void test('the map items show on a set node exactly where the map draws the set', () => {
  for (const spec of SPECS) {
    const cv = setContextValue({ spec });
    const mode = mapModeOf(spec);
    const map = menuOf(cv).filter((m) => MAP_ITEMS.has(m.split('@')[0]!));
    const want =
      mode === 'points'
        ? ['odin.showOnMap@inline', 'odin.showOnMap@3_set@1']
        : mode === 'countries'
          ? ['odin.showSummaryOnMap@3_set@1']
          : [];
    assert.deepEqual(map, want, `${spec.kind} by ${spec.field} (${cv})`);
  }
  // The two kinds of set the map draws, and two it does not.
  assert.equal(kindOf(setContextValue({ spec: { kind: 'hosts' } })), 'odin.resultSet.hosts');
  assert.equal(
    kindOf(setContextValue({ spec: { kind: 'hostSummary', field: 'location.country_code' } })),
    'odin.summarySet.countries',
  );
  assert.equal(kindOf(setContextValue({ spec: { kind: 'domains' } })), 'odin.resultSet');
  assert.equal(
    kindOf(setContextValue({ spec: { kind: 'hostSummary', field: 'services.port' } })),
    'odin.summarySet',
  );
});

void test('"Summarize Results By…" shows on a set node exactly where the set can be summarised', () => {
  for (const spec of SPECS) {
    const cv = setContextValue({ spec });
    const shown = menuOf(cv).filter((m) => m.startsWith(`${SUMMARISE}@`));
    assert.deepEqual(
      shown,
      summaryOf(spec.kind) ? [`${SUMMARISE}@3_set@0`] : [],
      `${spec.kind} by ${spec.field} (${cv})`,
    );
  }
  // What the API can summarise (hosts, exposed files), and some sets it cannot.
  const summarisable = (Object.keys(KINDS) as SearchKind[]).filter((k) => summaryOf(k));
  assert.deepEqual(summarisable, ['hosts', 'hostSummary', 'fileCount', 'fileSummary']);
  for (const kind of ['domains', 'buckets', 'hostCves', 'whoisHistory', 'domainCount'] as const) {
    assert.deepEqual(
      menuOf(setContextValue({ spec: { kind } })).filter((m) => m.startsWith(SUMMARISE)),
      [],
      kind,
    );
  }
  assert.equal(kindOf(setContextValue({ spec: { kind: 'fileCount' } })), 'odin.resultSet.summarisable');
});

void test('every other menu of a set node shows on each kind of set node as on the plain one', () => {
  const plain = {
    resultSet: menuOf(nodeContext('odin.resultSet')),
    summarySet: menuOf(nodeContext('odin.summarySet')),
  };
  assert.ok(plain.resultSet.includes('odin.loadAll@navigation@2'), plain.resultSet.join(', '));
  assert.ok(plain.summarySet.includes('odin.changeFacetCount@3_set@0'), plain.summarySet.join(', '));
  for (const spec of SPECS) {
    const cv = setContextValue({ spec });
    const base = isSummary(spec.kind) ? plain.summarySet : plain.resultSet;
    assert.deepEqual(
      menuOf(cv).filter((m) => !BY_KIND.has(m.split('@')[0]!)),
      base.filter((m) => !BY_KIND.has(m.split('@')[0]!)),
      `${spec.kind} by ${spec.field} (${cv})`,
    );
  }
});
