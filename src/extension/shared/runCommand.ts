import * as vscode from 'vscode';
import type { CommandId, OdinCommands } from '../commands';

/**
 * Runs one of our commands, typed by the same map that registers it (commands.ts): the
 * arguments are the handler's, and so is the result, or `undefined` when it failed (the one
 * wrapper of registerCommands.ts reports the error and returns nothing). It goes through
 * VS Code's command service, so a stand-in loads its feature as for a menu or a keybinding.
 * Built-in commands (`setContext`, `vscode.open`, a view's `.focus`) are not in the map and
 * are called directly.
 */
export function runCommand<K extends CommandId>(
  id: K,
  ...args: Parameters<OdinCommands[K]>
): Thenable<Awaited<ReturnType<OdinCommands[K]>> | undefined> {
  return vscode.commands.executeCommand<Awaited<ReturnType<OdinCommands[K]>> | undefined>(id, ...args);
}
