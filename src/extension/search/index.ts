/**
 * Issue 5: command-palette searches, the results view and the saved searches view.
 *
 * Every search command takes an optional argument object that skips its prompts (so the
 * integration tests, saved searches and other features call them without UI), e.g.
 * `executeCommand('odin.searchHosts', { query: 'services.port:443' })`; without it, the
 * command asks for its inputs. Commands return a small summary of what they did (never
 * data that could hold the key).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { exportText, type ExportFormat } from '../../core/export';
import { OdinApiError } from '../../api/errors';
import type { Host } from '../../api/types';
import { narrowQuery, pushRecent, readRecent, similarHostsQuery, type QueryTarget } from '../../core/query';
import {
  FORMAT_VERSION,
  KINDS,
  describeEntryError,
  describeSpec,
  duplicateSearch,
  mergeImported,
  moveSearch,
  nameError,
  newId,
  parseSearchesFile,
  replaceSearch,
  serializeSearches,
  uniqueName,
  validateSpec,
  type SavedSearch,
  type SearchKind,
  type SearchSpec,
} from '../../core/savedSearches';
import { neutraliseUiText } from '../../core/text';
import type { CommandHandler } from '../shared/commands';
import { config } from '../shared/config';
import { userMessage } from '../shared/errors';
import { confirmRestricted, gate, gateExplicit, hasRestrictedConsent } from '../shared/gate';
import type { Ctx } from '../ctx';
import { copyText, setTitle, type Node } from './results/resultNodes';
import type { ResultSet } from './results/resultSet';
import { ResultsProvider } from './results/resultsView';
import { SavedSearchStore, type StoreProblem } from './saved/savedStore';
import { SavedSearchesProvider, type SavedNode } from './saved/savedView';
import { FieldCatalogue } from './fieldCatalogue';
import {
  fieldItem,
  promptBucketSort,
  promptCve,
  promptDomain,
  promptDomainFilter,
  promptField,
  promptIp,
  promptQuery,
} from './prompts';
import type { SearchCommandId } from './ids';
import { fetcherFor } from './runner';

/** What a search command returns (for tests and callers; no API data beyond counts). */
export interface RunSummary {
  setId?: string;
  status: 'ready' | 'error' | 'cancelled' | 'dismissed' | 'details' | 'blocked';
  count?: number;
  total?: number;
  error?: string;
  errorKind?: string;
}

type Args = Record<string, unknown>;

/** The results and saved searches tree views. */
export interface SearchViews {
  results: vscode.TreeView<Node>;
  saved: vscode.TreeView<SavedNode>;
}

const QUERY_TARGET: Partial<Record<SearchKind, QueryTarget>> = {
  hosts: 'hosts',
  hostSummary: 'hosts',
  buckets: 'buckets',
  fileCount: 'files',
  fileSummary: 'files',
};

const TITLES: Record<SearchKind, string> = {
  hosts: 'ODIN: Search Hosts',
  hostSummary: 'ODIN: Summarize Hosts',
  host: 'ODIN: Look Up Host',
  hostCves: 'ODIN: CVEs of a Host',
  hostExploits: 'ODIN: Exploits of a Host',
  hostCve: 'ODIN: CVE on a Host',
  domains: 'ODIN: Search Domains',
  domainCount: 'ODIN: Count Domains',
  subdomainCount: 'ODIN: Count Subdomains',
  whois: 'ODIN: Whois',
  whoisHistory: 'ODIN: Whois History',
  buckets: 'ODIN: Search Exposed Buckets',
  fileCount: 'ODIN: Count Exposed Files',
  fileSummary: 'ODIN: Summarize Exposed Files',
};

const COUNT_KINDS = new Set<SearchKind>(['domainCount', 'subdomainCount', 'fileCount']);

function isObj(v: unknown): v is Args {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isResultNode(v: unknown): v is Node {
  return isObj(v) && typeof v.type === 'string' && isObj(v.set) && typeof (v.set as Args).id === 'string';
}

function isSavedNode(v: unknown): v is SavedNode {
  return isObj(v) && (v.type === 'search' || v.type === 'group');
}

function signalOf(token: vscode.CancellationToken): AbortSignal {
  const c = new AbortController();
  if (token.isCancellationRequested) c.abort();
  token.onCancellationRequested(() => c.abort());
  return c.signal;
}

export class SearchFeature implements vscode.Disposable {
  readonly results = new ResultsProvider();
  readonly store: SavedSearchStore;
  readonly saved: SavedSearchesProvider;
  readonly catalogue: FieldCatalogue;
  readonly resultsView: vscode.TreeView<Node>;
  readonly savedView: vscode.TreeView<SavedNode>;
  private readonly reported = new Set<string>();

  /**
   * `views` are the two tree views, created at activation (lazy.ts) over stand-in
   * providers that hand over to `results` and `saved` once this feature exists.
   */
  constructor(
    private readonly ctx: Ctx,
    views: SearchViews,
  ) {
    this.catalogue = new FieldCatalogue(
      () => ctx.client(),
      () => ctx.origin(),
      (m) => ctx.log.debug(m),
    );
    this.resultsView = views.results;
    this.results.attach(this.resultsView);
    this.store = new SavedSearchStore(ctx.extension.globalStorageUri.fsPath, (p) =>
      this.reportStoreProblem(p),
    );
    this.saved = new SavedSearchesProvider(this.store);
    this.savedView = views.saved;
    ctx.subscriptions.add(this.results);
    ctx.subscriptions.add(this.saved);
    ctx.subscriptions.add(this.store);
    // A new origin or key: field catalogues are per origin (the results stay: they are data already shown).
    ctx.subscriptions.add(ctx.onDidChangeConnection(() => this.catalogue.clear()));
    // Another window may have changed the file while this one was in the background.
    ctx.subscriptions.add(
      vscode.window.onDidChangeWindowState((s) => {
        if (s.focused)
          void this.store.load().catch((e: unknown) => ctx.log.warn(`saved searches: ${String(e)}`));
      }),
    );
    this.store.watch();
    void this.store
      .load()
      .then(() => this.saved.refresh())
      .catch((e: unknown) => {
        ctx.log.error(`Saved searches could not be read: ${e instanceof Error ? e.message : String(e)}`);
      });
    void this.updateDetailsAvailable();
  }

  dispose(): void {
    // Views, providers and the store are disposed through ctx.subscriptions.
  }

  private reportStoreProblem(p: StoreProblem): void {
    const key = p.message + p.details.join('\n');
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.ctx.log.warn(`${p.message}\n  ${p.details.join('\n  ')}`);
    void vscode.window
      .showWarningMessage(`ODIN: ${p.message}`, 'Show Log')
      .then((c) => c && this.ctx.log.show());
  }

  private async updateDetailsAvailable(): Promise<boolean> {
    const all = await vscode.commands.getCommands(true);
    this.results.detailsAvailable =
      all.includes('odin.openHostDetails') && all.includes('odin.openWhoisDetails');
    return this.results.detailsAvailable;
  }

  // ---------------------------------------------------------------- recent queries

  private recentsSlot(target: QueryTarget): string {
    return `odin.recentQueries.${target}`;
  }

  recent(target: QueryTarget): string[] {
    return readRecent(this.ctx.extension.globalState.get<unknown>(this.recentsSlot(target)));
  }

  private async remember(target: QueryTarget, query: string): Promise<void> {
    await this.ctx.extension.globalState.update(
      this.recentsSlot(target),
      pushRecent(this.recent(target), query),
    );
  }

  // ---------------------------------------------------------------- running

  /**
   * Runs `spec` into a new result set: the first page with progress (cancellable), the view
   * revealed. When `interactive` and the service rejects the query (400), the query input
   * opens again with the query and the error, and the corrected query runs instead.
   */
  async run(
    spec: SearchSpec,
    opts: { interactive?: boolean; pageSize?: number; reveal?: boolean } = {},
  ): Promise<RunSummary> {
    if (!(await this.maySearch())) return { status: 'blocked' };
    if (config.lookupMode() === 'off') {
      // "off" means nothing leaves the machine, search commands included.
      void vscode.window
        .showWarningMessage(
          'ODIN: lookups are off (setting "ODIN › Lookups: Mode"), so nothing was sent.',
          'Open Settings',
        )
        .then(
          (c) => c && vscode.commands.executeCommand('workbench.action.openSettings', 'odin.lookups.mode'),
        );
      return { status: 'blocked' };
    }
    const refused = privacyRefusal(spec);
    if (refused) {
      void vscode.window.showWarningMessage(`ODIN: ${neutraliseUiText(refused, 300)}`);
      return { status: 'blocked', error: refused };
    }
    const pageSize = opts.pageSize ?? config.searchPageSize();
    void this.updateDetailsAvailable();
    const set = this.results.add(spec, gatedFetcher(fetcherFor(() => this.ctx.client(), spec)), pageSize);
    if (opts.reveal !== false) {
      void vscode.commands.executeCommand('odin.results.focus').then(
        () => this.results.reveal(set),
        () => undefined,
      );
    }
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `ODIN: ${neutraliseUiText(setTitle(set), 120)}`,
        cancellable: true,
      },
      (_p, token) => set.loadNext(signalOf(token)),
    );
    const target = QUERY_TARGET[spec.kind];
    if (set.status === 'error') {
      this.ctx.log.warn(
        `${setTitle(set)}: ${set.error?.message ?? 'failed'} (${set.error?.kind ?? ''} ${set.error?.status ?? ''})`,
      );
      if (opts.interactive && target && set.error?.kind === 'badRequest') {
        this.results.remove(set);
        const fixed = await promptQuery({
          title: TITLES[spec.kind],
          target,
          value: spec.query ?? '',
          error: set.error.message,
          recent: this.recent(target),
          catalogue: this.catalogue,
        });
        if (fixed === undefined)
          return { status: 'dismissed', error: set.error.message, errorKind: 'badRequest' };
        return this.run({ ...spec, query: fixed }, opts);
      }
      return this.summary(set);
    }
    if (target && spec.query !== undefined) await this.remember(target, spec.query);
    if (COUNT_KINDS.has(spec.kind) && set.items[0]?.t === 'count') {
      const c = set.items[0];
      void vscode.window.showInformationMessage(
        `ODIN: ${c.label} matching ${neutraliseUiText(describeSpec(spec), 200)}: ${c.v.toLocaleString('en-US')}`,
      );
    }
    return this.summary(set);
  }

  /**
   * The gate's mode and trust part for a search (a user action): off sends nothing; in
   * Restricted Mode the user confirms once a session. Every page load (more, all, export of
   * all pages, retry, refresh) checks again through `gatedFetcher`.
   */
  private async maySearch(): Promise<boolean> {
    const g = gate();
    const run = g.mayRun({ trigger: 'explicit', consented: hasRestrictedConsent() });
    if (run.ok || run.code === 'off') return true; // "off" is explained by run() below
    if (run.code === 'needs-consent') return confirmRestricted('this search');
    return false;
  }

  summary(set: ResultSet): RunSummary {
    return {
      setId: set.id,
      status:
        set.status === 'error'
          ? set.error?.kind === 'cancelled'
            ? 'cancelled'
            : 'error'
          : set.cancelled
            ? 'cancelled'
            : 'ready',
      count: set.items.length,
      ...(set.total !== undefined ? { total: set.total } : {}),
      ...(set.error
        ? { error: set.error.message, ...(set.error.kind ? { errorKind: set.error.kind } : {}) }
        : {}),
    };
  }

  /** The spec from a command argument (validated), or undefined when prompts are needed. */
  private specFromArgs(kind: SearchKind, arg: unknown): SearchSpec | undefined {
    if (!isObj(arg) || isResultNode(arg) || isSavedNode(arg)) return undefined;
    const r = validateSpec({ ...arg, kind });
    if ('error' in r) throw new Error(`Invalid arguments: the search ${r.error}.`);
    return r.spec;
  }

  private pageSizeArg(arg: unknown): number | undefined {
    const n = isObj(arg) ? arg.pageSize : undefined;
    return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 100 ? n : undefined;
  }

  /** Asks for the inputs of `kind` (prefilled from `base` when editing). */
  async prompt(kind: SearchKind, base?: SearchSpec): Promise<SearchSpec | undefined> {
    const title = TITLES[kind];
    const target = QUERY_TARGET[kind];
    const ask = (t: QueryTarget): Promise<string | undefined> =>
      promptQuery({
        title,
        target: t,
        value: base?.query ?? '',
        recent: this.recent(t),
        catalogue: this.catalogue,
      });
    switch (kind) {
      case 'hosts':
      case 'fileCount': {
        const query = await ask(target!);
        return query === undefined ? undefined : { kind, query };
      }
      case 'buckets': {
        const query = await ask('buckets');
        if (query === undefined) return undefined;
        const sort = await promptBucketSort();
        return sort === undefined ? undefined : { kind, query, ...sort };
      }
      case 'hostSummary':
      case 'fileSummary': {
        const field = await promptField(`${title}: field`, target!, this.catalogue);
        if (!field) return undefined;
        const query = await ask(target!);
        return query === undefined ? undefined : { kind, field, query };
      }
      case 'host':
      case 'hostCves':
      case 'hostExploits': {
        const ip = await promptIp(title, base?.ip);
        return ip ? { kind, ip } : undefined;
      }
      case 'hostCve': {
        const ip = await promptIp(title, base?.ip);
        if (!ip) return undefined;
        const cve = await promptCve(title);
        return cve ? { kind, ip, cve } : undefined;
      }
      case 'whois':
      case 'whoisHistory': {
        const domain = await promptDomain(title, { value: base?.domain });
        return domain ? { kind, domain } : undefined;
      }
      case 'domains':
      case 'domainCount':
      case 'subdomainCount': {
        const f = await promptDomainFilter(title);
        return f ? { kind, ...f } : undefined;
      }
    }
  }

  /** A search command: arguments skip the prompts; nodes give the IP or domain. */
  private searchCommand(kind: SearchKind) {
    return async (arg?: unknown): Promise<RunSummary> => {
      let spec: SearchSpec | undefined;
      if (typeof arg === 'string') {
        const key = KINDS[kind].required[0] ?? (KINDS[kind].uses.includes('query') ? 'query' : 'domain');
        spec = this.specFromArgs(kind, { [key]: arg });
      } else if (isResultNode(arg)) {
        const node = arg as Node & { ip?: string; domain?: string };
        const ip =
          node.type === 'cve' || node.type === 'service'
            ? node.type === 'cve'
              ? node.ip
              : node.host.ip
            : node.ip;
        spec = this.specFromArgs(kind, {
          ip,
          domain: node.domain,
          cve: node.type === 'cve' ? node.cve.id : undefined,
        });
      } else {
        spec = this.specFromArgs(kind, arg);
      }
      const interactive = spec === undefined;
      spec ??= await this.prompt(kind);
      if (!spec) return { status: 'dismissed' };
      // Host and whois lookups open the details page when it exists (unless asked for the tree).
      const wantTree = isObj(arg) && arg.view === 'results';
      if ((kind === 'host' || kind === 'whois') && !wantTree && (await this.updateDetailsAvailable())) {
        await vscode.commands.executeCommand(
          kind === 'host' ? 'odin.openHostDetails' : 'odin.openWhoisDetails',
          kind === 'host' ? spec.ip : spec.domain,
        );
        return { status: 'details' };
      }
      return this.run(spec, { interactive, pageSize: this.pageSizeArg(arg) });
    };
  }

  // ---------------------------------------------------------------- result-set commands

  private setOf(arg: unknown): ResultSet | undefined {
    if (isResultNode(arg)) return this.results.get(arg.set.id);
    if (typeof arg === 'string') return this.results.get(arg);
    if (isObj(arg) && typeof arg.setId === 'string') return this.results.get(arg.setId);
    return this.results.current();
  }

  async loadMore(arg?: unknown): Promise<RunSummary | undefined> {
    const set = this.setOf(arg);
    if (!set) return undefined;
    await set.loadNext();
    return this.summary(set);
  }

  async retry(arg?: unknown): Promise<RunSummary | undefined> {
    const set = this.setOf(arg);
    if (!set) return undefined;
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `ODIN: ${neutraliseUiText(setTitle(set), 120)}`,
        cancellable: true,
      },
      (_p, token) => set.loadNext(signalOf(token)),
    );
    return this.summary(set);
  }

  /** Loads every remaining page with progress; cancelling keeps what was loaded. */
  async loadAll(arg?: unknown): Promise<RunSummary | undefined> {
    const set = this.setOf(arg);
    if (!set) return undefined;
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `ODIN: loading all of ${neutraliseUiText(setTitle(set), 100)}`,
        cancellable: true,
      },
      async (progress, token) => {
        const signal = signalOf(token);
        let last = set.items.length;
        await set.loadAll(signal, (s) => {
          const inc = s.total ? ((s.items.length - last) / s.total) * 100 : undefined;
          last = s.items.length;
          progress.report({ message: s.countText(), ...(inc !== undefined ? { increment: inc } : {}) });
        });
      },
    );
    return this.summary(set);
  }

  async refresh(arg?: unknown): Promise<RunSummary | undefined> {
    const set = this.setOf(arg);
    if (!set) return undefined;
    this.results.remove(set);
    return this.run(set.spec, { pageSize: set.pageSize });
  }

  async copy(arg?: unknown): Promise<string | undefined> {
    const text = isResultNode(arg) ? copyText(arg) : typeof arg === 'string' ? arg : undefined;
    if (text === undefined) return undefined;
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(`ODIN: copied ${neutraliseUiText(text, 60)}`, 3000);
    return text;
  }

  /**
   * Hosts like this one. From a tree node (host or service), and from the hover's "Similar
   * hosts" and the host page's "Search Similar", which pass the IP: the host comes from the
   * shared cache (or one request through it); and from the CIDR hover's "Search hosts in it",
   * which passes the block: the hosts in it. Strings pass the gate as a user action.
   */
  async searchSimilar(arg?: unknown): Promise<RunSummary | undefined> {
    if (typeof arg === 'string') {
      const t = await gateExplicit(arg, { source: 'command', accept: ['ip', 'cidr'] });
      if (!t) return { status: 'blocked' };
      if (t.kind === 'cidr') return this.run({ kind: 'hosts', query: `ip:"${t.value}"` });
      const client = this.ctx.client();
      let r;
      try {
        r = await this.ctx.requests.get<Host>(
          'host',
          t.value,
          (signal) => client.getHost(t.value, { signal }),
          {
            automatic: false,
          },
        );
      } catch (err) {
        void vscode.window.showWarningMessage(`ODIN: ${neutraliseUiText(userMessage(err), 300)}`);
        return { status: 'error', error: userMessage(err) };
      }
      if (r.status !== 'ok') {
        void vscode.window.showInformationMessage(
          `ODIN has no data for ${t.value}, so there is nothing to compare.`,
        );
        return { status: 'error', error: 'not found' };
      }
      return this.run({ kind: 'hosts', query: similarHostsQuery(r.value) });
    }
    if (!isResultNode(arg)) return undefined;
    const host =
      arg.type === 'item' && arg.item.t === 'host'
        ? arg.item.v
        : arg.type === 'service'
          ? arg.host
          : undefined;
    if (!host) return undefined;
    return this.run({ kind: 'hosts', query: similarHostsQuery(host) });
  }

  /** Narrows the summarised query by a facet value: `(<query>) AND field:"value"`, run as a search. */
  async narrow(...args: unknown[]): Promise<RunSummary | undefined> {
    let set: ResultSet | undefined;
    let field: string | undefined;
    let key: unknown;
    if (isResultNode(args[0]) && args[0].type === 'item' && args[0].item.t === 'facet') {
      set = this.results.get(args[0].set.id);
      field = args[0].item.field;
      key = args[0].item.v.key;
    } else {
      set = this.setOf(args[0]);
      field = typeof args[1] === 'string' ? args[1] : undefined;
      key = args[2];
    }
    if (
      !set ||
      !field ||
      !(typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean' || key === null)
    )
      return undefined;
    const query = narrowQuery(set.spec.query ?? '', field, key);
    const kind: SearchKind = set.spec.kind === 'fileSummary' ? 'fileCount' : 'hosts';
    return this.run({ kind, query });
  }

  /**
   * Exports a result set (the loaded pages, or all pages with progress and cancel) as JSON
   * or CSV, into an untitled editor or a chosen file. Arguments skip the questions:
   * `{ setId?, format: 'json'|'csv', scope: 'loaded'|'all', target: 'editor'|'file', path? }`.
   */
  async exportResults(
    arg?: unknown,
  ): Promise<{ count: number; complete: boolean; target: string; path?: string } | undefined> {
    const set = this.setOf(arg);
    if (!set) {
      void vscode.window.showInformationMessage('ODIN: there are no results to export.');
      return undefined;
    }
    const a = isObj(arg) && !isResultNode(arg) ? arg : {};
    let format = a.format === 'json' || a.format === 'csv' ? (a.format as ExportFormat) : undefined;
    if (!format) {
      const pick = await vscode.window.showQuickPick(
        [
          { label: 'CSV', description: 'one row per result; opens in spreadsheets', format: 'csv' as const },
          { label: 'JSON', description: 'the records as the API gave them', format: 'json' as const },
        ],
        { title: 'ODIN: Export Results', placeHolder: 'Format' },
      );
      if (!pick) return undefined;
      format = pick.format;
    }
    let scope = a.scope === 'all' || a.scope === 'loaded' ? a.scope : undefined;
    if (!scope) {
      scope = 'loaded';
      if (set.hasMore) {
        const pick = await vscode.window.showQuickPick(
          [
            { label: `Loaded results (${set.countText()})`, scope: 'loaded' as const },
            {
              label: 'All results',
              description: 'loads the remaining pages first (can be cancelled)',
              scope: 'all' as const,
            },
          ],
          { title: 'ODIN: Export Results', placeHolder: 'What to export' },
        );
        if (!pick) return undefined;
        scope = pick.scope;
      }
    }
    if (scope === 'all' && set.hasMore) await this.loadAll(set.id);
    let target = a.target === 'editor' || a.target === 'file' ? a.target : undefined;
    if (!target) {
      const pick = await vscode.window.showQuickPick(
        [
          { label: 'Open in an untitled editor', target: 'editor' as const },
          { label: 'Save to a file…', target: 'file' as const },
        ],
        { title: 'ODIN: Export Results', placeHolder: 'Where to' },
      );
      if (!pick) return undefined;
      target = pick.target;
    }
    const complete = !set.hasMore;
    const text = exportText(format, set.items, {
      search: set.spec,
      ...(set.total !== undefined ? { total: set.total } : {}),
      exportedAt: new Date().toISOString(),
      complete,
    });
    if (target === 'editor') {
      const doc = await vscode.workspace.openTextDocument({
        content: text,
        language: format === 'json' ? 'json' : 'plaintext',
      });
      await vscode.window.showTextDocument(doc, { preview: false });
      return { count: set.items.length, complete, target };
    }
    let uri: vscode.Uri | undefined = typeof a.path === 'string' ? vscode.Uri.file(a.path) : undefined;
    uri ??= await vscode.window.showSaveDialog({
      title: 'ODIN: Export Results',
      defaultUri: vscode.Uri.file(
        path.join(defaultDir(), `odin-${set.spec.kind}-${new Date().toISOString().slice(0, 10)}.${format}`),
      ),
      filters: format === 'json' ? { JSON: ['json'] } : { CSV: ['csv'] },
    });
    if (!uri) return undefined;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    if (!a.path) {
      void vscode.window.showInformationMessage(
        `ODIN: exported ${set.items.length.toLocaleString('en-US')} results${complete ? '' : ` (of ${set.total?.toLocaleString('en-US') ?? 'more'}: not all pages were loaded)`} to ${path.basename(uri.fsPath)}.`,
      );
    }
    return { count: set.items.length, complete, target, path: uri.fsPath };
  }

  // ---------------------------------------------------------------- field browser

  async browseFields(arg?: unknown): Promise<unknown> {
    const a = isObj(arg) ? arg : {};
    let which: QueryTarget | undefined =
      a.catalogue === 'hosts' || a.catalogue === 'buckets' || a.catalogue === 'files'
        ? a.catalogue
        : undefined;
    if (which && a.list === true) {
      const list = await this.catalogue.fields(which);
      return list.map((f) => ({ name: f.name, locked: !!f.locked }));
    }
    if (!which) {
      const pick = await vscode.window.showQuickPick(
        [
          { label: 'Host fields', which: 'hosts' as const },
          { label: 'Exposed bucket fields', which: 'buckets' as const },
          { label: 'Exposed file fields', which: 'files' as const },
        ],
        { title: 'ODIN: Browse Query Fields' },
      );
      if (!pick) return undefined;
      which = pick.which;
    }
    const fields = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: 'ODIN: loading the field list',
        cancellable: true,
      },
      (_p, token) => this.catalogue.fields(which!, signalOf(token)),
    );
    const picked = await vscode.window.showQuickPick(fields.map(fieldItem), {
      title: `ODIN: ${fields.length} queryable fields`,
      placeHolder: 'Pick a field to start a search with it',
      matchOnDescription: true,
    });
    if (!picked) return undefined;
    const kind: SearchKind = which === 'hosts' ? 'hosts' : which === 'buckets' ? 'buckets' : 'fileCount';
    const query = await promptQuery({
      title: TITLES[kind],
      target: which,
      value: `${picked.name}:`,
      recent: this.recent(which),
      catalogue: this.catalogue,
    });
    if (query === undefined) return undefined;
    return this.run({ kind, query }, { interactive: true });
  }

  // ---------------------------------------------------------------- saved searches

  private savedOf(arg: unknown): SavedSearch | undefined {
    if (isSavedNode(arg) && arg.type === 'search') return this.store.get(arg.search.id);
    if (typeof arg === 'string') return this.store.get(arg);
    if (isObj(arg) && typeof arg.id === 'string') return this.store.get(arg.id);
    return undefined;
  }

  private async pickSaved(placeHolder: string): Promise<SavedSearch | undefined> {
    const list = this.store.list();
    if (!list.length) {
      void vscode.window.showInformationMessage('ODIN: there are no saved searches yet.');
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      list.map((s) => ({
        label: neutraliseUiText(s.name, 200),
        description: neutraliseUiText(`${KINDS[s.spec.kind].label} · ${describeSpec(s.spec)}`, 200),
        s,
      })),
      { placeHolder },
    );
    return pick?.s;
  }

  async saveSearch(arg?: unknown): Promise<SavedSearch | undefined> {
    const a = isObj(arg) && !isResultNode(arg) ? arg : {};
    let spec: SearchSpec | undefined;
    if (isObj(a.spec)) {
      const r = validateSpec(a.spec);
      if ('error' in r) throw new Error(`Invalid search: it ${r.error}.`);
      spec = r.spec;
    } else {
      spec = this.setOf(arg)?.spec;
    }
    if (!spec) {
      void vscode.window.showInformationMessage('ODIN: run a search first, then save it.');
      return undefined;
    }
    const taken = this.store.list().map((s) => s.name);
    let name = typeof a.name === 'string' ? a.name.trim() : undefined;
    if (name !== undefined && nameError(name)) throw new Error(nameError(name));
    name ??= await vscode.window.showInputBox({
      title: 'ODIN: Save Search',
      prompt: `Name for "${neutraliseUiText(describeSpec(spec), 100)}"`,
      value: uniqueName(describeSpec(spec).slice(0, 80), taken),
      ignoreFocusOut: true,
      validateInput: nameError,
    });
    if (!name) return undefined;
    const search: SavedSearch = { id: newId(), name: name.trim(), spec };
    await this.store.update((list) => [...list, search]);
    return search;
  }

  async runSaved(arg?: unknown): Promise<RunSummary | undefined> {
    const s =
      this.savedOf(arg) ?? (arg === undefined ? await this.pickSaved('Saved search to run') : undefined);
    if (!s) return undefined;
    if (s.spec.kind === 'host' || s.spec.kind === 'whois')
      return this.searchCommand(s.spec.kind)({ ...s.spec });
    return this.run(s.spec, { interactive: true });
  }

  async renameSaved(arg?: unknown, newName?: unknown): Promise<SavedSearch | undefined> {
    const s = this.savedOf(arg) ?? (await this.pickSaved('Saved search to rename'));
    if (!s) return undefined;
    let name = typeof newName === 'string' ? newName.trim() : undefined;
    if (name !== undefined && nameError(name)) throw new Error(nameError(name));
    name ??= await vscode.window.showInputBox({
      title: 'ODIN: Rename Saved Search',
      value: s.name,
      ignoreFocusOut: true,
      validateInput: nameError,
    });
    if (!name || name === s.name) return s;
    await this.store.update((list) => replaceSearch(list, s.id, { name: name.trim() }));
    return this.store.get(s.id);
  }

  async editSaved(arg?: unknown, newSpec?: unknown): Promise<SavedSearch | undefined> {
    const s = this.savedOf(arg) ?? (await this.pickSaved('Saved search to edit'));
    if (!s) return undefined;
    let spec: SearchSpec | undefined;
    if (isObj(newSpec)) {
      const r = validateSpec({ kind: s.spec.kind, ...newSpec });
      if ('error' in r) throw new Error(`Invalid search: it ${r.error}.`);
      spec = r.spec;
    } else {
      spec = await this.prompt(s.spec.kind, s.spec);
    }
    if (!spec) return undefined;
    await this.store.update((list) => replaceSearch(list, s.id, { spec }));
    return this.store.get(s.id);
  }

  async deleteSaved(arg?: unknown, opts?: unknown): Promise<boolean> {
    const targets: SavedSearch[] = [];
    const selected = this.savedView.selection.flatMap((n) => (n.type === 'search' ? [n.search] : []));
    const one =
      this.savedOf(arg) ?? (arg === undefined ? await this.pickSaved('Saved search to delete') : undefined);
    if (!one) return false;
    // Context menu on one of several selected entries: delete the selection.
    if (selected.some((s) => s.id === one.id) && selected.length > 1) targets.push(...selected);
    else targets.push(one);
    const confirmed = isObj(opts) && opts.confirmed === true;
    if (!confirmed) {
      const label =
        targets.length === 1
          ? `"${neutraliseUiText(targets[0].name, 100)}"`
          : `${targets.length} saved searches`;
      const choice = await vscode.window.showWarningMessage(
        `Delete ${label}?`,
        { modal: true, detail: 'This cannot be undone (export first to keep a copy).' },
        'Delete',
      );
      if (choice !== 'Delete') return false;
    }
    const ids = new Set(targets.map((t) => t.id));
    await this.store.update((list) => list.filter((x) => !ids.has(x.id)));
    return true;
  }

  async duplicateSaved(arg?: unknown): Promise<SavedSearch | undefined> {
    const s = this.savedOf(arg) ?? (await this.pickSaved('Saved search to duplicate'));
    if (!s) return undefined;
    let copy: SavedSearch | undefined;
    await this.store.update((list) => {
      const next = duplicateSearch(list, s.id);
      copy = next.find((x) => !list.some((y) => y.id === x.id));
      return next;
    });
    return copy;
  }

  async moveSaved(arg: unknown, direction: -1 | 1): Promise<void> {
    const s = this.savedOf(arg);
    if (!s) return;
    await this.store.update((list) => moveSearch(list, s.id, direction));
  }

  async exportSaved(arg?: unknown): Promise<{ path: string; count: number } | undefined> {
    const list = this.store.list();
    let uri: vscode.Uri | undefined =
      isObj(arg) && typeof arg.path === 'string'
        ? vscode.Uri.file(arg.path)
        : arg instanceof vscode.Uri
          ? arg
          : undefined;
    uri ??= await vscode.window.showSaveDialog({
      title: 'ODIN: Export Saved Searches',
      defaultUri: vscode.Uri.file(path.join(defaultDir(), 'odin-searches.json')),
      filters: { JSON: ['json'] },
    });
    if (!uri) return undefined;
    // Ids are local bookkeeping: the shared file carries names and searches only.
    const text = serializeSearches(list).replace(/^ {6}"id": "[^"]*",\n/gm, '');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    if (!isObj(arg))
      void vscode.window.showInformationMessage(
        `ODIN: exported ${list.length} saved searches (format version ${FORMAT_VERSION}) to ${path.basename(uri.fsPath)}.`,
      );
    return { path: uri.fsPath, count: list.length };
  }

  /**
   * Imports saved searches from a JSON file: adds the valid entries (never overwrites;
   * exact duplicates are skipped), and lists the invalid ones with their reasons. A file
   * that cannot be read changes nothing.
   */
  async importSaved(
    arg?: unknown,
  ): Promise<{ added: number; skipped: number; errors: string[]; fatal?: string } | undefined> {
    let uri: vscode.Uri | undefined =
      isObj(arg) && typeof arg.path === 'string'
        ? vscode.Uri.file(arg.path)
        : arg instanceof vscode.Uri
          ? arg
          : undefined;
    const quiet = isObj(arg) && arg.quiet === true;
    if (!uri) {
      const picked = await vscode.window.showOpenDialog({
        title: 'ODIN: Import Saved Searches',
        canSelectMany: false,
        filters: { JSON: ['json'] },
        defaultUri: vscode.Uri.file(defaultDir()),
      });
      uri = picked?.[0];
    }
    if (!uri) return undefined;
    let text: string;
    try {
      const bytes = await vscode.workspace.fs.readFile(uri);
      if (bytes.byteLength > 5 * 1024 * 1024) throw new Error('the file is larger than 5 MB');
      text = Buffer.from(bytes).toString('utf8');
    } catch (err) {
      const fatal = `Could not read ${path.basename(uri.fsPath)}: ${err instanceof Error ? err.message : String(err)}`;
      if (!quiet) void vscode.window.showErrorMessage(`ODIN: ${neutraliseUiText(fatal)}`);
      return { added: 0, skipped: 0, errors: [], fatal };
    }
    const parsed = parseSearchesFile(text);
    if ('fatal' in parsed) {
      const fatal = `${path.basename(uri.fsPath)} was not imported: ${parsed.fatal} Nothing was changed.`;
      this.ctx.log.warn(fatal);
      if (!quiet) void vscode.window.showErrorMessage(`ODIN: ${neutraliseUiText(fatal, 600)}`);
      return { added: 0, skipped: 0, errors: [], fatal };
    }
    let added = 0;
    let skipped = 0;
    if (parsed.searches.length) {
      await this.store.update((list) => {
        const r = mergeImported(list, parsed.searches);
        added = r.added;
        skipped = r.skipped;
        return r.list;
      });
    }
    const errors = parsed.errors.map(describeEntryError);
    if (errors.length)
      this.ctx.log.warn(
        `Import of ${uri.fsPath}: ${errors.length} entries skipped:\n  ${errors.join('\n  ')}`,
      );
    if (!quiet) {
      const parts = [`imported ${added} saved search${added === 1 ? '' : 'es'}`];
      if (skipped) parts.push(`${skipped} already present`);
      if (errors.length)
        parts.push(
          `${errors.length} invalid (${neutraliseUiText(errors.slice(0, 2).join('; '), 300)}${errors.length > 2 ? '; …' : ''})`,
        );
      const show = errors.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      void show(`ODIN: ${parts.join(', ')}.`, ...(errors.length ? ['Show Log'] : [])).then(
        (c) => c && this.ctx.log.show(),
      );
    }
    return { added, skipped, errors };
  }

  // ---------------------------------------------------------------- command map

  commands(): Record<SearchCommandId, CommandHandler> {
    return {
      'odin.searchHosts': this.searchCommand('hosts'),
      'odin.lookupHost': this.searchCommand('host'),
      'odin.summarizeHosts': this.searchCommand('hostSummary'),
      'odin.hostCves': this.searchCommand('hostCves'),
      'odin.hostExploits': this.searchCommand('hostExploits'),
      'odin.hostCve': this.searchCommand('hostCve'),
      'odin.searchDomains': this.searchCommand('domains'),
      'odin.countDomains': this.searchCommand('domainCount'),
      'odin.countSubdomains': this.searchCommand('subdomainCount'),
      'odin.whois': this.searchCommand('whois'),
      'odin.whoisHistory': this.searchCommand('whoisHistory'),
      'odin.searchBuckets': this.searchCommand('buckets'),
      'odin.countFiles': this.searchCommand('fileCount'),
      'odin.summarizeFiles': this.searchCommand('fileSummary'),
      'odin.browseFields': (arg?: unknown) => this.browseFields(arg),
      'odin.saveSearch': (arg?: unknown) => this.saveSearch(arg),
      'odin.runSavedSearch': (arg?: unknown) => this.runSaved(arg),
      'odin.renameSavedSearch': (arg?: unknown, name?: unknown) => this.renameSaved(arg, name),
      'odin.editSavedSearch': (arg?: unknown, spec?: unknown) => this.editSaved(arg, spec),
      'odin.deleteSavedSearch': (arg?: unknown, opts?: unknown) => this.deleteSaved(arg, opts),
      'odin.duplicateSavedSearch': (arg?: unknown) => this.duplicateSaved(arg),
      'odin.moveSavedSearchUp': (arg?: unknown) => this.moveSaved(arg, -1),
      'odin.moveSavedSearchDown': (arg?: unknown) => this.moveSaved(arg, 1),
      'odin.exportSavedSearches': (arg?: unknown) => this.exportSaved(arg),
      'odin.importSavedSearches': (arg?: unknown) => this.importSaved(arg),
      'odin.loadMore': (arg?: unknown) => this.loadMore(arg),
      'odin.loadAll': (arg?: unknown) => this.loadAll(arg),
      'odin.retry': (arg?: unknown) => this.retry(arg),
      'odin.refreshResults': (arg?: unknown) => this.refresh(arg),
      'odin.clearResults': (arg?: unknown) => {
        const set = isResultNode(arg) ? this.setOf(arg) : undefined;
        if (set) this.results.remove(set);
        else this.results.clear();
      },
      'odin.exportResults': (arg?: unknown) => this.exportResults(arg),
      'odin.copyValue': (arg?: unknown) => this.copy(arg),
      'odin.searchSimilar': (arg?: unknown) => this.searchSimilar(arg),
      'odin.narrowByFacet': (...args: unknown[]) => this.narrow(...args),
    };
  }
}

/**
 * The privacy filter (SECURITY.md) for the IP or domain a search would send: addresses that
 * are not globally reachable and internal names are refused unless the user allowed them;
 * deny lists (user and workspace) always win. Returns the reason when refused.
 */
export function privacyRefusal(spec: SearchSpec): string | undefined {
  const g = gate();
  for (const value of [spec.ip, spec.domain]) {
    if (value === undefined) continue;
    const { target, decision } = g.privacy(value);
    if (!decision.allowed) return `${target?.value ?? value} is not looked up: ${decision.reason}.`;
  }
  return undefined;
}

/**
 * Every page of a result set passes the gate's mode and trust check when it is fetched, so
 * "Load More", "Load All", "Export all pages", retry and refresh send nothing once lookups
 * are off (or in Restricted Mode without the user's confirmation).
 */
function gatedFetcher(fetch: ReturnType<typeof fetcherFor>): ReturnType<typeof fetcherFor> {
  return (cursor, limit, signal) => {
    const run = gate().mayRun({ trigger: 'explicit', consented: hasRestrictedConsent() });
    if (!run.ok)
      return Promise.reject(new OdinApiError({ kind: 'cancelled', endpoint: 'search', message: run.reason }));
    return fetch(cursor, limit, signal);
  };
}

function defaultDir(): string {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.env.HOME ?? '/';
}

/**
 * The entry of dist/search.js, loaded on first use (see lazy.ts): the feature over
 * the views created at activation. Its commands are registered by lazy.ts.
 */
export function createSearch(ctx: Ctx, views: SearchViews): SearchFeature {
  const feature = new SearchFeature(ctx, views);
  ctx.subscriptions.add(feature);
  return feature;
}
