/**
 * One run of hunts: plan every hunt (the gate first: a hunt naming a value that may not be
 * sent is not sent at all), ask the counts first (like the triage preview), then read the
 * pages of each hunt that found something, within the run's budget and each hunt's cap. A
 * hunt that could not be read in full says why; nothing already found is dropped when a run
 * stops early.
 *
 * Plain Node: no `vscode` import.
 */
import { OdinApiError } from '../api/errors';
import { domainFilterOf, pageSizeOf, specFor, type HuntQuery } from '../core/hunts';
import { huntCap, type RunConfig } from '../core/ci/runConfig';
import { OverBudgetError } from '../core/requests/budget';
import { cacheTarget, rowsOf, type CatalogueKind, type CatalogueSpec, type SpecOf } from '../core/search';
import type { ResultItem } from '../core/results/resultItem';
import { hostFinding, itemFinding, type Finding } from './findings';
import type { LoadedFile, LoadedHunt } from './load';
import { HuntAllowance, NotSentError, type HuntSession } from './session';
import { EXIT, type ExitCode } from './exit';
import { afterPage } from './memory';
import { fmt } from '../core/text/numbers';

export type HuntStatus = 'clean' | 'found' | 'partial' | 'skipped' | 'refused' | 'failed';

export interface HuntOutcome {
  hunt: LoadedHunt;
  status: HuntStatus;
  /** Why the hunt was skipped, cut short, refused or failed. */
  reason?: string;
  /** Matches the service counted (where the kind has a count). */
  count?: number;
  findings: Finding[];
  /** Requests this hunt sent. */
  requests: number;
}

export interface RunReport {
  files: LoadedFile[];
  outcomes: HuntOutcome[];
  sent: number;
  budget?: number;
  /** The worst problem of the run (usage, not scanned, service), if any. */
  problem?: { code: ExitCode; message: string };
}

interface Plan {
  count?: SpecOf<CatalogueKind>;
  pages?: SpecOf<CatalogueKind>;
  size: number;
}

// 50, not the API's 100: a page of full host records is parsed whole, and half as much at a time keeps
// a long run within its memory budget (docs/benchmarks.md); a hunt's `size=` may ask for 100.
const DEFAULT_PAGE = 50;

function planOf(q: HuntQuery): Plan {
  const size = pageSizeOf(q) ?? DEFAULT_PAGE;
  const query = q.query.trim() || '*';
  switch (q.kind) {
    case 'hosts':
      return { count: { kind: 'hostCount', query }, pages: { kind: 'hosts', query }, size };
    case 'domains':
      return {
        count: { kind: 'domainCount', ...domainFilterOf(q.query) },
        pages: { kind: 'domains', ...domainFilterOf(q.query) },
        size,
      };
    case 'files':
      return { count: specFor(q, 'count') as SpecOf<CatalogueKind>, size };
    default:
      return { pages: specFor(q, 'run') as SpecOf<CatalogueKind>, size };
  }
}

/** The exit code and words of an API error that ends the run (or only the hunt: 400). */
function apiProblem(e: OdinApiError): { code: ExitCode; stopRun: boolean } {
  switch (e.kind) {
    case 'badRequest':
      return { code: EXIT.usage, stopRun: false };
    case 'auth':
      return { code: EXIT.usage, stopRun: true };
    case 'quota':
    case 'forbidden':
    case 'rateLimited':
      return { code: EXIT.notScanned, stopRun: true };
    default:
      return { code: EXIT.failed, stopRun: true };
  }
}

const RANK: Record<number, number> = { [EXIT.usage]: 4, [EXIT.failed]: 3, [EXIT.notScanned]: 2 };

export class HuntRun {
  private problem: RunReport['problem'];
  private stopped: string | undefined;

  constructor(
    private readonly session: HuntSession,
    private readonly config: RunConfig,
    private readonly log: (line: string) => void,
    private readonly signal?: AbortSignal,
    /** Sees every row a page brings (the snapshot keeps hosts' services from it). */
    private readonly visit?: (item: ResultItem, o: HuntOutcome) => void,
  ) {}

  private note(code: ExitCode, message: string): void {
    if (!this.problem || (RANK[code] ?? 0) > (RANK[this.problem.code] ?? 0)) this.problem = { code, message };
  }

  /** What a failed ask means for the hunt and the run. */
  private failed(o: HuntOutcome, e: unknown, partial: boolean): void {
    if (e instanceof NotSentError || e instanceof OverBudgetError) {
      const cap = e instanceof NotSentError && e.limit === 'cap';
      o.status = partial ? 'partial' : 'skipped';
      o.reason = e.message;
      this.note(
        EXIT.notScanned,
        cap ? `a hunt's cap was reached: ${e.message}` : `budget reached: ${e.message}`,
      );
      if (!cap) this.stopped ??= e.message;
      return;
    }
    if (this.signal?.aborted) {
      o.status = partial ? 'partial' : 'skipped';
      o.reason = 'the run was cancelled';
      this.note(EXIT.notScanned, 'the run was cancelled');
      this.stopped ??= 'the run was cancelled';
      return;
    }
    if (e instanceof OdinApiError) {
      const p = apiProblem(e);
      o.status = p.code === EXIT.usage && !p.stopRun ? 'failed' : partial ? 'partial' : 'skipped';
      o.reason = e.message;
      this.note(
        p.code,
        p.code === EXIT.usage && !p.stopRun
          ? `${o.hunt.file}:${o.hunt.line}: ${o.hunt.key}: ${e.message}`
          : e.message,
      );
      if (p.stopRun) this.stopped ??= e.message;
      this.log(`${o.hunt.file}:${o.hunt.line}: ${o.hunt.key}: ${e.kind}: ${e.message}`);
      return;
    }
    throw e;
  }

  async run(files: LoadedFile[]): Promise<RunReport> {
    const outcomes: HuntOutcome[] = [];
    const plans = new Map<HuntOutcome, { plan: Plan; allowance: HuntAllowance }>();
    for (const f of files)
      for (const h of f.hunts) {
        const o: HuntOutcome = { hunt: h, status: 'clean', findings: [], requests: 0 };
        outcomes.push(o);
        const plan = planOf(h.query);
        const why = [plan.count, plan.pages]
          .filter((s): s is SpecOf<CatalogueKind> => s !== undefined)
          .map((s) => this.session.refusal(s))
          .find((r) => r !== undefined);
        if (why !== undefined) {
          o.status = 'refused';
          o.reason = why;
          this.note(EXIT.notScanned, `${h.file}:${h.line}: ${h.key}: ${why}`);
          continue;
        }
        plans.set(o, { plan, allowance: new HuntAllowance(huntCap(this.config, h.query.name)) });
      }
    // The counts first: what each hunt would read, before any page.
    for (const [o, { plan, allowance }] of plans) {
      if (!plan.count) continue;
      if (this.stopped) {
        o.status = 'skipped';
        o.reason = this.stopped;
        continue;
      }
      try {
        o.count = (await this.session.ask(plan.count, allowance, undefined, this.signal)) as number;
        if (o.hunt.query.kind === 'files' && o.count > 0) {
          o.findings.push(
            itemFinding(o.hunt, 'count', `${fmt(o.count)} exposed files match`, {
              count: o.count,
            }),
          );
        }
      } catch (e) {
        this.failed(o, e, false);
      } finally {
        o.requests = allowance.spent;
      }
    }
    // Hunts that ask the same pages (one query in two teams' files) share one read: no page
    // is asked twice in a run, and the pages are not kept (each is turned into findings).
    const groups = new Map<string, Array<[HuntOutcome, { plan: Plan; allowance: HuntAllowance }]>>();
    for (const [o, p] of plans) {
      if (o.status !== 'clean' || !p.plan.pages || o.count === 0) continue;
      const key = JSON.stringify([cacheTarget(p.plan.pages), p.plan.size]);
      groups.set(key, [...(groups.get(key) ?? []), [o, p]]);
    }
    for (const group of groups.values()) {
      const [, { plan, allowance }] = group[0];
      const members = group.map(([o]) => o);
      if (this.stopped) {
        for (const o of members) {
          o.status = 'skipped';
          o.reason = this.stopped;
        }
        continue;
      }
      await this.readPages(members, plan.pages as SpecOf<CatalogueKind>, plan.size, allowance);
    }
    for (const o of outcomes) if (o.status === 'clean' && o.findings.length) o.status = 'found';
    return {
      files,
      outcomes,
      sent: this.session.sent,
      ...(this.session.agreed !== undefined ? { budget: this.session.agreed } : {}),
      ...(this.problem ? { problem: this.problem } : {}),
    };
  }

  private async readPages(
    group: HuntOutcome[],
    spec: SpecOf<CatalogueKind>,
    size: number,
    allowance: HuntAllowance,
  ): Promise<void> {
    let cursor: unknown;
    const seen = new Set<string>();
    const expected = group[0].count;
    const before = allowance.spent;
    try {
      for (;;) {
        const answer = await this.session.ask(spec, allowance, { cursor, limit: size }, this.signal, true);
        const page = rowsOf(spec as CatalogueSpec & { kind: typeof spec.kind }, answer as never);
        for (const item of page.items) {
          const subject = subjectOf(item);
          if (subject === undefined || seen.has(subject)) continue;
          seen.add(subject);
          for (const o of group) {
            this.visit?.(item, o);
            const f = findingOf(o, item);
            if (f) o.findings.push(f);
          }
        }
        cursor = page.next;
        afterPage();
        const done =
          page.items.length === 0 ||
          page.items.length < size ||
          cursor === undefined ||
          (expected !== undefined && seen.size >= Math.min(expected, 10_000));
        if (done) break;
      }
    } catch (e) {
      for (const o of group) this.failed(o, e, o.findings.length > 0);
    } finally {
      for (const o of group) o.requests += allowance.spent - before;
    }
  }
}

function subjectOf(item: ResultItem): string | undefined {
  return item.t === 'host'
    ? item.v.ip
    : item.t === 'bucket'
      ? item.v.name
      : item.t === 'domain'
        ? (item.v.subdomain ?? item.v.domain)
        : undefined;
}

function findingOf(o: HuntOutcome, item: ResultItem): Finding | undefined {
  switch (item.t) {
    case 'host':
      return hostFinding(o.hunt, item.v);
    case 'bucket':
      return itemFinding(
        o.hunt,
        item.v.name,
        `${item.v.name} (${item.v.provider ?? 'bucket'}): ${item.v.files ?? 0} files`,
        {
          provider: item.v.provider ?? '',
          files: item.v.files ?? 0,
          sensitiveFiles: item.v.sensitive_files ?? 0,
        },
      );
    case 'domain':
      return itemFinding(o.hunt, subjectOf(item) ?? '', subjectOf(item) ?? '', { domain: item.v.domain });
    default:
      return undefined;
  }
}
