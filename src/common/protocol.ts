/**
 * The one message protocol of the details pages (host and whois), compiled by both the
 * extension (Node) and the webview (browser). Nothing here imports `vscode` or the DOM.
 *
 * Shape of a session:
 *   webview → `ready` → extension → `host` / `whois` (view models, plain data) → webview
 *   renders with DOM APIs → `rendered` (counts) → extension.
 * Everything the page asks for afterwards carries ids (a service index, a CVE id, a
 * reference index, a snapshot index), never URLs or commands: the extension looks the
 * value up in its own copy of the data. See SECURITY.md, "Rendering attacker strings".
 *
 * Every message is declared once below as a schema (`schema.ts`): its type is derived from
 * it (`Infer`) and so is its validator. Requests that need an answer (a banner, the next
 * page of CVEs) go through the request/reply helper of `requestReply.ts`; the view models
 * are in `viewModels.ts`. The webview kit (extension/webviewKit/) runs `ready`, `rendered`,
 * `request` and validation for every page.
 */
import {
  answerRequest as answer,
  replyMessage,
  RequestClient as Client,
  type RequestHandlers as Handlers,
  type RequestMessage as Request,
} from './requestReply';
import {
  bool,
  id,
  index,
  literal,
  message,
  ms,
  object,
  oneOf,
  optional,
  refine,
  requests,
  text,
  trusted,
  union,
  type Infer,
  type RequestsOf,
} from './schema';
import type { CveView, ExploitView, HostView, WhoisView } from './viewModels';
import { wordsMessage } from './words';

export * from './viewModels';
export { replyMessage, type ReplyMessage } from './requestReply';
export { MAX_MESSAGE_CHARS } from './validate';

// ---------------------------------------------------------------- extension → webview

export type PageKind = 'host' | 'whois';
const pageKind = oneOf<PageKind>(['host', 'whois']);

/** What the extension posts to a details page (the page checks it with `toWebview`). */
export const toWebview = union(
  object({ type: literal('loading'), page: pageKind, id: text }),
  object({ type: literal('error'), page: pageKind, id: text, message: text }),
  object({ type: literal('host'), host: trusted<HostView>() }),
  object({
    type: literal('cves'),
    cves: trusted<CveView[]>('array'),
    more: bool,
    error: optional(text),
  }),
  object({ type: literal('exploits'), exploits: trusted<ExploitView[]>('array'), error: optional(text) }),
  object({ type: literal('whois'), whois: trusted<WhoisView>() }),
  /**
   * A line above the page: why it shows only what was cached (lookups off, Restricted Mode),
   * with a button that loads the rest (`load`: the page then posts the `refresh` action).
   */
  object({ type: literal('notice'), message: text, load: optional(bool) }),
  replyMessage,
  wordsMessage,
);
export type ToWebview = Infer<typeof toWebview>;

/** Validates a message from the extension on the page side (the page trusts its host, but checks shape). */
export function isToWebview(raw: unknown): raw is ToWebview {
  return toWebview(raw) !== undefined;
}

// ---------------------------------------------------------------- webview → extension

/** Every action button of the host page (the affordance test runs each one). */
export const HOST_ACTIONS = ['refresh', 'copyJson', 'openJson', 'export', 'searchSimilar'] as const;
/** Every action button of the whois page. */
export const WHOIS_ACTIONS = ['refresh', 'copyJson', 'openJson', 'export', 'copyRaw'] as const;
export type HostAction = (typeof HOST_ACTIONS)[number];
export type WhoisAction = (typeof WHOIS_ACTIONS)[number];

const renderedCounts = object({
  services: index,
  cves: index,
  exploits: index,
  hostnames: index,
  domains: index,
  contacts: index,
  snapshots: index,
  changes: index,
});
export type RenderedCounts = Infer<typeof renderedCounts>;

/** A reference to a link the extension holds: never the URL itself. */
const linkRef = union(
  object({ kind: literal('service'), serviceIndex: index }),
  object({ kind: literal('reference'), cveId: id, refIndex: index }),
  object({ kind: literal('exploit'), exploitId: id }),
);
export type LinkRef = Infer<typeof linkRef>;

/** A service's or a host-level banner: the first BANNER_PREVIEW characters or `full`. */
const bannerText = trusted<{ text: string; length: number }>();

/** Requests the host page may make, with their parameters and results. */
const hostRequests = {
  /** A service's banner. */
  banner: { params: object({ serviceIndex: index, full: bool }), result: bannerText },
  /** A host-level banner (by index into the host's `banner` list). */
  hostBanner: { params: object({ index, full: bool }), result: bannerText },
  /** The next page of CVEs from the CVE endpoint. */
  moreCves: {
    params: object({}),
    result: trusted<{ cves: CveView[]; more: boolean }>(),
  },
};
export type Requests = RequestsOf<typeof hostRequests>;
export type RequestMethod = keyof Requests;
export type RequestMessage<M extends RequestMethod = RequestMethod> = Request<Requests, M>;
export type RequestHandlers = Handlers<Requests>;
/** The host page's request client (the page side of request/reply). */
export class RequestClient extends Client<Requests> {}
export const answerRequest = answer<Requests>;

/** What the host page sends. */
export const fromHostPage = message(
  union(
    object({ type: literal('ready'), page: literal('host') }),
    object({ type: literal('rendered'), page: literal('host'), counts: renderedCounts, ms }),
    object({ type: literal('action'), action: oneOf(HOST_ACTIONS) }),
    object({ type: literal('copyLink'), link: linkRef }),
    object({ type: literal('openLink'), link: linkRef }),
    object({ type: literal('copyCve'), cveId: id }),
    /** Search hosts that present the same certificate as this service (by its index). */
    object({ type: literal('searchCertificate'), serviceIndex: index }),
    requests(hostRequests),
  ),
);
export type FromHostPage = Infer<typeof fromHostPage>;

/** What the whois page sends. */
export const fromWhoisPage = message(
  union(
    object({ type: literal('ready'), page: literal('whois') }),
    object({ type: literal('rendered'), page: literal('whois'), counts: renderedCounts, ms }),
    object({ type: literal('action'), action: oneOf(WHOIS_ACTIONS) }),
    refine(object({ type: literal('diffSnapshots'), from: index, to: index }), (m) => m.from !== m.to),
  ),
);
export type FromWhoisPage = Infer<typeof fromWhoisPage>;

export type FromWebview = FromHostPage | FromWhoisPage;

/**
 * Validates a message from the page of kind `page`: known type, size cap, fields of the
 * right type and nothing else. Returns a fresh object holding only validated fields, or
 * `undefined` (the caller logs and drops it).
 */
export function parseFromWebview(raw: unknown, page: PageKind): FromWebview | undefined {
  return page === 'host' ? fromHostPage(raw) : fromWhoisPage(raw);
}

/** Characters of a banner sent when it is first expanded; "show all" asks for the rest. */
export const BANNER_PREVIEW = 4096;
/** Hard cap on one banner shown in the page (the rest is in "Open Raw JSON"). */
export const BANNER_MAX = 2_000_000;
