// THE test command (`npm test`). On a fresh machine it installs what it needs (npm ci when
// node_modules is missing; the VS Code host via scripts/host/install.mjs), then runs:
//
//   build  tsc → out/, esbuild → dist/, eslint, webview typecheck   (each step = one test)
//   unit   node --test over out/test/unit/**/*.test.js
//   host   the extension inside a real VS Code: integration tests (trusted + Restricted
//          Mode), UI tests, the packaged .vsix; attacker-server checks. Everything on the
//          newest VS Code (1.139), the compatibility run on the oldest the extension supports
//          (1.103): which tests, and why, in scripts/host/plan.mjs and docs/testing.md. The
//          summary has one line per host. (The emulator's `live` dialect, the real service's
//          shapes, is proven in the unit tier and by a short smoke inside the trusted run.)
//
// and prints a per-tier summary with each tier's time, the quarantine list (empty, or each
// entry with its reason) and, as the very last line, "N passed, N failed". Exit code 0 only
// when nothing failed. Nothing runs twice: a failure counts.
//
// Flags: --unit (build + unit only), --host (tsc + esbuild + host only),
//        --only=trusted,restricted,trusted-hostile,ui,ui-restricted,vsix (host runs to do),
//        --hosts=oldest,newest (which VS Code builds; default both; also 1.103, 1.139),
//        --files=hover,saved (only these integration and UI test files, on every host asked),
//        --no-ui, --no-vsix, --verbose (echo the extension host log),
//        --update-screenshots (= ODIN_UPDATE_SCREENSHOTS=1; ignored when CI=true)
// Env:   ODIN_TEST_GREP (integration tests), ODIN_UI_GREP (UI tests), CI
// The quick loop for one folder of the sources: scripts/test-quick.mjs (`npm run test:quick`).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

import { scriptArgs } from './args.mjs';
import { QUARANTINE as quarantine } from './host/plan.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = scriptArgs(import.meta.url, {
  unit: { type: 'boolean' },
  host: { type: 'boolean' },
  only: { type: 'string' },
  hosts: { type: 'string' },
  files: { type: 'string' },
  'no-ui': { type: 'boolean' },
  'no-vsix': { type: 'boolean' },
  verbose: { type: 'boolean' },
  'update-screenshots': { type: 'boolean' },
});
const CI = process.env.CI === 'true' || process.env.CI === '1';
const onlyUnit = args.unit === true;
const onlyHost = args.host === true;
const doUnit = !onlyHost || onlyUnit;
const doHost = !onlyUnit || onlyHost;
const updateScreenshots =
  !CI && (args['update-screenshots'] === true || process.env.ODIN_UPDATE_SCREENSHOTS === '1');
const SUITE_LIMIT_MS = 80 * 60_000;
const hostNames = (args.hosts ?? 'oldest,newest').split(',').filter(Boolean);
/** Summary tiers of the host runs, in the order they ran ('host 1.103.2', …). */
const hostTiers = [];

/** @typedef {{tier:string, name:string, passed:number, failed:number, skipped?:number, ms?:number, failures:{title:string,error:string}[], note?:string}} Result */
/** @type {Result[]} */
const results = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-test-all-'));
const started = Date.now();

function log(line) {
  console.log(line);
}

function fmtMs(ms) {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(0)} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Runs a command with output streamed (indented); resolves with {code, output}. */
function exec(cmd, cmdArgs, { timeoutMs = 20 * 60_000, env = {}, quiet = false } = {}) {
  return new Promise((resolve) => {
    const p = spawn(cmd, cmdArgs, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (d) => {
      const s = String(d);
      output += s;
      if (output.length > 2_000_000) output = output.slice(-1_000_000);
      if (!quiet) process.stdout.write(s.replace(/^(?=.)/gm, '    '));
    };
    p.stdout.on('data', onData);
    p.stderr.on('data', onData);
    const timer = setTimeout(() => {
      output += `\n[timed out after ${timeoutMs} ms]`;
      p.kill('SIGKILL');
    }, timeoutMs);
    p.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: -1, output: `${output}\n${e.message}` });
    });
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : -1), output });
    });
  });
}

const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** One build step that counts as one test. */
async function step(tier, name, cmd, cmdArgs, opts = {}) {
  log(`\n▶ ${name}: ${[path.basename(cmd), ...cmdArgs].join(' ')}`);
  const t0 = Date.now();
  const r = await exec(cmd, cmdArgs, opts);
  const ms = Date.now() - t0;
  const ok = r.code === 0;
  results.push({
    tier,
    name,
    passed: ok ? 1 : 0,
    failed: ok ? 0 : 1,
    ms,
    failures: ok ? [] : [{ title: name, error: tail(r.output, 40) }],
  });
  log(`${ok ? '✔' : '✖'} ${name} (${fmtMs(ms)})`);
  return ok;
}

function tail(text, lines) {
  return text.trim().split('\n').slice(-lines).join('\n');
}

function findFiles(dir, re) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...findFiles(p, re));
    else if (re.test(e.name)) out.push(p);
  }
  return out.sort();
}

/** Deletes compiled .js/.js.map files in out/ whose .ts source no longer exists (a removed test must not keep running). */
function removeStaleOutputs() {
  const outDir = path.join(root, 'out');
  for (const f of findFiles(outDir, /\.js(\.map)?$/)) {
    const rel = path.relative(outDir, f).replace(/\.js(\.map)?$/, '');
    if (!fs.existsSync(path.join(root, `${rel}.ts`)) && !fs.existsSync(path.join(root, `${rel}.tsx`)))
      fs.rmSync(f, { force: true });
  }
}

/** The host install, started beside the build and unit tiers (a fresh machine spends ~3 min on it). */
let hostsReady = Promise.resolve(true);

/**
 * Installs the VS Code hosts in a child process (fast when present), so that on a fresh
 * machine the download and the native builds overlap the build and unit tiers. Resolves
 * true when every host is ready; a failure counts as one failed setup test.
 */
async function installHosts() {
  const t0 = Date.now();
  const r = await exec(process.execPath, ['scripts/host/install.mjs', `--host=${hostNames.join(',')}`], {
    quiet: true,
  });
  if (r.code === 0) {
    log(
      `\n✔ VS Code hosts ready: ${hostNames.join(', ')} (${fmtMs(Date.now() - t0)}, beside the other tiers)`,
    );
    return true;
  }
  log(`\n✖ VS Code host install failed:\n${tail(r.output, 20)}`);
  results.push({
    tier: 'setup',
    name: 'install VS Code host',
    passed: 0,
    failed: 1,
    ms: Date.now() - t0,
    failures: [{ title: 'install VS Code host', error: tail(r.output, 40) }],
  });
  return false;
}

async function setup() {
  // Dependencies (a fresh clone has none).
  if (
    !fs.existsSync(path.join(root, 'node_modules', 'typescript')) ||
    !fs.existsSync(path.join(root, 'node_modules', 'mocha'))
  ) {
    const ok = await step('setup', 'npm ci', 'npm', ['ci', '--no-audit', '--no-fund']);
    if (!ok) return false;
  }
  if (doHost) hostsReady = installHosts();
  return true;
}

/** What eslint checks (TypeScript with type information; the scripts as plain Node modules). */
const LINTED = ['src', 'test', 'scripts', 'esbuild.mjs', 'eslint.config.mjs'];
/** What Prettier holds to the house style in the build tier: everything not in .prettierignore. */
const FORMATTED = ['.'];

async function buildTier() {
  // out/ is not wiped (a host run of another checkout user may be reading it); compiled
  // files whose source is gone are removed after tsc instead.
  await step('build', 'tsc: compile src + test to out/', bin('tsc'), ['-p', '.', '--outDir', 'out']);
  removeStaleOutputs();
  await step('build', 'esbuild: bundle dist/', process.execPath, ['esbuild.mjs']);
  if (doUnit) {
    await step('build', 'eslint src test scripts (0 warnings)', bin('eslint'), [
      '--max-warnings=0',
      ...LINTED,
    ]);
    await step('build', 'prettier: every file formatted', bin('prettier'), ['--check', ...FORMATTED]);
    await step('build', 'tsc: typecheck the webview', bin('tsc'), ['-p', 'src/webview', '--noEmit']);
  }
}

async function unitTier() {
  const files = findFiles(path.join(root, 'out', 'test', 'unit'), /\.test\.js$/);
  log(`\n▶ unit tests: ${files.length} files (node --test)`);
  if (files.length === 0) {
    results.push({
      tier: 'unit',
      name: 'unit tests',
      passed: 0,
      failed: 0,
      failures: [],
      note: 'no files under out/test/unit',
    });
    return;
  }
  const tap = path.join(tmp, 'unit.tap');
  const t0 = Date.now();
  const r = await exec(
    process.execPath,
    [
      '--test',
      '--test-timeout=300000',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    { timeoutMs: 20 * 60_000 },
  );
  const { parseTap } = await import('./host/suite.mjs');
  const counts = parseTap(fs.existsSync(tap) ? fs.readFileSync(tap, 'utf8') : '');
  const failures = counts.failures;
  // A non-zero exit with no failed test counted (a crash, a timeout) is still a failure.
  if (r.code !== 0 && counts.failed === 0)
    failures.push({ title: 'node --test', error: `exit code ${r.code}\n${tail(r.output, 30)}` });
  results.push({
    tier: 'unit',
    name: 'unit tests (node --test)',
    passed: counts.passed,
    failed: Math.max(counts.failed, failures.length),
    skipped: counts.skipped,
    ms: Date.now() - t0,
    failures,
  });
}

/** Each host's results form their own tier, named after the VS Code version they came from. */
async function hostTier(hostName) {
  const { runHostTier } = await import('./host/suite.mjs');
  const { hostLabel } = await import('./host/install.mjs');
  const { scopeFor, onlyFiles } = await import('./host/plan.mjs');
  const label = hostLabel(hostName);
  const tier = `host ${label.replace(/^VS Code /, '')}`;
  hostTiers.push(tier);
  const only = args.only?.split(',').filter(Boolean);
  const files = args.files?.split(',').filter(Boolean);
  const scope = files ? onlyFiles(scopeFor(hostName), files) : scopeFor(hostName);
  log(
    `\n▶ host tier: the extension inside ${label} (${scope.name}${only ? `; ${only.join(', ')}` : ''}${files ? `; files ${files.join(', ')}` : ''})`,
  );
  const t0 = Date.now();
  const r = await runHostTier({
    root,
    host: hostName,
    log,
    ui: !args['no-ui'],
    vsix: !args['no-vsix'],
    only,
    scope,
    // media/screenshots come from the host with the full run only (or the files of it named with
    // --files), so they don't flip between versions.
    updateScreenshots: updateScreenshots && /^full(, files)?$/.test(scope.name),
    verbose: args.verbose === true,
  });
  for (const x of r) {
    results.push({ tier, ...x });
    log(
      `${x.failed ? '✖' : '✔'} [${label}] ${x.name}: ${x.passed} passed, ${x.failed} failed${x.skipped ? `, ${x.skipped} skipped` : ''}${x.ms ? ` (${fmtMs(x.ms)})` : ''}${x.note ? ` — ${x.note}` : ''}`,
    );
  }
  log(`host tier on ${label} done in ${fmtMs(Date.now() - t0)}`);
}

function summary() {
  const tiers = ['setup', 'build', 'unit', ...hostTiers];
  log('\n════════ summary ════════');
  const failures = results.flatMap((r) => r.failures.map((f) => ({ ...f, tier: r.tier, group: r.name })));
  if (failures.length) {
    log('Failures:');
    for (const f of failures) {
      log(`  ✖ [${f.tier}] ${f.title === f.group ? f.title : `${f.group} › ${f.title}`}`);
      if (f.error)
        log(
          f.error
            .split('\n')
            .slice(0, 25)
            .map((l) => `      ${l}`)
            .join('\n'),
        );
    }
    log('');
  }
  let passed = 0;
  let failed = 0;
  const width = Math.max(...tiers.map((t) => t.length));
  for (const t of tiers) {
    const rs = results.filter((r) => r.tier === t);
    if (!rs.length) continue;
    const p = rs.reduce((a, r) => a + r.passed, 0);
    const f = rs.reduce((a, r) => a + r.failed, 0);
    const s = rs.reduce((a, r) => a + (r.skipped ?? 0), 0);
    const ms = rs.reduce((a, r) => a + (r.ms ?? 0), 0);
    passed += p;
    failed += f;
    log(
      `${t.padEnd(width)} ${String(p).padStart(4)} passed, ${String(f).padStart(3)} failed${s ? `, ${s} skipped` : ''}  (${fmtMs(ms)})`,
    );
  }
  log(`total time ${fmtMs(Date.now() - started)}`);
  if (quarantine.length)
    log(
      `quarantine (failures reported, not counted): ${quarantine.map((q) => `${q.title} (${q.reason})`).join('; ')}`,
    );
  else log('quarantine: empty');
  return { passed, failed };
}

function finish(code, line) {
  fs.rmSync(tmp, { recursive: true, force: true });
  // Write the closing line last and exit only once it is flushed (stdout may be a pipe).
  process.stdout.write(`${line}\n`, () => process.exit(code));
}

const guard = setTimeout(() => {
  results.push({
    tier: 'setup',
    name: 'suite time limit',
    passed: 0,
    failed: 1,
    failures: [{ title: 'suite time limit', error: `stopped after ${SUITE_LIMIT_MS / 60000} min` }],
  });
  const { passed, failed } = summary();
  finish(1, `${passed} passed, ${failed} failed`);
}, SUITE_LIMIT_MS);
guard.unref();

try {
  log(
    `ODIN test suite: ${doUnit && doHost ? 'all tiers' : doUnit ? 'unit tier' : 'host tier'}${CI ? ' (CI)' : ''}${updateScreenshots ? ', updating media/screenshots' : ''}`,
  );
  const ready = await setup();
  if (ready !== false) {
    await buildTier();
    if (doUnit) await unitTier();
    if (doHost && (await hostsReady)) for (const h of hostNames) await hostTier(h);
  }
} catch (e) {
  results.push({
    tier: 'setup',
    name: 'test runner',
    passed: 0,
    failed: 1,
    failures: [{ title: 'test runner crashed', error: String(e?.stack ?? e) }],
  });
}
clearTimeout(guard);
const { passed, failed } = summary();
finish(failed > 0 || passed === 0 ? 1 : 0, `${passed} passed, ${failed} failed`);
