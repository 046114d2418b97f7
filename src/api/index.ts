/** Public surface of the ODIN API client (no `vscode` imports below this folder). */
export { OdinClient, ENDPOINTS, FIRST_CVE_PAGE, type OdinClientOptions } from './client';
export {
  OdinApiError,
  isOdinApiError,
  defaultMessage,
  type OdinErrorKind,
  type NetworkFailure,
  type OdinApiErrorInit,
} from './errors';
export {
  checkBaseUrl,
  isLoopbackHostname,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  type BaseUrlCheck,
  type LogLevel,
  type Logger,
  type TransportOptions,
} from './http';
export { parseRetryAfter, type RetryOptions } from './retry';
export { pages, collect, jsonEqual, type FetchPage, type WalkOptions, type CollectOptions } from './paging';
export { parseJson } from './normalize/json';
export * from './types';
