import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { reportError } from './errors';

/**
 * A feature contributes a map from command id to handler. All maps are registered in one
 * loop through one error wrapper: a failing command shows a short message and logs the
 * detail, and never leaves an unhandled rejection behind.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandHandler = (...args: any[]) => unknown;
export type CommandMap = Record<string, CommandHandler>;

export function registerCommands(ctx: Ctx, ...maps: CommandMap[]): void {
  for (const map of maps) {
    for (const [id, handler] of Object.entries(map)) {
      ctx.subscriptions.add(
        vscode.commands.registerCommand(id, async (...args: unknown[]) => {
          try {
            return await handler(...args);
          } catch (err) {
            await reportError(ctx, err, commandTitle(ctx, id));
            return undefined;
          }
        }),
      );
    }
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
