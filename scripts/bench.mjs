// `npm run bench`: runs every section in scripts/bench/*.mjs and prints one table.
//
// A section is a module whose default export is
//   async function run(): Promise<Array<{ name, value, unit, target?, note? }>>
// `target` is a budget: "< 50", "<= 150", "> 1000", ">= 10", or a number (an upper bound).
// Rows with a target are marked pass/fail.
//
// A section that measures inside the VS Code host says so with `export const onHosts = true`:
// it runs once per host (`--hosts=oldest,newest`, default both: the oldest VS Code the manifest
// allows and the newest installed), with env ODIN_HOST set, and its rows say which host. Its
// budgets are ratios or overheads against a baseline measured on the same host in the same run.
//
// Each section runs in a Node process of its own, one after the other: a figure measured after
// other sections in one process read what they left behind (the freeze section's heap ratio
// read 0.99 there against 1.02 fresh, detection's throughput 82 MB/s against 91).
//
// Before the sections run, the checkout is built (tsc → out/, esbuild → dist/) unless
// --no-build: sections measure out/ (pure modules) or the bundles.
//
// Usage: node scripts/bench.mjs [--only=activation,hover] [--hosts=oldest,newest] [--json=FILE]
//                              [--strict] [--no-build]
//   --strict  exit 1 when a budget is missed (default: report only)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scriptArgs } from './args.mjs';
import { HOSTS, HOST_NAMES } from './host/install.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = scriptArgs(import.meta.url, {
  only: { type: 'string' },
  hosts: { type: 'string' },
  json: { type: 'string' },
  strict: { type: 'boolean' },
  'no-build': { type: 'boolean' },
});
const only = args.only?.split(',').filter(Boolean);
const hostNames = args.hosts?.split(',').filter(Boolean) ?? [...HOST_NAMES];
for (const h of hostNames)
  if (!HOSTS[h]) throw new Error(`--hosts: unknown host ${h} (known: ${Object.keys(HOSTS).join(', ')})`);

/** Parses a target into a check; undefined when there is none. */
export function budget(target) {
  if (target === undefined || target === null || target === '') return undefined;
  if (typeof target === 'number') return { text: `<= ${target}`, ok: (v) => v <= target };
  const m = /^\s*(<=|>=|<|>|≤|≥)\s*(-?[\d.]+)/.exec(String(target));
  if (!m) return { text: String(target), ok: () => true };
  const n = Number(m[2]);
  const op = { '≤': '<=', '≥': '>=' }[m[1]] ?? m[1];
  const ok = { '<': (v) => v < n, '<=': (v) => v <= n, '>': (v) => v > n, '>=': (v) => v >= n }[op];
  return { text: `${op} ${n}`, ok };
}

/**
 * What runs one section in a fresh process: its rows (or why it failed) into the file
 * BENCH_ROWS names. Its output goes to the terminal as it comes.
 */
const SECTION_CHILD = `
import * as fs from 'node:fs';
let result;
try {
  const mod = await import(process.env.BENCH_SECTION);
  result = { rows: await mod.default() };
} catch (e) {
  result = { error: e instanceof Error ? e.stack : String(e) };
}
fs.writeFileSync(process.env.BENCH_ROWS, JSON.stringify(result));
// A server or timer a section left open must not keep the bench waiting.
process.exit(0);
`;

/** Runs a section's default export in a fresh Node process (env: ODIN_HOST for a host). */
function runSection(file, host) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-bench-'));
  const rowsFile = path.join(tmp, 'rows.json');
  try {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', SECTION_CHILD], {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        BENCH_SECTION: pathToFileURL(file).href,
        BENCH_ROWS: rowsFile,
        ...(host ? { ODIN_HOST: host } : {}),
      },
    });
    if (!fs.existsSync(rowsFile))
      throw new Error(`exit ${r.status ?? r.signal}: ${r.error?.message ?? 'no rows'}`);
    const { rows, error } = JSON.parse(fs.readFileSync(rowsFile, 'utf8'));
    if (error) throw new Error(error);
    // JSON has no NaN: a figure that could not be read comes back null.
    return rows.map((row) => (row.value === null ? { ...row, value: NaN } : row));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function build() {
  if (!fs.existsSync(path.join(root, 'node_modules', 'typescript'))) {
    const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('npm ci failed');
  }
  const steps = [
    [path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', '.', '--outDir', 'out']],
    [process.execPath, ['esbuild.mjs']],
  ];
  for (const [cmd, a] of steps) {
    const r = spawnSync(cmd, a, { cwd: root, encoding: 'utf8' });
    // tsc emits even with type errors; say so and carry on measuring.
    if (r.status !== 0)
      console.warn(
        `[bench] ${path.basename(cmd)} ${a.join(' ')} exited ${r.status}:\n${`${r.stdout}${r.stderr}`.trim().split('\n').slice(-10).join('\n')}`,
      );
  }
}

async function main() {
  if (!args['no-build']) {
    process.stdout.write('[bench] building (tsc, esbuild) … ');
    const t0 = Date.now();
    build();
    console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  const dir = path.join(root, 'scripts', 'bench');
  const sections = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.mjs'))
    .sort()
    .filter((f) => !only || only.includes(path.basename(f, '.mjs')));
  const rows = [];
  let crashed = 0;
  for (const file of sections) {
    const section = path.basename(file, '.mjs');
    const mod = await import(pathToFileURL(path.join(dir, file)).href);
    for (const host of mod.onHosts ? hostNames : [undefined]) {
      const where = host ? `VS Code ${HOSTS[host].vscode}` : '';
      const t0 = Date.now();
      process.stdout.write(`[bench] ${section}${host ? ` on ${where}` : ''} … `);
      try {
        const out = runSection(path.join(dir, file), host);
        for (const r of out) rows.push({ section, host: where, ...r });
        console.log(`${out.length} figures (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      } catch (e) {
        crashed++;
        console.log('failed');
        console.error(`[bench] ${section}: ${e instanceof Error ? e.message : e}`);
        rows.push({
          section,
          host: where,
          name: 'section failed',
          value: NaN,
          unit: '',
          note: String(e instanceof Error ? e.message : e).split('\n')[0],
        });
      }
    }
  }

  let pass = 0;
  let fail = 0;
  const table = rows.map((r) => {
    const b = budget(r.target);
    let result = '';
    if (b) {
      const ok = Number.isFinite(r.value) && b.ok(r.value);
      result = ok ? 'pass' : 'FAIL';
      if (ok) pass++;
      else fail++;
    }
    const value =
      typeof r.value === 'number'
        ? Number.isInteger(r.value)
          ? String(r.value)
          : r.value.toFixed(1)
        : String(r.value);
    return [r.section, r.host ?? '', r.name, value, r.unit ?? '', b ? b.text : '', result, r.note ?? ''];
  });
  const head = ['section', 'host', 'figure', 'value', 'unit', 'budget', 'result', 'note'];
  const widths = head.map((h, i) =>
    Math.min(i === 7 ? 80 : 60, Math.max(h.length, ...table.map((r) => r[i].length))),
  );
  const line = (cells) =>
    cells
      .map((c, i) => {
        const s = c.length > widths[i] ? `${c.slice(0, widths[i] - 1)}…` : c;
        return i === 3 ? s.padStart(widths[i]) : s.padEnd(widths[i]);
      })
      .join('  ')
      .trimEnd();
  console.log('');
  console.log(line(head));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const r of table) console.log(line(r));
  console.log('');
  console.log(`budgets: ${pass} met, ${fail} missed${crashed ? `; ${crashed} section(s) failed` : ''}`);
  const json = args.json;
  if (json) fs.writeFileSync(json, JSON.stringify(rows, null, 2));
  if (crashed || (args.strict && fail)) process.exitCode = 1;
}

await main();
