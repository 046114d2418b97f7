/**
 * Holds package.json and the code in agreement (the vscode-codeql "command lint" idea),
 * and pins the security-relevant parts of the manifest (SECURITY.md: the key can never be
 * redirected by a workspace).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { NOTEBOOK_RESULT_MIME } from '../../src/common/notebookOutput';
import { HOVER_COMMAND_IDS } from '../../src/core/cards/hoverCard';
import { COMMAND_FEATURES } from '../../src/extension/commands';
import { HOST_VIEW_TYPE, WHOIS_VIEW_TYPE } from '../../src/extension/details/ids';
import { RESULTS_VIEW, SAVED_VIEW } from '../../src/extension/search/ids';
import { NODE_CAPABILITIES } from '../../src/core/results/nodeMenus';
import { readManifest } from '../support/manifest';

const root = join(__dirname, '..', '..', '..');
const pkg = readManifest(root);
const contributes = pkg.contributes;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}
const extensionSource = sourceFiles(join(root, 'src', 'extension'))
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');

test('every contributed command has the ODIN category and a title', () => {
  for (const c of contributes.commands) {
    assert.equal(c.category, 'ODIN', c.command);
    assert.ok(c.title && !c.title.startsWith('ODIN'), `${c.command}: title without the category prefix`);
    assert.match(c.command, /^odin\.[a-zA-Z]+$/);
  }
});

// The command map (src/extension/commands.ts) is what gets registered: extension.ts hands
// registerCommands an `OdinCommands` object, so the compiler holds the code to the map, and
// these tests hold package.json to it.
const mapIds = Object.keys(COMMAND_FEATURES).sort();

test('package.json contributes exactly the commands of the command map', () => {
  const contributed = contributes.commands.map((c: { command: string }) => c.command).sort();
  assert.deepEqual(contributed, mapIds);
  assert.equal(new Set(contributed).size, contributed.length, 'a command is contributed twice');
});

test('menus and welcome views name only commands of the map, and every map command is reachable', () => {
  const ids = new Set(mapIds);
  const used = new Set<string>();
  for (const [menu, entries] of Object.entries(contributes.menus) as [string, Array<{ command: string }>][]) {
    for (const e of entries) {
      assert.ok(ids.has(e.command), `${menu}: ${e.command} is not in the command map`);
      used.add(e.command);
    }
  }
  for (const w of contributes.viewsWelcome) {
    for (const m of String(w.contents).matchAll(/command:([\w.]+)/g)) {
      assert.ok(ids.has(m[1]), `viewsWelcome: ${m[1]} is not in the command map`);
      used.add(m[1]);
    }
  }
  // Hidden from the palette ("when": "false") and in no other menu: nobody could run it.
  const hidden = new Set(
    (contributes.menus.commandPalette as Array<{ command: string; when?: string }>)
      .filter((e) => e.when === 'false')
      .map((e) => e.command),
  );
  const menusElsewhere = new Set(
    Object.entries(contributes.menus as Record<string, Array<{ command: string }>>)
      .filter(([menu]) => menu !== 'commandPalette')
      .flatMap(([, entries]) => entries.map((e) => e.command)),
  );
  const unreachable = mapIds.filter((id) => hidden.has(id) && !menusElsewhere.has(id) && !used.has(id));
  assert.deepEqual(unreachable, []);
});

test('every setting declares a scope; settings that could redirect the key are application-scoped', () => {
  const props = contributes.configuration.properties;
  for (const [name, p] of Object.entries(props) as [string, { scope?: string }][]) {
    assert.ok(p.scope, `${name} has no explicit scope`);
  }
  for (const name of [
    'odin.apiBaseUrl',
    'odin.privacy.allow',
    'odin.requestTimeoutSeconds',
    'odin.agent.offerMcpServer',
    'odin.feeds.enabled',
    'odin.feeds.kevUrl',
    'odin.feeds.epssUrl',
  ]) {
    assert.equal(props[name].scope, 'application', name);
  }
});

test('untrusted workspaces: limited support, endpoint settings restricted', () => {
  const untrusted = pkg.capabilities.untrustedWorkspaces;
  assert.equal(untrusted.supported, 'limited');
  for (const name of [
    'odin.apiBaseUrl',
    'odin.privacy.allow',
    'odin.lookups.mode',
    'odin.feeds.kevUrl',
    'odin.feeds.epssUrl',
  ]) {
    assert.ok(untrusted.restrictedConfigurations.includes(name), name);
  }
});

test('no setting can hold the API key', () => {
  for (const name of Object.keys(contributes.configuration.properties)) {
    assert.doesNotMatch(name, /key|token|secret|password/i, name);
  }
});

test('the key is read and written through SecretStorage only', () => {
  const keyExpr = String.raw`(apiKey|keys\.get\(\)|secrets\.get)`;
  assert.doesNotMatch(
    extensionSource,
    new RegExp(String.raw`(globalState|workspaceState)\.update\([^;]*` + keyExpr),
  );
  assert.doesNotMatch(
    extensionSource,
    new RegExp(String.raw`getConfiguration\([^)]*\)\.update\([^;]*` + keyExpr),
  );
});

test('the views and webview types of the features loaded on first use are contributed', () => {
  const views = Object.values(contributes.views as Record<string, Array<{ id: string }>>).flat();
  for (const id of [RESULTS_VIEW, SAVED_VIEW])
    assert.ok(
      views.some((v) => v.id === id),
      id,
    );
  for (const viewType of [HOST_VIEW_TYPE, WHOIS_VIEW_TYPE]) {
    assert.ok(pkg.activationEvents.includes(`onWebviewPanel:${viewType}`), viewType);
  }
});

test('the .odinq language: extension, grammar, configuration and icon files exist', () => {
  const lang = (
    contributes.languages as Array<{
      id: string;
      extensions: string[];
      configuration: string;
      icon: { light: string };
    }>
  ).find((l) => l.id === 'odinq');
  assert.ok(lang);
  assert.deepEqual(lang.extensions, ['.odinq'], 'not .odin: that belongs to the Odin programming language');
  const grammars = contributes.grammars as Array<{ language?: string; scopeName: string; path: string }>;
  assert.ok(grammars.some((g) => g.language === 'odinq' && g.scopeName === 'source.odinq'));
  for (const file of [lang.configuration, lang.icon.light, ...grammars.map((g) => g.path)]) {
    assert.ok(statSync(join(root, file)).isFile(), file);
    assert.match(file, /^\.\/media\/[^/]+$/, 'shipped files live directly in media/ (the .vsix allow-list)');
  }
});

// The small things a user trips over.
test('the editor context-menu items sit in their own group, not navigation', () => {
  for (const e of contributes.menus['editor/context'] as Array<{ command: string; group?: string }>) {
    assert.match(e.group ?? '', /^odin(@\d+)?$/, `${e.command}: group ${e.group}`);
  }
});

test('result commands are hidden from the command palette when there are no results', () => {
  const menus = contributes.menus as Record<string, Array<{ command: string; when?: string }>>;
  // The result-set commands: the section of that name in the command map's type.
  const mapSource = readFileSync(join(root, 'src', 'extension', 'commands.ts'), 'utf8');
  const section =
    /\/\/ search\/results\/: result-set commands\n([\s\S]*?)\n\s*\/\/ [a-z]+\//.exec(mapSource)?.[1] ?? '';
  const resultCommands = [...section.matchAll(/^ {2}'(odin\.\w+)'/gm)].map((m) => m[1]);
  assert.ok(
    resultCommands.includes('odin.exportResults') && resultCommands.includes('odin.changeFacetCount'),
  );
  for (const id of resultCommands) {
    const palette = menus.commandPalette.find((e) => e.command === id);
    assert.ok(
      palette && (palette.when === 'false' || /\bodin\.hasResults\b/.test(palette.when ?? '')),
      `${id}: shown in the palette with no results (${palette?.when ?? 'no commandPalette entry'})`,
    );
  }
});

test('a summary can change its facet count: "Change Facet Count…" on the summary node', () => {
  const items = contributes.menus['view/item/context'] as Array<{ command: string; when?: string }>;
  assert.ok(
    items.some(
      (e) => e.command === 'odin.changeFacetCount' && /viewItem =~ \/\\bfacetCount\\b\//.test(e.when ?? ''),
    ),
  );
  assert.ok(
    (NODE_CAPABILITIES['odin.summarySet'] as readonly string[]).includes('facetCount'),
    'the summary node offers a facet count',
  );
});

/** The commands that ask for input (an input box, a quick pick or a file dialog) when run from the palette. */
const PROMPTING = [
  'odin.setApiKey',
  'odin.triageFolder',
  'odin.triageReport',
  'odin.searchHosts',
  'odin.lookupHost',
  'odin.summarizeHosts',
  'odin.hostCves',
  'odin.hostExploits',
  'odin.hostCve',
  'odin.searchDomains',
  'odin.countDomains',
  'odin.countSubdomains',
  'odin.whois',
  'odin.whoisHistory',
  'odin.searchBuckets',
  'odin.countFiles',
  'odin.summarizeFiles',
  'odin.browseFields',
  'odin.saveSearch',
  'odin.renameSavedSearch',
  'odin.editSavedSearch',
  'odin.exportSavedSearches',
  'odin.importSavedSearches',
  'odin.exportResults',
  'odin.changeFacetCount',
  'odin.summarizeResultsBy',
  'odin.summarizeHunt',
  'odin.showHostTimeline',
  'odin.addFindingToBaseline',
];

test('every command title that prompts ends with "…", and only those', () => {
  for (const c of contributes.commands as Array<{ command: string; title: string }>) {
    assert.equal(c.title.endsWith('…'), PROMPTING.includes(c.command), `${c.command}: "${c.title}"`);
  }
});

// Our commands are run through `runCommand` (shared/runCommand.ts), typed by the map: an
// untyped `executeCommand('odin.…')` would compile with any arguments. Built-in commands
// (`setContext`, a view's `.focus`) stay as they are.
const UNTYPED_CALLS_ALLOWED = new Set([
  join('shared', 'runCommand.ts'), // the one typed call
]);

test('code runs our commands through runCommand, never an untyped executeCommand', () => {
  const dir = join(root, 'src', 'extension');
  // A string id of ours (views' `.focus` commands are VS Code's) or an id in a variable.
  const untyped =
    /executeCommand\s*(<.*>)?\s*\(\s*(['"`]odin\.(?!results\.focus|savedSearches\.focus)|\w+\s*[,)])/;
  const found = sourceFiles(dir)
    .filter((f) => !UNTYPED_CALLS_ALLOWED.has(f.slice(dir.length + 1)))
    .filter((f) =>
      untyped.test(
        readFileSync(f, 'utf8')
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/^\s*\/\/.*$/gm, ''),
      ),
    )
    .map((f) => f.slice(dir.length + 1));
  assert.deepEqual(found, []);
});

test('every command a hover card may link to is a command of the map (registered in every window)', () => {
  for (const id of HOVER_COMMAND_IDS) assert.ok(id in COMMAND_FEATURES, `${id} is not in the command map`);
});

test("a notebook output's rich item is drawn by ODIN's renderer; its Markdown twin is the fallback", () => {
  // VS Code draws an output's first mime in `notebook.displayOrder` (then its built-in order,
  // where Markdown comes before any renderer's own mime): the default the manifest gives puts
  // the result mime first (src/extension/notebook/index.ts writes both items).
  const renderer = (contributes.notebookRenderer as Array<{ mimeTypes: string[] }>)[0];
  assert.deepEqual(renderer.mimeTypes, [NOTEBOOK_RESULT_MIME]);
  assert.deepEqual((contributes.configurationDefaults as Record<string, unknown>)['notebook.displayOrder'], [
    NOTEBOOK_RESULT_MIME,
  ]);
});
