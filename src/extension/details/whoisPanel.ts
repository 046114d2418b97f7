import * as vscode from 'vscode';
import { OdinApiError } from '../../api/errors';
import type { WhoisRecord } from '../../api/types';
import { fromWhoisPage, type FromWhoisPage, type ToWebview } from '../../common/protocol';
import { neutraliseUiText } from '../../core/text/inert';
import { peekSearch, searchVia } from '../../core/search';
import { snapshotDate, sortSnapshots, whoisSnapshotText } from '../../core/whois/diff';
import { config } from '../shared/config';
import type { Ctx } from '../ctx';
import { isCancellation, userMessage } from '../shared/errors';
import { copyJson, copyText, exportJson, openJson } from './actions';
import { WHOIS_VIEW_TYPE } from './ids';
import { DetailsPanel, type OpenPanels } from './panel';
import { WebviewPage, type PageMessageOf, type PageSpec } from '../webviewKit/page';
import type { WhoisSnapshotDocs } from './whoisDocs';
import { whoisView } from './whoisModel';

interface WhoisState {
  record?: WhoisRecord;
  snapshots: WhoisRecord[];
  historyError?: string;
  error?: string;
  fetchedAt?: string;
}

/** The whois page for the webview kit: its script, its message schema, its data messages. */
const WHOIS_PAGE: PageSpec<FromWhoisPage, ToWebview> & { page: 'whois' } = {
  page: 'whois',
  title: vscode.l10n.t('ODIN whois'),
  script: 'webview.js',
  fromPage: fromWhoisPage,
  dataTypes: ['whois', 'error'],
};

/** One panel per domain: opening it again reveals it. */
export class WhoisPanel extends DetailsPanel<FromWhoisPage> {
  private state: WhoisState = { snapshots: [] };

  static show(ctx: Ctx, panels: OpenPanels<WhoisPanel>, docs: WhoisSnapshotDocs, domain: string): WhoisPanel {
    return panels.show(domain, () => {
      const panel = WebviewPage.createPanel(ctx, WHOIS_VIEW_TYPE, vscode.l10n.t('Whois {0}', domain));
      return new WhoisPanel(ctx, panels, docs, panel, domain, false);
    });
  }

  static revive(
    ctx: Ctx,
    panels: OpenPanels<WhoisPanel>,
    docs: WhoisSnapshotDocs,
    panel: vscode.WebviewPanel,
    domain: string,
    blocked?: string,
  ): WhoisPanel {
    panels.close(domain);
    panel.title = vscode.l10n.t('Whois {0}', domain);
    return new WhoisPanel(ctx, panels, docs, panel, domain, true, blocked);
  }

  private constructor(
    ctx: Ctx,
    panels: OpenPanels<WhoisPanel>,
    private readonly docs: WhoisSnapshotDocs,
    panel: vscode.WebviewPanel,
    domain: string,
    restored: boolean,
    blocked?: string,
  ) {
    super(ctx, panel, WHOIS_PAGE, domain, panels, restored);
    if (blocked === undefined) void this.load();
    else this.showCached(blocked);
  }

  /** The record as the shared cache holds it (a hover put it there); nothing sent. */
  private showCached(reason: string): void {
    const hit = peekSearch(this.ctx, { kind: 'whois', domain: this.id });
    this.state =
      hit?.status === 'ok'
        ? { snapshots: [], record: hit.value, fetchedAt: new Date(hit.storedAt).toISOString() }
        : { snapshots: [], error: vscode.l10n.t('Not loaded.') };
    this.showBlocked(reason, hit?.status === 'ok' ? hit.storedAt : undefined);
  }

  /** The record through the shared request layer (one request with a hover, cached), and the history. */
  async load(refresh = false): Promise<void> {
    const signal = this.newLoad();
    this.state = { snapshots: [] };
    this.post({ type: 'loading', page: 'whois', id: this.id });
    const domain = this.id;
    const [current, history] = await Promise.allSettled([
      searchVia(this.ctx, { kind: 'whois', domain }, { signal, automatic: false, refresh }).then((r) => {
        if (r.status === 'notFound')
          throw new OdinApiError({ kind: 'notFound', endpoint: 'GET /v1/domain/whois/{domain}' });
        return r.value;
      }),
      searchVia(this.ctx, { kind: 'whoisHistory', domain }, { signal, automatic: false, refresh }).then(
        (r) => (r.status === 'ok' ? r.value : { records: [] }),
      ),
    ]);
    if (signal.aborted) return;
    if (current.status === 'rejected') {
      if (isCancellation(current.reason)) return;
      this.state.error = userMessage(current.reason);
      // l10n: English, for the log
      this.ctx.log.warn(`Whois details ${this.id}: ${this.state.error}`);
    } else {
      this.state.record = current.value;
      this.state.fetchedAt = new Date().toISOString();
    }
    if (history.status === 'fulfilled') {
      this.state.snapshots = sortSnapshots(history.value.records);
    } else if (!isCancellation(history.reason)) {
      this.state.historyError = userMessage(history.reason);
    }
    this.onReady();
  }

  protected onReady(): void {
    if (this.state.error !== undefined) {
      this.post({ type: 'error', page: 'whois', id: this.id, message: this.state.error });
      return;
    }
    if (!this.state.record) return;
    this.post({
      type: 'whois',
      whois: whoisView(
        { record: this.state.record, snapshots: this.state.snapshots, historyError: this.state.historyError },
        config.expiryWarningDays(),
      ),
    });
  }

  private json(): unknown {
    return {
      domain: this.id,
      fetchedAt: this.state.fetchedAt,
      whois: this.state.record,
      history: this.state.snapshots,
    };
  }

  /** Opens VS Code's diff editor on two snapshots (indexes into the oldest-first list). */
  async diff(from: number, to: number): Promise<void> {
    const a = this.state.snapshots[from];
    const b = this.state.snapshots[to];
    if (!a || !b) return;
    const [older, newer, i, j] = from < to ? [a, b, from, to] : [b, a, to, from];
    const left = this.docs.set(this.id, i, snapshotDate(older) ?? '', whoisSnapshotText(older));
    const right = this.docs.set(this.id, j, snapshotDate(newer) ?? '', whoisSnapshotText(newer));
    const title = vscode.l10n.t(
      'Whois {0}: {1} ↔ {2}',
      this.id,
      neutraliseUiText(snapshotDate(older) ?? `#${i + 1}`, 40),
      neutraliseUiText(snapshotDate(newer) ?? `#${j + 1}`, 40),
    );
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
  }

  protected async onMessage(message: PageMessageOf<FromWhoisPage>): Promise<void> {
    const record = this.state.record;
    switch (message.type) {
      case 'diffSnapshots':
        return this.diff(message.from, message.to);
      case 'action':
        switch (message.action) {
          case 'refresh':
            if (await this.mayLoad()) await this.load(true);
            return;
          case 'copyJson':
            if (record) await copyJson(this.json(), vscode.l10n.t('whois of {0}', this.id));
            return;
          case 'openJson':
            if (record) await openJson(this.json());
            return;
          case 'export':
            if (record) await exportJson(this.json(), `odin-whois-${this.id}.json`);
            return;
          case 'copyRaw':
            if (record?.raw_data) await copyText(record.raw_data, vscode.l10n.t('raw whois record'));
            return;
          default:
            return;
        }
      default:
        return;
    }
  }
}
