// `npm run hunt:pack`: the hunt runner as an npm package of its own (packages/odin-hunt/).
// Stages the package folder with the licence and a production build of the runner (one file,
// nothing to install: esbuild.mjs --hunt-out), checks that its version is the extension's,
// and runs `npm pack` into --out-dir (default: the repository root).
//
// Usage: node scripts/package-hunt.mjs [--out-dir DIR]
// Prints "TARBALL <absolute path>" on success.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'packages', 'odin-hunt');

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

export function packHunt({ outDir = root } = {}) {
  const ext = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const pkg = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8'));
  if (pkg.version !== ext.version)
    throw new Error(`packages/odin-hunt version ${pkg.version} differs from the extension's ${ext.version}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-hunt-pack-'));
  try {
    for (const f of ['package.json', 'README.md']) fs.copyFileSync(path.join(source, f), path.join(dir, f));
    fs.copyFileSync(path.join(root, 'LICENSE'), path.join(dir, 'LICENSE'));
    const bin = path.join(dir, pkg.bin['odin-hunt']);
    run(process.execPath, ['esbuild.mjs', '--only=hunt', '--production', `--hunt-out=${bin}`], root);
    fs.chmodSync(bin, 0o755);
    fs.mkdirSync(outDir, { recursive: true });
    const out = run('npm', ['pack', '--json', '--pack-destination', path.resolve(outDir)], dir);
    const [{ filename, files }] = JSON.parse(out);
    return { file: path.resolve(outDir, filename), files: files.map((f) => f.path) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const i = args.indexOf('--out-dir');
  try {
    const r = packHunt({ outDir: i >= 0 ? path.resolve(args[i + 1]) : root });
    console.log(`[hunt:pack] ${r.files.join(', ')}`);
    console.log(`TARBALL ${r.file}`);
  } catch (e) {
    console.error(`[hunt:pack] ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
