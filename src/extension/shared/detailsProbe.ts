import * as vscode from 'vscode';
import type { PageKind, RenderedCounts } from '../../common/protocol';

export interface RenderedEvent {
  page: PageKind;
  /** The IP or domain of the panel. */
  id: string;
  counts: RenderedCounts;
  /** Render time inside the page, in ms. */
  ms: number;
  at: number;
}

/**
 * What the details pages report back, kept for the integration tests, the UI tests and
 * the bench (through the TestApi): every `rendered` message, how many messages were
 * accepted by type, and how many were refused by validation. One per window, on `Ctx`.
 */
export class DetailsProbe implements vscode.Disposable {
  readonly rendered: RenderedEvent[] = [];
  readonly accepted: Record<string, number> = {};
  rejected = 0;
  /** When each panel reached each phase (created, ready, data posted): for the bench. */
  readonly marks: Array<{ page: PageKind; id: string; phase: string; at: number }> = [];
  private readonly emitter = new vscode.EventEmitter<RenderedEvent>();
  readonly onDidRender = this.emitter.event;
  /** Open panels by page and id (filled by the panels themselves). */
  readonly open = new Set<string>();
  /**
   * What VS Code calls to restore a page after a reload (set by lazy.ts): tests call it on a
   * panel they made, to restore without reloading the window.
   */
  restore: ((viewType: string, panel: vscode.WebviewPanel, state: unknown) => void) | undefined;
  /**
   * Each open panel's message handler, by `page:id` (tests deliver a page's message, e.g. a
   * button's `{ type: 'action', action }`, through the same validation the webview's go through).
   */
  readonly receivers = new Map<string, (raw: unknown) => void>();

  mark(page: PageKind, id: string, phase: string): void {
    this.marks.push({ page, id, phase, at: Date.now() });
    if (this.marks.length > 500) this.marks.shift();
  }

  noteAccepted(type: string): void {
    this.accepted[type] = (this.accepted[type] ?? 0) + 1;
  }

  noteRendered(e: RenderedEvent): void {
    this.rendered.push(e);
    if (this.rendered.length > 200) this.rendered.shift();
    this.emitter.fire(e);
  }

  /** Resolves with the next `rendered` of `page`/`id` after `since` (ms epoch). */
  waitForRendered(page: PageKind, id: string, since: number, timeoutMs = 60_000): Promise<RenderedEvent> {
    const hit = this.rendered.find((e) => e.page === page && e.id === id && e.at >= since);
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        sub.dispose();
        reject(new Error(`no rendered message from the ${page} page of ${id} within ${timeoutMs} ms`));
      }, timeoutMs);
      const sub = this.onDidRender((e) => {
        if (e.page === page && e.id === id && e.at >= since) {
          clearTimeout(timer);
          sub.dispose();
          resolve(e);
        }
      });
    });
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
