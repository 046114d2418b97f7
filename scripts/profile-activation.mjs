// CPU profile of the extension's activation inside the real host (to find what slows it): starts the host
// the way the activation bench does (activation events removed, a measuring entry as the
// "tests"), opens an inspector session inside the extension host around `ext.activate()`,
// writes the profile and prints the functions activation spends its time in, self and
// inclusive (a function counted once per sample in which it is on the stack).
//
// Usage: node scripts/profile-activation.mjs [--host=oldest|newest] [--production] [--esm]
//        [--reps=3] [--top=25] [--out=DIR]
// --esm: the same sources with esbuild's code splitting (the activation bench's other build).
// Default build: esbuild.mjs without --production (not minified, so names are readable; the
// parse cost differs a little from the shipped build). --production profiles the shipped build.
// Take the lock the tests use: flock /tmp/odin-host.lock node scripts/profile-activation.mjs
import * as childProcess from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startHost } from './host/host.mjs';
import { stage } from './package.mjs';
import { buildEsm, ENTRY_START } from './bench/activation.mjs';
import { runDirectly, scriptArgs } from './args.mjs';

const invoked = runDirectly(import.meta.url);
const { values } = invoked
  ? scriptArgs(import.meta.url, {
      host: { type: 'string' },
      production: { type: 'boolean' },
      esm: { type: 'boolean' },
      reps: { type: 'string' },
      top: { type: 'string' },
      out: { type: 'string' },
    })
  : { values: {} };
const hostName = values.host ?? 'newest';
const reps = Number(values.reps ?? 3);
const top = Number(values.top ?? 25);

// The activation bench's entry (the extension found, the host quiet), then `ext.activate()`
// inside an inspector session's CPU profile.
const ENTRY = `${ENTRY_START}
  const fs = require('fs');
  const inspector = require('inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (m, p) => new Promise((res, rej) => session.post(m, p, (e, r) => (e ? rej(e) : res(r))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 50 });
  await post('Profiler.start');
  const t0 = performance.now();
  await ext.activate();
  const ms = performance.now() - t0;
  const { profile } = await post('Profiler.stop');
  session.disconnect();
  fs.writeFileSync(process.env.ODIN_PROFILE_OUT, JSON.stringify(profile));
  console.log('ODIN-PROFILE ' + JSON.stringify({ ms, settledMs }));
};
`;

/**
 * Self and inclusive milliseconds per function (name + file:line) of one V8 CPU profile,
 * counting only the samples with a frame of a file under `only` on the stack (the host
 * activates other extensions at the same time: their samples are left out).
 */
export function summarise(profile, only = '') {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n) => {
    const f = n.callFrame;
    const file = f.url ? f.url.split('/').slice(-2).join('/') : '';
    return `${f.functionName || '(anonymous)'} ${file}${file ? `:${f.lineNumber + 1}` : ''}`;
  };
  const self = new Map();
  const incl = new Map();
  const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    // A sample's time is the delta to the next sample.
    const dt = (timeDeltas[i + 1] ?? 0) / 1000;
    let n = byId.get(samples[i]);
    if (only) {
      let ours = false;
      for (let m = n; m && !ours; m = byId.get(parent.get(m.id))) ours = m.callFrame.url.includes(only);
      if (!ours) continue;
    }
    add(self, key(n), dt);
    const seen = new Set();
    for (; n; n = byId.get(parent.get(n.id))) {
      const k = key(n);
      if (!seen.has(k)) add(incl, k, dt);
      seen.add(k);
    }
  }
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]);
  return { self: sorted(self), inclusive: sorted(incl) };
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-profile-activation-'));
  const outDir = values.out ? path.resolve(values.out) : work;
  const dir = stage();
  try {
    const b = childProcess.spawnSync(
      process.execPath,
      ['esbuild.mjs', ...(values.production ? ['--production'] : [])],
      { cwd: dir, encoding: 'utf8' },
    );
    if (b.status !== 0) throw new Error(`build failed:\n${b.stdout}\n${b.stderr}`);
    const ext = values.esm ? (await buildEsm(dir)).dir : dir;
    const pkgFile = path.join(ext, 'package.json');
    const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
    pkg.activationEvents = [];
    fs.writeFileSync(pkgFile, JSON.stringify(pkg, null, 2));
    const entry = path.join(work, 'profile-entry.js');
    fs.writeFileSync(entry, ENTRY);
    const workspace = path.join(work, 'sample-workspace');
    fs.cpSync(path.resolve('test/fixtures/sample-workspace'), workspace, { recursive: true });

    for (let i = 0; i < reps; i++) {
      const out = path.join(outDir, `activation-${hostName}-${i + 1}.cpuprofile`);
      const host = await startHost({
        host: hostName,
        workspace,
        trusted: true,
        extensionDevelopmentPath: ext,
        extensionTestsPath: entry,
        env: {
          ODIN_BENCH_EXT_ID: `${pkg.publisher}.${pkg.name}`,
          ODIN_API_KEY: 'bench-key-not-sent',
          ODIN_PROFILE_OUT: out,
        },
        userSettings: { 'odin.apiBaseUrl': 'http://127.0.0.1:9' },
        timeoutMs: 3 * 60_000,
      });
      let ms;
      try {
        await host.waitForExit(2 * 60_000);
        const line = host.logs.map((l) => /ODIN-PROFILE (\{.*\})/.exec(l.msg)?.[1]).find(Boolean);
        if (!line)
          throw new Error(
            `no profile: ${host.logs
              .slice(-5)
              .map((l) => l.msg)
              .join(' | ')}`,
          );
        ms = JSON.parse(line).ms;
      } finally {
        await host.stop();
      }
      const { self, inclusive } = summarise(JSON.parse(fs.readFileSync(out, 'utf8')), dir);
      const fmt = ([k, v]) => `  ${v.toFixed(1).padStart(7)} ms  ${k}`;
      console.log(`\n# ${hostName} run ${i + 1}: activate() ${ms.toFixed(1)} ms (profiled), ${out}`);
      console.log(
        `samples with a frame of the extension's own files: ${(inclusive[0]?.[1] ?? 0).toFixed(1)} ms`,
      );
      console.log(`top ${top} self:\n${self.slice(0, top).map(fmt).join('\n')}`);
      console.log(`top ${top} inclusive:\n${inclusive.slice(0, top).map(fmt).join('\n')}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    if (!values.out) fs.rmSync(work, { recursive: true, force: true });
  }
}

if (invoked) await main();
