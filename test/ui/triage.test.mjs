// The triage view and the verdict decorations as a person uses them in the real workbench:
// "Triage Indicators in Folder…" from the palette, the preview confirmed, the view opened
// beside the editor with one row per indicator; sort by a header, filter by verdict and text,
// move with the keyboard, Enter opens the host page beside; the Markdown report from the
// view's toolbar; the decorations turned on in the Settings editor. Screenshots
// (media/screenshots/triage-view.png, triage-report.png, triage-decorations.png with
// --update-screenshots).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { detailsFrame } from './detailsFrame.mjs';
import { connectUi, frameWhere, painted, waitUntil } from './helpers.mjs';
import { narrowPage } from './pages.mjs';

// Same values as src/emulator/fixtures.ts (this file runs as plain Node, outside the build).
const SCANNER = '185.220.101.34';
/** In logs/auth.log: a vulnerable host the emulator knows (CVEs, AS14061) and a private address. */
const KNOWN = '159.89.214.31';
const INTERNAL = '10.0.12.5';

/** @type {import('./helpers.mjs').Ui} */
let ui;

/** The frame of the triage view (body[data-page=triage] with rows). */
function triageFrame({ timeout = 90_000 } = {}) {
  return frameWhere(
    ui.page,
    () => document.body?.dataset.page === 'triage' && !!document.querySelector('.trow.row'),
    undefined,
    { timeout, what: 'the triage view with rows' },
  );
}

/**
 * Confirms the preview when it asks (nothing to confirm when every answer is cached): waits
 * for whichever comes first, the preview's dialog or the triage view, never for a time.
 */
async function confirmPreview() {
  const enrich = ui.page
    .locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: /^Enrich/ })
    .first();
  const next = await waitUntil(
    async () => {
      if (await enrich.isVisible()) return 'dialog';
      for (const f of ui.page.frames())
        if (await f.evaluate(() => !!document.querySelector('.trow.row')).catch(() => false)) return 'view';
      return undefined;
    },
    { timeout: 20_000, what: 'the triage preview dialog or the triage view' },
  );
  if (next === 'dialog') await enrich.click();
}

/**
 * Closes every editor, answering "Don't Save" for the untitled Markdown report (VS Code asks
 * before it drops an untitled document with text; the modal dialog would otherwise swallow
 * the next keystrokes, e.g. Quick Open's).
 */
async function closeAllDiscarding() {
  await ui.runCommand('View: Close All Editors').catch(() => {});
  const dontSave = ui.page
    .locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: /^Don.t Save$/ })
    .first();
  // Whichever comes first: the question (answered), or no editor left open.
  const next = await waitUntil(
    async () => {
      if (await dontSave.isVisible()) return 'asked';
      if ((await ui.page.locator('.editor-group-container .tab').count()) === 0) return 'closed';
      return undefined;
    },
    { timeout: 15_000, what: 'every editor closed (or the "Don\'t Save" question)' },
  );
  if (next === 'asked') {
    await dontSave.click();
    await ui.page.locator('.monaco-dialog-box').first().waitFor({ state: 'hidden', timeout: 15_000 });
  }
}

/** Turns `odin.triage.decorations` on or off in the Settings editor, as a person does; closes it. */
async function setDecorations(on) {
  await ui.runCommand('Preferences: Open User Settings');
  const search = ui.page.locator('.settings-editor .settings-header .suggest-input-container').first();
  await search.waitFor({ timeout: 15_000 });
  await search.click();
  await ui.page.keyboard.press(`${process.platform === 'darwin' ? 'Meta' : 'Control'}+A`);
  await ui.page.keyboard.type('odin.triage.decorations');
  const box = ui.page
    .locator(
      '.settings-editor .setting-item-contents[data-key="odin.triage.decorations"] .setting-value-checkbox',
    )
    .first();
  await box.waitFor({ timeout: 15_000 });
  if (((await box.getAttribute('aria-checked')) === 'true') !== on) {
    const before = ui.userSettingsText();
    await box.click();
    // The Settings editor writes after a debounce: wait for the user settings file to change.
    await waitUntil(() => ui.userSettingsText() !== before, { what: 'the user settings written' });
  }
  // Then it is closed, as a person would.
  await ui.runCommand('View: Close All Editors').catch(() => {});
}

/** Runs `fn` with the primary side bar hidden (the editor area full width), then shows it again. */
async function withoutSideBar(fn) {
  await ui.runCommand('View: Toggle Primary Side Bar Visibility');
  try {
    await ui.page.mouse.move(1, 1);
    await ui.page.locator('.part.sidebar').first().waitFor({ state: 'hidden', timeout: 15_000 });
    await painted(ui.page);
    return await fn();
  } finally {
    await ui.runCommand('View: Toggle Primary Side Bar Visibility');
  }
}

/**
 * Every bar and value text of every header chart inside its figure, every figure inside the
 * header's visible box, none with an empty band under its chart.
 * @param {import('playwright-core').Frame} frame
 */
async function glanceInside(frame) {
  const layout = await frame.evaluate(() =>
    [...document.querySelectorAll('figure.glance-chart')].map((f) => {
      const glance = /** @type {HTMLElement} */ (document.querySelector('.glance'));
      const visibleRight = glance.getBoundingClientRect().left + glance.clientWidth;
      const box = f.getBoundingClientRect();
      const svg = f.querySelector('svg.bar-chart')?.getBoundingClientRect();
      return {
        chart: /** @type {HTMLElement} */ (f).dataset.chart,
        width: Math.round(box.width),
        band: Math.round(box.bottom - (svg?.bottom ?? box.bottom)),
        cut: box.right > visibleRight + 0.5,
        out: [...f.querySelectorAll('g.bar-row rect, g.bar-row text.bar-value')]
          .map((r) => ({ r: r.getBoundingClientRect(), what: r.textContent || r.getAttribute('class') }))
          .filter(({ r }) => r.right > box.right + 0.5 || r.left < box.left - 0.5)
          .map(
            ({ r, what }) =>
              `${what} ${Math.round(r.left)}..${Math.round(r.right)} outside ${Math.round(box.left)}..${Math.round(box.right)}`,
          ),
      };
    }),
  );
  assert.ok(layout.length >= 3, JSON.stringify(layout));
  for (const f of layout) {
    assert.deepEqual(f.out, [], `bars or values outside the figure of ${f.chart}: ${JSON.stringify(layout)}`);
    assert.equal(f.cut, false, `${f.chart} cut at the panel's edge: ${JSON.stringify(layout)}`);
    assert.ok(f.band <= 4, `an empty band under ${f.chart}: ${JSON.stringify(layout)}`);
  }
}

/** data-value and data-verdict of the rows in the DOM, top to bottom. */
async function domRows(frame) {
  return frame.evaluate(() =>
    [...document.querySelectorAll('.trow.row')].map((r) => ({
      value: r.dataset.value,
      verdict: r.dataset.verdict,
      selected: r.classList.contains('selected'),
    })),
  );
}

describe('triage view', () => {
  /** @type {import('playwright-core').Frame} */
  let frame;
  before(async () => {
    ui = await connectUi();
  });
  after(async () => {
    await ui?.reset();
    await ui?.close();
  });

  it('opens after a folder triage with one row per indicator and its verdict', async () => {
    await ui.openFile('logs/auth.log', 1, 1);
    await ui.runCommand('ODIN: Triage Indicators in Folder\u2026');
    // The sample logs by name (a test of the integration tier may leave a 50 MB log beside them).
    await ui.answerInput('logs/{auth,nginx-access,apache-access,ufw,vpc-flow}.log');
    await confirmPreview();
    frame = await triageFrame();
    await frame.waitForFunction(
      () =>
        document.querySelectorAll('.trow.row[data-verdict="pending"]').length === 0 ||
        document.querySelector('.summary')?.textContent?.includes('enriched'),
      undefined,
      { timeout: 60_000 },
    );
    // The enriched generation (the first one posted may be the scan's, before enrichment).
    await frame.waitForFunction(
      () => /\d+ of \d+ enriched/.test(document.querySelector('.summary')?.textContent ?? ''),
      undefined,
      { timeout: 60_000 },
    );
    const rows = await domRows(frame);
    assert.ok(rows.length >= 10, `rows in view: ${rows.length}`);
    const verdicts = new Set(rows.map((r) => r.verdict));
    assert.ok(verdicts.has('local'), `private addresses are listed as not sent: ${[...verdicts]}`);
    const text = await frame.evaluate(() => document.body.innerText);
    assert.match(text, /Vulnerable|No known CVEs/);
    assert.match(await frame.locator('.shown-count').innerText(), /^\d+ rows$/);
    // The view sits beside the editor: two editor groups.
    assert.ok((await ui.page.locator('.editor-group-container').count()) >= 2);
    // The triage's "Open Report / Save Report…" toast (1.139 hides toasts under the test driver)
    // is closed so it does not cover the view in the screenshot.
    const toastClose = ui.page.locator(
      '.notifications-toasts .notification-toast .action-label.codicon-notifications-clear',
    );
    for (let i = (await toastClose.count()) - 1; i >= 0; i--)
      await toastClose
        .nth(i)
        .click({ force: true, timeout: 2_000 })
        .catch(() => {});
    await ui.page.mouse.move(1, 1);
    await ui.page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'hidden' });
    await painted(frame);
    await ui.screenshotRegion('triage-view', ui.page.locator('.part.editor').first());
    // The header's charts (labels from scan data, the hostile host of ufw.log among them) are
    // text: no element a payload could have made, no handler, the sentinel unset.
    const active = await frame.evaluate(() => {
      const g = document.querySelector('.glance');
      const all = g ? [...g.querySelectorAll('*')] : [];
      return {
        charts: g?.querySelectorAll('svg.bar-chart').length ?? 0,
        made: g?.querySelectorAll('script, img, iframe, embed, object, foreignObject').length ?? -1,
        handlers: all.filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).length,
      };
    });
    assert.ok(active.charts >= 3, `charts drawn: ${active.charts}`);
    assert.deepEqual({ made: active.made, handlers: active.handlers }, { made: 0, handlers: 0 });
    // The header beside an editor (half width): every bar and value text of every chart stays
    // inside its figure, every figure inside the header's visible box (none cut at the panel's
    // right edge), and no figure is taller than its chart (no empty band under a short chart).
    const panel = await frame.evaluate(() => document.body.clientWidth);
    assert.ok(panel >= 400 && panel < 700, `the view beside the editor: ${panel} px`);
    await glanceInside(frame);
    // Narrowed to about 250 px: the charts are drawn again to the width, values inside.
    const restore = await narrowPage(ui, frame, 250, () => {
      const glance = document.querySelector('.glance');
      return (
        !!glance &&
        [...glance.querySelectorAll('svg.bar-chart')].every(
          (svg) => Number(svg.getAttribute('width')) <= glance.clientWidth,
        )
      );
    });
    try {
      const narrow = await frame.evaluate(() => document.body.clientWidth);
      assert.ok(narrow >= 200 && narrow <= 300, `the view narrowed to ${narrow} px`);
      await glanceInside(frame);
      await painted(frame);
      await ui.screenshotRegion('triage-header-narrow', ui.page.locator('.part.editor').first());
    } finally {
      await restore();
    }
    assert.equal(await frame.evaluate(() => /** @type {any} */ (window).__pwned), undefined);
  });

  it('sorts by a column header and filters by verdict, kind and text', async () => {
    await frame.locator('.thead button.sort', { hasText: /^Indicator$/ }).click();
    let values = (await domRows(frame)).map((r) => r.value);
    assert.deepEqual(values, [...values].sort(), 'ascending by value');
    assert.equal(await frame.locator('.thead [aria-sort="ascending"]').innerText(), 'Indicator');
    await frame.locator('.thead button.sort', { hasText: /^Indicator$/ }).click();
    values = (await domRows(frame)).map((r) => r.value);
    assert.deepEqual(values, [...values].sort().reverse(), 'descending on a second click');

    await frame.locator('select[aria-label="Verdict"]').selectOption('local');
    const local = await domRows(frame);
    assert.ok(local.length > 0 && local.every((r) => r.verdict === 'local'), JSON.stringify(local));
    await frame.locator('select[aria-label="Verdict"]').selectOption('');
    await frame.locator('select[aria-label="Kind"]').selectOption('domain');
    assert.ok(
      (await domRows(frame)).every((r) => !/^\d+\.\d+\.\d+\.\d+$/.test(r.value)),
      'domains only',
    );
    await frame.locator('select[aria-label="Kind"]').selectOption('');
    await frame.locator('input.filter-text').fill(SCANNER);
    assert.deepEqual(
      (await domRows(frame)).map((r) => r.value),
      [SCANNER],
    );
    assert.match(await frame.locator('.shown-count').innerText(), /^1 of \d+ rows$/);
    await frame.locator('input.filter-text').fill('zzz-nothing-matches');
    assert.equal((await domRows(frame)).length, 0);
    assert.ok(await frame.locator('.empty').isVisible());
    await frame.locator('input.filter-text').fill('');
  });

  it('moves with the keyboard and opens the row’s host page beside on Enter', async () => {
    await frame.locator('.thead button.sort', { hasText: /^Verdict$/ }).click();
    await frame.locator('.tgrid').focus();
    const active = () => frame.locator('.tgrid').getAttribute('aria-activedescendant');
    const first = await active();
    await ui.page.keyboard.press('ArrowDown');
    const second = await active();
    assert.notEqual(second, first, 'ArrowDown moves the selection');
    // The selection follows the row across a sort, so check the selected row, not a position.
    assert.equal(await frame.locator('.trow.row.selected').getAttribute('id'), second);
    await ui.page.keyboard.press('End');
    const last = await active();
    assert.notEqual(last, second);
    await ui.page.keyboard.press('Home');
    // Home goes to the top row (the selection had followed its row to wherever the sort put it).
    assert.equal(await active(), await frame.locator('.trow.row').first().getAttribute('id'));
    // Typing in the grid goes to the text filter; then ArrowDown back into the grid, Enter.
    await ui.page.keyboard.type(SCANNER);
    assert.equal(await frame.locator('input.filter-text').inputValue(), SCANNER);
    await ui.page.keyboard.press('ArrowDown');
    await ui.page.keyboard.press('Enter');
    const host = await detailsFrame(ui, 'host', SCANNER);
    assert.ok(host, 'the host page opened');
    assert.ok((await ui.page.locator('.editor-group-container').count()) >= 2, 'beside the editor');
  });

  it('opens the Markdown report from the view', async () => {
    await ui.reset();
    await ui.runCommand('ODIN: Show Triage Results');
    frame = await triageFrame();
    await frame.locator('input.filter-text').fill('');
    await frame.locator('.toolbar button', { hasText: 'Open Report' }).click();
    const editor = ui.page.locator('.editor-group-container.active .monaco-editor').first();
    await editor.locator('.view-lines').waitFor({ timeout: 15_000 });
    await ui.page.waitForFunction(
      () =>
        /ODIN triage/i.test(
          document
            .querySelector('.editor-group-container.active .view-lines')
            ?.textContent?.replace(/\u00a0/g, ' ') ?? '',
        ),
      undefined,
      { timeout: 15_000 },
    );
    const text = await ui.editorText(editor);
    assert.match(text, /`\d+\[\.\]\d+\[\.\]\d+\[\.\]\d+`/, 'defanged');
    assert.doesNotMatch(text, /\|\s*`?\d+\.\d+\.\d+\.\d+`?\s*\|/, 'no live address in a table cell');
    // The report as its reader sees it: VS Code's Markdown preview, full width (the triage
    // view and the side bar closed).
    await ui.runCommand('View: Close Editors in Other Groups');
    await withoutSideBar(async () => {
      await ui.runCommand('Markdown: Open Preview');
      await ui.page
        .locator('.editor-group-container .tab', { hasText: /^Preview / })
        .first()
        .waitFor({ timeout: 15_000 });
      // The preview is a webview: wait until it shows the report's heading (## ODIN triage) and a table.
      const preview = await frameWhere(
        ui.page,
        () =>
          !!document.querySelector('body.vscode-body h2') &&
          !!document.querySelector('body.vscode-body table'),
        undefined,
        { timeout: 30_000, what: 'the Markdown preview of the report' },
      );
      await painted(preview);
      await ui.page.mouse.move(1, 1);
      await ui.screenshotRegion('triage-report', ui.page.locator('.part.editor').first());
      await closeAllDiscarding();
    });
  });

  it('shows verdict decorations after known indicators once turned on in Settings', async () => {
    await closeAllDiscarding();
    await setDecorations(true);
    try {
      // The cursor on the empty last line (on a word, VS Code would highlight its other occurrences).
      const editor = await ui.openFile('logs/auth.log', 13, 1, { timeout: 30_000 });
      // What the user sees: per line, its text, the text of its `after` decorations, and the
      // line's text up to the first decoration (leaf spans in order: Monaco's token spans).
      const decorated = async () =>
        editor.evaluate((el) =>
          [...el.querySelectorAll('.view-lines .view-line')].map((line) => {
            let upTo = '';
            let before;
            const after = [];
            for (const s of line.querySelectorAll('span')) {
              if (s.querySelector('span')) continue;
              upTo += s.textContent ?? '';
              const c = getComputedStyle(s, '::after').content;
              if (!c || c === 'none' || c === 'normal') continue;
              after.push(c.replace(/^"|"$/g, ''));
              before ??= upTo.replace(/\u00a0/g, ' ');
            }
            return { text: (line.textContent ?? '').replace(/\u00a0/g, ' '), after: after.join(' '), before };
          }),
        );
      let lines = [];
      await waitUntil(
        async () => {
          lines = await decorated();
          return lines.some((l) => l.text.includes(KNOWN) && l.after);
        },
        { timeout: 15_000, what: `the decoration after ${KNOWN}` },
      ).catch(() => {});
      const known = lines.find((l) => l.text.includes(KNOWN));
      assert.ok(known, `${KNOWN} is on screen`);
      assert.match(
        known.after,
        /^(?:⚠ KEV(?: \(ransomware\))? · )?⚠ \d+ CVEs \(max [\d.]+\) · .*AS\d+/,
        `after ${KNOWN}: ${known.after}`,
      );
      assert.ok(known.before?.endsWith(KNOWN), `the verdict sits right after ${KNOWN}: ${known.before}`);
      const internal = lines.find((l) => l.text.includes(INTERNAL));
      assert.equal(internal?.after, '', 'a private address gets no verdict (it is never sent)');
      // The screenshot: the log without the side bar; the top of the editor (12 lines).
      await withoutSideBar(async () => {
        const box = await ui.page.locator('.part.editor').first().boundingBox();
        assert.ok(box);
        await ui.screenshotRegion('triage-decorations', {
          x: box.x,
          y: box.y,
          width: box.width,
          height: Math.min(box.height, 330),
        });
      });
    } finally {
      await setDecorations(false);
      await ui.runCommand('View: Close All Editors').catch(() => {});
    }
  });
});

// The exploited-first pair (src/emulator/fixtures.ts kevOne and tenCritical, in
// logs/exposure-scan.log) and the header's charts: a bar filters the table, again clears it.
const KEV_ONE = '135.181.47.102';
const TEN_CRITICAL = '51.75.144.23';

describe('triage view: exploited first, and the header at a glance', () => {
  /** @type {import('playwright-core').Frame} */
  let frame;
  before(async () => {
    ui = await connectUi();
  });
  after(async () => {
    await ui?.setTheme('Dark Modern').catch(() => {});
    await ui?.reset();
    await ui?.close();
  });

  /** The header's text for the shown rows ("1 of 4 rows · …"). */
  const shownCount = () => frame.locator('.shown-count').innerText();

  it('puts the host with one KEV CVE at 7.5 above the host with ten CVEs at 9.8', async () => {
    await ui.openFile('logs/exposure-scan.log', 1, 1);
    await ui.runCommand('ODIN: Triage Indicators in File');
    await confirmPreview();
    frame = await triageFrame();
    await frame.waitForFunction(
      () => /\d+ of \d+ enriched/.test(document.querySelector('.summary')?.textContent ?? ''),
      undefined,
      { timeout: 60_000 },
    );
    // The default order (worst first by the one rule), with no filter left from another test.
    await frame.locator('input.filter-text').fill('');
    const values = (await domRows(frame)).map((r) => r.value);
    assert.ok(values.includes(KEV_ONE) && values.includes(TEN_CRITICAL), values.join(', '));
    assert.ok(values.indexOf(KEV_ONE) < values.indexOf(TEN_CRITICAL), `KEV first: ${values.join(', ')}`);
    const kevRow = frame.locator(`.trow.row[data-value="${KEV_ONE}"]`);
    assert.match(await kevRow.innerText(), /KEV/);
    await ui.page.mouse.move(1, 1);
    await withoutSideBar(async () => {
      await painted(frame);
      await ui.screenshotRegion('triage-kev', ui.page.locator('.part.editor').first());
    });
  });

  it('filters the table by a bar of the header; the same bar again clears it (mouse and keyboard)', async () => {
    const charts = await frame
      .locator('figure.glance-chart')
      .evaluateAll((fs) => fs.map((f) => f.dataset.chart));
    assert.deepEqual(charts, ['verdict', 'band', 'country', 'asn', 'product']);
    const all = (await domRows(frame)).length;
    // The band chart's first bar: known exploited.
    const kevBar = frame.locator('figure[data-chart="band"] g.bar-row.active').first();
    assert.match((await kevBar.getAttribute('aria-label')) ?? '', /^KEV \(known exploited\): 1 /);
    await kevBar.click();
    await frame.waitForFunction(() => document.querySelectorAll('.trow.row').length === 1);
    assert.deepEqual(
      (await domRows(frame)).map((r) => r.value),
      [KEV_ONE],
    );
    assert.match(await shownCount(), new RegExp(`^1 of ${all} rows · Worst CVE: KEV \\(known exploited\\)$`));
    assert.equal(await kevBar.getAttribute('aria-pressed'), 'true');
    // The view alone, full width (its tab clicked: its group is the active one): more charts show.
    await ui.page.locator('.editor-group-container .tab', { hasText: 'ODIN Triage' }).first().click();
    await ui.runCommand('View: Close Editors in Other Groups');
    await ui.page.locator('.editor-group-container').nth(1).waitFor({ state: 'detached', timeout: 15_000 });
    await ui.page.mouse.move(1, 1);
    await withoutSideBar(async () => {
      await painted(frame);
      await ui.screenshotRegion('triage-header', ui.page.locator('.part.editor').first());
    });
    // Again: cleared.
    await frame.locator('figure[data-chart="band"] g.bar-row.active').first().click();
    await frame.waitForFunction((n) => document.querySelectorAll('.trow.row').length === n, all);
    assert.equal(await shownCount(), `${all} rows`);
    // The keyboard: a bar takes the focus (Tab order), Enter filters, Enter again clears.
    const vulnerable = frame.locator('figure[data-chart="verdict"] g.bar-row.active').first();
    await vulnerable.focus();
    await ui.page.keyboard.press('Enter');
    await frame.waitForFunction(() =>
      /^\d+ of \d+ rows · Verdicts: Vulnerable$/.test(
        document.querySelector('.shown-count')?.textContent ?? '',
      ),
    );
    assert.ok((await domRows(frame)).every((r) => r.verdict === 'vulnerable'));
    await ui.page.keyboard.press('Enter');
    await frame.waitForFunction((n) => document.querySelectorAll('.trow.row').length === n, all);
    // The table equivalent for screen readers: one per chart, with the bar's label and count.
    const tables = await frame.locator('figure.glance-chart table.visually-hidden caption').allInnerTexts();
    assert.equal(tables.length, 5);
  });

  it('draws the header in a light theme', async () => {
    await ui.setTheme('Light Modern');
    await withoutSideBar(async () => {
      // The KEV bar chosen (it may be still from the test before).
      const bar = frame.locator('figure[data-chart="band"] g.bar-row.active').first();
      if ((await bar.getAttribute('aria-pressed')) !== 'true') await bar.click();
      await frame.waitForFunction(() => document.querySelectorAll('.trow.row').length === 1);
      await ui.page.mouse.move(1, 1);
      await painted(frame);
      await ui.screenshotRegion('triage-header-light', ui.page.locator('.part.editor').first());
      await frame.locator('figure[data-chart="band"] g.bar-row.active').first().click();
      await frame.waitForFunction(
        () =>
          document
            .querySelector('figure[data-chart="band"] g.bar-row.active')
            ?.getAttribute('aria-pressed') !== 'true',
      );
    });
    await ui.setTheme('Dark Modern');
  });
});
