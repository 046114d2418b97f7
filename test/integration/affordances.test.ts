/**
 * Every affordance works, proven the way a user finds out: the list of
 * actions is GENERATED from what the extension offers, not written here:
 *  - package.json `contributes.menus` (view/item/context, view/title, editor/context,
 *    explorer/context): each entry, for each tree item type its `when` names;
 *  - the hover cards as the real hover provider builds them for each indicator kind (public
 *    IPv4, IPv6, CIDR block, domain, a private address) and state (on command, paused): every
 *    `command:` link with its decoded arguments;
 *  - the details pages' protocol (`HOST_ACTIONS`, `WHOIS_ACTIONS`);
 *  - the status-bar items (the command a click runs, in the normal and the paused state).
 * Each action is run in the real host with the arguments the UI passes (tree menus: the real
 * node objects of the view providers; hover links: the decoded arguments; page buttons: the
 * page's message through the same validation) and its check looks for a visible effect: a
 * request in the emulator's log, a result set, a tab, a page, the clipboard, a prompt that
 * waits for the user. An action without a check in CHECKS fails the suite, so a new button
 * without a test fails.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { HOST_ACTIONS, WHOIS_ACTIONS } from '../../src/common/protocol';
import { HOVER_COMMAND_IDS } from '../../src/core/cards/hoverCard';
import { FIXTURE_DOMAINS, FIXTURE_HOSTS } from '../../src/emulator/fixtures';
import type { RunSummary, ResultNode as Node, SavedNode } from '../../src/extension/testApi';
import { kindOf, NODE_CAPABILITIES, nodeContext, type NodeKind } from '../../src/core/results/nodeMenus';
import {
  clearEmulatorLog,
  emulatorAdmin,
  emulatorLog,
  extension,
  getTestApi,
  testEnv,
  waitFor,
  within,
} from './index';
import { promptMark, promptSince, WAITS_FOR_USER } from './prompts';
import { feature } from './results';

/** One thing a user can click, with what the UI passes. */
interface Action {
  key: string;
  command: string;
  /** Arguments as the UI passes them; a function builds them fresh (a new tree node) per run. */
  args: () => Promise<unknown[]>;
}

type Check = (a: Action) => Promise<void>;

// ------------------------------------------------------------------ the extension's state

async function run(command: string, ...args: unknown[]): Promise<RunSummary> {
  return (await vscode.commands.executeCommand(command, ...args)) as RunSummary;
}

async function exec(a: Action): Promise<unknown> {
  return vscode.commands.executeCommand(a.command, ...(await a.args()));
}

type Entry = { method: string; path: string; body?: { query?: string } };
const log = async (): Promise<Entry[]> => (await emulatorLog()) as Entry[];

// ------------------------------------------------------------------ tree nodes, from the providers

/** The search that yields a Results node of each context value. */
const NODE_RECIPES: Record<string, [string, Record<string, unknown>]> = {
  'odin.resultSet.hosts': ['odin.searchHosts', { query: 'services.port:443', pageSize: 5 }],
  'odin.resultSet': ['odin.searchDomains', { domain: FIXTURE_DOMAINS.corp }],
  'odin.resultSet.summarisable': ['odin.countFiles', { query: '*' }],
  'odin.loadMore': ['odin.searchHosts', { query: 'services.port:443', pageSize: 5 }],
  'odin.host': ['odin.searchHosts', { query: 'services.port:443', pageSize: 5 }],
  'odin.service': ['odin.searchHosts', { query: 'services.port:443', pageSize: 5 }],
  'odin.value': ['odin.lookupHost', { ip: FIXTURE_HOSTS.webServer, view: 'results' }],
  'odin.cve': ['odin.hostCves', { ip: FIXTURE_HOSTS.webServer }],
  'odin.exploit': ['odin.hostExploits', { ip: FIXTURE_HOSTS.webServer }],
  'odin.domain': ['odin.searchDomains', { domain: FIXTURE_DOMAINS.corp }],
  'odin.whois': ['odin.whoisHistory', { domain: FIXTURE_DOMAINS.corp }],
  'odin.bucket': ['odin.searchBuckets', { query: '*' }],
  'odin.facet': ['odin.summarizeHosts', { field: 'services.port', query: '*', limit: 2 }],
  'odin.note': ['odin.summarizeHosts', { field: 'services.port', query: '*', limit: 2 }],
  'odin.summarySet': ['odin.summarizeHosts', { field: 'services.port', query: '*', limit: 2 }],
  'odin.summarySet.countries': [
    'odin.summarizeHosts',
    { field: 'location.country_code', query: '*', limit: 5 },
  ],
  'odin.count': ['odin.countDomains', { domain: FIXTURE_DOMAINS.corp }],
  'odin.error': ['odin.searchHosts', { query: 'services.port:22', pageSize: 5 }],
};

/**
 * Every kind of tree item the two views give (nodeMenus.ts), for the `viewItem =~ /…/` menu
 * entries: an entry is listed for each kind whose context value (kind and capabilities) its
 * expression matches.
 */
const NODE_KINDS = Object.keys(NODE_CAPABILITIES) as NodeKind[];

/** A fresh Results node of context value `cv`: its search is run, then the tree is walked. */
async function resultNode(cv: string): Promise<Node> {
  const recipe = NODE_RECIPES[cv];
  assert.ok(recipe, `no search yields a Results node "${cv}": add one to NODE_RECIPES`);
  const f = await feature();
  if (cv === 'odin.error') {
    await emulatorAdmin('POST', 'faults', {
      fault: { kind: 'status', status: 500 },
      count: 3,
      path: '^/v1/hosts/search',
    });
  }
  let r: RunSummary;
  try {
    r = await run(recipe[0], recipe[1]);
  } finally {
    if (cv === 'odin.error') await emulatorAdmin('DELETE', 'faults');
  }
  assert.ok(r?.setId, `${recipe[0]} made a result set: ${JSON.stringify(r)}`);
  const root = f.results.getChildren().find((n) => n.type === 'set' && n.set.id === r.setId);
  assert.ok(root, 'the set is in the tree');
  const queue: Array<[Node, number]> = [[root, 0]];
  while (queue.length) {
    const [n, depth] = queue.shift()!;
    if (kindOf(f.results.getTreeItem(n).contextValue) === cv) return n;
    if (depth < 3) for (const c of f.results.getChildren(n).slice(0, 30)) queue.push([c, depth + 1]);
  }
  assert.fail(`no "${cv}" node under ${recipe[0]} ${JSON.stringify(recipe[1])}`);
}

const HUNT_FILE = 'affordances-it/aff.odinq';

/** A fresh Saved Searches node of context value `cv` (a saved search, a workspace hunt or its file). */
async function savedNode(cv: string): Promise<SavedNode> {
  const f = await feature();
  if (cv === 'odin.savedSearch') {
    const name = `aff ${Date.now()}`;
    await vscode.commands.executeCommand('odin.saveSearch', {
      spec: { kind: 'hosts', query: 'services.port:22' },
      name,
      target: 'personal',
    });
    return (await waitFor(
      () =>
        f.saved.getChildren().find((n) => n.type === 'search' && n.search.name === name) ??
        f.saved
          .getChildren()
          .flatMap((g) => (g.type === 'group' ? f.saved.getChildren(g) : []))
          .find((n) => n.type === 'search' && n.search.name === name),
      10_000,
      'the saved search in the tree',
    ))!;
  }
  const find = (): SavedNode | undefined => {
    const group = f.saved.getChildren().find((n) => n.type === 'hunts');
    if (!group) return undefined;
    const file = f.saved
      .getChildren(group)
      .find((n) => n.type === 'huntFile' && String(n.file.uri).endsWith(HUNT_FILE));
    if (!file) return undefined;
    return cv === 'odin.huntFile' ? file : f.saved.getChildren(file)[0];
  };
  return (await waitFor(find, 20_000, `a "${cv}" node in Saved Searches`))!;
}

async function nodeFor(view: string, cv: string): Promise<unknown> {
  return view === 'odin.savedSearches' ? savedNode(cv) : resultNode(cv);
}

// ------------------------------------------------------------------ the generated list

const MENUS = ['view/item/context', 'view/title', 'editor/context', 'explorer/context'] as const;

function workspaceDir(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'a workspace folder');
  return folder.uri.fsPath;
}

/** The file every editor/context entry runs on, the cursor on a public IP. */
async function editorWithIp(): Promise<vscode.Uri> {
  const file = path.join(workspaceDir(), 'affordances-it', 'access.log');
  const doc = await vscode.workspace.openTextDocument(file);
  const editor = await vscode.window.showTextDocument(doc);
  const at = doc.positionAt(doc.getText().indexOf(FIXTURE_HOSTS.webServer) + 2);
  editor.selection = new vscode.Selection(at, at);
  return doc.uri;
}

function menuActions(): Action[] {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(extension().extensionPath, 'package.json'), 'utf8'),
  ) as { contributes: { menus: Record<string, Array<{ command: string; when?: string }>> } };
  const out = new Map<string, Action>();
  for (const menu of MENUS) {
    for (const e of manifest.contributes.menus[menu] ?? []) {
      const when = e.when ?? '';
      if (menu === 'view/item/context') {
        const view = /view == ([\w.]+)/.exec(when)?.[1] ?? '?';
        const eq = /viewItem == ([\w.]+)/.exec(when)?.[1];
        const re = /viewItem =~ \/(.+?)\/(?:\s|$)/.exec(when)?.[1];
        let items: string[] = [];
        if (eq) items = [eq];
        else if (re) items = NODE_KINDS.filter((kind) => new RegExp(re).test(nodeContext(kind)));
        assert.ok(items.length, `cannot read the item types of ${e.command} in "${when}"`);
        for (const cv of items) {
          out.set(`${menu}:${e.command}@${cv}`, {
            key: `${menu}:${e.command}@${cv}`,
            command: e.command,
            args: async () => [await nodeFor(view, cv)],
          });
        }
      } else if (menu === 'view/title') {
        const view = /view == ([\w.]+)/.exec(when)?.[1] ?? '?';
        out.set(`${menu}:${e.command}@${view}`, {
          key: `${menu}:${e.command}@${view}`,
          command: e.command,
          args: async () => [],
        });
      } else if (menu === 'editor/context') {
        out.set(`${menu}:${e.command}`, {
          key: `${menu}:${e.command}`,
          command: e.command,
          args: async () => [await editorWithIp()],
        });
      } else {
        out.set(`${menu}:${e.command}`, {
          key: `${menu}:${e.command}`,
          command: e.command,
          args: async () => {
            const folder = vscode.Uri.file(path.join(workspaceDir(), 'affordances-it'));
            return [folder, [folder]];
          },
        });
      }
    }
  }
  return [...out.values()];
}

/** What the hover test file holds, one indicator a line, and the name each card is listed under. */
const HOVER_LINES: Array<[string, string]> = [
  ['ipv4', FIXTURE_HOSTS.webServer],
  ['ipv6', FIXTURE_HOSTS.ipv6],
  ['cidr', '45.33.32.0/24'],
  ['domain', FIXTURE_DOMAINS.corp],
  ['private', '10.1.2.3'],
];

async function hoverLinks(
  doc: vscode.TextDocument,
  value: string,
): Promise<Array<{ label: string; command: string; args: unknown[] }>> {
  const pos = doc.positionAt(doc.getText().indexOf(value) + 1);
  const hovers =
    (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, pos)) ?? [];
  const text = hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n');
  const links: Array<{ label: string; command: string; args: unknown[] }> = [];
  for (const m of text.matchAll(/\[([^\]]+)\]\(command:([\w.]+)\?([^ )]*)/g)) {
    const args = JSON.parse(decodeURIComponent(m[3])) as unknown;
    links.push({ label: m[1].replace(/\\/g, ''), command: m[2], args: Array.isArray(args) ? args : [args] });
  }
  return links;
}

async function hoverActions(): Promise<Action[]> {
  const api = await getTestApi();
  const file = path.join(workspaceDir(), 'affordances-it', 'indicators.txt');
  const doc = await vscode.workspace.openTextDocument(file);
  const out = new Map<string, Action>();
  const add = (state: string, links: Awaited<ReturnType<typeof hoverLinks>>): void => {
    for (const l of links) {
      const key = `hover:${state}:${l.label}`;
      out.set(key, { key, command: l.command, args: async () => l.args });
    }
  };
  for (const [kind, value] of HOVER_LINES) add(kind, await hoverLinks(doc, value));
  // On command: a public IP not in the cache offers "Look up now".
  const cfg = vscode.workspace.getConfiguration('odin');
  await cfg.update('lookups.mode', 'onCommand', vscode.ConfigurationTarget.Global);
  try {
    api.lookups().forget('host', FIXTURE_HOSTS.mail);
    add('onCommand', await hoverLinks(doc, FIXTURE_HOSTS.mail));
  } finally {
    await cfg.update('lookups.mode', undefined, vscode.ConfigurationTarget.Global);
  }
  // Paused with nothing cached: "Resume lookups".
  api.lookups().forget('host', FIXTURE_HOSTS.rdp);
  api.lookups().pause({ reason: 'quota', message: 'test pause' });
  try {
    add('paused', await hoverLinks(doc, FIXTURE_HOSTS.rdp));
  } finally {
    api.lookups().resume();
  }
  return [...out.values()];
}

function pageActions(): Action[] {
  const ip = FIXTURE_HOSTS.webServer;
  const domain = FIXTURE_DOMAINS.corp;
  return [
    ...HOST_ACTIONS.map((action) => ({
      key: `page:host:${action}`,
      command: 'page',
      args: async () => ['host', ip, { type: 'action', action }],
    })),
    ...WHOIS_ACTIONS.map((action) => ({
      key: `page:whois:${action}`,
      command: 'page',
      args: async () => ['whois', domain, { type: 'action', action }],
    })),
  ];
}

async function statusActions(): Promise<Action[]> {
  const api = await getTestApi();
  const out = new Map<string, Action>();
  const read = (): void => {
    for (const [id, item] of api.ui.statusItems()) {
      const c = item.command;
      if (!c) continue;
      const command = typeof c === 'string' ? c : c.command;
      const args = typeof c === 'string' ? [] : (c.arguments ?? []);
      out.set(`status:${id}:${command}`, { key: `status:${id}:${command}`, command, args: async () => args });
    }
  };
  const lookupCommand = (): string | undefined => {
    const c = api.ui.statusItems().get('odin.lookupStatus')?.command;
    return typeof c === 'string' ? c : c?.command;
  };
  read();
  api.lookups().pause({ reason: 'quota', message: 'test pause' });
  await waitFor(() => lookupCommand() === 'odin.resumeLookups', 10_000, 'the paused status item');
  read();
  api.lookups().resume();
  await waitFor(() => lookupCommand() !== 'odin.resumeLookups', 10_000, 'the status item after resume');
  return [...out.values()];
}

// ------------------------------------------------------------------ checks

/**
 * Runs the action; it must open a prompt (a quick pick, an input box, a file dialog, a modal)
 * and wait for the user. The prompt is then closed as a person would (Escape) until the
 * command ends.
 */
async function waitsForPrompt(a: Action): Promise<void> {
  const mark = promptMark();
  let settled = false;
  let result: unknown;
  const done = Promise.resolve(exec(a)).then(
    (r) => ((result = r), (settled = true)),
    (e) => ((result = e), (settled = true)),
  );
  const prompt = await within(
    promptSince(mark, done, WAITS_FOR_USER),
    15_000,
    'a prompt or the end of the command',
  );
  assert.ok(
    prompt,
    `the command waits for the user (a prompt opened); it returned ${JSON.stringify(result)}`,
  );
  // A file dialog of this host does not end its command when it is closed from the extension
  // host (a person's Escape does): it is closed and left, as the command's promise is.
  if (prompt.kind === 'openDialog' || prompt.kind === 'saveDialog')
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  else await closePromptsUntil(done, () => settled);
}

/** Closes whatever quick input is open until `ended()` (a command answered "cancel" at each prompt). */
async function closePromptsUntil(done: Promise<unknown>, ended: () => boolean): Promise<void> {
  for (let i = 0; i < 5 && !ended(); i++) {
    const mark = promptMark();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
    // Either the command ends, or it opens its next prompt (closed on the next round).
    await within(promptSince(mark, done), 15_000, 'the command to end after its prompt was closed');
  }
  assert.ok(ended(), 'the command ended once its prompts were closed');
}

/** Runs the action; a request matching `re` reaches the emulator. */
function sends(re: RegExp): Check {
  return async (a) => {
    await clearEmulatorLog();
    await exec(a);
    await waitFor(
      async () =>
        (await log()).some((e) => re.test(`${e.method} ${e.path} ${e.body?.query ?? ''}`)) ? true : undefined,
      15_000,
      `a request matching ${re}`,
    );
  };
}

/** Runs the action; it returns a ready result set that is in the Results view. */
const newSet: Check = async (a) => {
  const r = (await exec(a)) as RunSummary | undefined;
  assert.ok(r && r.status === 'ready' && r.setId, `a result set: ${JSON.stringify(r)}`);
  const f = await feature();
  assert.ok(
    f.results.getChildren().some((n) => n.type === 'set' && n.set.id === r.setId),
    'in the Results view',
  );
};

/** Runs the action; the clipboard then holds a non-empty text (the returned one when it returns text). */
const copies: Check = async (a) => {
  await vscode.env.clipboard.writeText('<before>');
  const r = await exec(a);
  const text = await waitFor(
    async () => {
      const t = await vscode.env.clipboard.readText();
      return t !== '<before>' ? t : undefined;
    },
    10_000,
    'the clipboard changed',
  );
  assert.ok(text!.length > 0);
  if (typeof r === 'string') assert.strictEqual(text, r);
};

/** Runs the action; the details page `page:id` opens. */
function opensPage(page: 'host' | 'whois', id: () => string): Check {
  return async (a) => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const api = await getTestApi();
    await exec(a);
    await waitFor(
      () => (api.pages.open.has(`${page}:${id()}`) ? true : undefined),
      20_000,
      `the ${page} page of ${id()}`,
    );
  };
}

/** Runs the action; a new editor tab opens whose document satisfies `pred`. */
function opensTab(pred: (doc: vscode.TextDocument) => boolean): Check {
  return async (a) => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await exec(a);
    await waitFor(() => vscode.window.visibleTextEditors.find((e) => pred(e.document)), 15_000, 'a new tab');
  };
}

/** Opens the host (or whois) page and delivers a button's message the way the webview does. */
async function pageButton(a: Action): Promise<void> {
  const [page, id, message] = (await a.args()) as ['host' | 'whois', string, unknown];
  const api = await getTestApi();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const since = Date.now();
  await vscode.commands.executeCommand(
    page === 'host' ? 'odin.openHostDetails' : 'odin.openWhoisDetails',
    id,
  );
  await api.pages.waitForRendered(page, id, since, 90_000);
  const deliver = api.pages.receivers.get(`${page}:${id}`);
  assert.ok(deliver, 'the page is open');
  deliver(message);
}

function pageCheck(effect: 'clipboard' | 'tab' | 'request' | 'set' | 'prompt'): Check {
  return async (a) => {
    const [page, id] = (await a.args()) as [string, string];
    if (effect === 'clipboard') {
      await vscode.env.clipboard.writeText('<before>');
      await pageButton(a);
      const t = await waitFor(
        async () => {
          const c = await vscode.env.clipboard.readText();
          return c !== '<before>' ? c : undefined;
        },
        10_000,
        'the clipboard changed',
      );
      assert.ok(t!.length > 0);
    } else if (effect === 'tab') {
      await pageButton(a);
      await waitFor(
        () =>
          vscode.window.visibleTextEditors.find(
            (e) => e.document.isUntitled && e.document.getText().includes(id),
          ),
        15_000,
        'the JSON in a new tab',
      );
    } else if (effect === 'request') {
      const api = await getTestApi();
      await pageButton(a);
      // The first refresh (pageButton delivered it) is rendered before the log is cleared: a
      // second one joining its request in flight would send nothing new.
      await api.pages.waitForRendered(page as 'host' | 'whois', id, Date.now(), 20_000);
      await clearEmulatorLog();
      // Refresh sends again (skipping the cache).
      api.pages.receivers.get(`${page}:${id}`)!((await a.args())[2]);
      await waitFor(
        async () => ((await log()).some((e) => e.path.includes(id)) ? true : undefined),
        20_000,
        'a request for the page',
      );
    } else if (effect === 'set') {
      const f = await feature();
      const before = new Set(f.results.getChildren().map((n) => (n.type === 'set' ? n.set.id : '')));
      await pageButton(a);
      await waitFor(
        () =>
          f.results
            .getChildren()
            .find((n) => n.type === 'set' && !before.has(n.set.id) && n.set.status === 'ready'),
        20_000,
        'a new result set',
      );
    } else {
      // A save dialog opens (a quick input in this host); it is closed without saving.
      const mark = promptMark();
      await pageButton(a);
      const prompt = await within(promptSince(mark, new Promise(() => undefined)), 15_000, 'a save dialog');
      assert.ok(prompt, 'a save dialog opened');
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    }
  };
}

// ------------------------------------------------------------------ the table: action → check

const IP = FIXTURE_HOSTS.webServer;

/** Every generated action's check; keys are `<source>:<command or label>[@<item>]`. */
/**
 * Load All asks first (a modal with the request count; the test host dismisses modals): with
 * the UI's argument nothing more is loaded, and once confirmed every page is.
 */
const loadsAll: Check = async (a) => {
  const [node] = (await a.args()) as [Node];
  const before = node.set.items.length;
  await exec({ ...a, args: async () => [node] });
  assert.strictEqual(node.set.items.length, before, 'nothing loaded before the confirmation');
  const r = (await vscode.commands.executeCommand(a.command, node, { confirmed: true })) as RunSummary;
  assert.ok(r && !node.set.hasMore && r.count === r.total, `all loaded: ${r?.count} of ${r?.total}`);
};

/**
 * Triage shows its preview, a modal that waits for the user (the test host dismisses it):
 * nothing but the credits read is sent before the confirmation.
 */
const previewsFirst: Check = async (a) => {
  // Nothing known yet (earlier actions looked up the file's IP): the preview has requests to ask about.
  const api = await getTestApi();
  api.lookups().cache.clear();
  api.ui.triage().state.last = undefined;
  await clearEmulatorLog();
  const mark = promptMark();
  const prompt = await within(promptSince(mark, Promise.resolve(exec(a))), 15_000, 'the preview');
  assert.ok(prompt, 'the preview asks first');
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  assert.strictEqual(
    (await log()).filter((e) => !e.path.includes('credits') && !e.path.startsWith('/feeds/')).length,
    0,
    'nothing sent before the confirmation',
  );
};

const CHECKS: Record<string, Check> = {
  // Results view, item menus (the real nodes of the provider)
  'view/item/context:odin.openHostDetails@odin.host': async (a) => {
    const [node] = (await a.args()) as [Node];
    const ip = node.type === 'item' && node.item.t === 'host' ? node.item.v.ip : '';
    await opensPage('host', () => ip)({ ...a, args: async () => [node] });
  },
  'view/item/context:odin.openWhoisDetails@odin.domain': async (a) => {
    const [node] = (await a.args()) as [Node];
    await exec({ ...a, args: async () => [node] });
    const api = await getTestApi();
    await waitFor(() => [...api.pages.open].find((k) => k.startsWith('whois:')), 20_000, 'a whois page');
  },
  'view/item/context:odin.openWhoisDetails@odin.whois': async (a) => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await exec(a);
    const api = await getTestApi();
    await waitFor(() => [...api.pages.open].find((k) => k.startsWith('whois:')), 20_000, 'a whois page');
  },
  'view/item/context:odin.searchSimilar@odin.host': newSet,
  'view/item/context:odin.hostCves@odin.host': newSet,
  'view/item/context:odin.hostExploits@odin.host': newSet,
  'view/item/context:odin.whois@odin.domain': async (a) => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const r = (await exec(a)) as RunSummary;
    assert.strictEqual(r.status, 'details', JSON.stringify(r));
    const api = await getTestApi();
    await waitFor(() => [...api.pages.open].find((k) => k.startsWith('whois:')), 20_000, 'a whois page');
  },
  'view/item/context:odin.whoisHistory@odin.domain': newSet,
  'view/item/context:odin.whoisHistory@odin.whois': newSet,
  'view/item/context:odin.hostCve@odin.cve': newSet,
  'view/item/context:odin.narrowByFacet@odin.facet': newSet,
  'view/item/context:odin.summarizeResultsBy@odin.facet': waitsForPrompt,
  'view/item/context:odin.loadMore@odin.loadMore': async (a) => {
    const [node] = (await a.args()) as [Node];
    const before = node.set.items.length;
    const r = (await exec({ ...a, args: async () => [node] })) as RunSummary;
    assert.ok((r.count ?? 0) > before, `more items: ${before} → ${r.count}`);
  },
  'view/item/context:odin.loadAll@odin.loadMore': loadsAll,
  'view/item/context:odin.loadAll@odin.resultSet': loadsAll,
  'view/item/context:odin.retry@odin.error': async (a) => {
    const [node] = (await a.args()) as [Node];
    const r = (await exec({ ...a, args: async () => [node] })) as RunSummary;
    assert.strictEqual(r.status, 'ready', JSON.stringify(r));
    assert.ok((r.count ?? 0) > 0);
  },
  'view/item/context:odin.refreshResults@odin.resultSet': newSet,
  'view/item/context:odin.saveSearch@odin.resultSet': waitsForPrompt,
  'view/item/context:odin.exportResults@odin.resultSet': waitsForPrompt,
  'view/item/context:odin.clearResults@odin.resultSet': async (a) => {
    const [node] = (await a.args()) as [Node];
    await exec({ ...a, args: async () => [node] });
    const f = await feature();
    assert.ok(
      !f.results.getChildren().some((n) => n.type === 'set' && n.set.id === node.set.id),
      'the set is gone',
    );
  },
  'view/item/context:odin.copyValue@odin.resultSet': copies,
  'view/item/context:odin.copyValue@odin.host': copies,
  'view/item/context:odin.copyValue@odin.service': copies,
  'view/item/context:odin.copyValue@odin.value': copies,
  'view/item/context:odin.copyValue@odin.cve': copies,
  'view/item/context:odin.copyValue@odin.exploit': copies,
  'view/item/context:odin.copyValue@odin.domain': copies,
  'view/item/context:odin.copyValue@odin.whois': copies,
  'view/item/context:odin.copyValue@odin.bucket': copies,
  'view/item/context:odin.copyValue@odin.facet': copies,
  'view/item/context:odin.copyValue@odin.note': copies,
  'view/item/context:odin.copyValue@odin.count': copies,
  'view/item/context:odin.copyValue@odin.error': copies,
  // Saved Searches view
  'view/item/context:odin.runSavedSearch@odin.savedSearch': newSet,
  'view/item/context:odin.renameSavedSearch@odin.savedSearch': waitsForPrompt,
  'view/item/context:odin.editSavedSearch@odin.savedSearch': waitsForPrompt,
  'view/item/context:odin.duplicateSavedSearch@odin.savedSearch': async (a) => {
    const f = await feature();
    const before = f.store.list().length;
    await exec(a);
    assert.strictEqual(f.store.list().length, before + 2, 'the saved search and its copy');
  },
  'view/item/context:odin.moveSavedSearchUp@odin.savedSearch': async (a) => {
    const f = await feature();
    const [node] = (await a.args()) as [SavedNode & { type: 'search' }];
    const before = f.store.list().findIndex((s) => s.id === node.search.id);
    await exec({ ...a, args: async () => [node] });
    const after = f.store.list().findIndex((s) => s.id === node.search.id);
    assert.ok(before > 0 && after === before - 1, `moved up: ${before} → ${after}`);
  },
  'view/item/context:odin.moveSavedSearchDown@odin.savedSearch': async (a) => {
    const f = await feature();
    const [node] = (await a.args()) as [SavedNode & { type: 'search' }];
    // The newest is last: move the one before it down.
    const list = f.store.list();
    const prev = list[list.findIndex((s) => s.id === node.search.id) - 1];
    assert.ok(prev, 'two saved searches');
    await vscode.commands.executeCommand(a.command, { type: 'search', search: prev });
    const after = f.store.list().findIndex((s) => s.id === prev.id);
    assert.strictEqual(after, list.findIndex((s) => s.id === prev.id) + 1, 'moved down');
  },
  'view/item/context:odin.deleteSavedSearch@odin.savedSearch': async (a) => {
    // Asks first (a modal): the entry stays until the user confirms.
    const f = await feature();
    const [node] = (await a.args()) as [SavedNode & { type: 'search' }];
    const mark = promptMark();
    const done = Promise.resolve(vscode.commands.executeCommand(a.command, node));
    // The modal waits for the user; the test host dismisses modals (then nothing is deleted).
    const prompt = await within(promptSince(mark, done), 15_000, 'the confirmation');
    assert.strictEqual(prompt?.kind, 'modal', `asked first: ${JSON.stringify(prompt)}`);
    assert.ok(
      f.store.list().some((s) => s.id === node.search.id),
      'not deleted without the confirmation',
    );
    const deleted = await vscode.commands.executeCommand(a.command, node, { confirmed: true });
    assert.strictEqual(deleted, true);
  },
  'view/item/context:odin.runHunt@odin.hunt': async (a) => {
    const r = (await exec(a)) as RunSummary;
    assert.ok(r && r.status === 'ready', JSON.stringify(r));
  },
  'view/item/context:odin.openHuntInFile@odin.hunt': opensTab((d) => d.uri.fsPath.endsWith('aff.odinq')),
  'view/item/context:odin.openHuntInFile@odin.huntFile': opensTab((d) => d.uri.fsPath.endsWith('aff.odinq')),
  // View title buttons (no argument)
  'view/title:odin.searchHosts@odin.results': waitsForPrompt,
  'view/title:odin.saveSearch@odin.results': async (a) => {
    await run('odin.searchHosts', { query: 'services.port:80', pageSize: 5 });
    await waitsForPrompt(a);
  },
  'view/title:odin.exportResults@odin.results': async (a) => {
    const r = await run('odin.searchHosts', { query: 'services.port:80', pageSize: 5 });
    assert.strictEqual(r?.status, 'ready', JSON.stringify(r));
    await waitsForPrompt(a);
  },
  'view/title:odin.clearResults@odin.results': async (a) => {
    await run('odin.searchHosts', { query: 'services.port:80', pageSize: 5 });
    await exec(a);
    assert.strictEqual((await feature()).results.getChildren().length, 0, 'the view is empty');
  },
  'view/title:odin.searchDomains@odin.results': waitsForPrompt,
  'view/title:odin.searchBuckets@odin.results': waitsForPrompt,
  'view/title:odin.summarizeHosts@odin.results': waitsForPrompt,
  'view/title:odin.browseFields@odin.results': waitsForPrompt,
  'view/title:odin.rerunAllSavedSearches@odin.savedSearches': async (a) => {
    await savedNode('odin.savedSearch');
    await clearEmulatorLog();
    // The count stated by the caller (the menu's own run asks in a modal the test host dismisses).
    const r = (await vscode.commands.executeCommand(a.command, { quiet: true, requests: 1000 })) as unknown;
    assert.ok(r, 'a summary');
    assert.ok(
      (await log()).some((e) => e.path === '/v1/hosts/search'),
      'the saved searches ran',
    );
  },
  'view/title:odin.importSavedSearches@odin.savedSearches': waitsForPrompt,
  'view/title:odin.exportSavedSearches@odin.savedSearches': waitsForPrompt,
  // Editor and explorer context menus
  'editor/context:odin.lookup': opensPage('host', () => IP),
  'editor/context:odin.listIndicators': async (a) => {
    const r = (await exec(a)) as { items: Array<{ value: string }> } | undefined;
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.ok(
      r?.items.some((i) => i.value === IP),
      'the IP is listed',
    );
  },
  'editor/context:odin.triageFile': previewsFirst,
  'explorer/context:odin.triageFolder': previewsFirst,
  // Hover links (decoded arguments)
  'hover:ipv4:Open details': opensPage('host', () => IP),
  'hover:ipv4:Similar hosts': newSet,
  'hover:ipv4:Copy IP': copies,
  'hover:ipv6:Open details': opensPage('host', () => FIXTURE_HOSTS.ipv6),
  'hover:ipv6:Similar hosts': newSet,
  'hover:ipv6:Copy IP': copies,
  'hover:cidr:Search hosts in it': async (a) => {
    await sends(/hosts\/search ip:"45\.33\.32\.0\/24"/)(a);
  },
  'hover:cidr:Copy': copies,
  'hover:domain:Open whois': opensPage('whois', () => FIXTURE_DOMAINS.corp),
  'hover:domain:Copy domain': copies,
  'hover:private:Copy': copies,
  'hover:onCommand:Look up now': async (a) => {
    (await getTestApi()).lookups().forget('host', FIXTURE_HOSTS.mail);
    await sends(new RegExp(`GET /v1/hosts/${FIXTURE_HOSTS.mail.replace(/\./g, '\\.')}`))(a);
  },
  'hover:onCommand:Copy': copies,
  'hover:paused:Resume lookups': async (a) => {
    const api = await getTestApi();
    api.lookups().pause({ reason: 'quota', message: 'test pause' });
    await exec(a);
    assert.strictEqual(api.lookups().paused, undefined, 'resumed');
  },
  'hover:paused:Copy': copies,
  // Details pages' buttons (the page's message, validated as the webview's are)
  'page:host:refresh': pageCheck('request'),
  'page:host:copyJson': pageCheck('clipboard'),
  'page:host:openJson': pageCheck('tab'),
  'page:host:export': pageCheck('prompt'),
  'page:host:searchSimilar': pageCheck('set'),
  'page:whois:refresh': pageCheck('request'),
  'page:whois:copyJson': pageCheck('clipboard'),
  'page:whois:openJson': pageCheck('tab'),
  'page:whois:export': pageCheck('prompt'),
  'page:whois:copyRaw': pageCheck('clipboard'),
  // Status bar
  'status:odin.lookupStatus:workbench.action.openSettings': async (a) => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await exec(a);
    await waitFor(
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => /settings/i.test(t.label)),
      10_000,
      'the Settings editor',
    );
  },
  'status:odin.lookupStatus:odin.resumeLookups': async (a) => {
    const api = await getTestApi();
    api.lookups().pause({ reason: 'quota', message: 'test pause' });
    await exec(a);
    assert.strictEqual(api.lookups().paused, undefined, 'resumed');
  },
  'status:odin.credits:odin.refreshCredits': sends(/GET \/v1\/credits\/usage/),
};

// A host search's node offers what any result set's does, with the same visible effect; a
// summary's own node too (a summary has no more pages to load), and Change Facet Count… asks
// for the number. A summary by country offers what any summary's does.
for (const c of ['refreshResults', 'saveSearch', 'exportResults', 'clearResults', 'copyValue', 'loadAll']) {
  CHECKS[`view/item/context:odin.${c}@odin.resultSet.hosts`] =
    CHECKS[`view/item/context:odin.${c}@odin.resultSet`];
  if (c === 'loadAll') continue;
  CHECKS[`view/item/context:odin.${c}@odin.summarySet`] =
    CHECKS[`view/item/context:odin.${c}@odin.resultSet`];
}
// A file count's node offers what any result set's does; it has no pages to load.
for (const c of ['refreshResults', 'saveSearch', 'exportResults', 'clearResults', 'copyValue']) {
  CHECKS[`view/item/context:odin.${c}@odin.resultSet.summarisable`] =
    CHECKS[`view/item/context:odin.${c}@odin.resultSet`];
}
CHECKS['view/item/context:odin.loadAll@odin.resultSet.summarisable'] = async (a) => {
  const [node] = (await a.args()) as [Node];
  const r = (await exec({ ...a, args: async () => [node] })) as RunSummary;
  assert.ok(r?.status === 'ready' && !node.set.hasMore, `nothing left to load: ${JSON.stringify(r)}`);
};
// "Summarize Results By…" is on the sets the API can summarise only (hosts, exposed files;
// test/unit/search/setMenus.test.ts holds the menu to `summaryOf`): it asks for the field.
for (const cv of ['resultSet.hosts', 'resultSet.summarisable', 'summarySet', 'summarySet.countries']) {
  CHECKS[`view/item/context:odin.summarizeResultsBy@odin.${cv}`] = waitsForPrompt;
}
CHECKS['view/item/context:odin.changeFacetCount@odin.summarySet'] = waitsForPrompt;
for (const c of [
  'refreshResults',
  'saveSearch',
  'exportResults',
  'clearResults',
  'copyValue',
  'changeFacetCount',
]) {
  CHECKS[`view/item/context:odin.${c}@odin.summarySet.countries`] =
    CHECKS[`view/item/context:odin.${c}@odin.summarySet`];
}

/** Runs the action on a summary's node or facet value; the summary's chart page draws. */
const opensChart: Check = async (a) => {
  const api = await getTestApi();
  const [node] = (await a.args()) as [Node];
  const since = Date.now();
  await exec({ ...a, args: async () => [node] });
  await api.pages.waitForRendered('chart', node.set.id, since, 30_000);
};
CHECKS['view/item/context:odin.openChart@odin.summarySet'] = opensChart;
CHECKS['view/item/context:odin.openChart@odin.summarySet.countries'] = opensChart;
CHECKS['view/item/context:odin.openChart@odin.facet'] = opensChart;

/** Runs the action on a host search's or a country summary's node: its map page renders. */
const opensMap: Check = async (a) => {
  const api = await getTestApi();
  const [node] = (await a.args()) as [Node];
  const since = Date.now();
  await exec({ ...a, args: async () => [node] });
  await api.pages.waitForRendered('map', node.set.id, since, 30_000);
};
// "Show Result Set on Map" is on host searches only, "Show on Map" on summaries by country only
// (test/unit/search/setMenus.test.ts holds the menus to `mapModeOf`).
CHECKS['view/item/context:odin.showOnMap@odin.resultSet.hosts'] = opensMap;
CHECKS['view/item/context:odin.showSummaryOnMap@odin.summarySet.countries'] = opensMap;

describe('every affordance works (generated list)', function () {
  this.timeout(900_000);
  let actions: Action[] = [];

  before(async function () {
    if (!testEnv.emulatorUrl || testEnv.run === 'restricted' || !vscode.workspace.isTrusted) this.skip();
    const dir = path.join(workspaceDir(), 'affordances-it');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'access.log'), `${FIXTURE_HOSTS.webServer} - - "GET / HTTP/1.1" 200\n`);
    fs.writeFileSync(
      path.join(dir, 'indicators.txt'),
      `${HOVER_LINES.map(([, v]) => v).join('\n')}\n${FIXTURE_HOSTS.mail}\n${FIXTURE_HOSTS.rdp}\n`,
    );
    fs.writeFileSync(path.join(dir, 'aff.odinq'), '@hosts Affordance hunt\nservices.port:22\n');
    await vscode.commands.executeCommand('odin.showLog');
    const api = await getTestApi();
    api.lookups().cache.clear();
    // The credits item shows after a first read.
    await vscode.commands.executeCommand('odin.refreshCredits');
    actions = [...menuActions(), ...(await hoverActions()), ...pageActions(), ...(await statusActions())];
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (vscode.workspace.workspaceFolders?.length) {
      fs.rmSync(path.join(workspaceDir(), 'affordances-it'), { recursive: true, force: true });
    }
  });

  it('the generated list covers every source, and every hover command has a card here', () => {
    const keys = actions.map((a) => a.key);
    for (const prefix of [
      'view/item/context:',
      'view/title:',
      'editor/context:',
      'explorer/context:',
      'hover:',
      'page:',
      'status:',
    ]) {
      assert.ok(
        keys.some((k) => k.startsWith(prefix)),
        `actions from ${prefix}`,
      );
    }
    const hoverCommands = new Set(actions.filter((a) => a.key.startsWith('hover:')).map((a) => a.command));
    for (const id of HOVER_COMMAND_IDS) {
      assert.ok(hoverCommands.has(id), `a hover card with ${id} (add its card state to hoverActions)`);
    }
  });

  it('every generated action has a check, and every check an action', () => {
    const keys = new Set(actions.map((a) => a.key));
    const missing = [...keys].filter((k) => !(k in CHECKS));
    const stale = Object.keys(CHECKS).filter((k) => !keys.has(k));
    assert.deepStrictEqual(
      missing,
      [],
      `actions without a check (add them to CHECKS):\n${missing.join('\n')}`,
    );
    assert.deepStrictEqual(stale, [], `checks for actions the UI no longer offers:\n${stale.join('\n')}`);
  });

  it('every action does what it says, with the arguments the UI passes', async function () {
    // Each action has 45 s; the failures are listed together.
    const failed: string[] = [];
    for (const a of actions) {
      const check = CHECKS[a.key];
      if (!check) continue;
      try {
        await within(check(a), 45_000, 'no effect');
      } catch (err) {
        failed.push(`${a.key}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        await vscode.commands.executeCommand('notifications.clearAll');
      }
    }
    assert.deepStrictEqual(failed, [], `actions that did nothing visible:\n${failed.join('\n')}`);
  });
});
