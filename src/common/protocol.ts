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
 * request/reply helper at the end of this file (after vscode-hexeditor's shared/protocol.ts).
 */

// ---------------------------------------------------------------- view models (extension → webview)

export { SEVERITY_RANK, type Severity } from '../api/types';
import type { Severity } from '../api/types';

export interface ServiceView {
  /** Position in the host record: the id the page uses to ask for this service's banner or URL. */
  index: number;
  port: number;
  protocol?: string;
  name?: string;
  product?: string;
  version?: string;
  extraInfo?: string;
  tunnel?: string;
  url?: string;
  title?: string;
  statusCode?: number;
  /** The HTTP `Server` header(s), joined. */
  server?: string;
  /** The TLS certificate the service presented, when ODIN recorded one. */
  certificate?: CertificateView;
  software: string[];
  cves: string[];
  lastUpdated?: string;
  /** Length of the banner in characters (0: none). The text itself is fetched on demand. */
  bannerLength: number;
}

/** A TLS certificate as the host page shows it (every string capped). */
export interface CertificateView {
  subject?: string;
  issuer?: string;
  /** DNS names and IP addresses of the subject alternative name. */
  names: string[];
  notBefore?: string;
  notAfter?: string;
  /** SHA-256 fingerprint (hex); the page pivots on it by service index, never sends it back. */
  fingerprint?: string;
  selfSigned?: boolean;
  validation?: string;
  key?: string;
}

export interface ExploitView {
  id: string;
  description?: string;
  platform?: string;
  type?: string;
  file?: string;
  /** Shown as text; opened only through an `openLink` message and a confirmation. */
  url?: string;
  cves: string[];
}

export interface CveView {
  id: string;
  severity: Severity;
  score?: number;
  summary?: string;
  vector?: string;
  weakness?: string;
  references: string[];
  services: string[];
  exploits: ExploitView[];
  /** Where it came from: the host record only (a stub) or the CVE endpoints (full). */
  source: 'host' | 'endpoint';
}

export interface HostView {
  ip: string;
  isVuln?: boolean;
  organization?: string;
  asn?: string;
  asnCountry?: string;
  location?: string;
  network?: string;
  tags: string[];
  /** Module names seen on the host (`http`, `tls`: the live service's host-level `banner`). */
  modules: string[];
  /**
   * Lengths of host-level banner texts (the spec's host-level `banner` list holds banner
   * text, not module names). Fetched on demand by index, like service banners.
   */
  hostBanners: number[];
  dates: Array<{ label: string; value: string }>;
  services: ServiceView[];
  hostnames: Array<{ name: string; lastUpdated?: string }>;
  domains: Array<{
    name?: string;
    webServer?: string;
    country?: string;
    dnsServers: string[];
    emails: string[];
    lastUpdated?: string;
  }>;
  whois?: { organization?: string; network?: string; descr?: string; raw?: string };
  /** CVEs listed in the host record (services[].cve), before any endpoint page arrives. */
  cves: CveView[];
}

export interface WhoisChange {
  field: string;
  kind: 'added' | 'removed' | 'changed';
  before?: string;
  after?: string;
}

export interface WhoisSnapshotView {
  /** Index into the extension's list of snapshots (oldest first). */
  index: number;
  date?: string;
  registrar?: string;
  expires?: string;
  /** Changes from the previous (older) snapshot; empty for the oldest one. */
  changes: WhoisChange[];
}

export interface WhoisContactView {
  role: 'registrant' | 'administrative' | 'technical' | 'billing';
  fields: Array<{ label: string; value: string }>;
}

export interface WhoisView {
  domain: string;
  registrar?: { name?: string; id?: string; url?: string; whois?: string };
  created?: string;
  updated?: string;
  expires?: string;
  /** Days until expiry (negative: expired), when the expiry date is known. */
  daysToExpiry?: number;
  expiryWarningDays: number;
  status: string[];
  nameServers: string[];
  contacts: WhoisContactView[];
  raw?: string;
  history: WhoisSnapshotView[];
  historyError?: string;
}

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

/** Largest message the page may send (JSON characters). Its messages are ids and counts. */
export const MAX_MESSAGE_CHARS = 4096;
const MAX_ID_CHARS = 128;
const MAX_INDEX = 1_000_000;

export type Rec = Record<string, unknown>;
export const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isIndex = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < MAX_INDEX;
const isId = (v: unknown): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= MAX_ID_CHARS && !/[\u0000-\u001f]/.test(v);
export const oneOf = <T extends string>(v: unknown, values: readonly T[]): v is T =>
  typeof v === 'string' && (values as readonly string[]).includes(v);
export const onlyKeys = (v: Rec, keys: string[]): boolean => Object.keys(v).every((k) => keys.includes(k));

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
  if (v.method === 'banner' && onlyKeys(p, ['serviceIndex', 'full']) && isIndex(p.serviceIndex)) {
    if (typeof p.full !== 'boolean') return undefined;
    return {
      type: 'request',
      requestId: v.requestId,
      method: 'banner',
      params: { serviceIndex: p.serviceIndex, full: p.full },
    };
  }
  if (v.method === 'hostBanner' && onlyKeys(p, ['index', 'full']) && isIndex(p.index)) {
    if (typeof p.full !== 'boolean') return undefined;
    return {
      type: 'request',
      requestId: v.requestId,
      method: 'hostBanner',
      params: { index: p.index, full: p.full },
    };
  }
  if (v.method === 'moreCves' && Object.keys(p).length === 0) {
    return { type: 'request', requestId: v.requestId, method: 'moreCves', params: {} };
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

// ---------------------------------------------------------------- request/reply helper (both sides)

type Pending = {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
};

/**
 * The page side of request/reply: `request('banner', {...})` posts a `request` with a
 * fresh id and resolves with the matching `reply`. Feed every incoming message to
 * `handleReply`; it returns true when the message was a reply it consumed.
 */
export class RequestClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly post: (message: RequestMessage) => void,
    private readonly timeoutMs = 120_000,
  ) {}

  request<M extends RequestMethod>(method: M, params: Requests[M]['params']): Promise<Requests[M]['result']> {
    const requestId = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new Error('No answer from the extension.'));
      }, this.timeoutMs);
      this.pending.set(requestId, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.post({ type: 'request', requestId, method, params } as RequestMessage);
    });
  }

  handleReply(message: ToWebview): boolean {
    if (message.type !== 'reply') return false;
    const p = this.pending.get(message.requestId);
    if (!p) return true;
    this.pending.delete(message.requestId);
    clearTimeout(p.timer);
    if (message.ok) p.resolve(message.result);
    else p.reject(new Error(message.error));
    return true;
  }
}

export type RequestHandlers = {
  [M in RequestMethod]: (params: Requests[M]['params']) => Promise<Requests[M]['result']>;
};

/**
 * The extension side: runs the handler for a validated request and posts the reply
 * (errors as short text, never stack traces).
 */
export async function answerRequest(
  message: RequestMessage,
  handlers: RequestHandlers,
  post: (reply: ReplyMessage) => unknown,
  errorText: (err: unknown) => string = (e) => (e instanceof Error ? e.message : String(e)),
): Promise<void> {
  try {
    const handler = handlers[message.method] as (p: unknown) => Promise<unknown>;
    const result = await handler(message.params);
    await post({ type: 'reply', requestId: message.requestId, ok: true, result });
  } catch (err) {
    await post({ type: 'reply', requestId: message.requestId, ok: false, error: errorText(err) });
  }
}
