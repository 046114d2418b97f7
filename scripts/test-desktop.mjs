// `npm run test:desktop`: the same integration entry `npm test` runs inside code-server
// (out/test/integration/index.js, trusted run) under desktop VS Code, through
// @vscode/test-electron's runTests. It needs a machine that can download VS Code from
// update.code.visualstudio.com (cached in .vscode-test/ afterwards) and a display (on a
// headless Linux: `xvfb-run -a npm run test:desktop`).
//
// Where no download is possible (these CI machines have no internet) it says so and exits 0
// with "skipped": the code-server host of `npm test` runs the same suite there.
//
// Flags: --vscode=1.103.2,stable (versions; default both, the oldest `engines` allows and
//        the newest), --require (a skip is an error: exit 1)
// Env:   ODIN_VSCODE_EXECUTABLE (a desktop VS Code already installed: no download), ODIN_TEST_GREP
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadEmulator } from './host/emulator.mjs';
import { QUIET_USER_SETTINGS } from './host/host.mjs';
import { prepareSampleWorkspace } from './host/suite.mjs';
import { scriptArgs } from './args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = scriptArgs(import.meta.url, { vscode: { type: 'string' }, require: { type: 'boolean' } });
const versions = (values.vscode ?? '1.103.2,stable').split(',').filter(Boolean);
const requireRun = values.require === true;
const executable = process.env.ODIN_VSCODE_EXECUTABLE;
const UPDATE_HOST = 'https://update.code.visualstudio.com';

function finish(code, line) {
  process.stdout.write(`${line}\n`, () => process.exit(code));
}

/** Why desktop VS Code cannot be downloaded here, or undefined when it can. */
async function downloadBlocker() {
  if (executable)
    return fs.existsSync(executable) ? undefined : `ODIN_VSCODE_EXECUTABLE=${executable} does not exist`;
  // A build cached by an earlier run counts as available for the versions it covers.
  if (
    fs.existsSync(path.join(root, '.vscode-test')) &&
    fs.readdirSync(path.join(root, '.vscode-test')).some((d) => d.startsWith('vscode-'))
  ) {
    return undefined;
  }
  try {
    const res = await fetch(`${UPDATE_HOST}/api/releases/stable`, { signal: AbortSignal.timeout(8000) });
    await res.arrayBuffer();
    if (!res.ok) return `${UPDATE_HOST} answered HTTP ${res.status}`;
    return undefined;
  } catch (e) {
    const cause = e?.cause?.code ?? e?.cause?.message ?? e?.name ?? String(e);
    return `${UPDATE_HOST} is not reachable from this machine (${cause})`;
  }
}

const blocker = await downloadBlocker();
if (blocker) {
  const msg = [
    `test:desktop skipped: desktop VS Code cannot be downloaded here: ${blocker}.`,
    '  @vscode/test-electron downloads VS Code before it can run the integration entry; there is no',
    '  other way to get a desktop build onto this machine. `npm test` runs the same entry',
    '  (out/test/integration/index.js) inside code-server 4.103.2 and 4.139.1 (VS Code 1.103.2 and',
    '  1.139.1) instead. Run this on a machine with internet, or point ODIN_VSCODE_EXECUTABLE at an',
    '  installed desktop VS Code.',
  ].join('\n');
  console.log(msg);
  finish(requireRun ? 1 : 0, requireRun ? '0 passed, 1 failed' : '0 passed, 0 failed (skipped)');
} else {
  // Build what the entry needs (as npm test does).
  for (const [cmd, a] of [
    [path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', '.', '--outDir', 'out']],
    [process.execPath, ['esbuild.mjs']],
  ]) {
    const r = spawnSync(cmd, a, { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) finish(1, '0 passed, 1 failed');
  }
  const { runTests } = await import('@vscode/test-electron');
  const { startEmulator, reason } = loadEmulator(root);
  if (!startEmulator) throw new Error(`emulator not loadable: ${reason}`);
  const emu = await startEmulator({ port: 0, seed: 1 });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-desktop-'));
  let passed = 0;
  let failed = 0;
  try {
    for (const version of executable ? ['installed'] : versions) {
      const userDataDir = path.join(work, `user-data-${version}`);
      fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
      fs.writeFileSync(
        path.join(userDataDir, 'User', 'settings.json'),
        JSON.stringify({ ...QUIET_USER_SETTINGS, 'odin.apiBaseUrl': emu.url }, null, 2),
      );
      const workspace = prepareSampleWorkspace(root, path.join(work, version));
      console.log(`\n▶ desktop VS Code ${version}: integration tests (trusted)`);
      try {
        await runTests({
          ...(executable ? { vscodeExecutablePath: executable } : { version }),
          extensionDevelopmentPath: root,
          extensionTestsPath: path.join(root, 'out', 'test', 'integration', 'index.js'),
          launchArgs: [
            workspace,
            '--user-data-dir',
            userDataDir,
            '--disable-extensions',
            '--disable-workspace-trust',
            '--skip-welcome',
          ],
          extensionTestsEnv: {
            ODIN_EXTENSION_TEST: '1',
            ODIN_TEST_RUN: 'trusted',
            ODIN_TEST_EMULATOR_URL: emu.url,
            ODIN_TEST_API_KEY: emu.apiKey,
            ODIN_TEST_KEY_VIA: 'env',
            ODIN_API_KEY: emu.apiKey,
            ...(process.env.ODIN_TEST_GREP ? { ODIN_TEST_GREP: process.env.ODIN_TEST_GREP } : {}),
          },
        });
        passed++;
        console.log(`✔ desktop VS Code ${version}`);
      } catch (e) {
        failed++;
        console.log(`✖ desktop VS Code ${version}: ${e instanceof Error ? e.message : e}`);
      }
    }
  } finally {
    await emu.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
  finish(failed ? 1 : 0, `${passed} passed, ${failed} failed`);
}
