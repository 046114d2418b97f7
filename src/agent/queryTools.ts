/**
 * The three shapes of a tool over an ODIN query (search, count, summary by a field): the
 * schema, the gate, what it sends and the answer are the same for hosts, buckets and files;
 * each tool in apiTools.ts names only its kind of search in the catalogue (core/search), its
 * endpoint and lines. What is asked, how and under which cache key is the catalogue's: the
 * same call the palette, the hunts and the hover make (`searchVia`), so a host count the
 * hover already asked for is answered from the cache.
 *
 * Pure Node: no `vscode` import.
 */
import { searchVia, type Answers } from '../core/search';
import { aggregationLines, countLine, listed } from './answerLines';
import { framed, q } from './format';
import type { ObjectSchema } from './schema';
import {
  cacheNote,
  DEFAULT_RESULTS,
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
  /** The answer's title, before the quoted query. */
  heading: string;
}

/** Name, title, description and input schema of a query tool. */
function header(
  def: QueryToolDef,
  properties: ObjectSchema['properties'],
  required: string[],
): Pick<AgentTool, 'name' | 'title' | 'description' | 'inputSchema'> {
  const { name, title } = def;
  const what = properties.field ? 'the field and the query' : 'the query';
  return {
    name,
    title,
    description: `${def.description} Sends ${what} to the configured ODIN API (${def.endpoint}): 1 request, none when the answer is cached.`,
    inputSchema: { type: 'object', properties, required, additionalProperties: false },
  };
}

/** The searches that list records, and the record each lists. */
type ListingKind = 'hosts' | 'buckets';
type RecordOf<K extends ListingKind> = Answers[K]['items'][number];

/** A tool that lists the records matching a query (up to `limit`). */
export function searchTool<K extends ListingKind>(
  def: QueryToolDef & {
    /** The catalogue's kind of search. */
    search: K;
    line: (item: RecordOf<K>) => string;
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
        plan: [{ spec: { kind: def.search, query: qy }, page: { limit: n } }],
        async run(c, signal) {
          // Agents are not the user's own hand: the automatic-lookup limits and pauses apply.
          const r = await searchVia(
            c,
            { kind: def.search, query: qy },
            { page: { limit: n }, signal, automatic: true },
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
    /** The catalogue's kind of count. */
    search: 'hostCount' | 'fileCount';
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
        plan: [{ spec: { kind: def.search, query: qy } }],
        async run(c, signal) {
          const r = await searchVia(c, { kind: def.search, query: qy }, { signal, automatic: true });
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
    /** The catalogue's kind of summary. */
    search: 'hostSummary' | 'fileSummary';
    /** The field's examples in the schema's description. */
    fields: string;
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
        plan: [{ spec: { kind: def.search, field: f, query: qy, limit: n } }],
        async run(c, signal) {
          const r = await searchVia(
            c,
            { kind: def.search, field: f, query: qy, limit: n },
            { signal, automatic: true },
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
