// Helpers for UI tests that drive the real VS Code workbench like a person would.
//
// The harness (scripts/host/suite.mjs) starts code-server + chromium, then runs the
// test/ui/*.test.mjs files with `node --test`; each file connects to that same page over
// the DevTools protocol. A file looks like:
//
//   import { after, before, describe, it } from 'node:test';
//   import assert from 'node:assert/strict';
//   import { connectUi } from './helpers.mjs';
//   describe('my feature', () => {
//     let ui;
//     before(async () => (ui = await connectUi()));
//     after(() => ui.close());
//     it('shows X', async () => { await ui.openFile('logs/auth.log', 3, 45); ... });
//   });
//
// Run only the UI tier against a live host while developing: `npm run test:host -- --only=ui`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const { waitFor } = createRequire(import.meta.url)('../../out/test/support/wait.js');

/** What the harness wrote about the host this run drives. */
export function hostInfo() {
  const file = process.env.ODIN_UI_HOST;
  if (!file)
    throw new Error(
      'ODIN_UI_HOST is not set: UI tests run through `npm run test:host` (scripts/host/suite.mjs)',
    );
  return /** @type {{cdpUrl:string, origin:string, workspace:string, trusted:boolean, run:string, emulatorUrl:string, attackerUrl:string, screenshotDir:string, updateScreenshots:boolean, userDataDir:string}} */ (
    JSON.parse(fs.readFileSync(file, 'utf8'))
  );
}

/** Hover text that means "not there yet": VS Code's "(loading...)" and a leading "Loading". */
const LOADING = /\(loading\.\.\.\)|^loading\b/i;

/**
 * The themes `Ui.setTheme` switches between (the harness sets them as the preferred dark and
 * light themes, scripts/host/suite.mjs): the classes the workbench carries once one is applied,
 * its kind and its id ("vscode-theme-defaults-themes-light_modern-json").
 */
const THEMES = {
  'Dark Modern': { kind: 'vs-dark', id: '-dark_modern-' },
  'Light Modern': { kind: 'vs', id: '-light_modern-' },
};

const isMac = process.platform === 'darwin';
const mod = isMac ? 'Meta' : 'Control';

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The one bounded wait (test/support/wait.ts, compiled to out/ before any host run), as the UI
 * tests call it: polls `check` (sync or async; a throw counts as "not yet") until it returns a
 * truthy value, which it resolves with; fails naming `what` after `timeout` ms.
 * @template T
 * @param {() => T | Promise<T>} check
 * @param {{ timeout?: number, what?: string }} [o]
 * @returns {Promise<T>}
 */
export function waitUntil(check, { timeout = 15_000, what = 'the condition' } = {}) {
  return waitFor(check, timeout, what);
}

/**
 * Resolves once `target` (the workbench page or a webview frame) has painted what it holds:
 * its fonts loaded and two animation frames drawn. What a screenshot waits for instead of a time.
 * @param {import('playwright-core').Page | import('playwright-core').Frame} target
 */
export async function painted(target) {
  await target.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined))));
  });
}

/**
 * The first frame of the workbench (webviews are frames) in which `predicate(arg)` is true, once
 * there is one; fails naming `what` after `timeout` ms.
 * @param {import('playwright-core').Page} page
 * @param {(arg: any) => unknown} predicate runs in each frame
 * @param {unknown} arg
 */
export function frameWhere(page, predicate, arg, { timeout = 15_000, what = 'a frame' } = {}) {
  return waitUntil(
    async () => {
      for (const frame of page.frames())
        if (await frame.evaluate(predicate, arg).catch(() => false)) return frame;
      return undefined;
    },
    { timeout, what },
  );
}

export async function connectUi() {
  const info = hostInfo();
  const browser = await chromium.connectOverCDP(info.cdpUrl);
  const page = browser
    .contexts()
    .flatMap((c) => c.pages())
    .find((p) => p.url().startsWith(info.origin));
  if (!page) throw new Error(`no workbench page at ${info.origin}`);
  const ui = new Ui(browser, page, info);
  await ui.reset();
  return ui;
}

export class Ui {
  constructor(browser, page, info) {
    /** @type {import('playwright-core').Browser} */
    this.browser = browser;
    /** @type {import('playwright-core').Page} */
    this.page = page;
    this.info = info;
  }

  /** Disconnects from the browser (the harness owns and closes it). */
  async close() {
    await this.browser.close();
  }

  /** Escape out of widgets and close editors, so each test starts from a clean workbench. */
  async reset() {
    await this.page.mouse.move(1, 1);
    for (let i = 0; i < 3; i++) await this.page.keyboard.press('Escape');
    await this.runCommand('View: Close All Editors').catch(() => {});
    // "View: Hide Panel" is in the palette only while the panel shows: asked for otherwise,
    // the palette search would wait out its whole timeout.
    if (await this.page.locator('.part.panel').first().isVisible())
      await this.runCommand('View: Hide Panel').catch(() => {});
  }

  // ---------------------------------------------------------------- command palette

  /** F1, type the command's title as shown in the palette (e.g. "ODIN: Set API Key"), Enter. */
  async runCommand(title, { timeout = 10_000 } = {}) {
    const { page } = this;
    await this.leaveWebview();
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout });
    await input.fill(`>${title}`);
    const row = this.quickPickRow(title);
    await row.waitFor({ state: 'visible', timeout });
    await row.click();
  }

  /**
   * Moves the keyboard focus out of a webview into the workbench (the active editor's tab)
   * before keys meant for the workbench are pressed. With a webview focused, VS Code forwards
   * each key from the webview's frame by message, and re-focuses the webview 50 ms after it
   * takes the focus (after a click, or when a palette command hands the focus back): an
   * Escape forwarded late, or that re-focus, closed the palette F1 had just opened (the fill
   * then waited out its 30 s on an input being hidden). The re-focus is skipped while the
   * focus is on another workbench element; it is not skipped for the page's body.
   */
  async leaveWebview() {
    await this.page.evaluate(() => {
      if (document.activeElement?.tagName !== 'IFRAME') return;
      const to =
        document.querySelector('.editor-group-container.active .tab.active') ??
        document.querySelector('.part.statusbar .statusbar-item a, .part.statusbar [tabindex]');
      if (to instanceof HTMLElement) to.focus();
    });
  }

  /** The quick pick row whose label is exactly `label` (or matches a RegExp). */
  quickPickRow(label) {
    const re = label instanceof RegExp ? label : new RegExp(`^\\s*${escapeRe(label)}\\s*$`);
    return this.page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: re }) })
      .first();
  }

  /** Types into an open quick input / input box and presses Enter. */
  async answerInput(text, { timeout = 10_000 } = {}) {
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout });
    await input.fill(text);
    await this.page.keyboard.press('Enter');
  }

  /** Picks an item of an open quick pick by its label. */
  async pickQuickItem(label, { timeout = 10_000 } = {}) {
    const row = this.quickPickRow(label);
    await row.waitFor({ state: 'visible', timeout });
    await row.click();
  }

  /** Labels of the rows of the open quick pick. */
  async quickPickLabels() {
    return this.page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name')
      .allInnerTexts();
  }

  /**
   * Sets a user setting that takes text (e.g. `odin.apiBaseUrl`) in the Settings editor, as a
   * person does: search for its id, type the value, leave the field; the editor is closed.
   */
  async setUserSettingText(key, value) {
    await this.runCommand('Preferences: Open User Settings');
    const editor = this.page.locator('.settings-editor').first();
    await editor.waitFor({ timeout: 15_000 });
    // The search box has the focus (it may still hold an earlier search).
    await this.waitForFocusIn('.settings-editor .settings-header');
    await this.page.keyboard.press(`${mod}+A`);
    await this.page.keyboard.type(key);
    const input = editor.locator(`.setting-item-contents[data-key="${key}"] input`).first();
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(value);
    await this.page.keyboard.press('Tab');
    // The editor writes the change after a debounce: wait until the user settings file holds it.
    await this.waitForUserSetting(key, value);
    await this.runCommand('View: Close All Editors').catch(() => {});
  }

  /** Resolves once the keyboard focus is inside the element `selector` of the workbench. */
  async waitForFocusIn(selector, { timeout = 15_000 } = {}) {
    await this.page.waitForFunction((sel) => !!document.activeElement?.closest(sel), selector, { timeout });
  }

  /** The text of the user settings file (settings.json of the host's user data). */
  userSettingsText() {
    return fs.readFileSync(path.join(this.info.userDataDir, 'User', 'settings.json'), 'utf8');
  }

  /**
   * Resolves once the user settings file (settings.json of the host's user data) sets `key` to
   * `value` (what the Settings editor and the theme picker write).
   */
  async waitForUserSetting(key, value, { timeout = 15_000 } = {}) {
    const want = `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    await waitUntil(() => this.userSettingsText().includes(want), {
      timeout,
      what: `${want} in the user settings`,
    });
  }

  /**
   * Switches the colour theme to 'Light Modern' or 'Dark Modern' with "Preferences: Toggle
   * between Light/Dark Themes" (to the preferred light or dark theme the harness sets), then
   * waits for the workbench to show it. Not the theme picker (Preferences: Color Theme): it
   * awaits the extension gallery (is it enabled, does it serve resources) before it shows, and
   * no gallery is reachable here; a switch through it took 0.7–1.1 s, through the toggle
   * 0.3–0.6 s.
   */
  async setTheme(label) {
    const theme = THEMES[label];
    if (!theme) throw new Error(`setTheme: no theme "${label}" (${Object.keys(THEMES).join(', ')})`);
    const shown = ({ kind, id }) => {
      const classes = document.querySelector('.monaco-workbench')?.classList;
      return !!classes?.contains(kind) && [...classes].some((c) => c.includes(id));
    };
    if (!(await this.page.evaluate(shown, theme)))
      await this.runCommand('Preferences: Toggle between Light/Dark Themes');
    await this.page.waitForFunction(shown, theme, { timeout: 15_000 });
    await painted(this.page);
  }

  // ---------------------------------------------------------------- editors

  /**
   * Opens a workspace file (path relative to the workspace folder) through Quick Open, and
   * puts the cursor at line/column (1-based) when given.
   */
  async openFile(relPath, line, column, { timeout = 15_000 } = {}) {
    const { page } = this;
    await page.keyboard.press('Escape');
    await page.keyboard.press(`${mod}+P`);
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout });
    const suffix = line ? `:${line}${column ? `:${column}` : ''}` : '';
    await input.fill(`${relPath}${suffix}`);
    const base = path.posix.basename(relPath);
    const row = page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRe(base)}$`) }) })
      .first();
    await row.waitFor({ state: 'visible', timeout });
    await page.keyboard.press('Enter');
    await page
      .locator(
        `.tabs-container .tab.active[data-resource-name="${base}"], .title .label-name:text-is("${base}")`,
      )
      .first()
      .waitFor({ timeout });
    await this.activeEditor().locator('.view-lines').waitFor({ timeout });
    return this.activeEditor();
  }

  /** The editor of the active group. */
  activeEditor() {
    return this.page.locator('.editor-group-container.active .monaco-editor').first();
  }

  /** Client rectangle of the first (or `occurrence`-th) visible occurrence of `text` in the active editor. */
  async textRect(text, { occurrence = 0 } = {}) {
    return this.activeEditor().evaluate(
      (editor, [needle, nth]) => {
        const lines = [...editor.querySelectorAll('.view-lines .view-line')].sort(
          (a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top,
        );
        let seen = 0;
        for (const line of lines) {
          // Monaco splits a line into token spans and renders spaces as U+00A0.
          const nodes = [];
          let full = '';
          const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            nodes.push({ n, start: full.length });
            full += n.data;
          }
          full = full.replace(/\u00a0/g, ' ');
          let idx = -1;
          let from = 0;
          while ((idx = full.indexOf(needle, from)) !== -1) {
            if (seen++ === nth) {
              const at = (pos) => {
                const hit = nodes.filter((x) => x.start <= pos).pop();
                return [hit.n, Math.min(pos - hit.start, hit.n.data.length)];
              };
              const range = document.createRange();
              range.setStart(...at(idx));
              range.setEnd(...at(idx + needle.length));
              const r = range.getBoundingClientRect();
              return { x: r.x, y: r.y, width: r.width, height: r.height };
            }
            from = idx + 1;
          }
        }
        return null;
      },
      [text, occurrence],
    );
  }

  /**
   * Moves the mouse over `text` in the active editor and returns the hover widget's text
   * (`.monaco-hover` content) once it stops changing (loading placeholders replaced).
   * `until`: keep waiting until the text contains this string / matches this RegExp.
   * `loading`: RegExp of texts that mean "still loading" (default: VS Code's "(loading...)").
   */
  async hoverText(text, { occurrence = 0, timeout = 15_000, settleMs = 400, until, loading = LOADING } = {}) {
    const { page } = this;
    await page.keyboard.press('Escape');
    await page.mouse.move(1, 1);
    const rect = await this.textRect(text, { occurrence });
    if (!rect) throw new Error(`"${text}" is not visible in the active editor`);
    const hover = this.hoverWidget();
    const deadline = Date.now() + timeout;
    // Approach like a person: from the left edge of the word to its middle. If no hover
    // shows (e.g. the provider registered a moment later), move away and come back.
    for (let attempt = 0; ; attempt++) {
      await page.mouse.move(rect.x + 2, rect.y + rect.height / 2);
      await page.mouse.move(rect.x + rect.width / 2, rect.y + rect.height / 2, { steps: 3 });
      const left = deadline - Date.now();
      try {
        await hover.waitFor({
          state: 'visible',
          timeout: Math.max(1, Math.min(left, 3000 + attempt * 1000)),
        });
        break;
      } catch (e) {
        if (Date.now() >= deadline) throw e;
        await page.mouse.move(1, 1);
        await page.keyboard.press('Escape');
      }
    }
    // The text is read once it is no placeholder, is what was asked for and has stopped
    // changing (several providers fill one hover).
    let last = '';
    let stableSince = Date.now();
    const settled = async () => {
      const now = (await hover.innerText().catch(() => '')).trim();
      if (now !== last) {
        last = now;
        stableSince = Date.now();
      }
      const wanted = until ? (until instanceof RegExp ? until.test(now) : now.includes(until)) : true;
      return now && !loading.test(now) && wanted && Date.now() - stableSince >= settleMs ? now : '';
    };
    try {
      return await waitUntil(settled, {
        timeout: Math.max(1, deadline - Date.now()),
        what: 'the hover text',
      });
    } catch {
      if (until) throw new Error(`hover text never matched ${until}; last text: ${last}`);
      return last;
    }
  }

  /** The visible editor hover widget. */
  hoverWidget() {
    return this.page
      .locator(
        '.monaco-editor .monaco-hover:not(.hidden), .monaco-resizable-hover .monaco-hover:not(.hidden)',
      )
      .first();
  }

  // ---------------------------------------------------------------- views

  /** Clicks a view container in the activity bar (by its title, e.g. "ODIN") and waits for its side bar. */
  async openViewContainer(title) {
    const item = this.activityBarItem(title);
    await item.waitFor({ state: 'visible', timeout: 15_000 });
    const checked = await item.evaluate(
      (el) => el.closest('.action-item')?.classList.contains('checked') ?? false,
    );
    if (!checked) await item.click();
    // Off the activity bar, or its tooltip stays on screen (and in screenshots).
    await this.page.mouse.move(1, 1);
    await this.page
      .locator('.part.sidebar .composite.title h2', { hasText: new RegExp(escapeRe(title), 'i') })
      .first()
      .waitFor({ timeout: 15_000 });
  }

  activityBarItem(title) {
    return this.page.locator(`.part.activitybar .action-item a.action-label[aria-label^="${title}"]`).first();
  }

  /** A view's pane in the side bar, by the view's name (e.g. "Results"). */
  view(name) {
    return this.page
      .locator('.part.sidebar .pane')
      .filter({
        has: this.page.locator('.pane-header .title', { hasText: new RegExp(`^${escapeRe(name)}$`, 'i') }),
      })
      .first();
  }

  /** Expands a collapsed view pane. */
  async expandView(name) {
    const v = this.view(name);
    const header = v.locator('.pane-header').first();
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    await v.locator('.pane-body').waitFor({ state: 'visible', timeout: 10_000 });
  }

  /** The visible text of a view's body (tree rows or welcome content). */
  async viewText(name) {
    await this.expandView(name);
    return (await this.view(name).locator('.pane-body').innerText()).trim();
  }

  /** Labels of the rows of a tree view. */
  async treeLabels(name) {
    await this.expandView(name);
    return this.view(name).locator('.monaco-list-row .label-name').allInnerTexts();
  }

  /** Clicks the tree row whose label is `label` (exact or RegExp), optionally inside one view. */
  async clickTreeItem(label, { view, button = 'left', timeout = 10_000 } = {}) {
    const scope = view ? this.view(view) : this.page.locator('.part.sidebar, .part.panel');
    const re = label instanceof RegExp ? label : new RegExp(`^\\s*${escapeRe(label)}\\s*$`);
    const row = scope
      .locator('.monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: re }) })
      .first();
    await row.waitFor({ state: 'visible', timeout });
    await row.click({ button });
    return row;
  }

  /**
   * innerText of a locator with the editor's non-breaking spaces turned into spaces (Monaco
   * renders every space of a line as U+00A0, so /a b/ would not match its text).
   */
  async textOf(locator) {
    return (await locator.innerText()).replace(/\u00a0/g, ' ');
  }

  /** Text of the rendered (visible) lines of the active editor (or of `editor`), top to bottom. */
  async editorText(editor = this.activeEditor()) {
    // Monaco recycles line elements: their DOM order is not their screen order.
    return editor.evaluate((el) =>
      [...el.querySelectorAll('.view-lines .view-line')]
        .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
        .map((l) => (l.textContent ?? '').replace(/\u00a0/g, ' '))
        .join('\n'),
    );
  }

  // ---------------------------------------------------------------- notifications

  /** Texts of the notification toasts on screen. */
  async notifications() {
    return this.page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
  }

  // ---------------------------------------------------------------- screenshots

  /** Where a screenshot named `name` goes: media/screenshots (ODIN_UPDATE_SCREENSHOTS=1) or a temp dir. */
  screenshotPath(name) {
    return path.join(this.info.screenshotDir, name.endsWith('.png') ? name : `${name}.png`);
  }

  /** Screenshot of the whole workbench. */
  async screenshot(name) {
    const file = this.screenshotPath(name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await this.page.screenshot({ path: file });
    return file;
  }

  /**
   * Screenshot of a region: a locator (with optional padding) or a {x, y, width, height} clip.
   */
  async screenshotRegion(name, region, { padding = 0 } = {}) {
    const file = this.screenshotPath(name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    let clip = region;
    if (typeof region?.boundingBox === 'function') {
      const box = await region.boundingBox();
      if (!box) throw new Error(`screenshotRegion(${name}): element not visible`);
      clip = box;
    }
    const vp = this.page.viewportSize() ?? { width: 1280, height: 800 };
    const x = Math.max(0, clip.x - padding);
    const y = Math.max(0, clip.y - padding);
    await this.page.screenshot({
      path: file,
      clip: {
        x,
        y,
        width: Math.min(vp.width - x, clip.width + 2 * padding),
        height: Math.min(vp.height - y, clip.height + 2 * padding),
      },
    });
    return file;
  }
}
