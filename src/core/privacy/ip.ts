// IP and CIDR classification: longest-prefix match over the IANA registry table, with
// IPv4-mapped, NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses classified by the IPv4
// address they embed.
import { bigIntToIPv6, formatIPv4, formatIPv6, ipv6ToBigInt, parseIPv4, parseIPv6 } from '../detect/ip';
import { IPV4_ROWS, IPV6_ROWS, type RegistryRow } from './registry';

export interface Classification {
  /** True if the value may be sent to the lookup API (a globally reachable address / public name). */
  global: boolean;
  /** Why: the registry row name and RFC, e.g. "Private-Use (RFC 1918)". */
  reason?: string;
  /** The registry row that decided, if any. */
  row?: RegistryRow;
}

/** An address block: version, network address (host bits cleared) and prefix length. */
export interface Block {
  v: 4 | 6;
  base: bigint;
  bits: number;
}

interface CompiledRow extends Block {
  row: RegistryRow;
}

const width = (v: 4 | 6): bigint => (v === 4 ? 32n : 128n);

function mask(v: 4 | 6, base: bigint, bits: number): bigint {
  const host = width(v) - BigInt(bits);
  return (base >> host) << host;
}

/** True if block `outer` contains block `inner` (same version, shorter or equal prefix). */
export function blockContains(outer: Block, inner: Block): boolean {
  return (
    outer.v === inner.v && outer.bits <= inner.bits && mask(inner.v, inner.base, outer.bits) === outer.base
  );
}

export function blocksOverlap(a: Block, b: Block): boolean {
  return blockContains(a, b) || blockContains(b, a);
}

/** Strict address (zone id dropped) → /32 or /128 block. */
export function parseAddress(s: string): Block | undefined {
  const a = parseIPv4(s);
  if (a >= 0) return { v: 4, base: BigInt(a), bits: 32 };
  const pct = s.indexOf('%');
  const g = parseIPv6(pct >= 0 ? s.slice(0, pct) : s);
  return g ? { v: 6, base: ipv6ToBigInt(g), bits: 128 } : undefined;
}

/** Strict `address/prefix` (prefix without leading zeros, in range); host bits are cleared. */
export function parseCidr(s: string): Block | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const prefix = s.slice(slash + 1);
  if (!/^(0|[1-9][0-9]{0,2})$/.test(prefix)) return undefined;
  const addr = parseAddress(s.slice(0, slash));
  const bits = Number(prefix);
  if (!addr || bits > (addr.v === 4 ? 32 : 128)) return undefined;
  return { v: addr.v, base: mask(addr.v, addr.base, bits), bits };
}

/** An address or a CIDR block. */
export function parseBlock(s: string): Block | undefined {
  return s.includes('/') ? parseCidr(s) : parseAddress(s);
}

export function formatBlock(b: Block): string {
  const addr = b.v === 4 ? formatIPv4(Number(b.base)) : formatIPv6(bigIntToIPv6(b.base));
  return b.bits === (b.v === 4 ? 32 : 128) ? addr : `${addr}/${b.bits}`;
}

const COMPILED: readonly CompiledRow[] = [...IPV4_ROWS, ...IPV6_ROWS].map((row) => {
  const b = parseCidr(row.block);
  if (!b) throw new Error(`bad registry block ${row.block}`);
  return { ...b, row };
});

function describe(row: RegistryRow): string {
  return `${row.name} (${row.rfc})`;
}

function mostSpecificContaining(b: Block): CompiledRow | undefined {
  let best: CompiledRow | undefined;
  for (const r of COMPILED) if (blockContains(r, b) && (!best || r.bits > best.bits)) best = r;
  return best;
}

/**
 * The IPv4 block embedded in an IPv6 block under an embedding row, or undefined if the IPv6
 * block is too wide to pin the embedded bits down.
 */
function embeddedBlock(kind: NonNullable<RegistryRow['embedded']>, b: Block): Block | undefined {
  if (kind === '6to4') {
    // 2002:AABB:CCDD::/48 embeds AA.BB.CC.DD in bits 16-47.
    if (b.bits < 16) return undefined;
    const v4bits = Math.min(b.bits, 48) - 16;
    return { v: 4, base: mask(4, (b.base >> 80n) & 0xffffffffn, v4bits), bits: v4bits };
  }
  // ::ffff:a.b.c.d and 64:ff9b::a.b.c.d embed the IPv4 address in the last 32 bits.
  if (b.bits < 96) return undefined;
  return { v: 4, base: b.base & 0xffffffffn, bits: b.bits - 96 };
}

/** Classifies a block: global only if every address in it is globally reachable. */
export function classifyBlock(b: Block): Classification {
  // Any non-global row strictly inside the block makes the block non-global.
  for (const r of COMPILED) {
    if (r.v !== b.v || r.bits <= b.bits || !blockContains(b, r)) continue;
    if (r.row.globallyReachable !== true || r.row.embedded) {
      return { global: false, reason: `includes ${r.row.block}: ${describe(r.row)}`, row: r.row };
    }
  }
  const r = mostSpecificContaining(b);
  if (!r) return { global: true };
  if (r.row.embedded) {
    const inner = embeddedBlock(r.row.embedded, b);
    const head = describe(r.row);
    if (!inner) return { global: false, reason: `${head}: too wide to classify`, row: r.row };
    const c = classifyBlock(inner);
    const what = `${head} embedding ${formatBlock(inner)}`;
    return { global: c.global, reason: c.reason ? `${what}: ${c.reason}` : what, row: c.row ?? r.row };
  }
  return { global: r.row.globallyReachable === true, reason: describe(r.row), row: r.row };
}

/** Classifies a strict IPv4/IPv6 literal (zone id allowed and ignored). */
export function classifyIp(ip: string): Classification {
  const b = parseAddress(ip.trim());
  if (!b) return { global: false, reason: 'not a valid IP address (strict parsing)' };
  return classifyBlock(b);
}

/** Classifies a strict CIDR block: global only if every address in it is. */
export function classifyCidr(cidr: string): Classification {
  const b = parseCidr(cidr.trim());
  if (!b) return { global: false, reason: 'not a valid CIDR block (strict parsing)' };
  return classifyBlock(b);
}

/** The IPv4 address embedded in an IPv4-mapped, NAT64 or 6to4 address, if any. */
export function embeddedIPv4(b: Block): Block | undefined {
  if (b.v !== 6) return undefined;
  const r = mostSpecificContaining(b);
  if (!r?.row.embedded) return undefined;
  return embeddedBlock(r.row.embedded, b);
}
