/**
 * ODIN for agents in VS Code: the shared agent tools (src/agent) as language-model tools.
 * This is dist/agent.js, loaded on a tool's first use (lazy.ts registers the stand-ins at
 * activation; mcp.ts the MCP server definition).
 *
 * - A tool that sends asks first: `prepareInvocation` names exactly what leaves the
 *   machine and where. Local tools ask nothing. The words and the tool's name in the user's
 *   language: prepared.ts.
 * - The gate: the privacy settings (user allow, user and workspace deny), lookups off and
 *   Restricted Mode refuse before any request; requests go through `ctx.requests` (the
 *   hover's cache, limits and pause); the CancellationToken aborts the request.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  AGENT_TOOLS,
  ConfirmedCalls,
  createGate,
  q,
  toolErrorText,
  ToolInputError,
  ToolRefusal,
  type AgentGate,
  type AgentTool,
  type ToolContext,
} from '../../agent';
import { escapeMarkdown } from '../../core/text/inert';
import type { Ctx } from '../ctx';
import { workspaceRealPath } from '../shared/argumentPath';
import { isCancellation } from '../shared/errors';
import { toAbortSignal } from '../shared/abort';
import { preparedText, toolDisplayNames } from './prepared';

/**
 * The agent gate over the one gate, with this window's settings as `ctx.gate` reads them
 * (privacy lists, lookups mode, trust), and the key.
 */
export function agentGate(ctx: Ctx): AgentGate {
  return createGate(() => {
    const s = ctx.gate.current().settings;
    return {
      allow: s.userAllow,
      deny: s.userDeny,
      workspaceDeny: s.workspaceDeny,
      // An agent's call is confirmed by the user: it runs in onHover and onCommand modes.
      mode: s.mode,
      trusted: s.trusted,
      // l10n: English, for the model (like the tools' answers and modelDescription).
      blocked: () =>
        ctx.keys.get()
          ? undefined
          : 'No ODIN API key is set. Run "ODIN: Set API Key" or "ODIN: Try with Demo Data".',
    };
  });
}

/** Text of the active editor (its selection when there is one) or of a workspace file. */
// l10n: English, for the model (the tool's refusal and the source it reads about).
async function localText(file: string | undefined): Promise<{ text: string; source: string }> {
  if (file) {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const uri = path.isAbsolute(file)
      ? vscode.Uri.file(file)
      : folders[0]
        ? vscode.Uri.joinPath(folders[0].uri, file)
        : undefined;
    // Links resolved: a link inside the workspace to a file outside it is refused, and the
    // file read is the one checked.
    const real = uri && workspaceRealPath(uri);
    if (!uri || !real)
      throw new ToolInputError(
        'The file must be in a workspace folder (links are followed to where they point).',
      );
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(real));
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

/** The language-model tools of this window by name (what lazy.ts's stand-ins call). */
export function createAgentTools(ctx: Ctx): Map<string, OdinLmTool> {
  const tools = agentContext(ctx);
  const confirmed = new ConfirmedCalls();
  const names = toolDisplayNames(ctx.extension.extension.packageJSON);
  return new Map(
    AGENT_TOOLS.map((t) => [t.name, new OdinLmTool(t, names.get(t.name) ?? t.title, ctx, tools, confirmed)]),
  );
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
    workspaceFolders: () =>
      (vscode.workspace.workspaceFolders ?? [])
        .filter((f) => f.uri.scheme === 'file')
        .map((f) => f.uri.fsPath),
    exploitation: () => ctx.feeds.ensure(),
    secrets: () => {
      const key = ctx.keys.get();
      return key ? [key] : [];
    },
  };
}

export class OdinLmTool implements vscode.LanguageModelTool<unknown> {
  constructor(
    private readonly tool: AgentTool,
    /** Its display name in the user's language (the manifest's, as VS Code localized it). */
    private readonly name: string,
    private readonly ctx: Ctx,
    private readonly tools: ToolContext,
    /** Binds a run to the text its confirmation was prepared on. */
    private readonly confirmed: ConfirmedCalls,
  ) {}

  prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>,
    token?: vscode.CancellationToken,
  ): Promise<vscode.PreparedToolInvocation> {
    return toAbortSignal(token, async (signal) => {
      const p = await preparedText(this.tool, this.name, options.input, this.tools, this.confirmed, signal);
      return {
        invocationMessage: p.invocation,
        ...(p.confirm && {
          confirmationMessages: {
            title: p.confirm.title,
            // The model wrote the query: shown escaped, never as Markdown.
            message: new vscode.MarkdownString(escapeMarkdown(p.confirm.sends, 2500)),
          },
        }),
      };
    });
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<unknown>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    try {
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      const text = await toAbortSignal(token, (signal) =>
        this.confirmed.run(this.tool, options.input, this.tools, signal),
      );
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
    } catch (err) {
      if (token.isCancellationRequested || isCancellation(err)) throw new vscode.CancellationError();
      const text = toolErrorText(err);
      // l10n: English, for the log
      if (err instanceof ToolRefusal) this.ctx.log.info(`Agent tool ${this.tool.name} refused: ${text}`);
      else this.ctx.log.warn(`Agent tool ${this.tool.name} failed: ${text}`);
      throw new Error(text);
    }
  }
}
