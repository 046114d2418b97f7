/**
 * The names the details feature is known by before its bundle loads (dist/details.js, see
 * src/extension/details/lazy.ts): its commands, webview types and document scheme.
 */
export const DETAILS_COMMANDS = ['odin.openHostDetails', 'odin.openWhoisDetails'] as const;
export type DetailsCommandId = (typeof DETAILS_COMMANDS)[number];

export const HOST_VIEW_TYPE = 'odin.hostDetails';
export const WHOIS_VIEW_TYPE = 'odin.whoisDetails';
export const WHOIS_SCHEME = 'odin-whois';
