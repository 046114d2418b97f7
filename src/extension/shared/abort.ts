import type * as vscode from 'vscode';

/**
 * Runs `work` with an AbortSignal that aborts when `token` is cancelled, and removes the
 * token listener when the work ends (a bare bridge would keep it, and the controller, alive
 * as long as the token). The one bridge from CancellationToken to AbortSignal: every API call
 * takes a signal, every VS Code callback hands a token (or none: then nothing aborts).
 */
export async function toAbortSignal<T>(
  token: vscode.CancellationToken | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  if (token?.isCancellationRequested) controller.abort();
  const sub = token?.onCancellationRequested(() => controller.abort());
  try {
    return await work(controller.signal);
  } finally {
    sub?.dispose();
  }
}
