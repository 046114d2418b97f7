import * as vscode from 'vscode';
import {
  answerRequest,
  type RequestHandlers,
  type RequestMap,
  type RequestMessage,
} from '../../common/requestReply';
import type { Check } from '../../common/schema';
import type { WordsMessage } from '../../common/words';
import { neutraliseUiText } from '../../core/text/inert';
import type { Ctx } from '../ctx';
import { isCancellation, userMessage } from '../shared/errors';
import { pageHtml, webviewOptions } from './html';
import type { OpenedPage } from './pages';

/** The messages the kit itself handles: the handshake, the render report, requests. */
type KitType = 'ready' | 'rendered' | 'request';
/** What a page sends that its owner handles (everything but the kit's own messages). */
export type PageMessageOf<In extends { type: string }> = Exclude<In, { type: KitType }>;

/**
 * What the kit needs to serve a page. `fromPage` is the page's message schema
 * (src/common/): it must accept `{ type: 'ready' }` and `{ type: 'rendered', ms, ... }`
 * (with any fields of the page's own), and `request` messages when the page has requests.
 */
export interface PageSpec<In extends { type: string }, Out extends { type: string }> {
  /** Name in events and the log, and the body's `data-page` (the script reads it). */
  page: string;
  /** The document title. */
  title: string;
  /** The page's browser entry in dist/ (esbuild.mjs `webview` entry points). */
  script: string;
  /** Validates every message from the page; anything it refuses is logged and dropped. */
  fromPage: Check<In>;
  /** Posts that carry the page's data (the `data` phase of the page's events). */
  dataTypes?: ReadonlyArray<Out['type']>;
  /**
   * The page draws its own SVG into a canvas for "Save as PNG" (chart and map pages): its
   * CSP allows `img-src blob:` (an image of a blob the page made; nothing remote).
   */
  rasterises?: boolean;
}

/** What the owner of a page (a panel class of a feature) does with it. */
export interface PageOwner<In extends { type: string }, R extends RequestMap> {
  /** The page said `ready` (first load, or again after it was hidden): post what it shows. */
  onReady(): void;
  /** A validated message of the page's own. Errors are reported (short message, detail logged). */
  onMessage(message: PageMessageOf<In>): void | Promise<void>;
  /** The page's request/reply methods, when it has any. */
  requests?: () => RequestHandlers<R> | undefined;
  /** The panel was closed (by the user or by `dispose`). */
  onDispose?(): void;
}

/**
 * The one webview host of the extension: every page (host, whois, triage, and the next)
 * is a `WebviewPage`. It owns the HTML shell (CSP and a fresh nonce per load, html.ts), the
 * ready handshake (nothing is posted before the page says `ready`, and `ready` again after
 * it was hidden resends everything), validation of every message by the page's schema,
 * request/reply, the `rendered` report and disposal, and announces each step on
 * `ctx.pages` (opened, phases, messages, renders, closed).
 */
export class WebviewPage<
  In extends { type: string },
  Out extends { type: string },
  R extends RequestMap = never,
>
  implements vscode.Disposable
{
  private ready = false;
  private disposed = false;
  private readonly subs: vscode.Disposable[] = [];
  private readonly opened: OpenedPage;

  /** A new panel of `viewType` for a page (beside the editor unless told otherwise). */
  static createPanel(
    ctx: Ctx,
    viewType: string,
    title: string,
    show: vscode.ViewColumn | { viewColumn: vscode.ViewColumn; preserveFocus?: boolean } = vscode.ViewColumn
      .Beside,
  ): vscode.WebviewPanel {
    return vscode.window.createWebviewPanel(
      viewType,
      title,
      show,
      webviewOptions(ctx.extension.extensionUri),
    );
  }

  constructor(
    private readonly ctx: Ctx,
    readonly panel: vscode.WebviewPanel,
    private readonly spec: PageSpec<In, Out>,
    /** The page's id among pages of its kind: the IP, the domain, `triage`. */
    readonly id: string,
    private readonly owner: PageOwner<In, R>,
    /** A panel VS Code restored: its options are set again (a new panel has them already). */
    restored = false,
  ) {
    const extUri = ctx.extension.extensionUri;
    if (restored) panel.webview.options = webviewOptions(extUri);
    // Listening before the page exists: its `ready` can never be missed.
    this.subs.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
    );
    this.opened = { page: spec.page, id, deliver: (raw) => this.receive(raw) };
    ctx.pages.noteOpened(this.opened);
    ctx.pages.notePhase(this.ref, 'created');
    panel.iconPath = vscode.Uri.joinPath(extUri, 'media', 'odin.svg');
    panel.webview.html = pageHtml(panel.webview, extUri, spec.page, spec.title, spec.script, {
      rasterises: spec.rasterises === true,
    });
  }

  private get ref(): { page: string; id: string } {
    return { page: this.spec.page, id: this.id };
  }

  get isReady(): boolean {
    return this.ready && !this.disposed;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Posts to the page once it has said `ready` (before that it is dropped: `ready` resends all). */
  post(message: Out): void {
    if (!this.isReady) return;
    if (this.spec.dataTypes?.includes(message.type)) this.ctx.pages.notePhase(this.ref, 'data');
    void this.panel.webview.postMessage(message).then(undefined, () => undefined);
  }

  /**
   * The page's words (common/words.ts): VS Code's translations of our messages, posted before
   * anything else so the page renders in the user's language; nothing in English (no bundle).
   */
  private postWords(): void {
    const bundle = vscode.l10n.bundle;
    if (!bundle) return;
    const words: WordsMessage = { type: 'words', words: bundle };
    this.ctx.pages.notePhase(this.ref, 'words');
    void this.panel.webview.postMessage(words).then(undefined, () => undefined);
  }

  reveal(preserveFocus = false): void {
    this.panel.reveal(undefined, preserveFocus);
  }

  private receive(raw: unknown): void {
    if (this.disposed) return;
    const message = this.spec.fromPage(raw);
    if (!message) {
      const type =
        typeof raw === 'object' && raw !== null
          ? String((raw as { type?: unknown }).type).slice(0, 40)
          : typeof raw;
      this.ctx.pages.noteMessage(this.ref, type, false);
      // l10n: English, for the log
      this.ctx.log.warn(
        `The ${this.spec.page} page sent a message that was refused (type ${JSON.stringify(type)}).`,
      );
      return;
    }
    this.ctx.pages.noteMessage(this.ref, message.type, true);
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.ctx.pages.notePhase(this.ref, 'ready');
        this.postWords();
        this.owner.onReady();
        return;
      case 'rendered': {
        const { type: _type, ...report } = message as unknown as { type: 'rendered'; ms: number };
        // l10n: English, for the log
        this.ctx.log.debug(`The ${this.spec.page} page ${this.id} rendered in ${report.ms.toFixed(1)} ms`);
        this.ctx.pages.noteRendered(this.ref, report);
        return;
      }
      case 'request':
        void this.answer(message as unknown as RequestMessage<R>);
        return;
      default:
        Promise.resolve()
          .then(() => this.owner.onMessage(message as PageMessageOf<In>))
          .catch((err: unknown) => this.report(err));
    }
  }

  private answer(message: RequestMessage<R>): Promise<void> {
    const handlers = this.owner.requests?.();
    if (!handlers) return Promise.resolve();
    return answerRequest(
      message,
      handlers,
      (reply) => this.post(reply as unknown as Out),
      (err) => {
        // l10n: English, for the log
        if (!isCancellation(err))
          this.ctx.log.warn(
            `The ${this.spec.page} page's request ${message.method} failed: ${userMessage(err)}`,
          );
        return userMessage(err);
      },
    );
  }

  /** A failed action: short text to the user, the detail in the log. */
  report(err: unknown): void {
    if (isCancellation(err)) return;
    // l10n: English, for the log
    this.ctx.log.error(`The ${this.spec.page} page ${this.id}: ${userMessage(err)}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('ODIN: {0}', neutraliseUiText(userMessage(err))));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.ctx.pages.noteClosed(this.opened);
    for (const s of this.subs.splice(0)) s.dispose();
    this.panel.dispose();
    this.owner.onDispose?.();
  }
}
