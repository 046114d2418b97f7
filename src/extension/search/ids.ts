/**
 * The names the search feature is known by before its bundle loads (dist/search.js, see
 * src/extension/search/lazy.ts): its two views. Its commands are in src/extension/commands.ts.
 */
export const RESULTS_VIEW = 'odin.results';
export const SAVED_VIEW = 'odin.savedSearches';
/** The drag and drop type of the saved searches tree (declared when the view is created). */
export const SAVED_MIME = 'application/vnd.code.tree.odin.savedsearches';
