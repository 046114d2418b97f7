/**
 * Stands in for `tldts` inside the extension bundle (esbuild.mjs resolves `tldts` here for
 * every module but this one): the public suffix list builds its lookup tables when it is
 * evaluated (tens of ms), so it is required on the first hover or search that needs it
 * instead of at activation; in the bundle, require() runs the module only then. The unit
 * tests and the pure core use the real `tldts` module directly.
 */

type Tldts = typeof import('tldts');

/** The module, from Node's module cache after the first call (nothing kept here). */
function psl(): Tldts {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./psl') as Tldts;
}

export const parse: Tldts['parse'] = (url, options) => psl().parse(url, options);
export const getDomain: Tldts['getDomain'] = (url, options) => psl().getDomain(url, options);
