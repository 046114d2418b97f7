import * as vscode from 'vscode';

/** A page of the kit: its name (`host`, `whois`, `triage`) and id (the IP, the domain, `triage`). */
export interface PageRef {
  page: string;
  id: string;
}

/** A page that opened: `deliver` runs a message through the page's own validation. */
export interface OpenedPage extends PageRef {
  deliver(raw: unknown): void;
}

/** The page's first (or a new) render: what its `rendered` message reported, and when it came. */
export interface RenderedPage extends PageRef {
  /** The fields of the page's `rendered` message besides `type` (counts, rows, `ms`, ...). */
  report: { ms: number } & Record<string, unknown>;
  at: number;
}

/**
 * A phase of a page's life: `created`, `ready` (its handshake), `words` (its translations
 * posted: only when VS Code is not in English), `data` (its view model posted).
 */
export interface PagePhase extends PageRef {
  phase: 'created' | 'ready' | 'words' | 'data';
  at: number;
}

/** A message from a page, accepted (by type) or refused by its schema. */
export interface PageMessage extends PageRef {
  type: string;
  accepted: boolean;
}

type Restore = (panel: vscode.WebviewPanel, state: unknown) => void | Promise<void>;

/**
 * The webview pages of this window (one on `Ctx`, filled by the kit's `WebviewPage`): which
 * are open, the events of their lives (opened, phases, messages, renders, closed), and the
 * serializers that restore them after a reload. Features register a page kind here once
 * (`registerRestore`); the test API subscribes to the events (only in extension test mode).
 */
export class Pages implements vscode.Disposable {
  private readonly openPages = new Map<string, OpenedPage>();
  private readonly restorers = new Map<string, Restore>();
  private readonly opened = new vscode.EventEmitter<OpenedPage>();
  private readonly closed = new vscode.EventEmitter<PageRef>();
  private readonly phased = new vscode.EventEmitter<PagePhase>();
  private readonly messaged = new vscode.EventEmitter<PageMessage>();
  private readonly rendered = new vscode.EventEmitter<RenderedPage>();
  readonly onDidOpen = this.opened.event;
  readonly onDidClose = this.closed.event;
  readonly onDidReachPhase = this.phased.event;
  readonly onDidReceive = this.messaged.event;
  readonly onDidRender = this.rendered.event;
  private readonly registrations: vscode.Disposable[] = [];

  /** Whether the page `page` of `id` is open. */
  isOpen(page: string, id: string): boolean {
    return this.openPages.has(`${page}:${id}`);
  }

  /** The open pages, as `page:id`. */
  list(): PageRef[] {
    return [...this.openPages.values()].map(({ page, id }) => ({ page, id }));
  }

  /**
   * Registers how a page of `viewType` is restored after a reload (VS Code's serializer);
   * `restore` also serves tests that restore a panel they made, without reloading.
   */
  registerRestore(viewType: string, restore: Restore): void {
    this.restorers.set(viewType, restore);
    this.registrations.push(
      vscode.window.registerWebviewPanelSerializer(viewType, {
        deserializeWebviewPanel: async (panel, state: unknown) => restore(panel, state),
      }),
    );
  }

  /** Restores `panel` as a page of `viewType` (false when none is registered). */
  async restore(viewType: string, panel: vscode.WebviewPanel, state: unknown): Promise<boolean> {
    const r = this.restorers.get(viewType);
    if (!r) return false;
    await r(panel, state);
    return true;
  }

  // ---------------------------------------------------------------- called by WebviewPage

  noteOpened(p: OpenedPage): void {
    this.openPages.set(`${p.page}:${p.id}`, p);
    this.opened.fire(p);
  }

  noteClosed(p: OpenedPage): void {
    const key = `${p.page}:${p.id}`;
    if (this.openPages.get(key) === p) this.openPages.delete(key);
    this.closed.fire({ page: p.page, id: p.id });
  }

  notePhase(p: PageRef, phase: PagePhase['phase']): void {
    this.phased.fire({ page: p.page, id: p.id, phase, at: Date.now() });
  }

  noteMessage(p: PageRef, type: string, accepted: boolean): void {
    this.messaged.fire({ page: p.page, id: p.id, type, accepted });
  }

  noteRendered(p: PageRef, report: RenderedPage['report']): void {
    this.rendered.fire({ page: p.page, id: p.id, report, at: Date.now() });
  }

  dispose(): void {
    for (const d of this.registrations.splice(0)) d.dispose();
    for (const e of [this.opened, this.closed, this.phased, this.messaged, this.rendered]) e.dispose();
  }
}
