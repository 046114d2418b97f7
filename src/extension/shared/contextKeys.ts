import * as vscode from 'vscode';

/** Every context key the extension sets, in one catalogue (used in package.json `when` clauses). */
export const ContextKeys = {
  /** An API key is available (stored, session-only, environment, or demo). */
  hasApiKey: 'odin.hasApiKey',
  /** Where the key comes from: 'none' | 'stored' | 'session' | 'env' | 'demo'. */
  keySource: 'odin.keySource',
  /** Automatic lookups are paused after an auth/quota/rate-limit answer. */
  lookupsPaused: 'odin.lookupsPaused',
  /** The results view has something to show. */
  hasResults: 'odin.hasResults',
  /** At least one saved search exists. */
  hasSavedSearches: 'odin.hasSavedSearches',
  /** The extension talks to its embedded emulator (demo data). */
  demoMode: 'odin.demoMode',
} as const;

export type ContextKey = (typeof ContextKeys)[keyof typeof ContextKeys];

/** The values this window has set (`ctx.contextKeys`); setting an unchanged value costs nothing. */
export class ContextKeyValues {
  private readonly current = new Map<string, unknown>();

  async set(key: ContextKey, value: unknown): Promise<void> {
    if (this.current.get(key) === value) return;
    this.current.set(key, value);
    await vscode.commands.executeCommand('setContext', key, value);
  }

  get(key: ContextKey): unknown {
    return this.current.get(key);
  }
}
