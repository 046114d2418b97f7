import * as vscode from 'vscode';
import type { Triage } from '../../core/triage';

/** The state of the last triage of this window (for reports and the view). */
export class TriageState {
  last: Triage | undefined;
  /** The API origin the last triage's answers came from (answers never cross origins). */
  origin: string | undefined;
  /** The triage running now (its progress notification's Cancel aborts the same controller). */
  running: AbortController | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  set(t: Triage, origin = this.origin): void {
    this.last = t;
    this.origin = origin;
    this.changed.fire();
  }
  dispose(): void {
    this.changed.dispose();
  }
}
