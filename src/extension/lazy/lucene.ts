/** Entry of dist/lucene.js: the query parser (lucene), loaded on first use (see luceneLoader.ts). */
export { parse } from 'lucene';
