import * as vscode from 'vscode';
import {
  answerRequest,
  parseFromWebview,
  type FromWebview,
  type PageKind,
  type RequestHandlers,
  type RequestMessage,
  type ToWebview,
} from '../../common/protocol';
import { neutraliseUiText } from '../../core/text/inert';
import type { Ctx } from '../ctx';
import { isCancellation, userMessage } from '../shared/errors';
import { detailsHtml, webviewOptions } from './html';

/**
 * The open panels of one page, by id: one panel per host or domain, and opening it again
 * reveals it. The details feature owns one per page (no module or static state).
 */
export class OpenPanels<P extends DetailsPanel> implements vscode.Disposable {
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
 * What host and whois pages share: the HTML shell, the ready handshake, validation of
 * every message from the page, request/reply, and the `rendered` report. Subclasses say
 * what to send when the page is (again) ready and what to do with validated messages.
 */
export abstract class DetailsPanel implements vscode.Disposable {
  private isReady = false;
  private disposed = false;
  private readonly disposables: vscode.Disposable[] = [];
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
    readonly panel: vscode.WebviewPanel,
    readonly page: PageKind,
    readonly id: string,
    private readonly openPanels: OpenPanels<DetailsPanel>,
  ) {
    const extUri = ctx.extension.extensionUri;
    panel.webview.options = webviewOptions(extUri);
    panel.webview.html = detailsHtml(
      panel.webview,
      extUri,
      page,
      page === 'host' ? 'ODIN host' : 'ODIN whois',
    );
    panel.iconPath = vscode.Uri.joinPath(extUri, 'media', 'odin.svg');
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
    );
    this.ctx.detailsProbe.open.add(`${page}:${id}`);
    this.ctx.detailsProbe.receivers.set(`${page}:${id}`, (raw) => this.receive(raw));
    this.ctx.detailsProbe.mark(page, id, 'created');
    openPanels.add(this);
  }

  protected abstract onReady(): void;
  protected abstract onMessage(
    message: Exclude<FromWebview, { type: 'ready' | 'rendered' | 'request' }>,
  ): Promise<void>;
  protected abstract requestHandlers(): RequestHandlers;

  /** Posts to the page once it has said `ready` (before that it is dropped; `ready` resends all). */
  protected post(message: ToWebview): void {
    if (!this.isReady || this.disposed) return;
    if (message.type === 'host' || message.type === 'whois' || message.type === 'error') {
      this.ctx.detailsProbe.mark(this.page, this.id, 'data');
    }
    void this.panel.webview.postMessage(message).then(undefined, () => undefined);
  }

  private receive(raw: unknown): void {
    const message = parseFromWebview(raw, this.page);
    if (!message) {
      this.ctx.detailsProbe.rejected++;
      const type =
        typeof raw === 'object' && raw !== null
          ? String((raw as { type?: unknown }).type).slice(0, 40)
          : typeof raw;
      this.ctx.log.warn(
        `Details page (${this.page}) sent a message that was refused (type ${JSON.stringify(type)}).`,
      );
      return;
    }
    this.ctx.detailsProbe.noteAccepted(message.type);
    switch (message.type) {
      case 'ready':
        this.isReady = true;
        this.ctx.detailsProbe.mark(this.page, this.id, 'ready');
        this.post({ type: 'loading', page: this.page, id: this.id });
        this.onReady();
        if (this.notice) this.post({ type: 'notice', ...this.notice });
        return;
      case 'rendered':
        this.ctx.log.debug(`Details ${this.page} ${this.id} rendered in ${message.ms.toFixed(1)} ms`);
        this.ctx.detailsProbe.noteRendered({
          page: this.page,
          id: this.id,
          counts: message.counts,
          ms: message.ms,
          at: Date.now(),
        });
        return;
      case 'request':
        void this.answer(message);
        return;
      default:
        this.onMessage(message).catch((err: unknown) => this.report(err));
    }
  }

  private answer(message: RequestMessage): Promise<void> {
    return answerRequest(
      message,
      this.requestHandlers(),
      (reply) => this.post(reply),
      (err) => {
        if (!isCancellation(err))
          this.ctx.log.warn(`Details ${this.page} request ${message.method} failed: ${userMessage(err)}`);
        return userMessage(err);
      },
    );
  }

  /** A failed action: short text to the user, the detail in the log. */
  protected report(err: unknown): void {
    if (isCancellation(err)) return;
    this.ctx.log.error(`Details ${this.page} ${this.id}: ${userMessage(err)}`);
    void vscode.window.showErrorMessage(`ODIN: ${neutraliseUiText(userMessage(err))}`);
  }

  /**
   * A user action that loads from ODIN (Refresh, the Load button, more CVEs): through the
   * gate as an explicit request. False (and the user told why) when nothing may be sent.
   */
  protected async mayLoad(): Promise<boolean> {
    const d = await this.ctx.gate.decide(this.id, {
      trigger: 'explicit',
      source: 'restoredPage',
      accept: [this.page === 'host' ? 'ip' : 'domain'],
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
      accept: [this.page === 'host' ? 'ip' : 'domain'],
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
          ? `${reason} Showing what was cached on ${new Date(cachedAt).toLocaleString()}; nothing was sent.`
          : `${reason} Nothing was sent.`,
      load: true,
    };
    this.onReady();
    this.post({ type: 'notice', ...this.notice });
  }

  /** Starts a new load, cancelling the previous one. */
  protected newLoad(): AbortSignal {
    this.loading?.abort();
    this.loading = new AbortController();
    return this.loading.signal;
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.loading?.abort();
    this.ctx.detailsProbe.open.delete(`${this.page}:${this.id}`);
    this.ctx.detailsProbe.receivers.delete(`${this.page}:${this.id}`);
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
    this.openPanels.remove(this);
  }
}
