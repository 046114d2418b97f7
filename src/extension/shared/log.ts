import * as vscode from 'vscode';
import { redactSecrets } from '../../core/text/redact';

const LEVEL = {
  trace: vscode.LogLevel.Trace,
  debug: vscode.LogLevel.Debug,
  info: vscode.LogLevel.Info,
  warn: vscode.LogLevel.Warning,
  error: vscode.LogLevel.Error,
} as const;

/**
 * The extension's log: a LogOutputChannel ("ODIN") whose lines pass through the same
 * redaction as error texts, so an API key that slips into a message never reaches it.
 */
export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private readonly secrets = new Set<string>();

  constructor(name = 'ODIN') {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  /** Values to blank out of every line from now on (the API key, once known). */
  addSecret(value: string | undefined): void {
    if (value && value.length >= 4) this.secrets.add(value);
  }

  private clean(message: string): string {
    return redactSecrets(message, this.secrets);
  }

  /**
   * Whether the channel writes lines of `level` now (its level follows the user's choice): a
   * line it drops is neither redacted nor, by the API client, formatted.
   */
  writes(level: 'trace' | 'debug' | 'info' | 'warn' | 'error'): boolean {
    const at = this.channel.logLevel;
    return at !== vscode.LogLevel.Off && at <= LEVEL[level];
  }

  trace(message: string): void {
    if (this.writes('trace')) this.channel.trace(this.clean(message));
  }
  debug(message: string): void {
    if (this.writes('debug')) this.channel.debug(this.clean(message));
  }
  info(message: string): void {
    this.channel.info(this.clean(message));
  }
  warn(message: string): void {
    this.channel.warn(this.clean(message));
  }
  error(message: string | Error): void {
    const text = message instanceof Error ? `${message.message}\n${message.stack ?? ''}` : message;
    this.channel.error(this.clean(text));
  }
  /** Adapter for the API client's `log` option. */
  readonly sink = Object.assign(
    (level: 'trace' | 'debug' | 'info' | 'warn' | 'error', message: string): void => {
      this[level](message);
    },
    { writes: (level: 'trace' | 'debug' | 'info' | 'warn' | 'error'): boolean => this.writes(level) },
  );

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
