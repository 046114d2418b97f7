// Strict textual IP parsing and canonical formatting. Shared by the detector and the privacy
// classifier so that both sides agree on what an address is.
//
// Strict means: IPv4 is exactly four decimal parts 0-255 without leading zeros (no octal, hex,
// short forms or plain integers: lenient parsers caused SSRF bugs in node `ip`, `netmask` and
// Python). IPv6 follows RFC 4291 section 2.2 (groups of 1-4 hex digits, one `::`, an optional
// dotted IPv4 tail); zone ids are handled by the callers.

/** Parses `s.slice(from, to)` as a strict dotted-quad; returns the address as a uint32 or -1. */
export function parseIPv4At(s: string, from: number, to: number): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let parts = 0;
  let leadingZero = false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digits === 0) leadingZero = c === 48;
      else if (leadingZero || digits === 3) return -1;
      part = part * 10 + (c - 48);
      digits++;
    } else if (c === 46) {
      if (digits === 0 || part > 255 || parts === 3) return -1;
      value = value * 256 + part;
      parts++;
      part = 0;
      digits = 0;
    } else {
      return -1;
    }
  }
  if (digits === 0 || part > 255 || parts !== 3) return -1;
  return value * 256 + part;
}

export function parseIPv4(s: string): number {
  return parseIPv4At(s, 0, s.length);
}

export function formatIPv4(n: number): string {
  return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/**
 * Parses `s.slice(from, to)` as an IPv6 address (no zone, no brackets) into eight 16-bit groups,
 * or returns undefined. Linear in the input, no regular expressions.
 */
export function parseIPv6At(s: string, from: number, to: number): Uint16Array | undefined {
  const groups = new Uint16Array(8);
  return parseIPv6Into(s, from, to, groups) ? groups : undefined;
}

/** As parseIPv6At, writing into `groups` (the scanner reuses one buffer); false if invalid. */
export function parseIPv6Into(s: string, from: number, to: number, groups: Uint16Array): boolean {
  return parseIPv6Groups(s, from, to, groups) !== undefined;
}

function parseIPv6Groups(s: string, from: number, to: number, groups: Uint16Array): Uint16Array | undefined {
  if (to - from < 2 || to - from > 45) return undefined;
  groups.fill(0);
  let n = 0; // groups written
  let gap = -1; // index in `groups` where `::` sits
  let i = from;
  if (s.charCodeAt(i) === 58) {
    if (s.charCodeAt(i + 1) !== 58) return undefined;
    gap = 0;
    i += 2;
    if (i === to) return groups; // "::"
  }
  for (;;) {
    // One group, or a dotted IPv4 tail.
    const start = i;
    let v = 0;
    while (i < to && i - start < 5) {
      const h = hexValue(s.charCodeAt(i));
      if (h < 0) break;
      v = v * 16 + h;
      i++;
    }
    if (i < to && s.charCodeAt(i) === 46) {
      // IPv4 tail: must be last and fit in the remaining two groups.
      if (n > 6) return undefined;
      const v4 = parseIPv4At(s, start, to);
      if (v4 < 0) return undefined;
      groups[n++] = v4 >>> 16;
      groups[n++] = v4 & 0xffff;
      i = to;
      break;
    }
    const len = i - start;
    if (len === 0 || len > 4 || n === 8) return undefined;
    groups[n++] = v;
    if (i === to) break;
    if (s.charCodeAt(i) !== 58) return undefined;
    i++;
    if (i < to && s.charCodeAt(i) === 58) {
      if (gap >= 0) return undefined;
      gap = n;
      i++;
      if (i === to) break;
    } else if (i === to) {
      return undefined; // trailing single colon
    }
  }
  if (gap < 0) return n === 8 ? groups : undefined;
  if (n === 8) return undefined; // `::` must stand for at least one group
  // Move the groups after the gap to the end.
  const tail = n - gap;
  for (let k = 0; k < tail; k++) {
    groups[7 - k] = groups[n - 1 - k];
    groups[n - 1 - k] = 0;
  }
  for (let k = gap; k < 8 - tail; k++) groups[k] = 0;
  return groups;
}

export function parseIPv6(s: string): Uint16Array | undefined {
  return parseIPv6At(s, 0, s.length);
}

/** `v.toString(16)` for every 16-bit value is slow in V8; two byte tables are not. */
const HEX_BYTE: string[] = [];
const HEX_BYTE2: string[] = [];
for (let v = 0; v < 256; v++) {
  HEX_BYTE.push(v.toString(16));
  HEX_BYTE2.push(v.toString(16).padStart(2, '0'));
}

function hexGroup(v: number): string {
  return v < 256 ? HEX_BYTE[v] : HEX_BYTE[v >>> 8] + HEX_BYTE2[v & 255];
}

/** RFC 5952 text: lower case, no leading zeros, the longest run (>= 2) of zero groups as `::`. */
export function formatIPv6(g: Uint16Array): string {
  // IPv4-mapped addresses keep the dotted tail (RFC 5952 section 5).
  if (g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff) {
    return `::ffff:${formatIPv4(((g[6] << 16) | g[7]) >>> 0)}`;
  }
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  let out = '';
  for (let k = 0; k < 8; k++) {
    if (k === bestStart) {
      out += '::';
      k += bestLen - 1;
      continue;
    }
    if (k > 0 && k !== bestStart + bestLen) out += ':';
    out += hexGroup(g[k]);
  }
  return out;
}

/** IPv6 groups as a 128-bit bigint (for prefix arithmetic in the privacy classifier). */
export function ipv6ToBigInt(g: Uint16Array): bigint {
  let v = 0n;
  for (let i = 0; i < 8; i++) v = (v << 16n) | BigInt(g[i]);
  return v;
}

export function bigIntToIPv6(v: bigint): Uint16Array {
  const g = new Uint16Array(8);
  for (let i = 7; i >= 0; i--) {
    g[i] = Number(v & 0xffffn);
    v >>= 16n;
  }
  return g;
}

/** A zone id as written; inside brackets, `25eth0` is the URL-encoded form (`%25`) of `eth0`. */
export function zoneValue(zone: string, inBrackets: boolean): string {
  return inBrackets && zone.length > 2 && zone.startsWith('25') ? zone.slice(2) : zone;
}

/** Canonical text of any strict IPv4 or IPv6 literal (zone kept as written), or undefined. */
export function canonicalIp(s: string): string | undefined {
  const v4 = parseIPv4(s);
  if (v4 >= 0) return formatIPv4(v4);
  const pct = s.indexOf('%');
  const addr = pct >= 0 ? s.slice(0, pct) : s;
  const zone = pct >= 0 ? s.slice(pct) : '';
  if (pct >= 0 && !/^%[0-9A-Za-z_.~-]{1,64}$/.test(zone)) return undefined;
  const g = parseIPv6(addr);
  return g ? formatIPv6(g) + zone : undefined;
}
