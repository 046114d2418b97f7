/**
 * Entry of the integration tests that run INSIDE a real VS Code extension host (code-server
 * here, desktop VS Code through @vscode/test-electron elsewhere): the host calls `run()`.
 *
 * It loads every `*.test.js` under out/test/integration (mocha BDD: describe/it), optionally
 * filtered by the env `ODIN_TEST_GREP` (a regular expression on the full test title), and
 * prints one machine-readable line the outside harness counts:
 *   ODIN-RESULTS {"run":"trusted","passed":N,"failed":M,"pending":P,"failures":[{"title","error"}]}
 *
 * Environment set by the harness (scripts/host/suite.mjs):
 *   ODIN_EXTENSION_TEST=1          activate() returns the TestApi
 *   ODIN_TEST_RUN                  'trusted' | 'restricted' | 'vsix' (a label)
 *   ODIN_TEST_EMULATOR_URL         the API emulator (also the user setting odin.apiBaseUrl)
 *   ODIN_TEST_ATTACKER_URL         a recording server the hostile workspace points odin.* at
 *   ODIN_TEST_KEY_VIA              'env'  → the key is in ODIN_API_KEY
 *                                  'testApi' → this runner stores ODIN_TEST_API_KEY through
 *                                  the TestApi (SecretStorage) before any test runs
 *   ODIN_TEST_API_KEY              the emulator's key (both runs)
 *   ODIN_TEST_GREP                 only tests whose full title matches this regex
 *   ODIN_TEST_FILES                only these test files (comma-separated base names, e.g.
 *                                  `activation,hover`): the compatibility run on the oldest
 *                                  VS Code (scripts/host/plan.mjs says which and why)
 */
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension/testApi';

export const EXTENSION_ID = 'odin-community.odin-vscode';

/** What the harness tells the tests about this run. */
export const testEnv = {
  run: process.env.ODIN_TEST_RUN ?? 'unknown',
  emulatorUrl: process.env.ODIN_TEST_EMULATOR_URL ?? '',
  attackerUrl: process.env.ODIN_TEST_ATTACKER_URL ?? '',
  keyVia: process.env.ODIN_TEST_KEY_VIA ?? 'env',
  apiKey: process.env.ODIN_TEST_API_KEY ?? '',
};

/** Our extension (installed or under development). */
export function extension(): vscode.Extension<TestApi | undefined> {
  const ext = vscode.extensions.getExtension<TestApi | undefined>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded in this host`);
  return ext;
}

/** Activates the extension (idempotent) and returns its TestApi. */
export async function getTestApi(): Promise<TestApi> {
  const api = await extension().activate();
  if (!api) throw new Error('activate() returned no TestApi: is ODIN_EXTENSION_TEST=1 set?');
  return api;
}

/** The emulator's request log (GET /__admin/log). */
export async function emulatorLog(): Promise<unknown[]> {
  const res = await fetch(new URL('/__admin/log', testEnv.emulatorUrl));
  const body = (await res.json()) as unknown;
  if (Array.isArray(body)) return body;
  const entries =
    (body as { entries?: unknown; requests?: unknown }).entries ?? (body as { requests?: unknown }).requests;
  return Array.isArray(entries) ? entries : [];
}

/**
 * The emulator's log without the credits item's own reads of `/v1/credits/usage` and the
 * exploitation feeds' daily downloads (`/feeds/…`, which carry nothing of the user): the
 * status bar reads the credits on a timer after lookups were sent, and the feeds load on the
 * first card that needs them, so such a read may land in any test's window. "This feature
 * sent nothing" is asked of this log; "off means off" of the whole.
 */
export async function lookupLog(): Promise<unknown[]> {
  return (await emulatorLog()).filter((e) => {
    const path = String((e as { path?: unknown }).path ?? '');
    return !path.endsWith('/credits/usage') && !path.startsWith('/feeds/');
  });
}

/** Calls the emulator's admin API (faults, dialect); fails the test on an error status. */
export async function emulatorAdmin(method: string, sub: string, body?: unknown): Promise<void> {
  const res = await fetch(new URL(`/__admin/${sub}`, testEnv.emulatorUrl), {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`emulator admin ${method} ${sub}: ${res.status}`);
}

/** Clears the emulator's request log (DELETE /__admin/log). */
export async function clearEmulatorLog(): Promise<void> {
  await fetch(new URL('/__admin/log', testEnv.emulatorUrl), { method: 'DELETE' });
}

// The one bounded wait (and its "fails when late" bound), shared with the unit tests.
export { waitFor, within } from '../support/wait';

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(p));
    else if (entry.name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

function say(line: string): void {
  // console.log of the extension host reaches the harness through codeAutomationLog.
  console.log(line);
}

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: Mocha.reporters.Base });
  const grep = process.env.ODIN_TEST_GREP;
  if (grep) mocha.grep(new RegExp(grep));
  const only = process.env.ODIN_TEST_FILES?.split(',').filter(Boolean);
  const files = findTests(__dirname).filter(
    (f) => !only || only.includes(path.basename(f).replace(/\.test\.js$/, '')),
  );
  if (only && files.length !== only.length)
    throw new Error(`ODIN_TEST_FILES names a file that does not exist: ${only.join(', ')}`);
  for (const file of files) mocha.addFile(file);

  // The "write/read this file?" modal for paths from command arguments cannot be clicked
  // from here: the harness answers yes (the tests that export to a temporary folder), and
  // paths.test.ts gives its own answers and checks what the modal showed.
  // (An installed .vsix returns no TestApi: nothing to answer there.)
  const api = await extension().activate();
  if (api) api.ui.pathPrompts.answer = (message) => (/: write /.test(message) ? 'Write File' : 'Read File');

  if (testEnv.keyVia === 'testApi') {
    if (!testEnv.apiKey) throw new Error('ODIN_TEST_KEY_VIA=testApi needs ODIN_TEST_API_KEY');
    const api = await getTestApi();
    await api.key.store(testEnv.apiKey);
  }

  const failures: { title: string; error: string }[] = [];
  let passed = 0;
  let pending = 0;
  const started = Date.now();
  await mocha.loadFilesAsync();
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on(Mocha.Runner.constants.EVENT_TEST_PASS, (t: Mocha.Test) => {
      passed++;
      say(`ODIN-TEST pass ${t.fullTitle()} (${t.duration ?? 0} ms)`);
    });
    runner.on(Mocha.Runner.constants.EVENT_TEST_PENDING, (t: Mocha.Test) => {
      pending++;
      say(`ODIN-TEST skip ${t.fullTitle()}`);
    });
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (t: Mocha.Test, err: Error) => {
      const frames = (err?.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
      const error = [err?.message ?? String(err), ...frames.slice(0, 4)].join('\n');
      failures.push({ title: t.fullTitle(), error });
      say(`ODIN-TEST fail ${t.fullTitle()}: ${err?.message ?? String(err)}`);
    });
  });
  const summary = {
    run: testEnv.run,
    passed,
    failed: failures.length,
    pending,
    ms: Date.now() - started,
    failures,
  };
  say(`ODIN-RESULTS ${JSON.stringify(summary)}`);
  if (failures.length > 0) throw new Error(`${failures.length} integration test(s) failed`);
}
