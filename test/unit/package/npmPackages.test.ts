/**
 * The hunt runner and the MCP server as packages of their own (packages/odin-hunt/ and
 * packages/odin-mcp/, one packer: scripts/package-npm.mjs): each packed tarball holds only its
 * runtime files with the extension's versions, installs into an empty folder OFFLINE (an empty
 * npm cache and --offline: it needs nothing from a registry), and its bin works against the
 * emulator: `odin-hunt` runs the example hunts, `odin-mcp` answers the SDK's client over stdio.
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AGENT_TOOLS } from '../../../src/agent';
import { FIXTURE_HOSTS } from '../../../src/emulator/fixtures';
import { startEmulator, type Emulator } from '../../../src/emulator/server';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
const readJson = (...p: string[]) => JSON.parse(fs.readFileSync(path.join(ROOT, ...p), 'utf8'));

interface Installed {
  tmp: string;
  bin: string;
  emu: Emulator;
  key: string;
}

const PACKAGES = [
  {
    name: 'hunt',
    files: ['package/LICENSE', 'package/README.md', 'package/dist/odin-hunt.js', 'package/package.json'],
    emulator: { hosts: 5000 },
    runs: 'its bin runs the example hunts against the emulator (exit 1: findings)',
    async run({ tmp, bin, emu, key }: Installed) {
      const args = ['run', path.join(ROOT, 'examples', 'hunts'), '--api-url', emu.url];
      const r = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
        const c = spawn(bin, [...args, '--jsonl', path.join(tmp, 'f.jsonl')], {
          cwd: tmp,
          env: { PATH: process.env.PATH ?? '', ODIN_API_KEY: key },
        });
        let out = '';
        c.stdout.on('data', (d: Buffer) => (out += String(d)));
        c.stderr.on('data', (d: Buffer) => (out += String(d)));
        c.on('error', reject);
        c.on('close', (code) => resolve({ code, out }));
      });
      assert.equal(r.code, 1, r.out);
      assert.match(r.out, /new findings/);
      assert.ok(fs.readFileSync(path.join(tmp, 'f.jsonl'), 'utf8').split('\n').length > 50);
      return r.out;
    },
  },
  {
    name: 'mcp',
    files: [
      'package/LICENSE',
      'package/README.md',
      'package/dist/odin-mcp.js',
      'package/package.json',
      'package/server.json',
    ],
    emulator: { seed: 5, hosts: 40 },
    runs: 'its bin answers the SDK client against the emulator',
    async run({ bin, emu, key }: Installed) {
      const transport = new StdioClientTransport({
        command: bin,
        args: [],
        env: { PATH: process.env.PATH ?? '', ODIN_API_KEY: key, ODIN_API_BASE_URL: emu.url },
        stderr: 'pipe',
      });
      const stderr: string[] = [];
      transport.stderr?.on('data', (d: Buffer) => stderr.push(String(d)));
      const client = new Client({ name: 'odin-package-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(
          tools.map((t) => t.name),
          AGENT_TOOLS.map((t) => t.name),
        );
        const r = (await client.callTool({
          name: 'odin_lookup_host',
          arguments: { ip: FIXTURE_HOSTS.webServer },
        })) as CallToolResult;
        assert.ok(!r.isError, JSON.stringify(r.content));
        const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
        assert.match(text, /open ports \(\d+\)/);
      } finally {
        await client.close();
      }
      return stderr.join('');
    },
  },
];

for (const p of PACKAGES) {
  void describe(`the odin-${p.name} npm package`, () => {
    const key = `odin-${p.name}-package-test-key-77d2`;
    let tarball: string;
    let installed: Installed;

    before(async () => {
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `odin-${p.name}-package-`));
      const pack = spawnSync(process.execPath, ['scripts/package-npm.mjs', p.name, '--out-dir', tmp], {
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
      const bin = path.join(project, 'node_modules', '.bin', `odin-${p.name}`);
      installed = { tmp, bin, key, emu: await startEmulator({ ...p.emulator, apiKey: key }) };
    });
    after(async () => {
      await installed?.emu.close();
      if (installed?.tmp) fs.rmSync(installed.tmp, { recursive: true, force: true });
    });

    void it('holds only its runtime files, with the versions of the extension', () => {
      const list = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean);
      assert.deepEqual(list.sort(), p.files);
      const version = (readJson('package.json') as { version: string }).version;
      assert.match(path.basename(tarball), new RegExp(`-${version.replace(/\./g, '\\.')}\\.tgz$`));
      const pkg = readJson('packages', `odin-${p.name}`, 'package.json');
      assert.equal(pkg.version, version);
      assert.equal(pkg.dependencies, undefined, 'no dependency to fetch: everything is bundled');
      if (p.name !== 'mcp') return;
      const server = readJson('packages', 'odin-mcp', 'server.json');
      assert.equal(server.version, version);
      assert.equal(pkg.mcpName, server.name, 'the MCP Registry checks the npm package names the server');
      assert.deepEqual(
        server.packages.map((s: { identifier: string; version: string }) => [s.identifier, s.version]),
        [[pkg.name, pkg.version]],
      );
    });

    void it(`installed offline, ${p.runs}`, async () => {
      const out = await p.run(installed);
      assert.ok(!out.includes(key), 'the key is in no output or log line');
    });
  });
}
