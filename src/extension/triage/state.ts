import * as vscode from 'vscode';
import type { Triage } from '../../core/triage';
import type { TriageView } from './view';

/** The state of the last triage of this window (for reports and the view). */
export class TriageState {
  last: Triage | undefined;
  /** The API origin the last triage's answers came from (answers never cross origins). */
  origin: string | undefined;
  /** The triage running now: aborting it stops the triage as the notification's Cancel does (tests). */
  running: AbortController | undefined;
  /** The triage view of this window, while it is open (one at a time). */
  view: TriageView | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  set(t: Triage, origin = this.origin): void {
    this.last = t;
    this.origin = origin;
    this.changed.fire();
  }
  dispose(): void {
    this.view?.dispose();
    this.changed.dispose();
  }
}
