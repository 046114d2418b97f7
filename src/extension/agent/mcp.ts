/**
 * The ODIN MCP server as a server definition, where the running VS Code offers the API
 * (1.100+; detected, never required). Registered at activation: it is a few lines and loads
 * nothing. The key comes from SecretStorage in `resolveMcpServerDefinition` (the environment
 * of the process VS Code starts), never in the cached definition, never in a file.
 */
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { config } from '../shared/config';
import { MCP_PROVIDER_ID } from './ids';

interface McpStdioDefinition {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  version?: string;
}

type McpApi = {
  registerMcpServerDefinitionProvider?: (
    id: string,
    provider: {
      onDidChangeMcpServerDefinitions?: vscode.Event<void>;
      provideMcpServerDefinitions(token: vscode.CancellationToken): McpStdioDefinition[];
      resolveMcpServerDefinition?(
        server: McpStdioDefinition,
        token: vscode.CancellationToken,
      ): McpStdioDefinition | undefined;
    },
  ) => vscode.Disposable;
};

/** Registers the ODIN MCP server definition provider when this VS Code has the API. */
export function registerMcp(ctx: Ctx): void {
  const api = vscode.lm as unknown as McpApi;
  const Definition = (
    vscode as unknown as {
      McpStdioServerDefinition?: new (
        label: string,
        command: string,
        args?: string[],
        env?: Record<string, string | number | null>,
        version?: string,
      ) => McpStdioDefinition;
    }
  ).McpStdioServerDefinition;
  if (typeof api.registerMcpServerDefinitionProvider !== 'function' || typeof Definition !== 'function')
    return;
  const changed = new vscode.EventEmitter<void>();
  ctx.subscriptions.add(changed);
  ctx.subscriptions.add(ctx.onDidChangeConnection(() => changed.fire()));
  const script = vscode.Uri.joinPath(ctx.extension.extensionUri, 'dist', 'mcp.js').fsPath;
  const version = String(ctx.extension.extension.packageJSON.version ?? '0');
  const settingsEnv = (): Record<string, string> => {
    const deny = config.privacyDeny();
    return {
      ODIN_API_BASE_URL: ctx.baseUrl(),
      ODIN_PRIVACY_ALLOW: config.privacyAllow().join(','),
      ODIN_PRIVACY_DENY: [...deny.user, ...deny.workspace].join(','),
      ODIN_LOOKUPS: !vscode.workspace.isTrusted || config.lookupMode() === 'off' ? 'off' : 'on',
    };
  };
  // Desktop VS Code's executable is Electron: run it as Node for the script.
  const define = (env: Record<string, string>): McpStdioDefinition =>
    new Definition('ODIN', process.execPath, [script], { ELECTRON_RUN_AS_NODE: '1', ...env }, version);
  const provider = {
    onDidChangeMcpServerDefinitions: changed.event,
    // What VS Code may cache: no key.
    provideMcpServerDefinitions: () => [define(settingsEnv())],
    // What VS Code starts: the key from SecretStorage, in the process environment only.
    resolveMcpServerDefinition: (server: McpStdioDefinition) => {
      const key = ctx.keys.get();
      server.env = { ...server.env, ...settingsEnv(), ...(key ? { ODIN_API_KEY: key } : {}) };
      return server;
    },
  };
  try {
    ctx.subscriptions.add(api.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider));
    ctx.agentProbe.mcpRegistered = true;
    ctx.agentProbe.mcpDefinitions = () => provider.provideMcpServerDefinitions();
    ctx.agentProbe.resolveMcp = () =>
      Promise.resolve(provider.resolveMcpServerDefinition(define(settingsEnv())));
  } catch (err) {
    ctx.log.warn(
      `The ODIN MCP server could not be registered: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
