// `npm run package`: production build, then `vsce package` into <name>-<version>.vsix.
// Dependencies are bundled by esbuild, hence --no-dependencies; .vscodeignore keeps the
// package to dist/, media/, package.json, README, CHANGELOG and LICENSE, and this script
// checks that nothing else slipped in. scripts/publish-check.mjs (`npm run package:check`)
// checks the result further (docs/publishing.md).
//
// The build and packaging happen in a staging copy (src, manifest, media, docs;
// node_modules linked), so the development build in dist/ is left alone and a test run
// that is using it is not disturbed. vsce runs the manifest's `vscode:prepublish` (the
// production build) there.
//
// The manifest names no repository (there is no public one yet). ODIN_REPOSITORY_URL (an
// https URL of the public repository, set when publishing) puts `repository`, `homepage` and
// `bugs` into the staged manifest, and vsce then turns the README's relative links into
// links to that repository; without it the links stay relative (right for a .vsix installed
// by hand, broken on a registry's page).
//
// Usage: node scripts/package.mjs [--out-dir DIR] [--pre-release]
// Prints "VSIX <absolute path>" on success.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDirectly, scriptArgs } from './args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Files allowed in the .vsix (paths inside extension/). */
export const ALLOWED = [
  /^dist\/.+(?<!\.map)$/,
  /^media\/(?!screenshots\/)(?!details\.css$).+/,
  /^package\.json$/,
  /^package\.nls(\.[a-z-]+)?\.json$/,
  /^l10n\/bundle\.l10n(\.[a-z-]+)?\.json$/,
  /^README\.md$/,
  /^CHANGELOG\.md$/,
  /^LICENSE(\.txt|\.md)?$/,
];

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (r.error) throw r.error;
  return r;
}

const vsceBin = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');

/** Files vsce would put into the package built from `dir`. */
export function listPackageFiles(dir = root) {
  const r = run(process.execPath, [vsceBin, 'ls', '--no-dependencies'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0) throw new Error(`vsce ls failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/** What the staging copy needs: the build inputs and everything .vscodeignore may ship. */
const STAGE = [
  'package.json',
  ...fs.readdirSync(root).filter((f) => /^package\.nls(\.[a-z-]+)?\.json$/.test(f)),
  'l10n',
  'esbuild.mjs',
  'scripts/esbuild-plugins.mjs',
  'scripts/codicons.mjs',
  'tsconfig.json',
  'src',
  'media',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
  '.vscodeignore',
];

/** A staging copy of the build inputs, node_modules linked. The caller removes it. */
export function stage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-package-'));
  for (const item of STAGE) {
    const from = path.join(root, item);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(dir, item), { recursive: true });
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** A staging copy with the production build in its dist/ (for the bench). The caller removes it. */
export function stageProductionBuild() {
  const dir = stage();
  const b = run(process.execPath, ['esbuild.mjs', '--production'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (b.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`production build failed:\n${b.stdout}\n${b.stderr}`);
  }
  return dir;
}

/** The repository links for the staged manifest, from ODIN_REPOSITORY_URL; throws on a bad one. */
export function repositoryFields(url = process.env.ODIN_REPOSITORY_URL?.trim()) {
  if (!url) return undefined;
  if (!/^https:\/\/[\w.-]+\/[\w.-]+\/[\w.-]+$/.test(url))
    throw new Error(`ODIN_REPOSITORY_URL must be https://<host>/<owner>/<repository>, got ${url}`);
  return { repository: { type: 'git', url }, homepage: `${url}#readme`, bugs: { url: `${url}/issues` } };
}

export function packageExtension({ outDir = root, preRelease = false } = {}) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const links = repositoryFields();
  const dir = stage();
  try {
    if (links) {
      const staged = { ...pkg, ...links };
      fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(staged, null, 2)}\n`);
    }
    fs.mkdirSync(outDir, { recursive: true });
    const out = path.resolve(outDir, `${pkg.name}-${pkg.version}.vsix`);
    const flags = [
      ...(links ? [] : ['--allow-missing-repository', '--no-rewrite-relative-links']),
      ...(preRelease ? ['--pre-release'] : []),
    ];
    // vsce runs `vscode:prepublish` (the production build) first. stdin closed: vsce must
    // never wait for a y/N answer (CI has no terminal).
    const r = run(process.execPath, [vsceBin, 'package', '--no-dependencies', ...flags, '--out', out], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (r.status !== 0 || !fs.existsSync(out))
      throw new Error(`vsce package failed:\n${r.stdout}\n${r.stderr}`);
    const files = listPackageFiles(dir);
    const unexpected = files.filter((f) => !ALLOWED.some((re) => re.test(f)));
    if (unexpected.length)
      throw new Error(`unexpected files in the package (fix .vscodeignore): ${unexpected.join(', ')}`);
    const main = (pkg.main ?? '').replace(/^\.\//, '');
    if (main && !files.includes(main)) throw new Error(`package.json main ${main} is not in the package`);
    const warnings = `${r.stdout}\n${r.stderr}`
      .split('\n')
      .filter((l) => /WARNING|warn/i.test(l))
      .map((l) => l.trim());
    const sizes = Object.fromEntries(files.map((f) => [f, fs.statSync(path.join(dir, f)).size]));
    return {
      file: out,
      bytes: fs.statSync(out).size,
      files,
      sizes,
      warnings,
      repository: links?.repository.url,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (runDirectly(import.meta.url)) {
  const { values } = scriptArgs(import.meta.url, {
    'out-dir': { type: 'string' },
    'pre-release': { type: 'boolean' },
  });
  const outDir = values['out-dir'] ? path.resolve(values['out-dir']) : root;
  try {
    const t0 = Date.now();
    const r = packageExtension({ outDir, preRelease: values['pre-release'] === true });
    for (const w of r.warnings) console.log(`[package] ${w}`);
    console.log(
      `[package] ${r.files.length} files, ${(r.bytes / 1024).toFixed(1)} KB packed, ${Date.now() - t0} ms:`,
    );
    for (const f of r.files)
      console.log(`  ${f.padEnd(40)} ${(r.sizes[f] / 1024).toFixed(1).padStart(8)} KB`);
    console.log(`VSIX ${r.file}`);
  } catch (e) {
    console.error(`[package] ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
