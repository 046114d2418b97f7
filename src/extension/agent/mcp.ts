/**
 * The ODIN MCP server as a server definition, where the running VS Code offers the API
 * (1.103+; detected, never required). Registered at activation: it is a few lines and loads
 * nothing. The key comes from SecretStorage in `resolveMcpServerDefinition` (the environment
 * of the process VS Code starts), never in the cached definition, never in a file.
 *
 * The lookups mode, workspace trust and privacy lists are not in the environment: VS Code
 * keeps a started server running, so its environment would keep the values of its start.
 * The gate's settings of this window go to a policy file (src/agent/mcp/policy.ts) named in
 * `ODIN_POLICY_FILE`, rewritten whenever the gate's settings change; the server reads it on
 * every call, so turning lookups off or adding a deny entry holds for a running server.
 *
 * The definition is offered only with `odin.agent.offerMcpServer` on: VS Code's agents have
 * the same tools as language-model tools, and with both they would see each ODIN tool twice.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { writePolicyFile } from '../../agent/mcp/policy';
import type { Ctx } from '../ctx';
import { config, onConfigChange } from '../shared/config';
import { feedSource } from '../shared/feedSource';
import { MCP_PROVIDER_ID } from './ids';
import type { RegisteredAgent } from './registered';

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
      ): Promise<McpStdioDefinition | undefined>;
    },
  ) => vscode.Disposable;
};

/**
 * The policy file of this window: written now and after every change of the gate's
 * settings (one write at a time, each with the settings of its moment), removed on dispose.
 */
class PolicyWriter implements vscode.Disposable {
  private pending: Promise<void> = Promise.resolve();
  private sub: vscode.Disposable | undefined;
  private disposed = false;

  constructor(
    readonly file: string,
    private readonly ctx: Ctx,
  ) {
    // After activation, not during it (the gate is no part of activation); a server started
    // before reads it through `write()` in resolveMcpServerDefinition, which queues behind this one.
    setImmediate(() => {
      if (this.disposed) return;
      this.sub = ctx.gate.onDidChange(() => void this.write());
      void this.write();
    });
  }

  /** Queues a write of the current settings; resolves when it (and those before it) ended. */
  write(): Promise<void> {
    this.pending = this.pending
      .then(() => writePolicyFile(this.file, this.ctx.gate.current().settings))
      .catch((err: unknown) =>
        // l10n: English, for the log
        this.ctx.log.warn(
          `The ODIN MCP server's settings could not be written (it sends nothing until they are): ${err instanceof Error ? err.message : String(err)}`,
        ),
      );
    return this.pending;
  }

  dispose(): void {
    this.disposed = true;
    this.sub?.dispose();
    // A server still running after this window closed reads no file: it sends nothing.
    fs.rmSync(this.file, { force: true });
  }
}

/** Registers the ODIN MCP server definition provider when this VS Code has the API. */
export function registerMcp(ctx: Ctx, registered: RegisteredAgent): void {
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
  ctx.subscriptions.add(
    onConfigChange((e) => {
      if (e.affectsConfiguration('odin.agent.offerMcpServer') || e.affectsConfiguration('odin.feeds'))
        changed.fire();
    }),
  );
  const script = vscode.Uri.joinPath(ctx.extension.extensionUri, 'dist', 'mcp.js').fsPath;
  const version = String(ctx.extension.extension.packageJSON.version ?? '0');
  // One file per window: trust and the workspace deny list differ between windows.
  const session = vscode.env.sessionId.replace(/[^\w-]/g, '_').slice(0, 80);
  const policy = new PolicyWriter(
    path.join(ctx.extension.globalStorageUri.fsPath, 'mcp', `policy-${session}.json`),
    ctx,
  );
  ctx.subscriptions.add(policy);
  const feedsEnv = (): Record<string, string> => {
    const source = feedSource(ctx);
    return {
      ODIN_FEEDS_DIR: source.dir,
      ODIN_FEEDS_KEV_URL: source.kevUrl,
      ODIN_FEEDS_EPSS_URL: source.epssUrl,
    };
  };
  const settingsEnv = (): Record<string, string> => ({
    ODIN_API_BASE_URL: ctx.baseUrl(),
    ODIN_POLICY_FILE: policy.file,
    // The folders whose files a tool may read (a notebook's case record), as the language-model tools read them.
    ODIN_WORKSPACE_FOLDERS: (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => f.uri.fsPath)
      .join(path.delimiter),
    // The KEV and EPSS copies this window keeps and the URLs they must come from (read only
    // by the server, which says "unavailable" for a copy of any other URL; off: none).
    ...(config.feeds().enabled ? feedsEnv() : {}),
  });
  // Desktop VS Code's executable is Electron: run it as Node for the script.
  const define = (env: Record<string, string>): McpStdioDefinition =>
    new Definition('ODIN', process.execPath, [script], { ELECTRON_RUN_AS_NODE: '1', ...env }, version);
  const provider = {
    onDidChangeMcpServerDefinitions: changed.event,
    // What VS Code may cache: no key. Offered only when the user asks for it: the same tools
    // are VS Code's language-model tools already (odin.agent.offerMcpServer).
    provideMcpServerDefinitions: () => (config.offerMcpServer() ? [define(settingsEnv())] : []),
    // What VS Code starts: the key from SecretStorage, in the process environment only; the
    // policy file written before the server can read it.
    resolveMcpServerDefinition: async (server: McpStdioDefinition) => {
      await policy.write();
      const key = ctx.keys.get();
      server.env = { ...server.env, ...settingsEnv(), ...(key ? { ODIN_API_KEY: key } : {}) };
      return server;
    },
  };
  try {
    ctx.subscriptions.add(api.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider));
    registered.mcpRegistered = true;
    registered.mcpDefinitions = () => provider.provideMcpServerDefinitions();
    registered.resolveMcp = () => provider.resolveMcpServerDefinition(define(settingsEnv()));
  } catch (err) {
    // l10n: English, for the log
    ctx.log.warn(
      `The ODIN MCP server could not be registered: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
