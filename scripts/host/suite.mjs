// The host tier: runs the extension inside a real VS Code (code-server) several times and
// collects results the outer test command counts.
//
//   trusted     sample-workspace, trusted; key from env ODIN_API_KEY; integration tests inside
//   restricted  hostile-workspace in Restricted Mode; its .vscode/settings.json points odin.*
//               at a recording "attacker" server; key stored through the TestApi
//               (SecretStorage); integration tests inside
//   trusted-hostile  the same hostile-workspace, trusted (the user clicked Trust); key from
//               env; only the few tests of test/integration/hostile.test.ts; the attacker
//               must receive no request at all
//   ui          sample-workspace, trusted, key from env; test/ui/*.test.mjs drive the page
//   ui-restricted  hostile-workspace, Restricted Mode, no key; test/ui/restricted/*.test.mjs
//   vsix        the packaged .vsix installed into a fresh extensions dir (no development
//               path); the activation tests inside
// After every run: the attacker server received no request carrying an API key.
// Which of these runs, and which test files in each, a host gets: plan.mjs (the newest host
// everything, the oldest the compatibility run).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkVsix } from '../publish-check.mjs';
import { demoApiKey, loadEmulator } from './emulator.mjs';
import { freePort, installVsix, startHost, waitForWorkbench } from './host.mjs';
import { FULL, QUARANTINE } from './plan.mjs';
import { requestsCarryingKey, startRecorder } from './recorder.mjs';

export const EXTENSION_ID = 'odin-community.odin-vscode';
export const ATTACKER_PLACEHOLDER = '__ODIN_ATTACKER_URL__';
/** Longest one UI test file may take before it is killed. */
const UI_FILE_LIMIT_MS = 6 * 60_000;
/** Longest one run of the integration tests inside VS Code may take. */
const INSIDE_LIMIT_MS = 15 * 60_000;

/**
 * A result the outer command counts: one named check (passed/failed), or a group of
 * tests run elsewhere (counts + failures).
 * @typedef {{ name: string, passed: number, failed: number, skipped?: number, ms?: number, failures: {title:string,error:string}[], note?: string }} Result
 */

function copyDir(src, dst) {
  fs.cpSync(src, dst, { recursive: true });
}

/** Copies the hostile workspace into `dir` with the attacker URL written into its settings. */
export function prepareHostileWorkspace(root, dir, attackerUrl) {
  const dst = path.join(dir, 'hostile-workspace');
  copyDir(path.join(root, 'test', 'fixtures', 'hostile-workspace'), dst);
  const settings = path.join(dst, '.vscode', 'settings.json');
  fs.writeFileSync(settings, fs.readFileSync(settings, 'utf8').replaceAll(ATTACKER_PLACEHOLDER, attackerUrl));
  return dst;
}

export function prepareSampleWorkspace(root, dir) {
  const dst = path.join(dir, 'sample-workspace');
  copyDir(path.join(root, 'test', 'fixtures', 'sample-workspace'), dst);
  return dst;
}

/** odin.* settings contributed in package.json that the hostile workspace does not set. */
export function hostileSettingsGaps(root) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const props = Object.keys(pkg.contributes?.configuration?.properties ?? {});
  const text = fs.readFileSync(
    path.join(root, 'test', 'fixtures', 'hostile-workspace', '.vscode', 'settings.json'),
    'utf8',
  );
  return props.filter((p) => !text.includes(`"${p}"`));
}

function parseResults(logs) {
  for (let i = logs.length - 1; i >= 0; i--) {
    const m = /ODIN-RESULTS (\{.*\})\s*$/s.exec(logs[i].msg);
    if (m) {
      try {
        return JSON.parse(m[1]);
      } catch {
        /* keep looking */
      }
    }
  }
  return undefined;
}

function single(name, ok, error = '', ms = 0, note = '') {
  return {
    name,
    passed: ok ? 1 : 0,
    failed: ok ? 0 : 1,
    ms,
    failures: ok ? [] : [{ title: name, error }],
    note,
  };
}

/**
 * A run's result with the failures of quarantined tests (plan.mjs) taken out of the count and
 * named in its note: reported, never hidden, never a second run.
 * @param {Result} result
 * @returns {Result}
 */
export function applyQuarantine(result) {
  const held = result.failures.filter((f) => QUARANTINE.some((q) => q.title.test(f.title)));
  if (!held.length) return result;
  return {
    ...result,
    failed: Math.max(0, result.failed - held.length),
    failures: result.failures.filter((f) => !held.includes(f)),
    note: [result.note, `quarantined and failed: ${held.map((f) => f.title).join('; ')}`]
      .filter(Boolean)
      .join('; '),
  };
}

/** Counts passes/failures from a TAP stream written by node --test (leaf tests; suites are not counted). */
export function parseTap(tapText) {
  // eslint-disable-next-line no-control-regex -- ANSI colour codes in error texts
  const tap = tapText.replace(/\u001b\[[0-9;]*m/g, '');
  const num = (k) => Number(new RegExp(`^# ${k} (\\d+)`, 'm').exec(tap)?.[1] ?? 0);
  const failures = [];
  const lines = tap.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)not ok \d+ - (.*)$/.exec(lines[i]);
    if (!m) continue;
    // The YAML block after it: skip suites whose only failure is their subtests'.
    const yaml = [];
    for (let j = i + 1; j < lines.length && !/^\s*\.\.\.\s*$/.test(lines[j]); j++) yaml.push(lines[j]);
    const block = yaml.join('\n');
    if (/failureType: 'subtestsFailed'/.test(block)) continue;
    let error = '';
    const k = yaml.findIndex((l) => /^\s*error: /.test(l));
    if (k >= 0) {
      const first = yaml[k].replace(/^\s*error: /, '');
      if (/^[|>]-?\s*$/.test(first)) {
        const ind = yaml[k].search(/\S/);
        const body = [];
        for (let j = k + 1; j < yaml.length && (yaml[j].trim() === '' || yaml[j].search(/\S/) > ind); j++)
          body.push(yaml[j].trim());
        error = body.join('\n').trim();
      } else error = first.replace(/^'(.*)'$/, '$1');
    }
    const loc = /location: '([^']+)'/.exec(block)?.[1];
    failures.push({
      title: m[2].replace(/ # (SKIP|TODO).*$/, ''),
      error: loc ? `${error}\n(at ${loc})` : error,
    });
  }
  // A cancelled test (its file crashed, or a hook failed) did not pass: count it as failed.
  return {
    passed: num('pass'),
    failed: num('fail') + num('cancelled'),
    skipped: num('skipped') + num('todo'),
    failures,
  };
}

/**
 * @param {object} o
 * @param {string} o.root repository root
 * @param {string} [o.host] which VS Code ('oldest' | 'newest', see install.mjs HOSTS); default oldest
 * @param {(line:string)=>void} [o.log]
 * @param {boolean} [o.ui] run the UI tests (default true)
 * @param {boolean} [o.vsix] package and test the .vsix (default true)
 * @param {string[]} [o.only] run names to run (default all)
 * @param {boolean} [o.updateScreenshots] write screenshots into media/screenshots
 * @param {boolean} [o.verbose] echo the extension host's log lines
 * @param {'spec' | 'live'} [o.dialect] the emulator's dialect (default: env ODIN_EMULATOR_DIALECT, else spec)
 * @param {import('./plan.mjs').Scope} [o.scope] which runs and files (default: everything)
 * @returns {Promise<Result[]>}
 */
export async function runHostTier(o) {
  const {
    root,
    host: hostName,
    log = console.log,
    ui = true,
    vsix = true,
    updateScreenshots = false,
    verbose = false,
  } = o;
  const only = o.only && o.only.length ? new Set(o.only) : undefined;
  const scope = o.scope ?? FULL;
  /** Runs in the scope (a file list that is empty means the run is left out) and asked for. */
  const want = (n, files) => (!only || only.has(n)) && (!files || files.length > 0);
  /** The integration files of a run's list that exist (the quick loop may name UI-only files). */
  const integration = (files) =>
    files?.filter((f) => fs.existsSync(path.join(root, 'test', 'integration', `${f}.test.ts`)));
  const filesEnv = (files) => (files ? { ODIN_TEST_FILES: files.join(',') } : {});
  /** @type {Result[]} */
  const results = [];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-suite-'));
  const cleanups = [];
  try {
    const testsEntry = path.join(root, 'out', 'test', 'integration', 'index.js');
    const bundle = path.join(root, 'dist', 'extension.js');
    const missing = [testsEntry, bundle].filter((f) => !fs.existsSync(f));
    if (missing.length) {
      results.push(
        single(
          'host: build present',
          false,
          `missing ${missing.map((f) => path.relative(root, f)).join(', ')} (tsc / esbuild failed?)`,
        ),
      );
      return results;
    }

    // The API emulator (the user setting odin.apiBaseUrl points at it) and the attacker.
    const attacker = await startRecorder({ name: 'attacker' });
    cleanups.push(() => attacker.close());
    let apiKey;
    let emulatorUrl;
    const { startEmulator, reason } = loadEmulator(root);
    if (startEmulator) {
      // `live` (or ODIN_EMULATOR_DIALECT=live) runs the same suites against the real service's shapes.
      const dialect = o.dialect ?? (process.env.ODIN_EMULATOR_DIALECT === 'live' ? 'live' : 'spec');
      const emu = await startEmulator({ port: 0, seed: 1, dialect });
      cleanups.push(() => emu.close());
      emulatorUrl = emu.url;
      apiKey = emu.apiKey;
      results.push(single('host: API emulator starts', true));
    } else {
      // Keep going with a stand-in so the rest of the tier still runs; count the gap.
      const standIn = await startRecorder({ name: 'emulator-stand-in' });
      cleanups.push(() => standIn.close());
      emulatorUrl = standIn.url;
      apiKey = demoApiKey(root);
      results.push(single('host: API emulator starts', false, `emulator not loadable: ${reason}`));
    }
    log(`[host] emulator ${emulatorUrl}, attacker ${attacker.url}`);

    const gaps = hostileSettingsGaps(root);
    if (gaps.length) log(`[host] note: hostile-workspace settings do not set ${gaps.join(', ')}`);

    const sampleWs = prepareSampleWorkspace(root, work);
    const hostileWs = prepareHostileWorkspace(root, work, attacker.url);
    const commonEnv = {
      ODIN_EXTENSION_TEST: '1',
      ODIN_TEST_EMULATOR_URL: emulatorUrl,
      ODIN_TEST_ATTACKER_URL: attacker.url,
      ODIN_TEST_API_KEY: apiKey,
      ...(process.env.ODIN_TEST_GREP ? { ODIN_TEST_GREP: process.env.ODIN_TEST_GREP } : {}),
      ...(process.env.ODIN_AFFORDANCES_RUN ? { ODIN_AFFORDANCES_RUN: process.env.ODIN_AFFORDANCES_RUN } : {}),
    };
    // The exploitation feeds come from the emulator too (no test reaches the internet).
    const userSettings = {
      'odin.apiBaseUrl': emulatorUrl,
      'odin.feeds.kevUrl': `${emulatorUrl}/feeds/kev.json`,
      'odin.feeds.epssUrl': `${emulatorUrl}/feeds/epss.csv.gz`,
    };
    const onLog = (name) => (level, msg) => {
      if (verbose || /^ODIN-TEST fail/.test(msg)) log(`[${name}] ${level}: ${msg.slice(0, 2000)}`);
    };

    const checkAttacker = (name, { none = false } = {}) => {
      const bad = requestsCarryingKey(attacker.requests, apiKey);
      // The tests' own reads of the recorder's log do not count.
      const total = attacker.requests.filter((r) => !r.url.startsWith('/__recorder/')).length;
      if (none)
        results.push(
          single(
            `host: attacker server received no request at all (${name})`,
            total === 0,
            `${total} request(s): ${attacker.requests
              .slice(0, 3)
              .map((r) => `${r.method} ${r.url}`)
              .join(', ')}`,
          ),
        );
      results.push(
        single(
          `host: attacker server received no API key (${name})`,
          bad.length === 0,
          `${bad.length} request(s) carried a key: ${bad
            .slice(0, 3)
            .map((r) => `${r.method} ${r.url}`)
            .join(', ')}`,
          0,
          `${total} request(s) reached the attacker`,
        ),
      );
      if (total)
        log(`[host] ${name}: the attacker server received ${total} request(s) (${bad.length} with a key)`);
      attacker.requests.length = 0;
    };

    /** One host run with the integration tests inside. */
    const insideRun = async (name, hostOpts, attackerCheck = {}) => {
      const t0 = Date.now();
      let host;
      try {
        host = await startHost({
          host: hostName,
          timeoutMs: INSIDE_LIMIT_MS + 60_000,
          onLog: onLog(name),
          ...hostOpts,
          extensionTestsPath: testsEntry,
        });
        let code;
        try {
          code = await host.waitForExit(INSIDE_LIMIT_MS);
        } catch (e) {
          code = undefined;
          log(`[${name}] ${e instanceof Error ? e.message : e}`);
        }
        const r = parseResults(host.logs);
        if (r) {
          results.push(
            applyQuarantine({
              name: `host: ${name} (inside VS Code)`,
              passed: r.passed,
              failed: r.failed,
              skipped: r.pending,
              ms: Date.now() - t0,
              failures: r.failures,
            }),
          );
          if (code !== 0 && r.failed === 0)
            results.push(single(`host: ${name} exits 0`, false, `exit code ${code}`));
        } else {
          const tail = host.logs
            .slice(-25)
            .map((l) => `${l.level}: ${l.msg.slice(0, 400)}`)
            .join('\n');
          results.push(
            single(
              `host: ${name} (inside VS Code)`,
              false,
              `no ODIN-RESULTS line (exit code ${code}); last log lines:\n${tail}\n--- server ---\n${host.serverLog().split('\n').slice(-15).join('\n')}`,
              Date.now() - t0,
            ),
          );
        }
      } catch (e) {
        results.push(
          single(
            `host: ${name} (inside VS Code)`,
            false,
            e instanceof Error ? e.message : String(e),
            Date.now() - t0,
          ),
        );
      } finally {
        await host?.stop();
      }
      checkAttacker(name, attackerCheck);
    };

    const trustedFiles = integration(scope.trusted);
    const restrictedFiles = integration(scope.restricted);
    if (want('trusted', trustedFiles)) {
      await insideRun('trusted', {
        workspace: sampleWs,
        trusted: true,
        env: {
          ...commonEnv,
          ...filesEnv(trustedFiles),
          ODIN_TEST_RUN: 'trusted',
          ODIN_TEST_KEY_VIA: 'env',
          ODIN_API_KEY: apiKey,
        },
        userSettings,
        extensionDevelopmentPath: root,
      });
    }
    if (want('restricted', restrictedFiles)) {
      await insideRun('restricted', {
        workspace: hostileWs,
        trusted: false,
        env: {
          ...commonEnv,
          ...filesEnv(restrictedFiles),
          ODIN_TEST_RUN: 'restricted',
          ODIN_TEST_KEY_VIA: 'testApi',
        },
        userSettings,
        extensionDevelopmentPath: root,
      });
    }

    if (want('trusted-hostile') && scope.trustedHostile) {
      // A few tests, not a second pass of the suite: the workspace's settings are applied
      // now, and the key must still go to the user's endpoint only.
      await insideRun(
        'trusted-hostile',
        {
          workspace: hostileWs,
          trusted: true,
          env: {
            ...commonEnv,
            ODIN_TEST_RUN: 'trusted-hostile',
            ODIN_TEST_KEY_VIA: 'env',
            ODIN_API_KEY: apiKey,
            ODIN_TEST_GREP: '^hostile workspace, trusted',
          },
          userSettings: { ...userSettings, 'odin.search.pageSize': 10 },
          extensionDevelopmentPath: root,
        },
        { none: true },
      );
    }

    if (ui) {
      const uiDir = path.join(root, 'test', 'ui');
      /** The UI files of folder `d`, or those of them named in `names` (base names without .test.mjs). */
      const list = (d, names) =>
        fs.existsSync(d)
          ? fs
              .readdirSync(d)
              .filter((f) => /\.test\.m?js$/.test(f))
              .filter((f) => !names || names.includes(f.replace(/\.test\.m?js$/, '')))
              .sort()
              .map((f) => path.join(d, f))
          : [];
      const shotsDir = updateScreenshots
        ? path.join(root, 'media', 'screenshots')
        : path.join(work, 'screenshots');
      const uiRuns = [
        {
          name: 'ui',
          files: list(uiDir, scope.ui),
          workspace: sampleWs,
          trusted: true,
          env: { ODIN_TEST_RUN: 'ui', ODIN_API_KEY: apiKey },
        },
        {
          name: 'ui-restricted',
          files: list(path.join(uiDir, 'restricted'), scope.uiRestricted),
          workspace: hostileWs,
          trusted: false,
          env: { ODIN_TEST_RUN: 'ui-restricted' },
        },
      ];
      for (const run of uiRuns) {
        if (!want(run.name) || run.files.length === 0) continue;
        const setup = { root, work, hostName, commonEnv, userSettings, shotsDir, updateScreenshots, log };
        results.push(await uiRun(run, setup, onLog(run.name)));
        checkAttacker(run.name);
      }
      if (updateScreenshots) log(`[host] screenshots written to ${path.relative(root, shotsDir)}`);
      else log(`[host] screenshots (not committed) in ${shotsDir}`);
    }

    if (vsix && scope.vsix && want('vsix')) {
      const t0 = Date.now();
      const pkg = spawnSync(
        process.execPath,
        [path.join(root, 'scripts', 'package.mjs'), '--out-dir', work],
        { cwd: root, encoding: 'utf8', timeout: 5 * 60_000 },
      );
      const vsixFile = /VSIX (\S+\.vsix)/.exec(pkg.stdout ?? '')?.[1];
      if (pkg.status !== 0 || !vsixFile) {
        results.push(
          single(
            'package: vsce builds a .vsix',
            false,
            `${pkg.stdout}\n${pkg.stderr}`.slice(-3000),
            Date.now() - t0,
          ),
        );
      } else {
        results.push(single('package: vsce builds a .vsix', true, '', Date.now() - t0, vsixFile));
        // What the registries check (scripts/publish-check.mjs): warnings, size, files, fixtures, manifest.
        const warnings = (pkg.stdout ?? '').split('\n').filter((l) => /^\[package\] (?!\d+ files)/.test(l));
        const registry = checkVsix(vsixFile, { warnings });
        results.push(
          single(
            'package: registry checks (publish-check)',
            registry.failed.length === 0,
            registry.failed.join('\n'),
          ),
        );
        const extDir = path.join(work, 'vsix-extensions');
        fs.mkdirSync(extDir, { recursive: true });
        try {
          await installVsix(vsixFile, extDir, hostName);
          results.push(single('package: .vsix installs with --install-extension', true));
          // Tests only run (and logs only reach codeAutomationLog) in an extension
          // development session: develop an empty shim, so ours comes from the .vsix.
          const shim = path.join(work, 'dev-shim');
          fs.mkdirSync(shim, { recursive: true });
          fs.writeFileSync(
            path.join(shim, 'package.json'),
            JSON.stringify({
              name: 'odin-test-shim',
              publisher: 'odin-test',
              version: '0.0.0',
              engines: { vscode: '^1.103.0' },
            }),
          );
          await insideRun('vsix', {
            workspace: sampleWs,
            trusted: true,
            extensionsDir: extDir,
            extensionDevelopmentPath: shim,
            env: {
              ...commonEnv,
              ODIN_TEST_RUN: 'vsix',
              ODIN_TEST_KEY_VIA: 'env',
              ODIN_API_KEY: apiKey,
              ODIN_TEST_GREP: '^activation ',
              ODIN_TEST_EXTENSIONS_DIR: extDir,
            },
            userSettings,
          });
        } catch (e) {
          results.push(
            single(
              'package: .vsix installs with --install-extension',
              false,
              e instanceof Error ? e.message : String(e),
            ),
          );
        }
      }
    }
    return results;
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Starts a host with the extension under development and runs node:test UI files against its page over CDP. */
async function uiRun(run, setup, onLog) {
  const { root, work, hostName, commonEnv, userSettings, shotsDir, updateScreenshots, log } = setup;
  const t0 = Date.now();
  const name = `host: ${run.name} (UI tests)`;
  const cdpPort = await freePort();
  let host;
  try {
    host = await startHost({
      host: hostName,
      workspace: run.workspace,
      trusted: run.trusted,
      env: { ...commonEnv, ...run.env },
      // The UI tests' setTheme toggles between the preferred dark and light themes (helpers.mjs).
      userSettings: {
        ...userSettings,
        'workbench.colorTheme': 'Default Dark Modern',
        'workbench.preferredDarkColorTheme': 'Default Dark Modern',
        'workbench.preferredLightColorTheme': 'Default Light Modern',
        // A webview that takes the focus back (VS Code re-focuses one 50 ms after it is
        // focused) must not close the palette a test has just opened (helpers.mjs,
        // leaveWebview): the palette and quick picks stay open until Escape or a pick.
        'workbench.quickOpen.closeOnFocusLost': false,
      },
      extensionDevelopmentPath: root,
      timeoutMs: run.files.length * UI_FILE_LIMIT_MS + 2 * 60_000,
      onLog,
      cdpPort,
    });
    await waitForWorkbench(host.page);
    // UI tests start once the extension has activated (its log has a line), not before.
    const activated = await host.waitForExtensionLog(EXTENSION_ID, { timeout: 90_000 });
    if (!activated)
      log(`[${run.name}] note: no log line from ${EXTENSION_ID} within 90 s; running the UI tests anyway`);
    const infoFile = path.join(work, `${run.name}-host.json`);
    fs.mkdirSync(shotsDir, { recursive: true });
    fs.writeFileSync(
      infoFile,
      JSON.stringify({
        cdpUrl: `http://127.0.0.1:${cdpPort}`,
        origin: host.origin,
        workspace: run.workspace,
        trusted: run.trusted,
        run: run.name,
        emulatorUrl: commonEnv.ODIN_TEST_EMULATOR_URL,
        attackerUrl: commonEnv.ODIN_TEST_ATTACKER_URL,
        apiKey: commonEnv.ODIN_TEST_API_KEY,
        screenshotDir: shotsDir,
        updateScreenshots,
        userDataDir: host.userDataDir,
      }),
    );
    // One node --test process per file: a file that hangs is killed alone and the others' results
    // stay. Each file runs once: a failure counts (a flaky test is fixed or quarantined in plan.mjs).
    const total = { passed: 0, failed: 0, skipped: 0, failures: [] };
    const runFile = async (file) => {
      const rel = path.relative(root, file);
      const tapFile = path.join(work, `${run.name}-${path.basename(file)}.tap`);
      const args = [
        '--test',
        '--test-timeout=180000', // a stuck test fails alone
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        '--test-reporter=tap',
        `--test-reporter-destination=${tapFile}`,
        ...(process.env.ODIN_UI_GREP ? [`--test-name-pattern=${process.env.ODIN_UI_GREP}`] : []),
        file,
      ];
      let killed = false;
      const code = await new Promise((resolve) => {
        const p = spawn(process.execPath, args, {
          cwd: root,
          env: { ...process.env, ODIN_UI_HOST: infoFile },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const kill = setTimeout(() => {
          killed = true;
          p.kill('SIGKILL');
        }, UI_FILE_LIMIT_MS);
        p.stdout.on('data', (d) => process.stdout.write(indent(d)));
        p.stderr.on('data', (d) => process.stderr.write(indent(d)));
        p.on('exit', (c) => {
          clearTimeout(kill);
          resolve(c);
        });
      });
      const r = parseTap(fs.existsSync(tapFile) ? fs.readFileSync(tapFile, 'utf8') : '');
      const failures = r.failures.map((f) => ({ title: `${rel} › ${f.title}`, error: f.error }));
      if (killed)
        failures.push({
          title: `${rel}`,
          error: `killed after ${UI_FILE_LIMIT_MS / 1000} s (hung; a test or after() never finished)`,
        });
      else if (code !== 0 && r.failed === 0)
        failures.push({ title: `${rel}`, error: `node --test exited ${code} with no failed test counted` });
      // The next file starts from a calm workbench even if this one left widgets open.
      await host.page.keyboard.press('Escape').catch(() => {});
      return { r, failures };
    };
    for (const file of run.files) {
      const { r, failures } = await runFile(file);
      total.passed += r.passed;
      total.skipped += r.skipped;
      total.failed += Math.max(r.failed, failures.length);
      total.failures.push(...failures);
    }
    return applyQuarantine({
      name,
      passed: total.passed,
      failed: total.failed,
      skipped: total.skipped,
      ms: Date.now() - t0,
      failures: total.failures,
    });
  } catch (e) {
    return single(name, false, e instanceof Error ? e.message : String(e), Date.now() - t0);
  } finally {
    await host?.stop();
  }
}

function indent(buf) {
  return String(buf)
    .split('\n')
    .map((l, i, a) => (i === a.length - 1 && l === '' ? '' : `    ${l}`))
    .join('\n');
}
