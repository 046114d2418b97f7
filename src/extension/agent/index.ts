/**
 * ODIN for agents in VS Code: the shared agent tools (src/agent) as language-model tools,
 * and, where the running VS Code offers it, the ODIN MCP server as a server definition.
 *
 * - Registration is cheap (a loop over static definitions); nothing loads or sends until
 *   a tool is invoked.
 * - A tool that sends asks first: `prepareInvocation` names exactly what leaves the
 *   machine and where. Local tools ask nothing.
 * - The gate: the privacy settings (user allow, user and workspace deny), lookups off and
 *   Restricted Mode refuse before any request; requests go through `ctx.requests` (the
 *   hover's cache, limits and pause); the CancellationToken aborts the request.
 * - The MCP server definition gets the key from SecretStorage in `resolveMcpServerDefinition`
 *   (the environment of the process VS Code starts), never in the cached definition, never
 *   in a file.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  AGENT_TOOLS,
  createGate,
  invokeTool,
  q,
  toolErrorText,
  ToolInputError,
  ToolRefusal,
  type AgentGate,
  type AgentTool,
  type ToolContext,
} from '../../agent';
import { escapeMarkdown } from '../../core/text';
import { config } from '../shared/config';
import type { Ctx } from '../ctx';
import { isCancellation } from '../shared/errors';
import { toAbortSignal } from '../shared/abort';

export const MCP_PROVIDER_ID = 'odin.mcpServers';

/** The agent gate over the one gate, with the user's privacy settings, lookups mode, trust and key. */
export function agentGate(ctx: Ctx): AgentGate {
  return createGate(() => {
    const deny = config.privacyDeny();
    return {
      allow: config.privacyAllow(),
      deny: deny.user,
      workspaceDeny: deny.workspace,
      // An agent's call is confirmed by the user: it runs in onHover and onCommand modes.
      mode: config.lookupMode() === 'off' ? 'off' : 'onCommand',
      trusted: vscode.workspace.isTrusted,
      blocked: () =>
        ctx.keys.get()
          ? undefined
          : 'No ODIN API key is set. Run "ODIN: Set API Key" or "ODIN: Try with Demo Data".',
    };
  });
}

/** Text of the active editor (its selection when there is one) or of a workspace file. */
async function localText(file: string | undefined): Promise<{ text: string; source: string }> {
  if (file) {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const uri = path.isAbsolute(file)
      ? vscode.Uri.file(file)
      : folders[0]
        ? vscode.Uri.joinPath(folders[0].uri, file)
        : undefined;
    const inside =
      uri &&
      (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString()) ||
        vscode.workspace.getWorkspaceFolder(uri));
    if (!uri || !inside) throw new ToolInputError('The file must be in the workspace or open in an editor.');
    const doc = await vscode.workspace.openTextDocument(uri);
    return { text: doc.getText(), source: q(vscode.workspace.asRelativePath(uri), 200) };
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor) throw new ToolInputError('No editor is active: pass the text, or a file path.');
  const sel = editor.selection;
  const name = q(vscode.workspace.asRelativePath(editor.document.uri), 200);
  return sel.isEmpty
    ? { text: editor.document.getText(), source: name }
    : { text: editor.document.getText(sel), source: `the selection in ${name}` };
}

/** The agent tool context of this window. */
export function agentContext(ctx: Ctx, gate: AgentGate = agentGate(ctx)): ToolContext {
  return {
    client: () => ctx.client(),
    get requests() {
      return ctx.requests;
    },
    gate,
    origin: () => ctx.origin(),
    localText,
  };
}

class OdinLmTool implements vscode.LanguageModelTool<unknown> {
  constructor(
    private readonly tool: AgentTool,
    private readonly ctx: Ctx,
    private readonly tools: ToolContext,
  ) {}

  prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>,
    token?: vscode.CancellationToken,
  ): vscode.PreparedToolInvocation | Promise<vscode.PreparedToolInvocation> {
    if (this.tool.local) return { invocationMessage: `${this.tool.title} (local, nothing is sent)` };
    if (this.tool.prepareLocal)
      return this.prepareAfterScan(this.tool.prepareLocal.bind(this.tool), options.input, token);
    let sends: string | undefined;
    try {
      sends = this.tool.prepare(options.input, this.tools).sends;
    } catch {
      // Refused or invalid: nothing will be sent, so there is nothing to confirm.
      return { invocationMessage: `${this.tool.title}: refused, nothing is sent` };
    }
    return {
      invocationMessage: this.tool.title,
      confirmationMessages: {
        title: this.tool.title,
        // The model wrote the query: shown escaped, never as Markdown.
        message: new vscode.MarkdownString(escapeMarkdown(sends ?? '', 2500)),
      },
    };
  }

  /** A tool whose cost is known after a local scan (the triage): the confirmation gives the request count. */
  private async prepareAfterScan(
    prepare: NonNullable<AgentTool['prepareLocal']>,
    input: unknown,
    token: vscode.CancellationToken | undefined,
  ): Promise<vscode.PreparedToolInvocation> {
    try {
      const call = await toAbortSignal(token, (signal) => prepare(input, this.tools, signal));
      if (!call.sends)
        return {
          invocationMessage: `${this.tool.title}: ${call.note ?? 'nothing is sent (all cached or local)'}`,
        };
      return {
        invocationMessage: this.tool.title,
        confirmationMessages: {
          title: this.tool.title,
          message: new vscode.MarkdownString(escapeMarkdown(call.sends, 2500)),
        },
      };
    } catch {
      return { invocationMessage: `${this.tool.title}: refused, nothing is sent` };
    }
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<unknown>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    try {
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      const text = await toAbortSignal(token, (signal) =>
        invokeTool(this.tool, options.input, this.tools, signal),
      );
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
    } catch (err) {
      if (token.isCancellationRequested || isCancellation(err)) throw new vscode.CancellationError();
      const text = toolErrorText(err);
      if (err instanceof ToolRefusal) this.ctx.log.info(`Agent tool ${this.tool.name} refused: ${text}`);
      else this.ctx.log.warn(`Agent tool ${this.tool.name} failed: ${text}`);
      throw new Error(text);
    }
  }
}

/** Registers the language-model tools and, when available, the MCP server definition provider. */
export function registerAgent(ctx: Ctx): void {
  // Agents are an extra: a host without these APIs, or one that refuses them, must not stop activation.
  try {
    registerAgentTools(ctx);
  } catch (err) {
    ctx.log.warn(
      `ODIN tools for agents are not available: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

function registerAgentTools(ctx: Ctx): void {
  const lm = (vscode as { lm?: typeof vscode.lm }).lm;
  if (!lm || typeof lm.registerTool !== 'function') return;
  const tools = agentContext(ctx);
  const byName = new Map<string, OdinLmTool>();
  for (const t of AGENT_TOOLS) {
    const impl = new OdinLmTool(t, ctx, tools);
    byName.set(t.name, impl);
    ctx.subscriptions.add(lm.registerTool(t.name, impl));
  }
  ctx.agentProbe.toolNames = [...byName.keys()];
  ctx.agentProbe.prepare = (name, input) =>
    byName
      .get(name)
      ?.prepareInvocation({ input } as vscode.LanguageModelToolInvocationPrepareOptions<unknown>);
  registerMcp(ctx);
}

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

/** The ODIN MCP server as a server definition, when this VS Code has the API (1.100+; detected, never required). */
function registerMcp(ctx: Ctx): void {
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
