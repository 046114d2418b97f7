import * as vscode from 'vscode';
import type { FromWebview, PageKind, RequestHandlers, Requests, ToWebview } from '../../common/protocol';
import type { Ctx } from '../ctx';
import { WebviewPage, type PageMessageOf, type PageSpec, type PageOwner } from '../webviewKit/page';

/**
 * The open panels of one page, by id: one panel per host or domain, and opening it again
 * reveals it. The details feature owns one per page (no module or static state).
 */
export class OpenPanels<P extends { id: string; isDisposed: boolean; reveal(): void; dispose(): void }>
  implements vscode.Disposable
{
  private readonly byId = new Map<string, P>();

  /** Reveals the open panel of `id`, or opens one with `open`. */
  show(id: string, open: () => P): P {
    const existing = this.byId.get(id);
    if (existing && !existing.isDisposed) {
      existing.reveal();
      return existing;
    }
    return open();
  }

  /** Closes the panel of `id`, if one is open (a restored page takes its place). */
  close(id: string): void {
    this.byId.get(id)?.dispose();
  }

  add(panel: P): void {
    this.byId.set(panel.id, panel);
  }

  remove(panel: P): void {
    if (this.byId.get(panel.id) === panel) this.byId.delete(panel.id);
  }

  dispose(): void {
    for (const p of [...this.byId.values()]) p.dispose();
  }
}

/**
 * What host and whois pages share on top of the webview kit (which owns the HTML shell,
 * the handshake, validation, request/reply, `rendered` and disposal): the `loading` line
 * and the notice on every `ready`, the load in flight, and the gate for a user's Load or
 * Refresh. Subclasses say what to send when the page is (again) ready and what to do with
 * its validated messages.
 */
export abstract class DetailsPanel<In extends FromWebview> implements vscode.Disposable {
  protected readonly page: WebviewPage<In, ToWebview, Requests>;
  /** Cancels the load in flight (refresh, close). */
  protected loading: AbortController | undefined;
  /**
   * Set while the page shows only what was cached because nothing may be sent by itself
   * (restored with lookups off, on command, or in Restricted Mode): the line above the page
   * and its Load button, which runs the gate as a user action.
   */
  protected notice: { message: string; load: boolean } | undefined;

  protected constructor(
    protected readonly ctx: Ctx,
    panel: vscode.WebviewPanel,
    private readonly spec: PageSpec<In, ToWebview> & { page: PageKind },
    readonly id: string,
    private readonly openPanels: OpenPanels<DetailsPanel<In>>,
    restored: boolean,
  ) {
    const owner: PageOwner<In, Requests> = {
      onReady: () => {
        this.post({ type: 'loading', page: spec.page, id });
        this.onReady();
        if (this.notice) this.postNotice();
      },
      onMessage: (m) => this.onMessage(m),
      requests: () => this.requestHandlers(),
      onDispose: () => this.dispose(),
    };
    this.page = new WebviewPage(ctx, panel, spec, id, owner, restored);
    openPanels.add(this);
  }

  protected abstract onReady(): void;
  protected abstract onMessage(message: PageMessageOf<In>): Promise<void>;
  /** The page's request/reply methods (the host page's; the whois page has none). */
  protected requestHandlers(): RequestHandlers | undefined {
    return undefined;
  }

  protected post(message: ToWebview): void {
    this.page.post(message);
  }

  private postNotice(): void {
    if (this.notice) this.post({ type: 'notice', ...this.notice });
  }

  /**
   * A user action that loads from ODIN (Refresh, the Load button, more CVEs): through the
   * gate as an explicit request. False (and the user told why) when nothing may be sent.
   */
  protected async mayLoad(): Promise<boolean> {
    const d = await this.ctx.gate.decide(this.id, {
      trigger: 'explicit',
      source: 'restoredPage',
      accept: [this.spec.page === 'host' ? 'ip' : 'domain'],
    });
    if ('target' in d) this.notice = undefined;
    return 'target' in d;
  }

  /**
   * The gate's target for a request the page asks for (more CVEs): an explicit request for
   * this page's value; throws why when refused (asks first in Restricted Mode).
   */
  protected async sendable(): Promise<string> {
    const d = await this.ctx.gate.decide(this.id, {
      trigger: 'explicit',
      source: 'restoredPage',
      accept: [this.spec.page === 'host' ? 'ip' : 'domain'],
      quiet: true,
    });
    if ('refusal' in d) throw new Error(d.refusal.message);
    return d.target.value;
  }

  /** Shows the page from what is cached, with the reason nothing was loaded and a Load button. */
  protected showBlocked(reason: string, cachedAt: number | undefined): void {
    this.notice = {
      message:
        cachedAt !== undefined
          ? vscode.l10n.t(
              '{0} Showing what was cached on {1}; nothing was sent.',
              reason,
              new Date(cachedAt).toLocaleString(),
            )
          : vscode.l10n.t('{0} Nothing was sent.', reason),
      load: true,
    };
    this.onReady();
    this.postNotice();
  }

  /** Starts a new load, cancelling the previous one. */
  protected newLoad(): AbortSignal {
    this.loading?.abort();
    this.loading = new AbortController();
    return this.loading.signal;
  }

  reveal(): void {
    this.page.reveal();
  }

  get isDisposed(): boolean {
    return this.page.isDisposed;
  }

  dispose(): void {
    this.loading?.abort();
    this.page.dispose();
    this.openPanels.remove(this);
  }
}
