/**
 * Loads the activation bundle (dist/main.js) through a V8 code cache kept beside it, so a
 * window after the first does not compile it again: compiling the bundle and the functions
 * activation runs was about a third of activation (docs/benchmarks.md). The cache is what
 * VS Code does for its own code: bytecode V8 made from this very file, in the extension's own
 * folder (whoever can write there can change the code itself), named by a hash of the source
 * and of the V8 version, so a rebuilt bundle or another VS Code never reads a cache that is
 * not its own (V8 itself checks only the source's length). A cache V8 rejects (other flags)
 * is made again; one that cannot be read or written (a read-only install) is no cache.
 * Plain Node, no `vscode`: the bundle requires that itself.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- `import x = require()`: the bundle
   takes Node's modules as they are, without esbuild copying each one's properties into a
   namespace object first (`import * as`), on the path of every activation. */
import crypto = require('node:crypto');
import fs = require('node:fs');
import Module = require('node:module');
import path = require('node:path');
import vm = require('node:vm');
/* eslint-enable @typescript-eslint/no-require-imports */

/** What VS Code calls on the extension's main module. */
export interface ExtensionMain {
  activate(context: unknown): unknown;
  deactivate?(): unknown;
}

/**
 * The cache file of a bundle's source under the running V8, beside it:
 * `<name>.v8-<version>.<hash>.cache` (the version in the name too, so that two VS Code versions
 * sharing the folder each keep their own).
 */
export function cacheFileOf(file: string, source: string): string {
  const hash = crypto
    .createHash('sha256')
    .update(process.versions.v8)
    .update('\0')
    .update(source)
    .digest('hex')
    .slice(0, 20);
  const v8 = process.versions.v8.replace(/[^\w.-]/g, '_');
  return path.join(path.dirname(file), `${path.basename(file, '.js')}.v8-${v8}.${hash}.cache`);
}

/**
 * Evaluates the CommonJS bundle `file` as Node would (its own `module`, `require` and place
 * in `require.cache`, so the parts that require it find this one), compiled from the cache
 * when there is one. Returns its exports, with `activate` writing the cache after the first
 * activation without one (then it holds the functions activation compiled too).
 */
export function loadWithCodeCache(file: string): ExtensionMain & Record<string, unknown> {
  const source = fs.readFileSync(file, 'utf8');
  const cacheFile = cacheFileOf(file, source);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // None yet: made after this activation.
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  // Node's public module API only: the bundle requires through the `require` it is handed
  // (resolving from its own folder), never through `module.require` or `module.paths`.
  const mod = new Module(file);
  mod.filename = file;
  const req = Module.createRequire(file);
  mod.paths = req.resolve.paths('vscode') ?? [];
  require.cache[file] = mod;
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(mod.exports, mod.exports, req, mod, file, path.dirname(file));
  mod.loaded = true;
  const main = mod.exports as ExtensionMain & Record<string, unknown>;
  if (cachedData && !script.cachedDataRejected) return main;
  return {
    ...main,
    activate: (context: unknown) => {
      const result = main.activate(context);
      writeCache(script, cacheFile);
      return result;
    },
  };
}

/**
 * Written whole or not at all (two windows may start at once); the bundle's older caches for
 * this V8 removed.
 */
function writeCache(script: vm.Script, cacheFile: string): void {
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, script.createCachedData());
    fs.renameSync(tmp, cacheFile);
    const dir = path.dirname(cacheFile);
    // `<name>.v8-<version>.`: the version may hold dots, the hash does not.
    const stem = path.basename(cacheFile).replace(/[^.]+\.cache$/, '');
    for (const f of fs.readdirSync(dir))
      if (f.startsWith(stem) && f.endsWith('.cache') && f !== path.basename(cacheFile))
        fs.rmSync(path.join(dir, f), { force: true });
  } catch {
    // A read-only install: no cache, the bundle compiles as without one.
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // Nothing was written.
    }
  }
}
