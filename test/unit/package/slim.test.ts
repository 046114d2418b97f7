/**
 * What the two largest bundles of the .vsix besides the extension's own leave out. The demo's
 * emulator (dist/emulator.js, src/emulator/demo.ts) imports none of the tests' harness: the
 * admin API, the faults, the changes of the data (its source files come from esbuild itself,
 * `node esbuild.mjs --inputs`). The MCP server (dist/mcp.js) is bundled from the SDK's ES
 * modules, so esbuild drops the zod code the SDK never calls (esbuild-plugins.mjs, mcpSlim);
 * test/unit/agent/mcp.test.ts drives that bundle with the SDK's client. In the .vsix it takes
 * the modules dist/shared.js carries from that file, never one needing dist/extension.js.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { bundleInputs, root } from './bundleInputs';

const HARNESS = ['admin.ts', 'change.ts', 'faultReplies.ts', 'faults.ts', 'cli.ts'].map(
  (f) => `src/emulator/${f}`,
);

test("the demo's emulator bundle holds none of the tests' harness; `npm run emulator`'s has it all", () => {
  const inputs = bundleInputs(['emulator', 'emulatorCli']);
  assert.deepEqual(
    inputs.emulator.filter((f) => HARNESS.includes(f)),
    [],
  );
  assert.ok(inputs.emulator.includes('src/emulator/serve.ts'), 'the server itself is in');
  assert.ok(inputs.emulator.includes('src/emulator/catalog.ts'), 'and the data it generates');
  assert.deepEqual(inputs.emulatorCli.filter((f) => HARNESS.includes(f)).sort(), [...HARNESS].sort());
});

test('the MCP server is bundled from the SDK’s ES modules, without the zod code nothing calls', () => {
  const inputs = bundleInputs(['mcp']).mcp;
  const sdk = inputs.filter((f) => f.includes('@modelcontextprotocol/sdk/'));
  assert.ok(sdk.length > 5, 'the SDK is in');
  assert.deepEqual(
    sdk.filter((f) => !f.includes('/dist/esm/')),
    [],
    'every SDK module from its ES build',
  );
  // What esbuild dropped is in no output: zod's code generator (`z.compile`) and its JSON
  // Schema converters (in place of these, modules that throw if ever called).
  const bundle = join(root, 'dist', 'mcp.js');
  assert.ok(existsSync(bundle), 'dist/ is built by esbuild before the unit tests');
  const text = readFileSync(bundle, 'utf8');
  assert.ok(!text.includes('z.compile does not support'), "zod's code generator is in dist/mcp.js");
  assert.ok(text.includes('odin-mcp is built without to-json-schema.js'), 'the converters are stubs');
});

test('the MCP server takes the core from dist/shared.js, and nothing it takes loads dist/extension.js', () => {
  const inputs = bundleInputs(['mcp']).mcp;
  const taken = inputs.filter((f) => f.startsWith('odin-shared:')).map((f) => f.slice('odin-shared:'.length));
  // As dist/mcp.js reads them in plain Node (no `vscode`), each with what it imports.
  const shared = join(root, 'dist', 'shared.js');
  assert.ok(existsSync(shared), 'dist/ is built by esbuild before the unit tests');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const carrier = require(shared) as { __odinShared: Record<string, unknown> };
  for (const f of taken) assert.ok(carrier.__odinShared[f], `dist/shared.js carries ${f}`);
  assert.equal(require.cache[join(root, 'dist', 'extension.js')], undefined, 'no dist/extension.js');
  for (const f of [
    'src/core/detect/indicators.ts',
    'src/core/privacy/registry.ts',
    'src/api/normalize/hosts.ts',
  ])
    assert.ok(taken.includes(f) && !inputs.includes(f), `${f} from dist/shared.js, not in dist/mcp.js`);
});
