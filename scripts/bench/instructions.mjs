// Detection cost in machine instructions per byte, counted by valgrind (callgrind): ours beside
// the minimal trigger scan of detect.mjs, on the same generated log. Unlike times, these counts
// do not move with the neighbours on a shared machine, so a change to the scanner can be judged
// by a difference of a few percent.
//
//   npx tsc -p . --outDir out && node scripts/bench/instructions.mjs
//
// Each side runs in its own node under valgrind, once with WARM passes over the text and once
// with WARM + PASSES; the difference is PASSES steady-state passes (start-up and text generation
// cancel out). V8's optimising compilers are left out of the count: when they run (a function
// can become hot in the third pass or the fifth) is not what a pass costs, and it moved the
// difference by up to 7 instructions per byte. Skipped when valgrind is not installed (it is not
// needed otherwise).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDirectly } from '../args.mjs';

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '../..');
const MB = 2;
const PASSES = 4;
const WARM = 2;

/** Functions of V8's compilers (TurboFan, Maglev, and the zones and tables they build with). */
const COMPILER = /v8::internal::(compiler|maglev|turboshaft)::|v8::internal::Zone|detail::sprp/;

/** Instructions in a callgrind profile, less those in compiler functions (callgrind_annotate, self cost). */
function withoutCompilers(file) {
  const out = spawnSync('callgrind_annotate', ['--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (out.status !== 0) throw new Error(`callgrind_annotate failed: ${out.stderr}`);
  let total = 0;
  let compilers = 0;
  for (const line of out.stdout.split('\n')) {
    const m = /^\s*([\d,]+) \([^)]*\)\s+(.*)$/.exec(line);
    if (!m) continue;
    const ir = Number(m[1].replaceAll(',', ''));
    if (m[2].startsWith('PROGRAM TOTALS')) total = ir;
    else if (COMPILER.test(m[2])) compilers += ir;
  }
  if (total === 0) throw new Error(`no totals in the callgrind profile ${file}`);
  return total - compilers;
}

function counted(side, passes) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'odin-instructions-'));
  const file = path.join(dir, 'callgrind.out');
  return new Promise((resolve, reject) => {
    const child = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        `--callgrind-out-file=${file}`,
        process.execPath,
        // Compile on the main thread so that no compiler thread runs in a measured window.
        '--single-threaded',
        // WebAssembly straight to optimised code: a long scan runs that soon (V8 tiers it up on a
        // background thread), but on the main thread the baseline code would run for most of
        // the measured passes.
        '--no-liftoff',
        self,
        `--child=${side}`,
        `--passes=${passes}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        if (code !== 0)
          throw new Error(
            `valgrind ${side} ${passes} exited ${code}: ${err.split('\n').slice(-5).join(' ')}`,
          );
        resolve(withoutCompilers(file));
      } catch (e) {
        reject(e);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

async function perByte(side, bytes) {
  // Two at a time: the machine has two cores, and each count is independent of the other.
  const [warm, more] = await Promise.all([counted(side, WARM), counted(side, WARM + PASSES)]);
  return (more - warm) / (PASSES * bytes);
}

async function child(side, passes) {
  const { generateLog, minimalScan } = await import('./detect.mjs');
  const { detectTable } = createRequire(import.meta.url)(path.join(root, 'out/src/core/detect/index.js'));
  const text = generateLog(MB * 1024 * 1024);
  let n = 0;
  for (let r = 0; r < passes; r++)
    n += side === 'ours' ? detectTable(text, { mode: 'text' }).length : minimalScan(text);
  process.stdout.write(`${n}\n`);
}

export default async function run() {
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    return [
      {
        name: 'instructions: skipped',
        value: 0,
        unit: '',
        note: 'valgrind is not installed (apt-get install valgrind)',
      },
    ];
  }
  const { generateLog } = await import('./detect.mjs');
  const bytes = generateLog(MB * 1024 * 1024).length;
  const ours = await perByte('ours', bytes);
  const minimal = await perByte('minimal', bytes);
  const note = `callgrind, ${PASSES} passes over a ${MB} MB generated log after ${WARM} warm-up passes, V8's compilers left out`;
  return [
    { name: 'instructions: ours', value: Number(ours.toFixed(1)), unit: 'per byte', note },
    { name: 'instructions: minimal trigger scan', value: Number(minimal.toFixed(1)), unit: 'per byte', note },
    {
      name: 'instructions: ratio ours/minimal',
      value: Number((ours / minimal).toFixed(2)),
      unit: 'x',
      note: 'a count, not a time: the same in every run; ours also runs fewer instructions per cycle, so its time ratio is higher',
    },
  ];
}

const childArg = process.argv.find((a) => a.startsWith('--child='));
if (childArg) {
  const passes = Number(process.argv.find((a) => a.startsWith('--passes='))?.slice(9) ?? 1);
  await child(childArg.slice(8), passes);
} else if (runDirectly(import.meta.url)) {
  for (const row of await run())
    console.log(`${row.name.padEnd(36)} ${String(row.value).padStart(8)} ${row.unit}  ${row.note ?? ''}`);
}
