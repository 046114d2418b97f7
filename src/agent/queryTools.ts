/**
 * The three shapes of a tool over an ODIN query (search, count, summary by a field): the
 * schema, the gate, what it sends and the answer are the same for hosts, buckets and files;
 * each tool in apiTools.ts names only its endpoint, request and lines.
 *
 * Pure Node: no `vscode` import.
 */
import type { OdinClient } from '../api/client';
import type { Aggregation, Page } from '../api/types';
import { aggregationLines, countLine, listed } from './answerLines';
import { framed, q } from './format';
import type { ObjectSchema } from './schema';
import {
  cacheNote,
  DEFAULT_RESULTS,
  fetchVia,
  field,
  gatedQuery,
  int,
  limit,
  query,
  sends,
  str,
  tool,
  type AgentTool,
} from './toolKit';

/** What a search, count or summary tool says about itself (the rest is the same for all). */
export interface QueryToolDef {
  name: string;
  title: string;
  description: string;
  /** The query example in the schema's description. */
  example: string;
  /** What the confirmation names as the request. */
  endpoint: string;
  /** The request layer's kind (the cache key's first part). */
  kind: string;
  /** The answer's title, before the quoted query. */
  heading: string;
}

/** Name, title, description and input schema of a query tool. */
function header(
  def: QueryToolDef,
  properties: ObjectSchema['properties'],
  required: string[],
): Pick<AgentTool, 'name' | 'title' | 'description' | 'inputSchema'> {
  const { name, title, description } = def;
  return {
    name,
    title,
    description,
    inputSchema: { type: 'object', properties, required, additionalProperties: false },
  };
}

/** A tool that lists the records matching a query (up to `limit`). */
export function searchTool<T>(
  def: QueryToolDef & {
    search: (
      client: OdinClient,
      q: { query: string; limit: number },
      signal: AbortSignal,
    ) => Promise<Page<T>>;
    line: (item: T) => string;
    what: string;
  },
): AgentTool {
  return tool({
    ...header(def, { query: query(def.example), limit }, ['query']),
    prepare(input, ctx) {
      const qy = gatedQuery(ctx.gate, str(input, 'query'));
      const n = int(input, 'limit', DEFAULT_RESULTS);
      return {
        sends: sends(ctx.origin(), `the query ${JSON.stringify(qy)} (up to ${n} results)`, def.endpoint),
        async run(c, signal) {
          const r = await fetchVia<Page<T>>(
            c,
            def.kind,
            JSON.stringify([qy, n]),
            (s) => def.search(c.client(), { query: qy, limit: n }, s),
            signal,
          );
          const lines = listed(r, def.line, def.what);
          return framed({ title: `${def.heading}${q(qy, 200)}`, lines, notes: cacheNote(r, c) });
        },
      };
    },
  });
}

/** A tool that counts what matches a query (one cheap request). */
export function countTool(
  def: QueryToolDef & {
    count: (client: OdinClient, query: string, signal: AbortSignal) => Promise<number>;
    /** The answer line's label, e.g. `hosts`. */
    label: string;
  },
): AgentTool {
  return tool({
    ...header(def, { query: query(def.example) }, ['query']),
    prepare(input, ctx) {
      const qy = gatedQuery(ctx.gate, str(input, 'query'));
      return {
        sends: sends(ctx.origin(), `the query ${JSON.stringify(qy)}`, def.endpoint),
        async run(c, signal) {
          const r = await fetchVia(c, def.kind, qy, (s) => def.count(c.client(), qy, s), signal);
          const n = r.status === 'ok' ? r.value : 0;
          return framed({
            title: `${def.heading}${q(qy, 200)}`,
            lines: [`${def.label}: ${countLine(n)}`],
            notes: cacheNote(r, c),
          });
        },
      };
    },
  });
}

/** A tool that groups what matches a query by one field (the top values with counts). */
export function summaryTool(
  def: QueryToolDef & {
    /** The field's examples in the schema's description. */
    fields: string;
    summarize: (
      client: OdinClient,
      q: { field: string; query: string; limit: number },
      signal: AbortSignal,
    ) => Promise<Aggregation>;
  },
): AgentTool {
  return tool({
    ...header(def, { field: field(def.fields), query: query(def.example), limit }, ['field', 'query']),
    prepare(input, ctx) {
      const qy = gatedQuery(ctx.gate, str(input, 'query'));
      const f = gatedQuery(ctx.gate, str(input, 'field'));
      const n = int(input, 'limit', DEFAULT_RESULTS);
      return {
        sends: sends(
          ctx.origin(),
          `the field ${JSON.stringify(f)} and the query ${JSON.stringify(qy)}`,
          def.endpoint,
        ),
        async run(c, signal) {
          const r = await fetchVia(
            c,
            def.kind,
            JSON.stringify([f, qy, n]),
            (s) => def.summarize(c.client(), { field: f, query: qy, limit: n }, s),
            signal,
          );
          const lines = r.status === 'ok' ? aggregationLines(r.value) : ['no values'];
          return framed({
            title: `${def.heading}${q(qy, 200)} by ${q(f, 80)}`,
            lines,
            notes: cacheNote(r, c),
          });
        },
      };
    },
  });
}
