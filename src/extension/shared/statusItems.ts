import type * as vscode from 'vscode';

/**
 * The extension's status-bar items by id, as they are now (text, command): the affordance
 * test reads the command each one runs on click from here and runs it.
 */
export const statusItems = new Map<string, vscode.StatusBarItem>();
