/**
 * package.json and the agent code agree: the declared language-model tools are the shared tools
 * (activation registers a stand-in for each declared name, src/extension/agent/lazy.ts).
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { AGENT_TOOLS } from '../../../src/agent';
import { MCP_PROVIDER_ID } from '../../../src/extension/agent/ids';
import { readManifest } from '../../support/manifest';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
const pkg = readManifest(ROOT) as {
  bin?: Record<string, string>;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  contributes: {
    languageModelTools: Array<{
      name: string;
      displayName: string;
      modelDescription: string;
      inputSchema: unknown;
      toolReferenceName: string;
      when?: string;
    }>;
    mcpServerDefinitionProviders: Array<{ id: string }>;
    modelContextServerCollections: Array<{ id: string }>;
  };
};

void describe('agent manifest', () => {
  void it('declares exactly the shared tools, with their descriptions and schemas', () => {
    const declared = pkg.contributes.languageModelTools;
    assert.deepEqual(
      declared.map((t) => t.name),
      AGENT_TOOLS.map((t) => t.name),
    );
    for (const t of AGENT_TOOLS) {
      const d = declared.find((x) => x.name === t.name)!;
      assert.equal(d.modelDescription, t.description, t.name);
      assert.equal(d.displayName, t.title, t.name);
      assert.deepEqual(d.inputSchema, JSON.parse(JSON.stringify(t.inputSchema)), t.name);
      assert.match(d.toolReferenceName, /^odin-[a-z-]+$/);
    }
  });

  void it('hides each tool that sends while it cannot work (no key, lookups off); the local tools stay', () => {
    // Context key: src/extension/shared/contextKeys.ts; host test: agent.test.ts.
    const WHEN = "odin.hasApiKey && config.odin.lookups.mode != 'off'";
    for (const t of AGENT_TOOLS) {
      const d = pkg.contributes.languageModelTools.find((x) => x.name === t.name)!;
      assert.equal(d.when, t.local ? undefined : WHEN, t.name);
    }
    assert.ok(AGENT_TOOLS.some((t) => t.local));
  });

  void it('declares the MCP server provider under both contribution points, with the id the code registers', () => {
    assert.deepEqual(
      pkg.contributes.mcpServerDefinitionProviders.map((p) => p.id),
      [MCP_PROVIDER_ID],
    );
    assert.deepEqual(
      pkg.contributes.modelContextServerCollections.map((p) => p.id),
      [MCP_PROVIDER_ID],
    );
  });

  void it('ships the MCP server as a bin and an npm script, with the SDK as a dependency', () => {
    assert.equal(pkg.bin?.['odin-mcp'], './dist/mcp.js');
    assert.match(pkg.scripts.mcp, /dist\/mcp\.js/);
    assert.ok(pkg.dependencies['@modelcontextprotocol/sdk']);
  });
});
