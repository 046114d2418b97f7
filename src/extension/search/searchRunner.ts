/**
 * Running searches: the search commands (arguments skip the prompts), the prompts, the run
 * itself with progress and the privacy refusal, and recent queries. The field browser is in
 * fieldBrowser.ts.
 */
import * as vscode from 'vscode';
import { pushRecent, readRecent, type QueryTarget } from '../../core/query';
import { validateSpec } from '../../core/savedSearches';
import { KINDS, describeSpec, searchPages, type SearchKind, type SearchSpec } from '../../core/search';
import { neutraliseUiText } from '../../core/text/inert';
import type { RequestBudget } from '../../core/requests/budget';
import type { RunSummary } from '../commands';
import type { Ctx } from '../ctx';
import { toAbortSignal } from '../shared/abort';
import { config } from '../shared/config';
import { isObj, isResultNode, isSavedNode } from './args';
import type { FieldCatalogue } from './fieldCatalogue';
import {
  promptBucketSort,
  promptCve,
  promptDomain,
  promptDomainFilter,
  promptField,
  promptIp,
  promptQuery,
} from './prompts';
import type { Node } from './results/resultNodes';
import { getDomain } from '../lazy/pslLoader';
import { setTitle } from './results/resultNodes';
import type { ResultSet } from './results/resultSet';
import type { ResultsProvider } from './results/resultsView';
import { runCommand } from '../shared/runCommand';

/** What the runner works with: the context, the Results view's sets and the field catalogue. */
export interface RunnerParts {
  ctx: Ctx;
  results: ResultsProvider;
  catalogue: FieldCatalogue;
}

export class SearchRunner {
  constructor(private readonly f: RunnerParts) {}

  async updateDetailsAvailable(): Promise<boolean> {
    const all = await vscode.commands.getCommands(true);
    this.f.results.detailsAvailable =
      all.includes('odin.openHostDetails') && all.includes('odin.openWhoisDetails');
    return this.f.results.detailsAvailable;
  }

  // ---------------------------------------------------------------- recent queries

  private recentsSlot(target: QueryTarget): string {
    return `odin.recentQueries.${target}`;
  }

  recent(target: QueryTarget): string[] {
    return readRecent(this.f.ctx.extension.globalState.get<unknown>(this.recentsSlot(target)));
  }

  private async remember(target: QueryTarget, query: string): Promise<void> {
    await this.f.ctx.extension.globalState.update(
      this.recentsSlot(target),
      pushRecent(this.recent(target), query),
    );
  }

  // ---------------------------------------------------------------- running

  /**
   * Runs `spec` into a new result set: the first page with progress (cancellable), the view
   * revealed. When `interactive` and the service rejects the query (400), the query input
   * opens again with the query and the error, and the corrected query runs instead. With a
   * `signal`, the caller shows the progress and owns the cancel (Re-run All): no notification
   * of its own.
   */
  async run(
    spec: SearchSpec,
    opts: {
      interactive?: boolean;
      pageSize?: number;
      reveal?: boolean;
      signal?: AbortSignal;
      /** The count a confirmation showed (Re-run All): the first page is charged to it. */
      budget?: RequestBudget;
    } = {},
  ): Promise<RunSummary> {
    const gate = this.f.ctx.gate;
    const pageSize = opts.pageSize ?? config.searchPageSize();
    void this.updateDetailsAvailable();
    let budget = opts.budget;
    const ctx = this.f.ctx;
    // The gate is asked once per page, inside the request path (core/search `decideCall`):
    // not here beforehand. A refused first page removes its set and says why.
    let revealed = opts.reveal === false;
    const set = this.f.results.add(
      spec,
      searchPages(
        { client: () => ctx.client(), requests: ctx.requests },
        spec,
        () => ({
          gate: gate.current(),
          consented: gate.hasRestrictedConsent(),
        }),
        {
          budget: () => budget,
          // Restricted Mode: the user confirms once a session before a search is sent.
          confirm: () => gate.confirmRestricted(vscode.l10n.t('the search {0}', describeSpec(spec))),
          onAllowed: () => {
            if (revealed) return;
            revealed = true;
            void vscode.commands.executeCommand('odin.results.focus').then(
              () => this.f.results.reveal(set),
              () => undefined,
            );
          },
        },
      ),
      pageSize,
    );
    if (opts.signal) await set.loadNext(opts.signal);
    else
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('ODIN: {0}', neutraliseUiText(setTitle(set), 120)),
          cancellable: true,
        },
        (_p, token) => toAbortSignal(token, (signal) => set.loadNext(signal)),
      );
    // The budget was for this run's first page: "Load more" later is the user's own act.
    budget = undefined;
    if (set.pages === 0 && set.error?.kind === 'blocked') return this.refused(set);
    const target = KINDS[spec.kind].target;
    if (set.status === 'error') {
      this.f.ctx.log.warn(
        `${setTitle(set)}: ${set.error?.message ?? 'failed'} (${set.error?.kind ?? ''} ${set.error?.status ?? ''})`,
      );
      if (opts.interactive && target && set.error?.kind === 'badRequest') {
        this.f.results.remove(set);
        const fixed = await promptQuery({
          title: KINDS[spec.kind].title,
          target,
          value: spec.query ?? '',
          error: set.error.message,
          recent: this.recent(target),
          catalogue: this.f.catalogue,
        });
        if (fixed === undefined)
          return { status: 'dismissed', error: set.error.message, errorKind: 'badRequest' };
        return this.run({ ...spec, query: fixed }, opts);
      }
      return this.summary(set);
    }
    if (target && spec.query !== undefined) await this.remember(target, spec.query);
    // A count is shown once: in its tree node (the view is revealed), not in a notification too.
    return this.summary(set);
  }

  /** A first page the gate refused: no result set stays, and the user is told why. */
  private refused(set: ResultSet): RunSummary {
    this.f.results.remove(set);
    const code = set.error?.code;
    const message = set.error?.message ?? '';
    if (code === 'off') {
      // "off" means nothing leaves the machine, search commands included.
      void vscode.window
        .showWarningMessage(
          vscode.l10n.t('ODIN: lookups are off (setting "ODIN › Lookups: Mode"), so nothing was sent.'),
          vscode.l10n.t('Open Settings'),
        )
        .then(
          (c) => c && vscode.commands.executeCommand('workbench.action.openSettings', 'odin.lookups.mode'),
        );
      return { status: 'blocked' };
    }
    // Restricted Mode and the user said no: nothing to explain.
    if (code !== 'needs-consent')
      void vscode.window.showWarningMessage(vscode.l10n.t('ODIN: {0}', neutraliseUiText(message, 300)));
    return { status: 'blocked', error: message };
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
    // l10n: English, for a command's caller
    if ('error' in r) throw new Error(`Invalid arguments: the search ${r.error}.`);
    return r.spec;
  }

  private pageSizeArg(arg: unknown): number | undefined {
    const n = isObj(arg) ? arg.pageSize : undefined;
    return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 100 ? n : undefined;
  }

  /** Asks for the inputs of `kind` (prefilled from `base` when editing). */
  async prompt(kind: SearchKind, base?: SearchSpec): Promise<SearchSpec | undefined> {
    const { title, target, prompt } = KINDS[kind];
    const ask = (t: QueryTarget): Promise<string | undefined> =>
      promptQuery({
        title,
        target: t,
        value: base?.query ?? '',
        recent: this.recent(t),
        catalogue: this.f.catalogue,
      });
    switch (prompt) {
      case 'query': {
        const query = await ask(target!);
        return query === undefined ? undefined : { kind, query };
      }
      case 'querySort': {
        const query = await ask(target!);
        if (query === undefined) return undefined;
        const sort = await promptBucketSort();
        return sort === undefined ? undefined : { kind, query, ...sort };
      }
      case 'fieldQuery': {
        const field = await promptField(`${title}: field`, target!, this.f.catalogue);
        if (!field) return undefined;
        const query = await ask(target!);
        return query === undefined ? undefined : { kind, field, query };
      }
      case 'ip': {
        const ip = await promptIp(title, base?.ip);
        return ip ? { kind, ip } : undefined;
      }
      case 'ipCve': {
        const ip = await promptIp(title, base?.ip);
        if (!ip) return undefined;
        const cve = await promptCve(title);
        return cve ? { kind, ip, cve } : undefined;
      }
      case 'domain': {
        const domain = await promptDomain(title, { value: base?.domain });
        return domain ? { kind, domain } : undefined;
      }
      case 'domainFilter': {
        const f = await promptDomainFilter(title);
        return f ? { kind, ...f } : undefined;
      }
    }
  }

  /** A search command: arguments skip the prompts; nodes give the IP or domain. */
  searchCommand(kind: SearchKind) {
    return async (arg?: unknown): Promise<RunSummary> => {
      let spec: SearchSpec | undefined;
      if (typeof arg === 'string') {
        const key = KINDS[kind].required[0] ?? (KINDS[kind].uses.includes('query') ? 'query' : 'domain');
        spec = this.specFromArgs(kind, { [key]: arg });
      } else if (isResultNode(arg)) {
        const target = nodeTarget(arg);
        // Whois is kept per registrable domain: a subdomain's node asks for its domain's.
        if (KINDS[kind].registrable && target.domain)
          target.domain = getDomain(target.domain, { allowPrivateDomains: false }) ?? target.domain;
        spec = this.specFromArgs(kind, target);
      } else {
        spec = this.specFromArgs(kind, arg);
      }
      const interactive = spec === undefined;
      spec ??= await this.prompt(kind);
      if (!spec) return { status: 'dismissed' };
      // Host and whois lookups open the details page when it exists (unless asked for the tree).
      const wantTree = isObj(arg) && arg.view === 'results';
      const page = KINDS[kind].page;
      if (page && !wantTree && (await this.updateDetailsAvailable())) {
        if (page === 'host') await runCommand('odin.openHostDetails', spec.ip);
        else await runCommand('odin.openWhoisDetails', spec.domain);
        return { status: 'details' };
      }
      return this.run(spec, { interactive, pageSize: this.pageSizeArg(arg) });
    };
  }
}

/**
 * What a Results node names, for the commands its context menu offers: the host's IP, the
 * domain, the CVE (and the host it was found on, from the node or the set's own query).
 */
export function nodeTarget(node: Node): { ip?: string; domain?: string; cve?: string } {
  switch (node.type) {
    case 'service':
      return { ip: node.host.ip };
    case 'cve':
      return { ip: node.ip ?? node.set.spec.ip, cve: node.cve.id };
    case 'exploit':
      return { ip: node.ip ?? node.set.spec.ip };
    case 'item':
      if (node.item.t === 'cve') return { ip: node.item.ip ?? node.set.spec.ip, cve: node.item.v.id };
      if (node.item.t === 'exploit') return { ip: node.item.ip ?? node.set.spec.ip };
      return { ip: node.ip, domain: node.domain };
    default:
      return { ip: node.set.spec.ip, domain: node.set.spec.domain };
  }
}
