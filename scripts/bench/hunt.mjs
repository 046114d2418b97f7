// Bench section: the hunt runner (dist/ci/hunt.js) over the emulator's 5,000 hosts.
// 50 hunts in 5 files (hosts by port and country, broad ones with many pages, buckets, files,
// domains, and five hunts that repeat another's query): wall time, requests sent, peak
// memory of the runner's process (its maxRSS, written by a preload as it exits), and the
// count of requests asked twice within the run (budget 0: counts and pages come from the
// run's request layer cache when asked again).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

export const BUDGETS = { peakMB: 150, repeated: 0 };

const PORTS = [22, 23, 80, 443, 3389, 6379, 11211, 3306, 5432, 8080];
const COUNTRIES = ['NL', 'DE', 'US', 'FR', 'GB'];

/** The 50 hunts, as 5 files of 10. */
export function benchHunts() {
  const hunts = [];
  for (let i = 0; i < 30; i++)
    hunts.push(
      `@hosts Port ${PORTS[i % 10]} in ${COUNTRIES[i % 5]} ${i}\nservices.port:${PORTS[i % 10]} AND location.country_code:${COUNTRIES[Math.floor(i / 10) + (i % 2)]}\n`,
    );
  for (const p of [80, 443, 22, 8080, 3306]) hunts.push(`@hosts Everything on ${p}\nservices.port:${p}\n`);
  for (let i = 0; i < 5; i++)
    hunts.push(
      `@buckets Buckets ${i}  sort=files order=desc\nprovider: aws AND name: *${['prod', 'dev', 'backup', 'data', 'log'][i]}*\n`,
    );
  for (let i = 0; i < 3; i++)
    hunts.push(`@files Files ${i}\nprovider: aws AND ext: ".${['db', 'sql', 'env'][i]}"\n`);
  for (let i = 0; i < 2; i++) hunts.push(`@domains Domains ${i}\nkeyword: ${['api', 'mail'][i]}\n`);
  // Five hunts that repeat another's query (a copy in another team's file): asked once.
  for (let i = 0; i < 5; i++) hunts.push(hunts[i].replace(/^@hosts /, '@hosts Again '));
  return hunts;
}

const PRELOAD = `process.on('exit', () => require('node:fs').writeSync(2, '\\nODIN_BENCH_RSS ' + process.resourceUsage().maxRSS + '\\n'));\n`;

export default async function run() {
  const { startEmulator } = require(path.join(root, 'out', 'src', 'emulator', 'server.js'));
  const emu = await startEmulator({ hosts: 5000, apiKey: 'odin-bench-key' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-hunt-bench-'));
  try {
    const hunts = benchHunts();
    fs.mkdirSync(path.join(dir, 'hunts'));
    for (let f = 0; f < 5; f++)
      fs.writeFileSync(
        path.join(dir, 'hunts', `team${f}.odinq`),
        hunts.slice(f * 10, f * 10 + 10).join('\n'),
      );
    fs.writeFileSync(path.join(dir, 'preload.js'), PRELOAD);
    emu.clearLog();
    const t0 = performance.now();
    const r = await new Promise((resolve, reject) => {
      const c = spawn(
        process.execPath,
        [
          '--require',
          path.join(dir, 'preload.js'),
          path.join(root, 'dist', 'ci', 'hunt.js'),
          'run',
          'hunts',
          '--sarif',
          'out.sarif',
          '--jsonl',
          'out.jsonl',
        ],
        {
          cwd: dir,
          env: { PATH: process.env.PATH ?? '', ODIN_API_KEY: 'odin-bench-key', ODIN_API_URL: emu.url },
        },
      );
      let err = '';
      c.stderr.on('data', (d) => (err += String(d)));
      c.on('error', reject);
      c.on('close', (code) => resolve({ code, err }));
    });
    const ms = performance.now() - t0;
    const rss = Number(/ODIN_BENCH_RSS (\d+)/.exec(r.err)?.[1] ?? NaN) / 1024;
    const asked = emu.requests.map((e) => `${e.method} ${e.path} ${JSON.stringify(e.body ?? null)}`);
    const repeated = asked.length - new Set(asked).size;
    const findings = fs.readFileSync(path.join(dir, 'out.jsonl'), 'utf8').split('\n').filter(Boolean).length;
    return [
      {
        name: 'hunt: 50 hunts over 5,000 hosts, wall time',
        value: Math.round(ms),
        unit: 'ms',
        note: `exit ${r.code}, ${findings} findings`,
      },
      { name: 'hunt: requests sent', value: asked.length, unit: 'requests' },
      {
        name: 'hunt: requests asked twice within the run',
        value: repeated,
        unit: 'requests',
        target: `<= ${BUDGETS.repeated}`,
      },
      {
        name: 'hunt: peak memory of the runner (maxRSS)',
        value: Math.round(rss),
        unit: 'MB',
        target: `<= ${BUDGETS.peakMB}`,
      },
    ];
  } finally {
    await emu.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
