// Runs a bench block of the integration suite (`describe('<name>-bench', …)`) inside the
// real VS Code host against a fresh emulator with a fixed latency, and returns the JSON the
// block wrote to ODIN_BENCH_OUT. Shared by the hover and webview bench sections.
import * as fs from 'node:fs';
import * as os from 'node:os';
import path from 'node:path';
import { loadEmulator } from './emulator.mjs';
import { startHost } from './host.mjs';

export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}
export const median = (xs) => quantile(xs, 0.5);

/**
 * @param {{ root: string, grep: string, n: number, latencyMs: number, timeoutMs: number, needs?: string[], env?: Record<string, string> }} o
 *   grep: the ODIN_TEST_GREP of the bench block; needs: built files (relative to root) to check
 *   first; env: more for the block (what to measure)
 */
export async function runBenchInHost({ root, grep, n, latencyMs, timeoutMs, needs = [], env = {} }) {
  const testsEntry = path.join(root, 'out', 'test', 'integration', 'index.js');
  for (const f of [testsEntry, ...needs.map((p) => path.join(root, p))]) {
    if (!fs.existsSync(f)) throw new Error(`missing ${path.relative(root, f)}: run tsc and esbuild first`);
  }
  const { startEmulator, reason } = loadEmulator(root);
  if (!startEmulator) throw new Error(`emulator not loadable: ${reason}`);
  const emu = await startEmulator({ port: 0, seed: 1, latencyMs });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-bench-'));
  const outFile = path.join(tmp, 'result.json');
  const workspace = path.join(tmp, 'ws');
  fs.mkdirSync(workspace);
  let host;
  try {
    host = await startHost({
      workspace,
      trusted: true,
      extensionDevelopmentPath: root,
      extensionTestsPath: testsEntry,
      timeoutMs,
      env: {
        ODIN_EXTENSION_TEST: '1',
        ODIN_TEST_RUN: 'bench',
        ODIN_TEST_EMULATOR_URL: emu.url,
        ODIN_TEST_API_KEY: emu.apiKey,
        ODIN_TEST_KEY_VIA: 'env',
        ODIN_API_KEY: emu.apiKey,
        ODIN_TEST_GREP: grep,
        ODIN_BENCH_OUT: outFile,
        ODIN_BENCH_N: String(n),
        ...env,
      },
      userSettings: { 'odin.apiBaseUrl': emu.url, 'odin.rateLimit.requestsPerMinute': 100000 },
    });
    const code = await host.waitForExit(timeoutMs);
    if (!fs.existsSync(outFile)) {
      const tail = host.logs
        .slice(-20)
        .map((l) => l.msg.slice(0, 300))
        .join('\n');
      throw new Error(`the bench inside the host wrote no result (exit ${code}):\n${tail}`);
    }
    return JSON.parse(fs.readFileSync(outFile, 'utf8'));
  } finally {
    await host?.stop();
    await emu.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
