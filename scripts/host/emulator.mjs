// Starts the project's API emulator (src/emulator/server.ts) in this process for the host
// tests, the bench and the demo: from the tsc output (out/) or the esbuild bundle (dist/).
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * Where startEmulator can be loaded from, best first: the tests' emulator (tsc's output, or the
 * bundle `npm run emulator` runs), or for `prefer: 'dist'` (`npm run demo`) the demo's bundle
 * the .vsix ships, which has no admin API and no faults (src/emulator/demo.ts).
 */
export function emulatorCandidates(root, prefer = 'out') {
  const out = path.join(root, 'out', 'src', 'emulator', 'server.js');
  if (prefer === 'dist') return [path.join(root, 'dist', 'emulator.js'), out];
  return [out, path.join(root, 'dist', 'dev', 'emulator.js')];
}

/** Loads `startEmulator` or returns undefined (with the reason) when the emulator is not built. */
export function loadEmulator(root, { prefer = 'out' } = {}) {
  const tried = [];
  for (const file of emulatorCandidates(root, prefer)) {
    if (!fs.existsSync(file)) {
      tried.push(`${path.relative(root, file)}: missing`);
      continue;
    }
    try {
      const mod = require(file);
      const start = mod.startEmulator ?? mod.default?.startEmulator;
      if (typeof start === 'function') return { startEmulator: start, file };
      tried.push(`${path.relative(root, file)}: no startEmulator export`);
    } catch (e) {
      tried.push(`${path.relative(root, file)}: ${e instanceof Error ? e.message.split('\n')[0] : e}`);
    }
  }
  return { startEmulator: undefined, reason: tried.join('; ') };
}

/** The emulator's default demo key, from the compiled fixtures when available. */
export function demoApiKey(root) {
  try {
    return require(path.join(root, 'out', 'src', 'emulator', 'fixtures.js')).DEMO_API_KEY;
  } catch {
    const src = fs.readFileSync(path.join(root, 'src', 'emulator', 'fixtures.ts'), 'utf8');
    const m = /DEMO_API_KEY\s*=\s*'([^']+)'/.exec(src);
    if (!m) throw new Error('DEMO_API_KEY not found in src/emulator/fixtures.ts');
    return m[1];
  }
}
