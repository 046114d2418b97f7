/**
 * The names the details feature is known by before its bundle loads (dist/details.js, see
 * src/extension/details/lazy.ts): its webview types and document scheme. Its commands are in
 * src/extension/commands.ts.
 */
export const HOST_VIEW_TYPE = 'odin.hostDetails';
export const WHOIS_VIEW_TYPE = 'odin.whoisDetails';
export const WHOIS_SCHEME = 'odin-whois';
