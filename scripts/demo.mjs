// `npm run demo`: the extension as a user gets it, in a real VS Code, against the local
// API emulator, with the sample workspace. On a fresh machine it installs what it needs.
//
//   1. npm ci (when node_modules is missing), the VS Code host (code-server) on demand
//   2. builds and packages the .vsix, installs it with `code-server --install-extension`
//   3. starts the API emulator (5,000 generated hosts + the named fixtures)
//   4. starts code-server on 127.0.0.1 with the sample workspace (trusted), the user
//      setting odin.apiBaseUrl (and the KEV/EPSS feed URLs) pointing at the emulator and
//      ODIN_API_KEY = the demo key
//   5. prints the URL to open, and stays up until Ctrl-C (then cleans everything up)
//
// Usage: node scripts/demo.mjs [--port 8080] [--emulator-port 8787] [--dev]
//   --dev  load the extension from this checkout (extension development mode) instead of
//          the packaged .vsix: faster, and picks up `npm run watch` builds on reload
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scriptArgs } from './args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = scriptArgs(import.meta.url, {
  port: { type: 'string' },
  'emulator-port': { type: 'string' },
  dev: { type: 'boolean' },
});
const port = Number(args.port ?? process.env.PORT ?? 8080);
const emulatorPort = Number(args['emulator-port'] ?? 8787);
const dev = args.dev === true;

function say(s) {
  console.log(`[demo] ${s}`);
}

function sh(cmd, cmdArgs) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (${r.status ?? r.signal})`);
}

async function portFree(p) {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(p, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

const cleanups = [];
let stopping = false;
async function cleanup() {
  if (stopping) return;
  stopping = true;
  for (const c of cleanups.reverse()) {
    try {
      await c();
    } catch {
      /* best effort */
    }
  }
}

async function main() {
  const t0 = Date.now();
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`bad --port ${port}`);
  if (!fs.existsSync(path.join(root, 'node_modules', 'esbuild'))) {
    say('installing npm dependencies (npm ci)…');
    sh('npm', ['ci', '--no-audit', '--no-fund']);
  }
  const { ensureHost } = await import('./host/install.mjs');
  // No browser is needed for the demo: you bring yours.
  await ensureHost({ aptPackages: ['libkrb5-dev', 'ripgrep'] });
  const { startHost, installVsix, freePort } = await import('./host/host.mjs');
  const { loadEmulator } = await import('./host/emulator.mjs');

  if (!(await portFree(port))) throw new Error(`port ${port} is in use: pass --port <free port>`);

  say('building the extension…');
  sh(process.execPath, ['esbuild.mjs']);

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-demo-'));
  cleanups.push(async () => fs.rmSync(tmp, { recursive: true, force: true }));
  const extensionsDir = path.join(tmp, 'extensions');
  fs.mkdirSync(extensionsDir);
  if (!dev) {
    say('packaging the .vsix (production build)…');
    const { packageExtension } = await import('./package.mjs');
    const pkg = packageExtension({ outDir: tmp });
    say(
      `installing ${path.basename(pkg.file)} (${(pkg.bytes / 1024).toFixed(0)} KB) with --install-extension…`,
    );
    await installVsix(pkg.file, extensionsDir);
  }

  const { startEmulator, reason } = loadEmulator(root, { prefer: 'dist' });
  if (!startEmulator) throw new Error(`the API emulator is not built: ${reason}`);
  const emuPort = (await portFree(emulatorPort)) ? emulatorPort : await freePort();
  const emu = await startEmulator({ port: emuPort });
  cleanups.push(() => emu.close());
  say(
    `API emulator on ${emu.url} (${emu.dataset?.hosts?.length ?? 'generated'} hosts, demo key ${emu.apiKey})`,
  );

  // A copy, so that whatever you do in the demo leaves the repository as it was.
  const workspace = path.join(tmp, 'sample-workspace');
  fs.cpSync(path.join(root, 'test', 'fixtures', 'sample-workspace'), workspace, { recursive: true });

  const host = await startHost({
    workspace,
    trusted: true,
    browser: false,
    port,
    extensionsDir,
    ...(dev ? { extensionDevelopmentPath: root } : {}),
    env: { ODIN_API_KEY: emu.apiKey },
    userSettings: {
      'odin.apiBaseUrl': emu.url,
      // KEV and EPSS from the emulator's generated copies (consistent with its CVEs).
      'odin.feeds.kevUrl': `${emu.url}/feeds/kev.json`,
      'odin.feeds.epssUrl': `${emu.url}/feeds/epss.csv.gz`,
      'workbench.colorTheme': 'Default Dark Modern',
    },
    timeoutMs: 7 * 24 * 3600_000,
  });
  cleanups.push(() => host.stop('demo ended'));

  console.log('');
  console.log(
    `  ODIN for VS Code is ready (${((Date.now() - t0) / 1000).toFixed(0)} s). Open in your browser:`,
  );
  console.log('');
  console.log(`    ${host.url}`);
  console.log('');
  console.log('  Hover the IPs and domains in logs/, infra/ and reports/; open the ODIN view in the');
  console.log('  activity bar; run "ODIN:" commands from the Command Palette (F1).');
  console.log(
    `  From another machine: ssh -L ${port}:127.0.0.1:${port} <this host>, then open the same URL.`,
  );
  console.log('  Press Ctrl-C to stop.');
  console.log('');

  await new Promise((resolve) => {
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(sig, resolve);
  });
  say('stopping…');
}

try {
  await main();
} catch (e) {
  console.error(`[demo] ${e instanceof Error ? e.message : e}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
process.exit(process.exitCode ?? 0);
