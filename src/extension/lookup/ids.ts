import type * as vscode from 'vscode';

/** Every document a person can hover: files, unsaved buffers, remote and virtual files. */
export const HOVER_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file' },
  { scheme: 'untitled' },
  { scheme: 'vscode-remote' },
  { scheme: 'vscode-vfs' },
  { scheme: 'git' },
];
