/**
 * Fault injection: validation of fault descriptions and the body transforms of the
 * faults that alter a real answer (`wrongTypes`, `protoPollution`). The socket-level
 * faults (reset, truncated, trickle, hang, oversized) are carried out in `faultReplies.ts`.
 */

export type FaultStatus = 400 | 401 | 402 | 403 | 404 | 408 | 429 | 500 | 502 | 503 | 504;

export type Fault =
  | { kind: 'latency'; ms: number }
  | { kind: 'status'; status: FaultStatus; retryAfter?: string; html?: boolean }
  | { kind: 'reset' }
  | { kind: 'truncated' }
  | { kind: 'oversized'; bytes: number }
  | { kind: 'trickle'; bytesPerChunk: number; intervalMs: number }
  | { kind: 'hang' }
  | { kind: 'wrongTypes' }
  | { kind: 'notJson' }
  | { kind: 'badContentType' }
  | { kind: 'protoPollution' };

export interface FaultRule {
  fault: Fault;
  /** Apply to the next N matching requests; default 1; -1 (or Infinity) for all. */
  count?: number;
  /** Regex source matched against the request path. */
  path?: string;
}

export const FAULT_STATUSES: readonly FaultStatus[] = [400, 401, 402, 403, 404, 408, 429, 500, 502, 503, 504];

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;

/** Checks a fault from an untrusted source (admin API, request header); throws with a reason. */
export function parseFault(v: unknown): Fault {
  if (!isObj(v) || typeof v.kind !== 'string') throw new Error('fault must be an object with a kind');
  switch (v.kind) {
    case 'latency':
      if (!num(v.ms, 0, 600_000)) throw new Error('latency.ms must be 0..600000');
      return { kind: 'latency', ms: v.ms };
    case 'status': {
      if (!FAULT_STATUSES.includes(v.status as FaultStatus))
        throw new Error(`status must be one of ${FAULT_STATUSES.join(', ')}`);
      if (v.retryAfter !== undefined && typeof v.retryAfter !== 'string')
        throw new Error('retryAfter must be a string');
      if (typeof v.retryAfter === 'string' && /[\r\n]/.test(v.retryAfter))
        throw new Error('retryAfter must be one line');
      const f: Fault = { kind: 'status', status: v.status as FaultStatus };
      if (typeof v.retryAfter === 'string') f.retryAfter = v.retryAfter;
      if (v.html === true) f.html = true;
      return f;
    }
    case 'oversized':
      if (!num(v.bytes, 1, 2 ** 31)) throw new Error('oversized.bytes must be a positive number');
      return { kind: 'oversized', bytes: Math.floor(v.bytes) };
    case 'trickle':
      if (!num(v.bytesPerChunk, 1, 2 ** 20) || !num(v.intervalMs, 0, 60_000)) {
        throw new Error('trickle needs bytesPerChunk >= 1 and intervalMs 0..60000');
      }
      return { kind: 'trickle', bytesPerChunk: Math.floor(v.bytesPerChunk), intervalMs: v.intervalMs };
    case 'reset':
    case 'truncated':
    case 'hang':
    case 'wrongTypes':
    case 'notJson':
    case 'badContentType':
    case 'protoPollution':
      return { kind: v.kind };
    default:
      throw new Error(`unknown fault kind '${String(v.kind).slice(0, 40)}'`);
  }
}

export function parseFaultRule(v: unknown): FaultRule {
  if (!isObj(v)) throw new Error('fault rule must be an object');
  const rule: FaultRule = { fault: parseFault(v.fault) };
  if (v.count !== undefined) {
    if (v.count !== -1 && v.count !== Infinity && !num(v.count, 1, 1e9))
      throw new Error('count must be >= 1, or -1 for always');
    rule.count = v.count;
  }
  if (v.path !== undefined) {
    if (typeof v.path !== 'string' || v.path.length > 500)
      throw new Error('path must be a regex source string');
    new RegExp(v.path);
    rule.path = v.path;
  }
  return rule;
}

/**
 * The real answer with its field types broken: numbers become strings, arrays become
 * objects keyed by index, and objects below the records become null (every other one).
 * The envelope (`success`, the data key) keeps its shape so the damage is inside records.
 */
export function breakTypes(body: unknown): unknown {
  if (!isObj(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === 'success' || k === 'message') out[k] = v;
    else if (Array.isArray(v)) out[k] = v.map((item) => breakValue(item, 0));
    else out[k] = breakValue(v, 0);
  }
  return out;
}

function breakValue(v: unknown, depth: number): unknown {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) {
    const o: Record<string, unknown> = {};
    v.forEach((item, i) => (o[String(i)] = breakValue(item, depth + 1)));
    return o;
  }
  if (isObj(v)) {
    const o: Record<string, unknown> = {};
    let n = 0;
    for (const [k, x] of Object.entries(v)) {
      if (isObj(x) && depth >= 0 && n++ % 2 === 0) o[k] = null;
      else o[k] = breakValue(x, depth + 1);
    }
    return o;
  }
  return v;
}

/** The real answer with `__proto__` and `constructor` keys injected at several levels. */
export function pollute(body: unknown, depth = 0): unknown {
  if (Array.isArray(body)) return body.map((x, i) => (i < 3 ? pollute(x, depth + 1) : x));
  if (!isObj(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) out[k] = depth < 4 ? pollute(v, depth + 1) : v;
  // defineProperty creates an own, enumerable "__proto__" key, which JSON.stringify emits.
  Object.defineProperty(out, '__proto__', {
    value: { polluted: true, isAdmin: true, toString: 'pwned' },
    enumerable: true,
    writable: true,
    configurable: true,
  });
  Object.defineProperty(out, 'constructor', {
    value: { prototype: { polluted: true } },
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return out;
}

export const HTML_ERROR_PAGE = (status: number): string =>
  `<!DOCTYPE html>\n<html lang="en-US"><head><title>${status} | api.odin.io | Cloudflare</title>` +
  `<meta charset="UTF-8"/><meta name="robots" content="noindex, nofollow"/></head>` +
  `<body><div id="cf-error-details"><h1>Error ${status}</h1><p>The web server reported an error.</p>` +
  `<p>Ray ID: 8f1c2d3e4a5b6c7d &bull; Performance &amp; security by Cloudflare</p></div></body></html>\n`;
