import * as vscode from 'vscode';

const section = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('odin.triage');

/** One typed getter per triage setting (values out of range fall back to the default). */
export const triageSettings = {
  batching(): boolean {
    return section().get<boolean>('batching', true) !== false;
  },
  batchSize(): number {
    const n = section().get<number>('batchSize', 50);
    return Number.isInteger(n) && n >= 1 && n <= 100 ? n : 50;
  },
  maxFileBytes(): number {
    const mb = section().get<number>('maxFileSizeMB', 100);
    return (Number.isFinite(mb) && mb > 0 && mb <= 1024 ? mb : 100) * 1024 * 1024;
  },
  maxFiles(): number {
    const n = section().get<number>('maxFiles', 500);
    return Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : 500;
  },
  folderGlob(): string {
    const g = section().get<string>('folderGlob', '**/*.{log,txt,csv,json,jsonl,md,conf,yaml,yml}');
    return typeof g === 'string' && g.trim() ? g.trim() : '**/*.{log,txt,csv,json,jsonl,md,conf,yaml,yml}';
  },
};
