import * as vscode from 'vscode';
import { OdinApiError } from '../../api/errors';
import { peekSearch, searchVia } from '../../core/search';
import type { Cve, Exploit, Host } from '../../api/types';
import {
  BANNER_PREVIEW,
  fromHostPage,
  type FromHostPage,
  type RequestHandlers,
  type ToWebview,
} from '../../common/protocol';
import type { Ctx } from '../ctx';
import { isCancellation, userMessage } from '../shared/errors';
import { confirmOpenExternal, copyJson, copyText, exportJson, openJson } from './actions';
import {
  certificateQuery,
  bannerText,
  cveView,
  hostBannerText,
  exploitView,
  hostCves,
  hostView,
  linkTarget,
  mergeCves,
} from './hostModel';
import { HOST_VIEW_TYPE } from './ids';
import { DetailsPanel, type OpenPanels } from './panel';
import { WebviewPage, type PageMessageOf, type PageSpec } from '../webviewKit/page';

/** The host page for the webview kit: its script, its message schema, its data messages. */
const HOST_PAGE: PageSpec<FromHostPage, ToWebview> & { page: 'host' } = {
  page: 'host',
  title: vscode.l10n.t('ODIN host'),
  script: 'webview.js',
  fromPage: fromHostPage,
  dataTypes: ['host', 'error'],
};
import { runCommand } from '../shared/runCommand';

const FIRST_CVE_PAGE = 1;
/** The service's page of CVEs (it takes no size): only a part of the cache key. */
const CVE_PAGE_SIZE = 1;

interface HostState {
  host?: Host;
  error?: string;
  cves: Cve[];
  cvesError?: string;
  nextCvePage?: number;
  exploits: Exploit[];
  exploitsError?: string;
  exploitsLoaded: boolean;
  fetchedAt?: string;
}

/** One panel per host: opening it again reveals it. */
export class HostPanel extends DetailsPanel<FromHostPage> {
  private state: HostState = { cves: [], exploits: [], exploitsLoaded: false };

  static show(ctx: Ctx, panels: OpenPanels<HostPanel>, ip: string): HostPanel {
    return panels.show(ip, () => {
      // Beside the editor, so the file (and the log) stays in view.
      const panel = WebviewPage.createPanel(ctx, HOST_VIEW_TYPE, vscode.l10n.t('Host {0}', ip));
      return new HostPanel(ctx, panels, panel, ip, false);
    });
  }

  /**
   * A panel VS Code restored after a reload (its state held only the IP). With `blocked` (why
   * nothing may be sent by itself) it shows what the cache holds and a Load button.
   */
  static revive(
    ctx: Ctx,
    panels: OpenPanels<HostPanel>,
    panel: vscode.WebviewPanel,
    ip: string,
    blocked?: string,
  ): HostPanel {
    panels.close(ip);
    panel.title = vscode.l10n.t('Host {0}', ip);
    return new HostPanel(ctx, panels, panel, ip, true, blocked);
  }

  private constructor(
    ctx: Ctx,
    panels: OpenPanels<HostPanel>,
    panel: vscode.WebviewPanel,
    ip: string,
    restored: boolean,
    blocked?: string,
  ) {
    super(ctx, panel, HOST_PAGE, ip, panels, restored);
    if (blocked === undefined) void this.load();
    else this.showCached(blocked);
  }

  /** The host as the shared cache holds it (a hover or an earlier page put it there); nothing sent. */
  private showCached(reason: string): void {
    const hit = peekSearch(this.ctx, { kind: 'host', ip: this.id });
    if (hit?.status === 'ok') {
      this.state = { cves: hostCves(hit.value), exploits: [], exploitsLoaded: false, host: hit.value };
      this.state.fetchedAt = new Date(hit.storedAt).toISOString();
    } else {
      this.state = { cves: [], exploits: [], exploitsLoaded: false, error: vscode.l10n.t('Not loaded.') };
    }
    this.showBlocked(reason, hit?.status === 'ok' ? hit.storedAt : undefined);
  }

  /**
   * Fetches the host, then its CVEs (first page) and exploits in parallel. The host comes
   * through the shared request layer: a host just hovered is not asked for again (unless
   * `refresh`), and a hover and a page asking at once share one request.
   */
  async load(refresh = false): Promise<void> {
    const signal = this.newLoad();
    this.state = { cves: [], exploits: [], exploitsLoaded: false };
    this.post({ type: 'loading', page: 'host', id: this.id });
    const ip = this.id;
    try {
      const r = await searchVia(this.ctx, { kind: 'host', ip }, { signal, automatic: false, refresh });
      if (signal.aborted) return;
      if (r.status === 'notFound' && r.contradicts) {
        // A weaker answer does not replace the earlier one silently (the cache keeps it).
        const when = new Date(r.contradicts.storedAt).toISOString().slice(0, 16).replace('T', ' ');
        throw new OdinApiError({
          kind: 'notFound',
          endpoint: 'GET /v1/hosts/{ip}',
          message: vscode.l10n.t(
            'ODIN now answers "not found" for {0}, but answered with scan data on {1} UTC: that answer is kept (the hover shows it).',
            this.id,
            when,
          ),
        });
      }
      if (r.status === 'notFound')
        throw new OdinApiError({ kind: 'notFound', endpoint: 'GET /v1/hosts/{ip}' });
      const host = r.value;
      this.state.host = host;
      this.state.cves = hostCves(host);
      this.state.fetchedAt = new Date().toISOString();
    } catch (err) {
      if (signal.aborted || isCancellation(err)) return;
      this.state.error = userMessage(err);
      // l10n: English, for the log
      this.ctx.log.warn(`Host details ${this.id}: ${this.state.error}`);
      this.onReady();
      return;
    }
    this.sendHost();
    await Promise.all([
      // KEV and EPSS beside each CVE once the feeds are read (first need; never fatal).
      this.ctx.feeds.ensure().then(
        () => {
          if (!signal.aborted) this.sendCves();
        },
        () => undefined,
      ),
      this.cvePage(ip, FIRST_CVE_PAGE, signal, refresh).then(
        (page) => {
          if (signal.aborted) return;
          this.state.cves = mergeCves(this.state.cves, page.items);
          this.state.nextCvePage = page.next;
          this.sendCves();
        },
        (err: unknown) => {
          if (signal.aborted || isCancellation(err)) return;
          this.state.cvesError = userMessage(err);
          this.sendCves();
        },
      ),
      searchVia(this.ctx, { kind: 'hostExploits', ip }, { signal, automatic: false, refresh }).then(
        (r) => {
          const exploits = r.status === 'ok' ? r.value : [];
          if (signal.aborted) return;
          this.state.exploits = exploits;
          this.state.exploitsLoaded = true;
          this.sendExploits();
        },
        (err: unknown) => {
          if (signal.aborted || isCancellation(err)) return;
          this.state.exploitsError = userMessage(err);
          this.state.exploitsLoaded = true;
          this.sendExploits();
        },
      ),
    ]);
  }

  /** A page of the host's CVE list, through the catalogue (one cache key per page). */
  private async cvePage(ip: string, page: number, signal: AbortSignal | undefined, refresh = false) {
    const r = await searchVia(
      this.ctx,
      { kind: 'hostCves', ip },
      { signal, automatic: false, refresh, page: { cursor: page, limit: CVE_PAGE_SIZE } },
    );
    return r.status === 'ok' ? r.value : { items: [], total: 0 };
  }

  private sendHost(): void {
    if (this.state.host) this.post({ type: 'host', host: hostView(this.state.host, this.ctx.feeds.store) });
  }

  private cveViews() {
    return this.state.cves.map((c) =>
      cveView(
        c,
        c.summary !== undefined || c.score !== undefined ? 'endpoint' : 'host',
        this.ctx.feeds.store,
      ),
    );
  }

  private sendCves(): void {
    this.post({
      type: 'cves',
      cves: this.cveViews(),
      more: this.state.nextCvePage !== undefined,
      error: this.state.cvesError,
    });
  }

  private sendExploits(): void {
    if (!this.state.exploitsLoaded) return;
    this.post({
      type: 'exploits',
      exploits: this.state.exploits.map((e) => exploitView(e)),
      error: this.state.exploitsError,
    });
  }

  protected onReady(): void {
    if (this.state.error !== undefined) {
      this.post({ type: 'error', page: 'host', id: this.id, message: this.state.error });
      return;
    }
    if (!this.state.host) return; // still loading: `load` sends when done
    this.sendHost();
    this.sendCves();
    this.sendExploits();
  }

  protected override requestHandlers(): RequestHandlers {
    return {
      banner: async ({ serviceIndex, full }) => {
        if (!this.state.host) throw new Error(vscode.l10n.t('The host is not loaded yet.'));
        return bannerText(this.state.host, serviceIndex, full, BANNER_PREVIEW);
      },
      hostBanner: async ({ index, full }) => {
        if (!this.state.host) throw new Error(vscode.l10n.t('The host is not loaded yet.'));
        return hostBannerText(this.state.host, index, full, BANNER_PREVIEW);
      },
      moreCves: async () => {
        const page = this.state.nextCvePage;
        if (page === undefined) return { cves: this.cveViews(), more: false };
        const signal = this.loading?.signal;
        const ip = await this.sendable();
        const result = await this.cvePage(ip, page, signal);
        this.state.cves = mergeCves(this.state.cves, result.items);
        // Never ask for the same page twice, whatever the server says.
        this.state.nextCvePage = result.next !== undefined && result.next > page ? result.next : undefined;
        return { cves: this.cveViews(), more: this.state.nextCvePage !== undefined };
      },
    };
  }

  /** Everything the page shows, as JSON (copy, open, export). */
  private json(): unknown {
    return {
      ip: this.id,
      fetchedAt: this.state.fetchedAt,
      host: this.state.host,
      cves: this.state.cves,
      exploits: this.state.exploits,
    };
  }

  protected async onMessage(message: PageMessageOf<FromHostPage>): Promise<void> {
    const host = this.state.host;
    switch (message.type) {
      case 'action':
        switch (message.action) {
          case 'refresh':
            if (await this.mayLoad()) await this.load(true);
            return;
          case 'searchSimilar': {
            const commands = await vscode.commands.getCommands(true);
            if (!commands.includes('odin.searchSimilar')) {
              void vscode.window.showInformationMessage(
                vscode.l10n.t('ODIN: searching for similar hosts is not available in this version.'),
              );
              return;
            }
            await runCommand('odin.searchSimilar', this.id);
            return;
          }
          case 'copyJson':
            if (host) await copyJson(this.json(), vscode.l10n.t('host {0}', this.id));
            return;
          case 'openJson':
            if (host) await openJson(this.json());
            return;
          case 'export':
            if (host) await exportJson(this.json(), `odin-host-${this.id.replace(/:/g, '_')}.json`);
            return;
          default:
            return;
        }
      case 'copyLink':
      case 'openLink': {
        if (!host) return;
        const url = linkTarget(host, this.state.cves, this.state.exploits, message.link);
        if (url === undefined) return;
        if (message.type === 'copyLink') await copyText(url, 'link');
        else await confirmOpenExternal(url);
        return;
      }
      case 'searchCertificate': {
        // The fingerprint comes from the host record the extension holds, never from the page.
        const query = certificateQuery(host?.services[message.serviceIndex]);
        if (query) await runCommand('odin.searchHosts', { query });
        return;
      }
      case 'copyCve': {
        const want = message.cveId.toUpperCase();
        const cve = this.state.cves.find((c) => c.id.toUpperCase() === want);
        if (cve) await copyText(cve.id, cve.id);
        return;
      }
      default:
        return;
    }
  }
}
