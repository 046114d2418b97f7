import type * as vscode from 'vscode';

/**
 * What the agent feature registered: the tools, and the MCP definition as VS Code would
 * start it. `registerAgent` (lazy.ts) returns it; the composition root hands it to the
 * test API only (tests read it; nothing else does).
 */
export class RegisteredAgent {
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
