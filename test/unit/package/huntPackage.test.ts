/**
 * The hunt runner as a package of its own (packages/odin-hunt/, scripts/package-hunt.mjs): the
 * packed tarball holds only its runtime files, installs into an empty folder OFFLINE (an empty
 * npm cache and --offline: it needs nothing from a registry), and its `odin-hunt` bin runs the
 * example hunts against the emulator.
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../../src/emulator/server';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
const KEY = 'odin-hunt-package-test-key-77d2';

void describe('the odin-hunt npm package', () => {
  let tmp: string;
  let tarball: string;
  let bin: string;
  let emu: Emulator;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-hunt-package-'));
    const pack = spawnSync(process.execPath, ['scripts/package-hunt.mjs', '--out-dir', tmp], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(pack.status, 0, `${pack.stdout}\n${pack.stderr}`);
    tarball = /TARBALL (\S+\.tgz)/.exec(pack.stdout)?.[1] ?? '';
    const project = path.join(tmp, 'empty');
    fs.mkdirSync(project);
    const install = spawnSync(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--prefix', project, tarball],
      {
        cwd: project,
        encoding: 'utf8',
        env: {
          ...process.env,
          npm_config_cache: path.join(tmp, 'empty-cache'),
          npm_config_registry: 'http://127.0.0.1:9/',
        },
      },
    );
    assert.equal(install.status, 0, `npm install --offline: ${install.stdout}\n${install.stderr}`);
    bin = path.join(project, 'node_modules', '.bin', 'odin-hunt');
    emu = await startEmulator({ hosts: 5000, apiKey: KEY });
  });
  after(async () => {
    await emu?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  void it('holds only its runtime files, with the version of the extension', () => {
    const list = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    assert.deepEqual(list.sort(), [
      'package/LICENSE',
      'package/README.md',
      'package/dist/odin-hunt.js',
      'package/package.json',
    ]);
    const version = (
      JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
    ).version;
    assert.match(path.basename(tarball), new RegExp(`-${version.replace(/\./g, '\\.')}\\.tgz$`));
  });

  void it('installed offline, its bin runs the example hunts against the emulator (exit 1: findings)', async () => {
    const r = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const c = spawn(
        bin,
        [
          'run',
          path.join(ROOT, 'examples', 'hunts'),
          '--api-url',
          emu.url,
          '--jsonl',
          path.join(tmp, 'f.jsonl'),
        ],
        {
          cwd: tmp,
          env: { PATH: process.env.PATH ?? '', ODIN_API_KEY: KEY },
        },
      );
      let out = '';
      c.stdout.on('data', (d: Buffer) => (out += String(d)));
      c.stderr.on('data', (d: Buffer) => (out += String(d)));
      c.on('error', reject);
      c.on('close', (code) => resolve({ code, out }));
    });
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /new findings/);
    assert.ok(fs.readFileSync(path.join(tmp, 'f.jsonl'), 'utf8').split('\n').length > 50);
    assert.ok(!r.out.includes(KEY));
  });
});
