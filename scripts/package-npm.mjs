// `npm run hunt:pack` / `npm run mcp:pack`: the hunt runner or the MCP server as an npm package
// of its own (packages/odin-<name>/). Stages the package folder with the licence and a
// production build of its bin (one file, nothing to install: `esbuild.mjs --only=<name> --out`),
// checks that every version it declares (package.json, and server.json's for the MCP
// Registry) is the extension's, and runs `npm pack` into --out-dir (default: the repository root).
//
// Usage: node scripts/package-npm.mjs hunt|mcp [--out-dir DIR]
// Prints "TARBALL <absolute path>" on success.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDirectly, scriptArgs } from './args.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The packages and the esbuild.mjs target each one's bin is built from. */
export const NPM_PACKAGES = ['hunt', 'mcp'];

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

export function packNpm(name, { outDir = root } = {}) {
  if (!NPM_PACKAGES.includes(name)) throw new Error(`no package "${name}" (${NPM_PACKAGES.join(', ')})`);
  const source = path.join(root, 'packages', `odin-${name}`);
  const ext = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const files = fs.readdirSync(source).filter((f) => /\.(json|md)$/.test(f));
  const read = (f) => JSON.parse(fs.readFileSync(path.join(source, f), 'utf8'));
  const pkg = read('package.json');
  const server = files.includes('server.json') ? read('server.json') : undefined;
  const versions = [pkg.version, server?.version, ...(server?.packages ?? []).map((p) => p.version)];
  const stale = versions.filter((v) => v !== undefined && v !== ext.version);
  if (stale.length)
    throw new Error(
      `packages/odin-${name} versions ${stale.join(', ')} differ from the extension's ${ext.version}`,
    );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `odin-${name}-pack-`));
  try {
    for (const f of files) fs.copyFileSync(path.join(source, f), path.join(dir, f));
    fs.copyFileSync(path.join(root, 'LICENSE'), path.join(dir, 'LICENSE'));
    const bin = path.join(dir, pkg.bin[`odin-${name}`]);
    run(process.execPath, ['esbuild.mjs', `--only=${name}`, '--production', `--out=${bin}`], root);
    fs.chmodSync(bin, 0o755);
    fs.mkdirSync(outDir, { recursive: true });
    const out = run('npm', ['pack', '--json', '--pack-destination', path.resolve(outDir)], dir);
    const [{ filename, files: packed }] = JSON.parse(out);
    return { file: path.resolve(outDir, filename), files: packed.map((f) => f.path) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (runDirectly(import.meta.url)) {
  const { values, positionals } = scriptArgs(
    import.meta.url,
    { 'out-dir': { type: 'string' } },
    { positionals: true },
  );
  const [name] = positionals;
  if (positionals.length !== 1 || !NPM_PACKAGES.includes(name)) {
    console.error(`package-npm.mjs: name one package, ${NPM_PACKAGES.join(' or ')} (--help for more)`);
    process.exit(2);
  }
  try {
    const r = packNpm(name, { outDir: values['out-dir'] ? path.resolve(values['out-dir']) : root });
    console.log(`[${name}:pack] ${r.files.join(', ')}`);
    console.log(`TARBALL ${r.file}`);
  } catch (e) {
    console.error(`[${name}:pack] ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  }
}
