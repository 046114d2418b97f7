/**
 * From a query of a `.odinq` file to the SearchSpec the extension already knows how to run
 * (the same specs saved searches use). Pure: no VS Code.
 */
import type { SearchSpec } from '../search/kinds';
import { domainFilterOf } from './diagnostics';
import { optionValue, type HuntKind, type HuntQuery } from './file';

export type HuntAction = 'run' | 'count' | 'summarize';

/** Which CodeLens actions a kind offers (the API has a count for files and domains only). */
export const ACTIONS: Record<HuntKind, readonly HuntAction[]> = {
  hosts: ['run', 'summarize'],
  buckets: ['run'],
  files: ['count', 'summarize'],
  domains: ['run', 'count'],
};

/** The spec for `action` on `q`, or undefined when the kind does not offer it. */
export function specFor(q: HuntQuery, action: HuntAction, field?: string): SearchSpec | undefined {
  if (!q.kind || !ACTIONS[q.kind].includes(action)) return undefined;
  const query = q.query.trim() || '*';
  switch (q.kind) {
    case 'hosts':
      return action === 'summarize'
        ? { kind: 'hostSummary', query, field: field ?? optionValue(q, 'by') ?? 'services.port' }
        : { kind: 'hosts', query };
    case 'buckets': {
      const sortBy = optionValue(q, 'sort');
      const sortDir = optionValue(q, 'order');
      return {
        kind: 'buckets',
        query,
        ...(sortBy ? { sortBy } : {}),
        ...(sortDir === 'asc' || sortDir === 'desc' ? { sortDir } : {}),
      };
    }
    case 'files':
      return action === 'summarize'
        ? { kind: 'fileSummary', query, field: field ?? optionValue(q, 'by') ?? 'ext' }
        : { kind: 'fileCount', query };
    case 'domains':
      return { kind: action === 'count' ? 'domainCount' : 'domains', ...domainFilterOf(q.query) };
  }
}

/** The page size a query asks for (`size=`), if any. */
export function pageSizeOf(q: HuntQuery): number | undefined {
  const v = Number(optionValue(q, 'size'));
  return Number.isInteger(v) && v >= 1 && v <= 100 ? v : undefined;
}
