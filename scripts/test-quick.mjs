// The quick loop for a developer: the build and unit tiers, then the host tests that exercise
// the given folders or files (scripts/host/plan.mjs FOLDER_TESTS) on the newest VS Code only,
// without the UI tests unless a UI file is named or --ui is given. Under 3 minutes on 2 cores.
//
//   npm run test:quick -- src/extension/hunts            unit + the hunts host tests
//   npm run test:quick -- src/core/gate src/extension/lookup --ui
//   npm run test:quick -- test/integration/saved.test.ts one host test file
//
// The whole suite (`npm test`) is what CI runs; this is for the minutes between.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scriptArgs } from './args.mjs';
import { testsForPath } from './host/plan.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args, positionals: paths } = scriptArgs(
  import.meta.url,
  { ui: { type: 'boolean' }, verbose: { type: 'boolean' } },
  { positionals: true },
);
if (!paths.length) {
  console.error('usage: npm run test:quick -- <folder or file> [more…] [--ui]');
  process.exit(2);
}
const files = [...new Set(paths.flatMap((p) => testsForPath(path.relative(root, path.resolve(p)))))];
const ui = args.ui || paths.some((p) => /test\/ui\//.test(p));
console.log(`quick loop: unit tier, then on the newest VS Code: ${files.join(', ') || '(no host files)'}`);

const argv = [
  '--hosts=newest',
  `--files=${files.join(',')}`,
  ...(ui ? [] : ['--no-ui']),
  ...(args.verbose ? ['--verbose'] : []),
];
const p = spawn(
  process.execPath,
  [path.join(root, 'scripts', 'test-all.mjs'), ...(files.length ? argv : ['--unit'])],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
p.on('close', (code) => process.exit(code ?? 1));
