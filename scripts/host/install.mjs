// Installs the VS Code build the host tests run in: code-server (which ships VS Code's
// workbench and Node extension host) from the npm registry, into a cache directory outside
// the repository, on demand. See docs/test-host.md for why each workaround is needed.
//
// Library: `await ensureHost()` → { prefix, entry, version, chromium }.
// CLI:     node scripts/host/install.mjs [--force] [--quiet]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
/** Debian packages the host needs: the browser, the `kerberos` native module's headers, ripgrep. */
export const APT_PACKAGES = ['chromium', 'libkrb5-dev', 'ripgrep'];
export const CHROMIUM_PATH = '/usr/bin/chromium';

const RIPGREP_PKG_VERSION = '1.15.11';
const RIPGREP_ASSET = 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz';
const COMPLETE_MARKER = '.odin-install-complete';

export function cacheRoot() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'odin-vscode-test');
}

export function hostPrefix() {
  return path.join(cacheRoot(), `code-server-${CODE_SERVER_VERSION}`);
}

export function codeServerEntry(prefix = hostPrefix()) {
  return path.join(prefix, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

export function isInstalled(prefix = hostPrefix()) {
  try {
    const marker = fs.readFileSync(path.join(prefix, COMPLETE_MARKER), 'utf8').trim();
    return marker === CODE_SERVER_VERSION && fs.existsSync(codeServerEntry(prefix));
  } catch {
    return false;
  }
}

function log(quiet, ...args) {
  if (!quiet) console.log('[host-install]', ...args);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
  return r;
}

export function missingAptPackages(pkgs = APT_PACKAGES) {
  return pkgs.filter((p) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' });
    return r.status !== 0 || !/install ok installed/.test(r.stdout);
  });
}

/** Installs missing Debian packages when running as root; otherwise says what to install. */
export function ensureAptPackages({ quiet = false, pkgs = APT_PACKAGES } = {}) {
  const missing = missingAptPackages(pkgs);
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(
      `missing Debian packages: ${missing.join(' ')}. Install them with: sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
  log(quiet, 'installing Debian packages:', missing.join(' '));
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-q'], { env });
  run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], { env });
}

/**
 * @vscode/ripgrep downloads a binary at install time (no internet here); it first looks in
 * a cache directory, so put Debian's `rg` there in the archive shape it expects.
 */
function seedRipgrepCache(quiet) {
  const dir = path.join(os.tmpdir(), `vscode-ripgrep-cache-${RIPGREP_PKG_VERSION}`);
  const archive = path.join(dir, RIPGREP_ASSET);
  if (fs.existsSync(archive) && fs.statSync(archive).size > 0) return;
  const rg = ['/usr/bin/rg', '/bin/rg'].find((p) => fs.existsSync(p));
  if (!rg) throw new Error('ripgrep (rg) not found: apt-get install ripgrep');
  fs.mkdirSync(dir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-rg-'));
  try {
    fs.copyFileSync(rg, path.join(staging, 'rg'));
    fs.chmodSync(path.join(staging, 'rg'), 0o755);
    const tmpArchive = `${archive}.${process.pid}.tmp`;
    run('tar', ['-czf', tmpArchive, '-C', staging, 'rg']);
    fs.renameSync(tmpArchive, archive);
    log(quiet, 'seeded ripgrep cache', archive);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** A lock directory so that two processes (a test run and the demo) don't install at once. */
async function withLock(lockDir, fn, quiet) {
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      // A lock left behind by a dead process is taken over.
      let owner = NaN;
      try {
        owner = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
      } catch {
        /* being written */
      }
      if (Number.isInteger(owner) && owner > 0 && !pidAlive(owner)) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for install lock ${lockDir}`);
      log(quiet, 'another install is running, waiting…');
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/**
 * Makes sure code-server and the Debian packages are present. Fast (a few stat calls) when
 * they already are.
 */
export async function ensureHost({ force = false, quiet = false, aptPackages = APT_PACKAGES } = {}) {
  ensureAptPackages({ quiet, pkgs: aptPackages });
  const prefix = hostPrefix();
  if (!force && isInstalled(prefix)) {
    return { prefix, entry: codeServerEntry(prefix), version: CODE_SERVER_VERSION, chromium: CHROMIUM_PATH };
  }
  fs.mkdirSync(cacheRoot(), { recursive: true });
  await withLock(
    path.join(cacheRoot(), `.lock-${CODE_SERVER_VERSION}`),
    async () => {
      if (!force && isInstalled(prefix)) return; // another process finished it meanwhile
      const started = Date.now();
      log(quiet, `installing code-server@${CODE_SERVER_VERSION} into ${prefix} (one time, ~300 MB)`);
      fs.rmSync(prefix, { recursive: true, force: true });
      fs.mkdirSync(prefix, { recursive: true });
      // Its own package.json so npm doesn't walk up into an unrelated project.
      fs.writeFileSync(
        path.join(prefix, 'package.json'),
        JSON.stringify({ name: 'odin-vscode-test-host', private: true, version: '0.0.0' }, null, 2),
      );
      seedRipgrepCache(quiet);
      const env = {
        ...process.env,
        npm_config_unsafe_perm: 'true', // its postinstall refuses to run as root otherwise
        npm_config_yes: 'true', // node-pty's postinstall runs `npx node-gyp`
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
      };
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      run(
        npm,
        ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `code-server@${CODE_SERVER_VERSION}`],
        { env, cwd: prefix, stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit' },
      );
      if (!fs.existsSync(codeServerEntry(prefix))) throw new Error(`install finished but ${codeServerEntry(prefix)} is missing`);
      fs.writeFileSync(path.join(prefix, COMPLETE_MARKER), CODE_SERVER_VERSION + '\n');
      log(quiet, `installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    },
    quiet,
  );
  return { prefix, entry: codeServerEntry(prefix), version: CODE_SERVER_VERSION, chromium: CHROMIUM_PATH };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const t0 = Date.now();
  try {
    const r = await ensureHost({ force: args.includes('--force'), quiet: args.includes('--quiet') });
    console.log(`[host-install] ready: ${r.entry} (${Date.now() - t0} ms)`);
  } catch (e) {
    console.error('[host-install] failed:', e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
