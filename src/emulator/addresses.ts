/** The emulator's address space: special-purpose IPv4 ranges, random public addresses, rDNS names. */
import { ASNS, type AsnSpec, type CitySpec } from './catalog';
import type { Rng } from './random';

// ---------------------------------------------------------------- special-purpose IPv4 ranges

const SPECIAL_V4: [number, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
].map(([a, len]) => [v4ToInt(a as string), len as number]);

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
}

/** True if the IPv4 address is in a special-purpose (not globally routable) range. */
export function isSpecialIPv4(ip: string): boolean {
  const n = v4ToInt(ip);
  return SPECIAL_V4.some(
    ([base, len]) => Math.floor(n / 2 ** (32 - len)) === Math.floor(base / 2 ** (32 - len)),
  );
}

export function rdnsName(rng: Rng, asn: AsnSpec, ip: string, city: CitySpec): string {
  const dashed = ip.replace(/[.:]/g, '-');
  const rev = ip.split('.').reverse().join('.');
  switch (asn.rdns) {
    case 'aws':
      return `ec2-${dashed}.${city.cc === 'US' ? 'us-east-2' : 'eu-west-1'}.compute.amazonaws.com`;
    case 'hetzner':
      return `static.${rev}.clients.your-server.de`;
    case 'linode':
      return `li${rng.int(100, 2200)}-${rng.int(1, 254)}.members.linode.com`;
    case 'ovh':
      return `ns${rng.int(3000000, 3299999)}.ip-${ip.split('.').slice(0, 3).join('-')}.eu`;
    case 'google':
      return `${rev}.bc.googleusercontent.com`;
    case 'isp':
      return `${dashed}.static.${asn.org.split(/[\s,.]+/)[0].toLowerCase()}-isp.net`;
    default:
      return '';
  }
}

export function randomIPv4(rng: Rng, asn: AsnSpec): string {
  for (;;) {
    const ip = `${rng.pick(asn.prefixes)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
    if (!isSpecialIPv4(ip)) return ip;
  }
}

const V6_PREFIXES: Record<string, string> = {
  AS13335: '2606:4700',
  AS24940: '2a01:4f8',
  AS16509: '2600:1f18',
  AS14061: '2a03:b0c0',
  AS15169: '2001:4860',
  AS63949: '2600:3c00',
  AS16276: '2001:41d0',
};

/** How often each network is picked for a random host. */
export const ASN_WEIGHTS = ASNS.map((a) => a.weight);
const asnByNumber = new Map(ASNS.map((a) => [a.number, a]));

export function randomIPv6(rng: Rng): { ip: string; asn: AsnSpec } {
  const number = rng.pick(Object.keys(V6_PREFIXES));
  const asn = asnByNumber.get(number) ?? ASNS[0];
  const seg = (): string => rng.int(1, 0xffff).toString(16);
  return { ip: `${V6_PREFIXES[number]}:${seg()}:${seg()}::${seg()}`, asn };
}
