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
 * Requests that need an answer (a banner, the next page of CVEs) go through the small
 * request/reply helper of `requestReply.ts`; the view models are in `viewModels.ts` and the
 * checks shared with the triage page's protocol in `validate.ts`.
 */
import type { CveView, ExploitView, HostView, WhoisView } from './viewModels';
import { isId, isIndex, isRec, MAX_MESSAGE_CHARS, oneOf, onlyKeys, type Rec } from './validate';

export * from './viewModels';
export { RequestClient, answerRequest, type RequestHandlers } from './requestReply';
export { MAX_MESSAGE_CHARS, isIndex, isRec, oneOf, onlyKeys, type Rec } from './validate';

// ---------------------------------------------------------------- extension → webview

export type PageKind = 'host' | 'whois';

export type ToWebview =
  | { type: 'loading'; page: PageKind; id: string }
  | { type: 'error'; page: PageKind; id: string; message: string }
  | { type: 'host'; host: HostView }
  | { type: 'cves'; cves: CveView[]; more: boolean; error?: string }
  | { type: 'exploits'; exploits: ExploitView[]; error?: string }
  | { type: 'whois'; whois: WhoisView }
  /**
   * A line above the page: why it shows only what was cached (lookups off, Restricted Mode),
   * with a button that loads the rest (`load`: the page then posts the `refresh` action).
   */
  | { type: 'notice'; message: string; load?: boolean }
  | ReplyMessage;

// ---------------------------------------------------------------- webview → extension

export type HostAction = 'refresh' | 'copyJson' | 'openJson' | 'export' | 'searchSimilar';
export type WhoisAction = 'refresh' | 'copyJson' | 'openJson' | 'export' | 'copyRaw';

export interface RenderedCounts {
  services: number;
  cves: number;
  exploits: number;
  hostnames: number;
  domains: number;
  contacts: number;
  snapshots: number;
  changes: number;
}

/** A reference to a link the extension holds: never the URL itself. */
export type LinkRef =
  | { kind: 'service'; serviceIndex: number }
  | { kind: 'reference'; cveId: string; refIndex: number }
  | { kind: 'exploit'; exploitId: string };

export type FromWebview =
  | { type: 'ready'; page: PageKind }
  | { type: 'rendered'; page: PageKind; counts: RenderedCounts; ms: number }
  | { type: 'action'; action: HostAction | WhoisAction }
  | { type: 'copyLink'; link: LinkRef }
  | { type: 'openLink'; link: LinkRef }
  | { type: 'copyCve'; cveId: string }
  | { type: 'diffSnapshots'; from: number; to: number }
  /** Search hosts that present the same certificate as this service (by its index). */
  | { type: 'searchCertificate'; serviceIndex: number }
  | RequestMessage;

/** Requests the page may make, with their parameters and results. */
export interface Requests {
  /** A service's banner, `full` or the first BANNER_PREVIEW characters. */
  banner: { params: { serviceIndex: number; full: boolean }; result: { text: string; length: number } };
  /** A host-level banner (by index into the host's `banner` list). */
  hostBanner: { params: { index: number; full: boolean }; result: { text: string; length: number } };
  /** The next page of CVEs from the CVE endpoint. */
  moreCves: { params: Record<string, never>; result: { cves: CveView[]; more: boolean } };
}
export type RequestMethod = keyof Requests;

export interface RequestMessage<M extends RequestMethod = RequestMethod> {
  type: 'request';
  requestId: number;
  method: M;
  params: Requests[M]['params'];
}

export type ReplyMessage =
  | { type: 'reply'; requestId: number; ok: true; result: unknown }
  | { type: 'reply'; requestId: number; ok: false; error: string };

/** Characters of a banner sent when it is first expanded; "show all" asks for the rest. */
export const BANNER_PREVIEW = 4096;
/** Hard cap on one banner shown in the page (the rest is in "Open Raw JSON"). */
export const BANNER_MAX = 2_000_000;

// ---------------------------------------------------------------- validation (extension side)

/** Every action button of the host page (the affordance test runs each one). */
export const HOST_ACTIONS: readonly HostAction[] = [
  'refresh',
  'copyJson',
  'openJson',
  'export',
  'searchSimilar',
];
/** Every action button of the whois page. */
export const WHOIS_ACTIONS: readonly WhoisAction[] = ['refresh', 'copyJson', 'openJson', 'export', 'copyRaw'];
const COUNT_KEYS: Array<keyof RenderedCounts> = [
  'services',
  'cves',
  'exploits',
  'hostnames',
  'domains',
  'contacts',
  'snapshots',
  'changes',
];

function parseLink(v: unknown): LinkRef | undefined {
  if (!isRec(v)) return undefined;
  if (v.kind === 'service' && onlyKeys(v, ['kind', 'serviceIndex']) && isIndex(v.serviceIndex)) {
    return { kind: 'service', serviceIndex: v.serviceIndex };
  }
  if (
    v.kind === 'reference' &&
    onlyKeys(v, ['kind', 'cveId', 'refIndex']) &&
    isId(v.cveId) &&
    isIndex(v.refIndex)
  ) {
    return { kind: 'reference', cveId: v.cveId, refIndex: v.refIndex };
  }
  if (v.kind === 'exploit' && onlyKeys(v, ['kind', 'exploitId']) && isId(v.exploitId)) {
    return { kind: 'exploit', exploitId: v.exploitId };
  }
  return undefined;
}

function parseRequest(v: Rec, page: PageKind): RequestMessage | undefined {
  if (!onlyKeys(v, ['type', 'requestId', 'method', 'params']) || !isIndex(v.requestId) || !isRec(v.params)) {
    return undefined;
  }
  if (page !== 'host') return undefined;
  const p = v.params;
  const requestId = v.requestId;
  if (v.method === 'banner' || v.method === 'hostBanner') {
    // A service's banner by `serviceIndex`, a host-level one by `index`.
    const indexKey = v.method === 'banner' ? 'serviceIndex' : 'index';
    const index = p[indexKey];
    if (!onlyKeys(p, [indexKey, 'full']) || !isIndex(index) || typeof p.full !== 'boolean') return undefined;
    return v.method === 'banner'
      ? { type: 'request', requestId, method: 'banner', params: { serviceIndex: index, full: p.full } }
      : { type: 'request', requestId, method: 'hostBanner', params: { index, full: p.full } };
  }
  if (v.method === 'moreCves' && Object.keys(p).length === 0) {
    return { type: 'request', requestId, method: 'moreCves', params: {} };
  }
  return undefined;
}

/**
 * Validates a message from the page of kind `page`: known type, size cap, fields of the
 * right type and nothing else. Returns a fresh object holding only validated fields, or
 * `undefined` (the caller logs and drops it).
 */
export function parseFromWebview(raw: unknown, page: PageKind): FromWebview | undefined {
  if (!isRec(raw)) return undefined;
  let size: number;
  try {
    size = JSON.stringify(raw).length;
  } catch {
    return undefined; // cycles, BigInt: not something our page sends
  }
  if (size > MAX_MESSAGE_CHARS) return undefined;
  const v = raw;
  switch (v.type) {
    case 'ready':
      return onlyKeys(v, ['type', 'page']) && v.page === page ? { type: 'ready', page } : undefined;
    case 'rendered': {
      if (!onlyKeys(v, ['type', 'page', 'counts', 'ms']) || v.page !== page || !isRec(v.counts))
        return undefined;
      if (typeof v.ms !== 'number' || !Number.isFinite(v.ms) || v.ms < 0) return undefined;
      const counts = v.counts;
      if (!onlyKeys(counts, COUNT_KEYS) || !COUNT_KEYS.every((k) => isIndex(counts[k]))) return undefined;
      const out = {} as RenderedCounts;
      for (const k of COUNT_KEYS) out[k] = counts[k] as number;
      return { type: 'rendered', page, counts: out, ms: v.ms };
    }
    case 'action': {
      if (!onlyKeys(v, ['type', 'action'])) return undefined;
      const ok = page === 'host' ? oneOf(v.action, HOST_ACTIONS) : oneOf(v.action, WHOIS_ACTIONS);
      return ok ? { type: 'action', action: v.action as HostAction | WhoisAction } : undefined;
    }
    case 'copyLink':
    case 'openLink': {
      if (!onlyKeys(v, ['type', 'link'])) return undefined;
      const link = parseLink(v.link);
      return link && page === 'host' ? { type: v.type, link } : undefined;
    }
    case 'copyCve':
      return onlyKeys(v, ['type', 'cveId']) && isId(v.cveId) && page === 'host'
        ? { type: 'copyCve', cveId: v.cveId }
        : undefined;
    case 'searchCertificate':
      return onlyKeys(v, ['type', 'serviceIndex']) && isIndex(v.serviceIndex) && page === 'host'
        ? { type: 'searchCertificate', serviceIndex: v.serviceIndex }
        : undefined;
    case 'diffSnapshots':
      return onlyKeys(v, ['type', 'from', 'to']) &&
        isIndex(v.from) &&
        isIndex(v.to) &&
        v.from !== v.to &&
        page === 'whois'
        ? { type: 'diffSnapshots', from: v.from, to: v.to }
        : undefined;
    case 'request':
      return parseRequest(v, page);
    default:
      return undefined;
  }
}

/** Validates a message from the extension on the page side (the page trusts its host, but checks shape). */
export function isToWebview(raw: unknown): raw is ToWebview {
  return (
    isRec(raw) &&
    oneOf(raw.type, ['loading', 'error', 'host', 'cves', 'exploits', 'whois', 'notice', 'reply'] as const)
  );
}
