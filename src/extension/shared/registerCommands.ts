import * as vscode from 'vscode';
import type { CommandId, OdinCommands } from '../commands';
import type { Ctx } from '../ctx';
import { reportError } from './errors';

/**
 * Registers handlers from the command map (src/extension/commands.ts) in one loop through
 * one error wrapper: a failing command shows a short message and logs the detail, and never
 * leaves an unhandled rejection behind; the command returns `undefined` at once. Every registration is disposed with `ctx`.
 */
export function registerCommands(ctx: Ctx, handlers: Partial<OdinCommands>): void {
  for (const [id, handler] of Object.entries(handlers) as Array<
    [CommandId, (...args: unknown[]) => unknown]
  >) {
    ctx.subscriptions.add(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await handler(...args);
        } catch (err) {
          // Not awaited: the message resolves only when the user dismisses it, and a command
          // run from a keybinding, a task or another extension must not hang until then.
          void reportError(ctx, err, commandTitle(ctx, id));
          return undefined;
        }
      }),
    );
  }
}

/** The command's title from package.json, for error messages ("ODIN: Search Hosts: ..."). */
function commandTitle(ctx: Ctx, id: string): string {
  const commands = (ctx.extension.extension.packageJSON?.contributes?.commands ?? []) as Array<{
    command: string;
    title: string;
  }>;
  return commands.find((c) => c.command === id)?.title ?? id;
}
