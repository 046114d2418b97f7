/**
 * What activation registers for agents without loading them: one language-model tool per
 * name that package.json declares (a unit test holds those names to src/agent's tools), each a
 * stand-in that loads dist/agent.js (the tools, their schemas and the triage scan) on the
 * first preparation or call, and the MCP server definition (mcp.ts). Nothing loads or sends
 * until a tool is used.
 */
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import type { OdinLmTool } from './index';
import { registerMcp } from './mcp';
import { RegisteredAgent } from './registered';

/** Registers the language-model tools and, when available, the MCP server definition provider. */
export function registerAgent(ctx: Ctx): RegisteredAgent {
  const registered = new RegisteredAgent();
  // Agents are an extra: a host without these APIs, or one that refuses them, must not stop activation.
  try {
    registerAgentTools(ctx, registered);
  } catch (err) {
    // l10n: English, for the log
    ctx.log.warn(
      `ODIN tools for agents are not available: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return registered;
}

/** The tool names the manifest declares (what VS Code offers agents). */
function declaredToolNames(ctx: Ctx): string[] {
  const pkg = ctx.extension.extension.packageJSON as {
    contributes?: { languageModelTools?: Array<{ name?: unknown }> };
  };
  return (pkg.contributes?.languageModelTools ?? [])
    .map((t) => t.name)
    .filter((n): n is string => typeof n === 'string');
}

function registerAgentTools(ctx: Ctx, registered: RegisteredAgent): void {
  const lm = (vscode as { lm?: typeof vscode.lm }).lm;
  if (!lm || typeof lm.registerTool !== 'function') return;
  let tools: Map<string, OdinLmTool> | undefined;
  const tool = (name: string): OdinLmTool => {
    if (!tools) {
      const started = performance.now();
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const bundle = require('./index') as typeof import('./index');
      tools = bundle.createAgentTools(ctx);
      // l10n: English, for the log
      ctx.log.debug(`Agent tools loaded in ${(performance.now() - started).toFixed(1)} ms`);
    }
    const t = tools.get(name);
    // l10n: English, for the model (a tool name it gave)
    if (!t) throw new Error(`ODIN has no agent tool named ${name}.`);
    return t;
  };
  const names = declaredToolNames(ctx);
  for (const name of names) {
    ctx.subscriptions.add(
      lm.registerTool<unknown>(name, {
        prepareInvocation: (options, token) => tool(name).prepareInvocation(options, token),
        invoke: (options, token) => tool(name).invoke(options, token),
      }),
    );
  }
  registered.toolNames = names;
  registered.prepare = (name, input) =>
    names.includes(name)
      ? tool(name).prepareInvocation({ input } as vscode.LanguageModelToolInvocationPrepareOptions<unknown>)
      : undefined;
  registerMcp(ctx, registered);
}
