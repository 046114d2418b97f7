// Runs a real VS Code (code-server's build: workbench + Node extension host) on loopback and
// drives it with Debian's chromium through playwright-core. Used by the host test tier, the
// UI tests, the bench and (without the browser) the demo. Recipe: docs/test-host.md.
//
//   const host = await startHost({ host: 'oldest' | 'newest', workspace, trusted: true, env, userSettings,
//                                  extensionDevelopmentPath, extensionTestsPath });
//   const code = await host.waitForExit();   // when extensionTestsPath is given
//   await host.stop();                        // always (also done on timeout / process exit)
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHROMIUM_PATH, ensureHost } from './install.mjs';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Chromium's own background lookups stay on this machine (with EXTENSIONS_GALLERY='{}' for
  // the server, no DNS query leaves it).
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/** Settings that keep the workbench quiet and deterministic: no welcome page, tips, telemetry, update checks. */
export const QUIET_USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.settings.enableNaturalLanguageSearch': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.startupPrompt': 'never',
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'npm.autoDetect': 'off',
  'typescript.tsserver.experimental.enableProjectDiagnostics': false,
  'chat.commandCenter.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'window.restoreWindows': 'none',
  'files.hotExit': 'off',
  'editor.minimap.enabled': false,
};

/** Processes and dirs to clean up if this Node process exits without stop() having run. */
const live = new Set();
let exitHookInstalled = false;
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const h of live) h.killSync();
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      for (const h of live) h.killSync();
      // Exit like the default handler would, unless the program handles the signal itself.
      if (process.listenerCount(sig) === 0) process.exit(128 + (os.constants.signals[sig] ?? 1));
    });
  }
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

function cleanEnv(extra) {
  const env = { ...process.env };
  // Inherited from a VS Code terminal, these make code-server act as a CLI of that window.
  for (const k of Object.keys(env))
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') delete env[k];
  return { ...env, ...extra };
}

async function waitForHttp(url, deadline, isDead) {
  let lastErr;
  while (Date.now() < deadline) {
    if (isDead()) throw new Error('code-server exited during start-up');
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return;
      lastErr = new Error(`HTTP ${res.status}`);
    } catch (e) {
      lastErr = e;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`code-server did not answer ${url}: ${lastErr?.message ?? lastErr}`);
}

/**
 * Starts code-server (and chromium unless `browser: false`).
 * @param {object} o
 * @param {string} [o.host] which VS Code: 'oldest' (1.103, default; or env ODIN_HOST) | 'newest' (1.139) — see install.mjs HOSTS
 * @param {string} o.workspace absolute folder to open
 * @param {boolean} o.trusted false opens the folder in Restricted Mode
 * @param {Record<string,string>} [o.env] extra environment for the server and so the extension host
 * @param {Record<string,unknown>} [o.userSettings] written into User/settings.json (over QUIET_USER_SETTINGS)
 * @param {string} [o.extensionDevelopmentPath] absolute path of the extension under development
 * @param {string} [o.extensionTestsPath] absolute path of the compiled test entry (exports run())
 * @param {string} [o.extensionsDir] installed-extensions dir (default: a fresh empty one)
 * @param {boolean} [o.headless] default true
 * @param {boolean} [o.browser] default true; false = server only (the demo)
 * @param {number} [o.port] default: a free loopback port
 * @param {number} [o.timeoutMs] hard limit for the whole run (default 10 min); the host is stopped then
 * @param {{width:number,height:number}} [o.viewport]
 * @param {(level:string, msg:string) => void} [o.onLog] receives codeAutomationLog lines as they come
 * @param {boolean} [o.navigate] default true; false = the caller navigates (page.goto(host.url))
 * @param {number} [o.cdpPort] also open chromium's DevTools protocol on this loopback port, so
 *   another process (the node:test UI tests) can drive the same page with connectOverCDP
 */
export async function startHost(o) {
  const {
    workspace,
    trusted,
    env = {},
    userSettings = {},
    extensionDevelopmentPath,
    extensionTestsPath,
    headless = true,
    browser: wantBrowser = true,
    timeoutMs = 10 * 60_000,
    viewport = { width: 1280, height: 800 },
    onLog,
    navigate = true,
  } = o;
  if (!path.isAbsolute(workspace)) throw new Error(`workspace must be absolute: ${workspace}`);
  installExitHook();
  const info = await ensureHost({ host: o.host, quiet: true });
  const { entry } = info;

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-host-'));
  const userDataDir = path.join(tmp, 'user-data');
  const extensionsDir = o.extensionsDir ?? path.join(tmp, 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...QUIET_USER_SETTINGS, ...userSettings }, null, 2),
  );

  const port = o.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const serverLogPath = path.join(tmp, 'code-server.log');
  const serverLog = fs.createWriteStream(serverLogPath);
  const args = [
    entry,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    ...info.serverArgs,
    ...(trusted ? ['--disable-workspace-trust'] : []),
    workspace,
  ];
  const child = spawn(info.node, args, {
    // An empty gallery: the host never contacts an extension marketplace (there is no internet).
    env: cleanEnv({ EXTENSIONS_GALLERY: '{}', ...env, NODE_OPTIONS: '' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group: stop() kills the extension host and watchers too
  });
  child.stdout.pipe(serverLog, { end: false });
  child.stderr.pipe(serverLog, { end: false });
  let serverExited = false;
  child.on('exit', () => {
    serverExited = true;
  });

  /** @type {{level:string, msg:string, t:number}[]} */
  const logs = [];
  let exitCode = /** @type {number|undefined} */ (undefined);
  let exitLogs = [];
  let resolveExit;
  const exitPromise = new Promise((r) => (resolveExit = r));
  let browser;
  let page;
  let stopped = false;
  let stopReason = '';

  const handle = {
    /** 'VS Code 1.103.2' */
    label: info.label,
    vscode: info.vscode,
    url: '',
    origin,
    port,
    tmpDir: tmp,
    userDataDir,
    extensionsDir,
    serverLogPath,
    logs,
    /** @type {import('playwright-core').Page | undefined} */
    page: undefined,
    /** @type {import('playwright-core').Browser | undefined} */
    browser: undefined,
    /** Resolves with the exit code the test run reported (codeAutomationExit), or rejects on timeout/stop. */
    waitForExit(ms = timeoutMs) {
      return Promise.race([
        exitPromise,
        new Promise((_, rej) => {
          const t = setTimeout(() => rej(new Error(`no codeAutomationExit within ${ms} ms`)), ms);
          t.unref();
        }),
      ]);
    },
    get exitCode() {
      return exitCode;
    },
    /** Log files the workbench handed over with codeAutomationExit ({relativePath, contents}[]). */
    get exitLogs() {
      return exitLogs;
    },
    get stopReason() {
      return stopReason;
    },
    async screenshot(file, opts = {}) {
      if (!page) throw new Error('no browser page');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      await page.screenshot({ path: file, ...opts });
      return file;
    },
    serverLog() {
      try {
        return fs.readFileSync(serverLogPath, 'utf8');
      } catch {
        return '';
      }
    },
    /**
     * Resolves once extension `extId` has written its first log line (its LogOutputChannel
     * file under the user-data logs), i.e. it has activated; false after `timeout` ms.
     */
    async waitForExtensionLog(extId, { pattern = /\S/, timeout = 60_000 } = {}) {
      const deadline = Date.now() + timeout;
      const logsRoot = path.join(userDataDir, 'logs');
      while (Date.now() < deadline) {
        for (const session of safeReaddir(logsRoot)) {
          for (const host of safeReaddir(path.join(logsRoot, session)).filter((d) =>
            d.startsWith('exthost'),
          )) {
            const dir = path.join(logsRoot, session, host, extId);
            for (const f of safeReaddir(dir)) {
              try {
                if (pattern.test(fs.readFileSync(path.join(dir, f), 'utf8'))) return true;
              } catch {
                /* being written */
              }
            }
          }
        }
        await sleep(250);
      }
      return false;
    },
    killSync() {
      try {
        if (!serverExited && child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
      try {
        fs.rmSync(tmp, { recursive: true, force: true });
      } catch {
        /* best effort */
      }
    },
    async stop(reason = 'stopped') {
      if (stopped) return;
      stopped = true;
      stopReason = reason;
      clearTimeout(hardTimer);
      resolveExit?.(exitCode ?? -1);
      if (browser) await Promise.race([browser.close().catch(() => {}), sleep(5000)]);
      if (!serverExited && child.pid) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          /* gone */
        }
        const t0 = Date.now();
        while (!serverExited && Date.now() - t0 < 3000) await sleep(50);
        if (!serverExited) {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            /* gone */
          }
        }
      }
      serverLog.end();
      // Keep the server log for post-mortems when asked to.
      if (process.env.ODIN_HOST_KEEP_LOGS) {
        const keep = path.join(process.env.ODIN_HOST_KEEP_LOGS, `code-server-${port}.log`);
        fs.mkdirSync(path.dirname(keep), { recursive: true });
        fs.copyFileSync(serverLogPath, keep);
      }
      // The extension host may still be flushing files for a moment.
      for (let i = 0; i < 5; i++) {
        try {
          fs.rmSync(tmp, { recursive: true, force: true });
          break;
        } catch {
          await sleep(200);
        }
      }
      live.delete(handle);
    },
  };
  live.add(handle);

  const hardTimer = setTimeout(() => {
    console.error(`[host] hard timeout after ${timeoutMs} ms: stopping`);
    void handle.stop('timeout');
  }, timeoutMs);
  hardTimer.unref();

  try {
    await waitForHttp(`${origin}/healthz`, Date.now() + 60_000, () => serverExited);

    const payload = [];
    const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
    if (extensionDevelopmentPath)
      payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
    if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
    payload.push(['skipWelcome', 'true']);
    handle.url = `${origin}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

    if (wantBrowser) {
      const { chromium } = await import('playwright-core');
      const cdpArgs = o.cdpPort
        ? [`--remote-debugging-port=${o.cdpPort}`, '--remote-debugging-address=127.0.0.1']
        : [];
      browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        headless,
        args: [...CHROMIUM_ARGS, ...cdpArgs],
      });
      const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
      page = await context.newPage();
      handle.browser = browser;
      handle.page = page;
      await page.exposeFunction('codeAutomationLog', (level, msg) => {
        const text = Array.isArray(msg)
          ? msg.map((m) => (typeof m === 'string' ? m : JSON.stringify(m))).join(' ')
          : typeof msg === 'string'
            ? msg
            : JSON.stringify(msg);
        const line = { level: String(level), msg: text, t: Date.now() };
        logs.push(line);
        onLog?.(line.level, line.msg);
      });
      await page.exposeFunction('codeAutomationExit', (code, files) => {
        exitCode = Number(code);
        exitLogs = Array.isArray(files) ? files : [];
        resolveExit(exitCode);
      });
      if (navigate) await page.goto(handle.url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    }
    return handle;
  } catch (e) {
    const tail = handle.serverLog().split('\n').slice(-30).join('\n');
    await handle.stop('start failed');
    throw new Error(`${e instanceof Error ? e.message : e}\n--- code-server log (tail) ---\n${tail}`);
  }
}

/** Installs a .vsix into an extensions dir with code-server's CLI (the way users install it). */
export async function installVsix(vsix, extensionsDir, host) {
  const { entry, node } = await ensureHost({ host, quiet: true });
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-vsix-ud-'));
  try {
    await new Promise((resolve, reject) => {
      const p = spawn(
        node,
        [
          entry,
          '--user-data-dir',
          userDataDir,
          '--extensions-dir',
          extensionsDir,
          '--install-extension',
          vsix,
          '--force',
        ],
        { env: cleanEnv({}), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      p.stdout.on('data', (d) => (out += d));
      p.stderr.on('data', (d) => (out += d));
      const t = setTimeout(() => p.kill('SIGKILL'), 120_000);
      p.on('exit', (code) => {
        clearTimeout(t);
        if (code === 0) resolve(out);
        else reject(new Error(`--install-extension exited ${code}: ${out}`));
      });
    });
  } finally {
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
}

/** Waits until the workbench has rendered (activity bar and status bar present). */
export async function waitForWorkbench(page, timeout = 60_000) {
  await page.waitForSelector('.monaco-workbench .part.activitybar', { timeout });
  await page.waitForSelector('.monaco-workbench .part.statusbar', { timeout });
}

function safeReaddir(dir) {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}
