import * as vscode from 'vscode';

/**
 * Which of a list of command ids exist now (hover links to missing ones are left out),
 * refreshed in the background at most every 10 s. One per window, on `Ctx`.
 */
export class KnownCommands {
  private known: { at: number; ids: Set<string> } | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(private readonly wanted: readonly string[]) {}

  private async refresh(): Promise<void> {
    const all = await vscode.commands.getCommands(true);
    this.known = { at: Date.now(), ids: new Set(all.filter((c) => this.wanted.includes(c))) };
  }

  /** The ids that exist, waiting for the first refresh if need be. */
  async available(): Promise<ReadonlySet<string>> {
    const now = this.now();
    if (now) return now;
    await (this.refreshing ??= this.refresh().finally(() => (this.refreshing = undefined)));
    return this.known?.ids ?? new Set(this.wanted);
  }

  /** The ids that exist without waiting (undefined before the first refresh). */
  now(): ReadonlySet<string> | undefined {
    if (this.known && Date.now() - this.known.at > 10_000 && !this.refreshing) {
      this.refreshing = this.refresh()
        .catch(() => undefined)
        .finally(() => (this.refreshing = undefined));
    }
    return this.known?.ids;
  }
}
