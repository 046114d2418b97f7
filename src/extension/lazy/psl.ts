/** Entry of dist/psl.js: the public suffix list (tldts), loaded on first use (see pslLoader.ts). */
export { getDomain, parse } from 'tldts';
