// `npm run package`: production build, then `vsce package` into <name>-<version>.vsix.
// Dependencies are bundled by esbuild, hence --no-dependencies; .vscodeignore keeps the
// package to dist/, media/, package.json, README, CHANGELOG and LICENSE, and this script
// checks that nothing else slipped in.
//
// Usage: node scripts/package.mjs [--out-dir DIR] [--no-build]
// Prints "VSIX <absolute path>" on success.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Files allowed in the .vsix (paths inside extension/). */
export const ALLOWED = [/^dist\/.+(?<!\.map)$/, /^media\/(?!screenshots\/).+/, /^package\.json$/, /^README\.md$/, /^CHANGELOG\.md$/, /^LICENSE(\.txt|\.md)?$/];

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...opts });
  if (r.error) throw r.error;
  return r;
}

const vsceBin = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');

/** Files vsce would put into the package. */
export function listPackageFiles() {
  const r = run(process.execPath, [vsceBin, 'ls', '--no-dependencies'], { stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`vsce ls failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

export function packageExtension({ outDir = root, build = true } = {}) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  if (build) {
    const b = run(process.execPath, ['esbuild.mjs', '--production'], { stdio: 'inherit' });
    if (b.status !== 0) throw new Error('production build failed');
  }
  const files = listPackageFiles();
  const unexpected = files.filter((f) => !ALLOWED.some((re) => re.test(f)));
  if (unexpected.length) throw new Error(`unexpected files in the package (fix .vscodeignore): ${unexpected.join(', ')}`);
  const main = (pkg.main ?? '').replace(/^\.\//, '');
  if (main && !files.includes(main)) throw new Error(`package.json main ${main} is not in the package`);

  fs.mkdirSync(outDir, { recursive: true });
  const out = path.resolve(outDir, `${pkg.name}-${pkg.version}.vsix`);
  // stdin closed: vsce must never wait for a y/N answer (CI has no terminal).
  const r = run(process.execPath, [vsceBin, 'package', '--no-dependencies', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0 || !fs.existsSync(out)) throw new Error(`vsce package failed:\n${r.stdout}\n${r.stderr}`);
  const warnings = `${r.stdout}\n${r.stderr}`
    .split('\n')
    .filter((l) => /WARNING|warn/i.test(l))
    .map((l) => l.trim());
  return { file: out, bytes: fs.statSync(out).size, files, warnings };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outIdx = args.indexOf('--out-dir');
  const outDir = outIdx >= 0 ? path.resolve(args[outIdx + 1]) : root;
  try {
    const t0 = Date.now();
    const r = packageExtension({ outDir, build: !args.includes('--no-build') });
    for (const w of r.warnings) console.log(`[package] ${w}`);
    console.log(`[package] ${r.files.length} files, ${(r.bytes / 1024).toFixed(1)} KB, ${Date.now() - t0} ms:`);
    for (const f of r.files) console.log(`  ${f}`);
    console.log(`VSIX ${r.file}`);
  } catch (e) {
    console.error(`[package] ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
