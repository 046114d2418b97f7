// The host and whois details pages as a person sees them in the real workbench: opened from
// the command palette, rendered inside the webview's nested iframes, hostile scan data shown
// as inert visible text, the huge host rendered, keyboard use, the whois diff editor, and
// screenshots in a dark and a light theme.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { detailsFrame } from './detailsFrame.mjs';
import { connectUi } from './helpers.mjs';

// Same values as src/emulator/fixtures.ts (this file runs as plain Node, outside the build).
const HOSTS = { webServer: '45.33.32.156', hostile: '193.42.33.7', huge: '159.89.214.31' };
const DOMAINS = { corp: 'acme-logistics.com', hostile: 'evil-payload.xyz' };

/** @type {import('./helpers.mjs').Ui} */
let ui;

async function openHost(ip) {
  await ui.runCommand('ODIN: Look Up Host by IP\u2026');
  await ui.answerInput(ip);
  return detailsFrame(ui, 'host', ip);
}

async function openWhois(domain) {
  await ui.runCommand('ODIN: Show Whois of a Domain\u2026');
  await ui.answerInput(domain);
  return detailsFrame(ui, 'whois', domain);
}

/** Evaluates in every frame of the workbench; true if `window.__pwned` is set in any. */
async function pwnedAnywhere() {
  for (const frame of ui.page.frames()) {
    const v = await frame.evaluate(() => /** @type {any} */ (window).__pwned).catch(() => undefined);
    if (v !== undefined) return true;
  }
  return false;
}

/** Opens every collapsed section and row (nested ones appear as outer ones open), then waits for banners. */
async function expandEverything(frame, { rounds = 4 } = {}) {
  for (let i = 0; i < rounds; i++) {
    // In the page (fast): a click on every collapsed toggle, as a person would, round by round.
    const clicked = await frame.evaluate(() => {
      const closed = [...document.querySelectorAll('button[aria-expanded="false"]')].slice(0, 300);
      for (const b of closed) /** @type {HTMLButtonElement} */ (b).click();
      return closed.length;
    });
    if (clicked === 0) break;
  }
  await frame.waitForFunction(() => !document.body.innerText.includes('Loading banner'), undefined, {
    timeout: 20_000,
    polling: 100,
  });
}

/** Scripts, images and other active content in the page's document. */
async function activeContent(frame) {
  return frame.evaluate(() => ({
    // Ours (dist/webview.js, by nonce) and the one VS Code injects for acquireVsCodeApi.
    foreignScripts: [...document.scripts].filter(
      (s) => !(s.src.endsWith('/dist/webview.js') || (!s.src && !/pwned/.test(s.textContent ?? ''))),
    ).length,
    pwnedScripts: [...document.scripts].filter(
      (s) => /pwned/.test(s.textContent ?? '') || /pwned/.test(s.src),
    ).length,
    imgs: document.images.length,
    embeds: document.querySelectorAll('iframe, object, embed, a[href], form, link:not([rel="stylesheet"])')
      .length,
    // VS Code sets the theme's CSS variables in <html style>; nothing of ours or the data's may.
    styleAttrs: document.querySelectorAll('body [style], body[style], head [style]').length,
    handlers: [...document.querySelectorAll('*')].filter((el) =>
      [...el.attributes].some((a) => /^on/i.test(a.name)),
    ).length,
  }));
}
const INERT = { foreignScripts: 0, pwnedScripts: 0, imgs: 0, embeds: 0, styleAttrs: 0, handlers: 0 };

describe('details pages', () => {
  before(async () => {
    ui = await connectUi();
  });
  after(async () => {
    await ui?.close();
  });

  it('renders the hostile host as inert, visible text', async () => {
    const frame = await openHost(HOSTS.hostile);
    await frame.waitForSelector('.services-table tbody tr.row', { timeout: 30_000 });
    await frame.waitForSelector('.cve-table tbody tr.row', { timeout: 30_000 });
    await expandEverything(frame);

    const text = await frame.evaluate(() => document.body.innerText);
    assert.ok(text.includes('<script>window.__pwned=1</script>'), 'the literal <script> payload is visible');
    assert.ok(
      text.includes('<img src=x onerror="window.__pwned=1">'),
      'the literal <img> payload is visible',
    );
    assert.ok(text.includes('[click](command:workbench.action.terminal.new)'), 'command links stay text');
    assert.ok(text.includes('U+202E'), 'the bidi override is shown as a visible marker');
    assert.ok(text.includes('U+200B'), 'zero-width characters are shown');
    assert.ok(text.includes('U+001B'), 'ANSI escapes are shown');
    assert.ok(text.includes('U+0000'), 'NUL is shown');
    assert.ok((await frame.locator('pre.banner').count()) > 0, 'banners were opened');
    assert.deepEqual(await activeContent(frame), INERT);
    assert.equal(await pwnedAnywhere(), false, 'window.__pwned stays unset in every frame');
    // The page never leaves its sandbox: no notification asked to open anything.
    const notes = (await ui.notifications()).join('\n');
    assert.ok(!/Open this link/.test(notes), notes);
  });

  it('renders the hostile domain as inert, visible text', async () => {
    const frame = await openWhois(DOMAINS.hostile);
    await frame.waitForSelector('.cards .card', { timeout: 30_000 });
    await expandEverything(frame);
    const text = await frame.evaluate(() => document.body.innerText);
    assert.ok(text.includes('<script>window.__pwned=1</script>'), 'the literal <script> payload is visible');
    assert.ok(text.includes('U+202E'));
    assert.deepEqual(await activeContent(frame), INERT);
    assert.equal(await pwnedAnywhere(), false);
  });

  it('renders the huge host (1,000 services, ~5 MB of banners) and shows a whole banner on request', async () => {
    const t0 = Date.now();
    const frame = await openHost(HOSTS.huge);
    await frame.waitForFunction(
      () => document.querySelectorAll('.services-table tbody tr.row').length === 1000,
      undefined,
      {
        timeout: 60_000,
        polling: 200,
      },
    );
    const ms = Date.now() - t0;
    console.log(`huge host: 1000 service rows on screen ${ms} ms after the command`);
    // Filter narrows the table; the first banner opens, then "Show all" loads the rest.
    await frame.locator('input.filter').fill('zzz-no-such-service');
    assert.equal(await frame.locator('.services-table tbody tr.row:not([hidden])').count(), 0);
    await frame.locator('input.filter').fill('');
    // Banners sit on the services (live dialect) or at host level (spec dialect).
    const hostBanners = frame.locator('#host-banners > .section-header .section-toggle');
    if (await hostBanners.count()) {
      await hostBanners.click();
      await frame.locator('#host-banners .section-body .section-toggle').first().click();
    } else {
      // HTTP rows record no banner (live): open the first row that has one.
      await frame.locator('.services-table tbody tr.row button[title^="Show banner"]').first().click();
    }
    await frame.waitForSelector('pre.banner', { timeout: 15_000 });
    const showAll = frame.locator('.banner-note button', { hasText: 'Show all' });
    await showAll.waitFor({ timeout: 15_000 });
    await showAll.click();
    await frame.waitForFunction(() => !document.querySelector('.banner-note button'), undefined, {
      timeout: 15_000,
      polling: 100,
    });
    assert.ok(
      (await frame.locator('pre.banner').first().innerText()).length > 4096,
      'the whole banner is shown',
    );
  });

  it('is keyboard navigable: section toggles and table rows', async () => {
    const frame = await openHost(HOSTS.webServer);
    await frame.waitForSelector('.services-table tbody tr.row', { timeout: 30_000 });
    const toggle = frame.locator('#services .section-toggle');
    await toggle.focus();
    await ui.page.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await ui.page.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    const firstRow = frame.locator('.services-table tbody tr.row').first();
    await firstRow.focus();
    await ui.page.keyboard.press('ArrowDown');
    const focusedPort = await frame.evaluate(() => document.activeElement?.getAttribute('data-service'));
    assert.equal(focusedPort, '1');
    await ui.page.keyboard.press('Enter');
    await frame.waitForSelector('.detail-row:not([hidden]) .service-detail', { timeout: 10_000 });
  });

  it('opens two whois snapshots side by side in the diff editor', async () => {
    const frame = await openWhois(DOMAINS.corp);
    await frame.waitForSelector('.timeline .timeline-item', { timeout: 30_000 });
    assert.equal(await frame.locator('.cards .card').count(), 4);
    assert.ok((await frame.locator('.timeline tr.change').count()) > 0, 'the timeline lists field changes');
    await frame.locator('.timeline button', { hasText: 'Compare with previous' }).first().click();
    await ui.page.locator('.monaco-diff-editor').first().waitFor({ timeout: 15_000 });
    // Details pages open beside the editor, so the diff is the active tab of its own group,
    // not necessarily of the first one.
    await ui.page
      .locator('.tabs-container .tab.active', { hasText: /Whois acme-logistics\.com/ })
      .first()
      .waitFor({ timeout: 15_000 });
  });
});
