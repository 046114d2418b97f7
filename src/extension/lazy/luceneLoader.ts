/**
 * Stands in for `lucene` inside the extension bundles (esbuild.mjs resolves `lucene` here for
 * every module but this one): the query parser (core/query/parser.ts) is reached from the
 * gate, which loads at activation, but is needed only when query text is first read (a
 * search, a hunt, an agent's query), so the parser is required then, from dist/lucene.js.
 * The unit tests and the pure core use the real `lucene` module directly.
 */

type Lucene = typeof import('lucene');

/** The module, from Node's module cache after the first call (nothing kept here). */
function lucene(): Lucene {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./lucene') as Lucene;
}

export const parse: Lucene['parse'] = (query) => lucene().parse(query);
