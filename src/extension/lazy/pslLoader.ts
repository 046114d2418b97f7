/**
 * Stands in for `tldts` inside the extension bundle (esbuild `alias`): the public suffix
 * list is ~130 KB and builds its lookup tables when loaded, so it lives in its own bundle,
 * dist/psl.js, and is loaded on the first hover or search that needs it instead of at
 * activation. The unit tests and the pure core use the real `tldts` module directly.
 */
import * as path from 'path';

type Tldts = typeof import('tldts');
let loaded: Tldts | undefined;

function psl(): Tldts {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require(path.join(__dirname, 'psl.js')) as Tldts);
}

export const parse: Tldts['parse'] = (url, options) => psl().parse(url, options);
export const getDomain: Tldts['getDomain'] = (url, options) => psl().getDomain(url, options);
