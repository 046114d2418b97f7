import type * as vscode from 'vscode';
import type { PageKind, RenderedCounts } from '../../common/protocol';
import type { PagePhase, Pages, RenderedPage } from './pages';

/** A page's `rendered` report as the recorder keeps it (each page's protocol names its fields). */
interface Report<P> {
  page: P;
  /** The IP or domain of a details page; the result set's id of a chart or map; the triage's id. */
  id: string;
  /** Render time inside the page, in ms. */
  ms: number;
  at: number;
}
export type RenderedEvent = Report<PageKind> & { counts: RenderedCounts };
export type ChartRenderedEvent = Report<'chart'> & { generation: number; bars: number };
export type MapRenderedEvent = Report<'map'> & { generation: number; points: number; countries: number };
/** Rows received, shown after the filter, built in the DOM; `top`: the first rows shown (indices). */
export type TriageRenderedEvent = Report<'triage'> & {
  generation: number;
  rows: number;
  shown: number;
  dom: number;
  top?: number[];
};
export type PageRendered = RenderedEvent | ChartRenderedEvent | MapRenderedEvent | TriageRenderedEvent;

/**
 * What the test API keeps of the kit's events (`ctx.pages`) for a set of pages: every
 * `rendered` report, messages accepted by type and refused, phases, the open pages and a
 * way to deliver a message to one through its own validation. Built only in extension test
 * mode (testApi.ts); the extension itself keeps none of this.
 */
export class PageRecorder<E extends { page: string; id: string; at: number }> implements vscode.Disposable {
  readonly rendered: E[] = [];
  readonly accepted: Record<string, number> = {};
  rejected = 0;
  /** When each page reached each phase (created, ready, data posted): for the bench. */
  readonly marks: PagePhase[] = [];
  /** The open pages, as `page:id`. */
  readonly open = new Set<string>();
  /**
   * Each open page's message handler, by `page:id` (tests deliver a page's message, e.g. a
   * button's `{ type: 'action', action }`, through the same validation the webview's go through).
   */
  readonly receivers = new Map<string, (raw: unknown) => void>();
  private readonly listeners = new Set<(e: E) => void>();
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly pages: Pages,
    which: (page: string) => boolean,
    toEvent: (r: RenderedPage) => E,
  ) {
    this.subs = [
      pages.onDidOpen((p) => {
        if (!which(p.page)) return;
        this.open.add(`${p.page}:${p.id}`);
        this.receivers.set(`${p.page}:${p.id}`, p.deliver);
      }),
      pages.onDidClose((p) => {
        if (!which(p.page) || pages.isOpen(p.page, p.id)) return;
        this.open.delete(`${p.page}:${p.id}`);
        this.receivers.delete(`${p.page}:${p.id}`);
      }),
      pages.onDidReachPhase((m) => {
        if (!which(m.page)) return;
        this.marks.push(m);
        if (this.marks.length > 500) this.marks.shift();
      }),
      pages.onDidReceive((m) => {
        if (!which(m.page)) return;
        if (m.accepted) this.accepted[m.type] = (this.accepted[m.type] ?? 0) + 1;
        else this.rejected++;
      }),
      pages.onDidRender((r) => {
        if (!which(r.page)) return;
        const e = toEvent(r);
        this.rendered.push(e);
        if (this.rendered.length > 200) this.rendered.shift();
        for (const l of this.listeners) l(e);
      }),
    ];
  }

  /** What VS Code calls to restore a page after a reload: tests call it on a panel they made. */
  restore(viewType: string, panel: vscode.WebviewPanel, state: unknown): Promise<boolean> {
    return this.pages.restore(viewType, panel, state);
  }

  /** Resolves with the next `rendered` of `page`/`id` after `since` (ms epoch). */
  waitForRendered<P extends E['page']>(
    page: P,
    id: string,
    since: number,
    timeoutMs = 60_000,
  ): Promise<Extract<E, { page: P }>> {
    const match = (e: E): e is Extract<E, { page: P }> => e.page === page && e.id === id && e.at >= since;
    const hit = this.rendered.find(match);
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        // l10n: English, for the tests (a TestApi wait that timed out)
        reject(new Error(`no rendered message from the ${page} page of ${id} within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (e: E): void => {
        if (!match(e)) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(e);
      };
      this.listeners.add(listener);
    });
  }

  dispose(): void {
    for (const s of this.subs.splice(0)) s.dispose();
    this.listeners.clear();
  }
}
