/**
 * The MCP server as a package of its own (packages/odin-mcp/, scripts/package-mcp.mjs): the
 * packed tarball holds only its runtime files, installs into an empty folder OFFLINE (an empty
 * npm cache and --offline: it needs nothing from a registry), and its `odin-mcp` bin, driven
 * by the SDK's client over stdio, answers against the emulator.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
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
const KEY = 'odin-mcp-package-test-key-41c9';

void describe('the odin-mcp npm package', () => {
  let tmp: string;
  let tarball: string;
  let bin: string;
  let emu: Emulator;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'odin-mcp-package-'));
    const pack = spawnSync(process.execPath, ['scripts/package-mcp.mjs', '--out-dir', tmp], {
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
    bin = path.join(project, 'node_modules', '.bin', 'odin-mcp');
    emu = await startEmulator({ seed: 5, hosts: 40, apiKey: KEY });
  });
  after(async () => {
    await emu?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  void it('holds only its runtime files, with the versions of the extension', () => {
    const list = spawnSync('tar', ['tzf', tarball], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    assert.deepEqual(list.sort(), [
      'package/LICENSE',
      'package/README.md',
      'package/dist/odin-mcp.js',
      'package/package.json',
      'package/server.json',
    ]);
    const ext = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'packages', 'odin-mcp', 'package.json'), 'utf8'));
    const server = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'packages', 'odin-mcp', 'server.json'), 'utf8'),
    );
    assert.equal(pkg.version, ext.version);
    assert.equal(server.version, ext.version);
    assert.equal(pkg.mcpName, server.name, 'the MCP Registry checks the npm package names the server');
    assert.deepEqual(
      server.packages.map((p: { identifier: string; version: string }) => [p.identifier, p.version]),
      [[pkg.name, pkg.version]],
    );
    assert.equal(pkg.dependencies, undefined, 'no dependency to fetch: the SDK is bundled');
  });

  void it('installed offline from the tarball, its bin answers the SDK client against the emulator', async () => {
    const transport = new StdioClientTransport({
      command: bin,
      args: [],
      env: { PATH: process.env.PATH ?? '', ODIN_API_KEY: KEY, ODIN_API_BASE_URL: emu.url },
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
    assert.ok(!stderr.join('').includes(KEY), 'the key is in no log line');
  });
});
