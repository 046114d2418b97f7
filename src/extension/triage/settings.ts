import * as vscode from 'vscode';
import { lowestOf } from '../shared/config';

const section = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('odin.triage');

/**
 * One typed getter per triage setting (values out of range fall back to the default). The
 * limits (batch size, file size, file count) may be lowered by a workspace, never raised.
 */
export const triageSettings = {
  batching(): boolean {
    return section().get<boolean>('batching', true) !== false;
  },
  batchSize(): number {
    return lowestOf('triage.batchSize', (n) => Number.isInteger(n) && n >= 1 && n <= 100, 50);
  },
  maxFileBytes(): number {
    return lowestOf('triage.maxFileSizeMB', (mb) => mb > 0 && mb <= 1024, 100) * 1024 * 1024;
  },
  maxFiles(): number {
    return lowestOf('triage.maxFiles', (n) => Number.isInteger(n) && n >= 1 && n <= 10_000, 500);
  },
  folderGlob(): string {
    const g = section().get<string>('folderGlob', '**/*.{log,txt,csv,json,jsonl,md,conf,yaml,yml}');
    return typeof g === 'string' && g.trim() ? g.trim() : '**/*.{log,txt,csv,json,jsonl,md,conf,yaml,yml}';
  },
};
