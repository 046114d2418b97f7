import type { SearchFeature } from './index';

/**
 * What the integration tests reach through the TestApi: the search feature itself, so they
 * can read the results tree through its TreeDataProvider (`getChildren`, `describe`) and
 * reload the saved-search store, as a person would see them in the sidebar. Reading
 * `feature` loads the feature (it otherwise loads on first use).
 */
export interface SearchProbe {
  readonly feature?: SearchFeature;
}
