/**
 * The names the search feature is known by before its bundle loads (dist/search.js, see
 * src/extension/search/lazy.ts): its commands and its two views.
 */
export const SEARCH_COMMANDS = [
  'odin.searchHosts',
  'odin.lookupHost',
  'odin.summarizeHosts',
  'odin.hostCves',
  'odin.hostExploits',
  'odin.hostCve',
  'odin.searchDomains',
  'odin.countDomains',
  'odin.countSubdomains',
  'odin.whois',
  'odin.whoisHistory',
  'odin.searchBuckets',
  'odin.countFiles',
  'odin.summarizeFiles',
  'odin.browseFields',
  'odin.saveSearch',
  'odin.runSavedSearch',
  'odin.renameSavedSearch',
  'odin.editSavedSearch',
  'odin.deleteSavedSearch',
  'odin.duplicateSavedSearch',
  'odin.moveSavedSearchUp',
  'odin.moveSavedSearchDown',
  'odin.exportSavedSearches',
  'odin.importSavedSearches',
  'odin.loadMore',
  'odin.loadAll',
  'odin.retry',
  'odin.refreshResults',
  'odin.clearResults',
  'odin.exportResults',
  'odin.copyValue',
  'odin.searchSimilar',
  'odin.narrowByFacet',
] as const;
export type SearchCommandId = (typeof SEARCH_COMMANDS)[number];

export const RESULTS_VIEW = 'odin.results';
export const SAVED_VIEW = 'odin.savedSearches';
/** The drag and drop type of the saved searches tree (declared when the view is created). */
export const SAVED_MIME = 'application/vnd.code.tree.odin.savedsearches';
