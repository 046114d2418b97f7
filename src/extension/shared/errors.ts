import * as vscode from 'vscode';
import { OdinApiError } from '../../api/errors';
import { neutraliseUiText } from '../../core/text/inert';
import type { Ctx } from '../ctx';
import { runCommand } from './runCommand';

/** Short user text for any error; the full detail goes to the log. Cancellation is silent. */
export function userMessage(err: unknown): string {
  if (err instanceof OdinApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

export function isCancellation(err: unknown): boolean {
  return (
    (err instanceof OdinApiError && err.kind === 'cancelled') ||
    err instanceof vscode.CancellationError ||
    (err instanceof Error && err.name === 'AbortError')
  );
}

/**
 * Shows a short, actionable notification for `err` (with buttons that fix the cause where
 * one exists) and logs the detail. API text is neutralised: a notification would render
 * `[x](command:...)` links and `$(icon)` syntax found in it.
 */
export async function reportError(ctx: Ctx, err: unknown, action: string): Promise<void> {
  if (isCancellation(err)) {
    ctx.log.debug(`${action}: cancelled`);
    return;
  }
  const detail = err instanceof OdinApiError ? `${err.kind} ${err.status ?? ''} ${err.detail ?? ''}` : '';
  // l10n: English, for the log
  ctx.log.error(`${action} failed: ${userMessage(err)} ${detail}`.trim());
  if (err instanceof Error && !(err instanceof OdinApiError) && err.stack) ctx.log.debug(err.stack);

  // The buttons, worded once: offered and compared with the same strings.
  const showLog = vscode.l10n.t('Show Log');
  const setKey = vscode.l10n.t('Set API Key');
  const buttons = [showLog];
  if (err instanceof OdinApiError && err.kind === 'auth') buttons.unshift(setKey);
  const choice = await vscode.window.showErrorMessage(
    vscode.l10n.t('ODIN: {0}: {1}', neutraliseUiText(action), neutraliseUiText(userMessage(err))),
    ...buttons,
  );
  if (choice === showLog) ctx.log.show();
  if (choice === setKey) await runCommand('odin.setApiKey');
}
