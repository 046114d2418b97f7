import type * as vscode from 'vscode';

/**
 * What tests read of the agent feature: the tools as registered, and the MCP definition as
 * VS Code would start it. One per window, on `Ctx`; the agent feature fills it in.
 */
export class AgentProbe {
  toolNames: string[] = [];
  prepare: (
    name: string,
    input: unknown,
  ) => vscode.PreparedToolInvocation | Promise<vscode.PreparedToolInvocation> | undefined = () => undefined;
  mcpRegistered = false;
  resolveMcp: () => Promise<
    { command: string; args: string[]; env: Record<string, string | number | null> } | undefined
  > = () => Promise.resolve(undefined);
  mcpDefinitions: () => Array<{ env: Record<string, string | number | null> }> = () => [];
}
