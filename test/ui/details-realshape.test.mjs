// The host page over the real service's shapes, in the real workbench: a loopback upstream
// serves the project's real-shaped fixture (test/fixtures/real-shape, in the structure of
// the captured answer), `odin.apiBaseUrl` points at it, and the page must show what the data
// says and nothing it does not: no tag whose value is false, HTTP services by status, title
// and server, other protocols by their banner, the TLS certificate's facts, never "ANY";
// "Search hosts with this certificate" runs the fingerprint search into the Results view.
// Screenshots: host-dark.png and host-light.png (the certificate block and HTTP services).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { openDetails } from './detailsFrame.mjs';
import { connectUi, painted, waitUntil } from './helpers.mjs';

// The upstream and the fixture's loader are the integration tests' own (compiled to out/
// before any host run).
const require = createRequire(import.meta.url);
const { readRealShape, startRealShapeUpstream } = require('../../out/test/support/realShape.js');

const WEB = '93.184.215.14'; // HTTP on 80, HTTPS with a CA-issued certificate on 443; tags all false
const MAIL = '192.0.43.10'; // FTP (self-signed TLS), SSH, SMTP, a silent port; anonymous proxy true
const FINGERPRINT = readRealShape()
  .data.find((h) => h.ip === WEB)
  .services.find((s) => s.port === 443).modules.tls.fingerprint_sha256;

/** @type {import('./helpers.mjs').Ui} */
let ui;
let upstream;

async function openHost(ip) {
  await ui.reset();
  const frame = await openDetails(ui, 'host', ip);
  await frame.waitForSelector('.services-table tbody[data-complete="true"] tr.row', { timeout: 30_000 });
  return frame;
}

/** Opens the detail row of the service on `port` and returns it. */
async function openService(frame, port) {
  const row = frame.locator('.services-table tbody tr.row').filter({
    has: frame.locator('td.num', { hasText: new RegExp(`^${port}$`) }),
  });
  await row.locator('button.icon-button').first().click();
  const detail = row.locator('xpath=following-sibling::tr[1]');
  await detail.locator('.service-detail').waitFor({ timeout: 10_000 });
  return { row, detail };
}

/** A definition list as label → text. */
async function facts(locator) {
  return locator.evaluate((dl) => {
    const out = {};
    for (const dt of dl.querySelectorAll(':scope > dt'))
      out[dt.textContent] = dt.nextElementSibling?.textContent ?? '';
    return out;
  });
}

describe('host page over the real shapes (loopback upstream serving test/fixtures/real-shape)', () => {
  before(async () => {
    ui = await connectUi();
    upstream = await startRealShapeUpstream();
    await ui.setUserSettingText('odin.apiBaseUrl', upstream.url);
    // The client follows the setting: "Test API Key" reaches the upstream's credits endpoint.
    // The extension host learns of the file's change a moment after it is written: a try that
    // still reached the emulator (its log says so) is followed by another, at most five.
    const emulatorCredits = async () => {
      const res = await fetch(new URL('/__admin/log', ui.info.emulatorUrl));
      const body = await res.json();
      const entries = Array.isArray(body) ? body : (body.entries ?? body.requests ?? []);
      return entries.filter((e) => String(e.path ?? '').endsWith('/credits/usage')).length;
    };
    for (let i = 0; !upstream.paths.includes('GET /v1/credits/usage'); i++) {
      if (i === 5) throw new Error(`the extension never asked the upstream: ${upstream.paths.join(', ')}`);
      const before = await emulatorCredits();
      await ui.runCommand('ODIN: Test API Key');
      await waitUntil(
        async () => upstream.paths.includes('GET /v1/credits/usage') || (await emulatorCredits()) > before,
        { timeout: 30_000, what: 'the credits request of "Test API Key"' },
      );
    }
    await ui.runCommand('Notifications: Clear All Notifications').catch(() => {});
  });
  after(async () => {
    if (ui) {
      await ui.setUserSettingText('odin.apiBaseUrl', ui.info.emulatorUrl).catch(() => {});
      await ui.reset();
    }
    await upstream?.close();
    await ui?.close();
  });

  it('shows HTTP services by status, title and server, no false tag, never ANY', async () => {
    const frame = await openHost(WEB);
    const summary = await facts(frame.locator('.summary dl.facts'));
    assert.equal(summary.Tags, undefined, 'both tags are false: no Tags row');
    const urlCells = await frame.locator('.services-table tbody tr.row td.url-cell').allInnerTexts();
    assert.match(urlCells[0], /Shapes Test Portal\s+HTTP 200\s+nginx/);
    assert.match(urlCells[1], /403 Forbidden\s+HTTP 403\s+nginx\/1\.24\.0, cloud-edge/);
    const { detail } = await openService(frame, 80);
    const http = await facts(detail.locator('.service-detail > dl.facts'));
    assert.equal(http['HTTP status'], '200');
    assert.equal(http.Title, 'Shapes Test Portal');
    assert.equal(http.Server, 'nginx');
    assert.equal(await detail.locator('pre.banner, .banner-box').count(), 0, 'HTTP records no banner');
    const text = await frame.evaluate(() => document.body.innerText);
    assert.doesNotMatch(text, /Anonymous Proxy|Satellite Provider|\bANY\b/);
    assert.doesNotMatch(text, /No banner recorded/, 'an HTTP service that answered is not "no banner"');
  });

  it('shows the TLS certificate: subject, issuer, names, validity, SHA-256, self-signed', async () => {
    const frame = await openHost(WEB);
    const { detail } = await openService(frame, 443);
    const cert = detail.locator('.certificate');
    await cert.waitFor({ timeout: 10_000 });
    assert.equal(await cert.locator('h3').innerText(), 'TLS certificate');
    const f = await facts(cert.locator('dl.facts'));
    assert.equal(f.Subject, 'www.example-shapes.test, Example Shapes B.V., NL');
    assert.equal(f.Issuer, 'Example Issuing CA 7, Example Trust Services B.V., NL');
    // The wire lists 93.184.215.14 twice and a cut-off fragment "2605": each address once, no fragment.
    assert.equal(f.Names, 'www.example-shapes.test, example-shapes.test, 93.184.215.14');
    assert.equal(f.Key, 'EC P-256', 'Elliptic_curve_cryptography / p256 as people write it');
    assert.equal(f['Valid from'], '2026-09-01T09:02:11Z');
    assert.equal(f['Valid until'], '2027-09-01T09:02:10Z');
    assert.equal(f['Self-signed'], 'no');
    assert.equal(f['SHA-256'].replace(/\s+/g, '').toUpperCase(), FINGERPRINT.toUpperCase());
    assert.equal(await cert.locator('button', { hasText: 'Search hosts with this certificate' }).count(), 1);
    assert.doesNotMatch(await frame.evaluate(() => document.body.innerText), /\bANY\b/);

    // Screenshots for the README (media/screenshots when updating): the services table with
    // the HTTPS service and its certificate open, in the dark and the light theme.
    // The table's head just below the page's sticky header.
    await frame.evaluate(() => {
      const head = document.querySelector('.services-table thead');
      const sticky = document.querySelector('.page-header')?.getBoundingClientRect().height ?? 0;
      if (head) window.scrollTo(0, head.getBoundingClientRect().top + window.scrollY - sticky - 4);
    });
    // No toast over the page (the credits message of "Test API Key" can still be up).
    const clearToasts = () => ui.runCommand('Notifications: Clear All Notifications').catch(() => {});
    const noToasts = async () => {
      await clearToasts();
      await ui.page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'hidden' });
    };
    await noToasts();
    await ui.page.mouse.move(1, 1);
    await painted(frame);
    await ui.screenshotRegion('host-dark', ui.page.locator('.part.editor').first());
    await ui.setTheme('Light Modern');
    try {
      await noToasts();
      // The page follows the theme: its body carries VS Code's theme class.
      await frame.waitForFunction(() => document.body.classList.contains('vscode-light'), undefined, {
        timeout: 15_000,
      });
      await painted(frame);
      await ui.screenshotRegion('host-light', ui.page.locator('.part.editor').first());
    } finally {
      await ui.setTheme('Dark Modern');
    }
  });

  it('shows other protocols by their banner, a true tag, and a self-signed certificate', async () => {
    const frame = await openHost(MAIL);
    const summary = await facts(frame.locator('.summary dl.facts'));
    assert.equal(summary.Tags, 'Anonymous Proxy', 'only the tag whose value is true');
    for (const [port, banner] of [
      [22, 'SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5'],
      [25, 'ESMTP Postfix'],
      [21, 'Shapes FTP service'],
    ]) {
      const { detail } = await openService(frame, port);
      // The banner is fetched when the service opens: wait for its text, not the box.
      await detail
        .locator('pre.banner', { hasText: banner })
        .waitFor({ timeout: 15_000 })
        .catch(async () => assert.fail(`port ${port}: ${banner} not in ${await detail.innerText()}`));
    }
    const ftp = await facts(frame.locator('.detail-row:not([hidden]) .certificate dl.facts').first());
    assert.equal(ftp['Self-signed'], 'yes');
    assert.match(ftp.Issuer, /\(self-signed\)$/);
    const silent = await openService(frame, 11211);
    assert.ok((await silent.detail.innerText()).includes('No banner recorded for this service.'));
    const text = await frame.evaluate(() => document.body.innerText);
    assert.doesNotMatch(text, /Satellite Provider|\bANY\b/);
  });

  it('"Search hosts with this certificate" runs the fingerprint search into the Results view', async () => {
    const frame = await openHost(WEB);
    const { detail } = await openService(frame, 443);
    const before = upstream.queries.length;
    await detail.locator('.certificate button', { hasText: 'Search hosts with this certificate' }).click();
    const query = `services.modules.tls.certificate.fingerprint_sha256:"${FINGERPRINT}"`;
    await waitUntil(() => upstream.queries.slice(before).includes(query), {
      timeout: 20_000,
      what: `the fingerprint search at the upstream (it saw: ${upstream.queries.join(' | ')})`,
    });
    // The set shows in the Results view with the one host that presents the certificate.
    await ui.openViewContainer('ODIN');
    await ui.expandView('Results');
    const results = ui.view('Results');
    await results
      .locator('.monaco-list-row .label-name', {
        hasText: /^Host search: services\.modules\.tls\.certificate\.fingerprint_sha256/,
      })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    await results
      .locator('.monaco-list-row[aria-level="2"] .label-name', {
        hasText: new RegExp(`^${WEB.replaceAll('.', '\\.')}`),
      })
      .first()
      .waitFor({ state: 'visible', timeout: 20_000 });
    await results
      .locator('.pane-header .description')
      .filter({ hasText: /^1 of 1$/ })
      .waitFor({ state: 'attached', timeout: 20_000 });
  });
});
