/**
 * The ONE place where the wire format of the ODIN API becomes the model of `../types.ts`;
 * one file per endpoint family, the typed readers in `json.ts`.
 *
 * Two dialects answer: the `spec` one (the interface document, with keys written ` data`,
 * ` meta`, ` error` and the capital `Data` of the field catalogues, and `data: {}` beside
 * the real host list) and the `live` one (plain keys, `null` for empty lists,
 * `0001-01-01T00:00:00Z` for unset timestamps, CVE data as a map keyed by CVE id). Both
 * are folded here into one clean shape.
 *
 * Response bodies are attacker-influenced (scan data is written by whoever runs the
 * scanned host), so every value is type-checked: a field of the wrong type is dropped
 * rather than passed on, a record missing its identifying field is dropped, and keys
 * `__proto__`, `constructor` and `prototype` never reach an object (`parseJson` drops them
 * and the free-form parts are copied key by key).
 */
export { parseJson, safeCopy, time, isObj } from './json';
export { envelopeData, envelopeErrorText, envelopeMeta, envelopePagination } from './envelope';
export {
  normalizeCve,
  normalizeCveList,
  normalizeExploit,
  normalizeExploits,
  normalizeSeverity,
} from './cves';
export { normalizeService } from './services';
export { normalizeHost } from './hosts';
export { normalizeAggregation, normalizeCount, normalizeFields } from './aggregations';
export { normalizeDomainRecord, normalizeWhois, normalizeWhoisHistory } from './domains';
export { normalizeBucket } from './buckets';
export { normalizeCredits } from './credits';
